"""The one fine-tuning loop of the torch adapters (``hf-finetune``, ``hf-seq2seq``).

:func:`train` runs epochs of seeded shuffled mini-batches: forward (the caller's ``loss`` hook), ``zero_grad``,
backward, optional gradient clipping, AdamW step, optional learning-rate schedule (:func:`lr_factor`: linear warm-up
then linear / cosine / constant). After each epoch the model is put in eval mode, the caller's ``evaluate`` hook
(dev metrics) is recorded in the history, and with ``select`` other than ``last`` the state with the strictly best
value of that metric is kept and restored at the end (NonCompSST's checkpoint selection).

Seeds: the caller seeds torch with :func:`seed_torch` *before* it builds the model (a new head's initialisation and
dropout draw from it); the loop shuffles with ``numpy.random.default_rng(seed)`` (one permutation per epoch).

Why a hand-written loop rather than ``transformers.Trainer``: the recipes reproduce reference scripts that are plain
torch loops (their shuffling, schedule and per-epoch selection), the custom heads are not ``PreTrainedModel``s,
and the loop is forty lines.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

SCHEDULES = ("linear", "cosine", "constant")


def lr_factor(step: int, steps: int, warm: int, schedule: str) -> float:
    """Learning-rate multiplier at ``step``: linear warm-up over ``warm`` steps, then the schedule.

    ``cosine`` is transformers' ``get_cosine_schedule_with_warmup`` (half a cosine down to 0).
    """
    if step < warm:
        return (step + 1) / max(1, warm)
    if schedule == "constant":
        return 1.0
    progress = (step - warm) / max(1, steps - warm)
    if schedule == "cosine":
        return max(0.0, 0.5 * (1.0 + math.cos(math.pi * progress)))
    return max(0.0, 1.0 - progress)


def seed_torch(seed: int) -> None:
    """Seed torch's generator (call before building the model: head initialisation and dropout use it)."""
    import torch

    torch.manual_seed(seed)


def adamw(model: Any, lr: float, weight_decay: float, *, decay_bias_and_norm: bool = True) -> Any:
    """AdamW over the model's parameters; ``decay_bias_and_norm=False`` exempts biases and norms from decay."""
    import torch

    if decay_bias_and_norm:
        return torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
    named = list(model.named_parameters())
    exempt = [any(k in n.lower() for k in ("bias", "norm")) for n, _ in named]
    decay = [p for (_, p), e in zip(named, exempt) if not e]
    no_decay = [p for (_, p), e in zip(named, exempt) if e]
    return torch.optim.AdamW([{"params": decay, "weight_decay": weight_decay},
                              {"params": no_decay, "weight_decay": 0.0}], lr=lr)


@dataclass(frozen=True)
class TrainResult:
    """What :func:`train` did.

    Attributes:
        history: one record per epoch: ``epoch``, ``train_loss`` (mean over items, 6 decimals) and the
            ``evaluate`` hook's metrics.
        selected_epoch: the epoch whose weights the model holds now (1-based; 0 when no epoch ran).
    """

    history: list[dict[str, Any]] = field(default_factory=list)
    selected_epoch: int = 0


def train(model: Any, n_items: int, loss: Callable[[list[int]], Any], *, optimizer: Any, epochs: int,
          batch_size: int, seed: int, schedule: str | None = None, warmup_ratio: float = 0.0,
          max_grad_norm: float = 0.0, evaluate: Callable[[], dict[str, Any]] | None = None,
          select: str = "last") -> TrainResult:
    """Fine-tune ``model`` for ``epochs`` passes over ``n_items`` training items (module docstring).

    Args:
        loss: ``loss(rows)``: the loss tensor of the training items ``rows`` (their indices, one batch).
        optimizer: e.g. :func:`adamw`.
        schedule: ``linear``, ``cosine`` or ``constant`` after ``warmup_ratio`` of the steps; None: no scheduler.
        max_grad_norm: gradient clipping (0: off).
        evaluate: the dev metrics after an epoch (model in eval mode), merged into the epoch's record.
        select: ``last``, or a metric of ``evaluate`` whose strictly best epoch is kept.
    """
    import torch

    sched = None
    if schedule is not None:
        steps = epochs * ((n_items + batch_size - 1) // batch_size)
        warm = round(warmup_ratio * steps)
        sched = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: lr_factor(s, steps, warm, schedule))
    rng = np.random.default_rng(seed)
    history: list[dict[str, Any]] = []
    best: tuple[float, int, dict[str, Any]] | None = None
    for epoch in range(epochs):
        model.train()
        total, n = 0.0, 0
        order = rng.permutation(n_items).tolist()
        for s in range(0, len(order), batch_size):
            rows = order[s:s + batch_size]
            value = loss(rows)
            optimizer.zero_grad()
            value.backward()
            if max_grad_norm > 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
            optimizer.step()
            if sched is not None:
                sched.step()
            total += float(value.detach()) * len(rows)
            n += len(rows)
        model.eval()
        rec: dict[str, Any] = {"epoch": epoch + 1, "train_loss": round(total / max(1, n), 6)}
        if evaluate is not None:
            rec.update(evaluate())
        history.append(rec)
        if select != "last" and (best is None or rec[select] > best[0]):  # strictly better (NonCompSST)
            best = (rec[select], epoch + 1, {k: v.detach().clone() for k, v in model.state_dict().items()})
    selected = epochs
    if best is not None:
        model.load_state_dict(best[2])
        selected = best[1]
    model.eval()
    return TrainResult(history, selected)


__all__ = ["SCHEDULES", "TrainResult", "adamw", "lr_factor", "seed_torch", "train"]
