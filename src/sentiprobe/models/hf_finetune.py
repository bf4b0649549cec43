"""``hf-finetune``: fine-tune a local Hugging Face checkpoint on a suite's train split.

A plain torch loop (AdamW, linear warm-up/decay, gradient clipping, seeded shuffling and head
initialisation) on CPU or GPU. The fine-tuned model is saved with ``save_pretrained`` (safetensors)
into ``<output_dir>/ft-<key>``, where the key hashes the base checkpoint, the hyper-parameters,
the seed, the labels, the input kind and the training items, so the same fit lands in the same
directory. ``output_dir`` defaults to the directory the runner passes to :meth:`HFFinetune.set_workdir`
(``checkpoints/`` beside the cache), else a new temporary directory. The fitted state is
``({"checkpoint": dir, "weights_sha256": ..., "input_kind": ..., ...}, {})``: no arrays, no pickles.
"""
from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import ConfigError
from ..core.hashing import stable_hash
from ..core.types import Item, Prediction
from .assets import checkpoint_identity, files_hash, minilm_dir, weight_files
from .base import MODELS, State
from .hf import _COMMON, HFClassifier
from .utils import NotFittedError, as_float, as_int, as_optional_int, labelled, predictions_from_proba


class HFFinetune(HFClassifier):
    """Fine-tunes ``path`` for the suite's labels, then classifies with the fine-tuned model."""

    name = "hf-finetune"
    learns = True

    def __init__(self, path: Any = None, epochs: Any = 3, lr: Any = 5e-5, batch_size: Any = 16, seed: Any = None,
                 max_length: Any = 128, weight_decay: Any = 0.01, warmup_ratio: Any = 0.1, output_dir: Any = None,
                 device: Any = "cpu", threads: Any = None, allow_pickle: Any = False) -> None:
        if path is None or str(path).strip().lower() in ("", "none", "minilm"):
            path = minilm_dir()  # the packaged all-MiniLM-L6-v2: fine-tuning works offline out of the box
        super().__init__(path=path, batch_size=batch_size, max_length=max_length, device=device, threads=threads,
                         allow_pickle=allow_pickle)
        self.epochs = as_int("epochs", epochs, lo=0, hi=1000)
        self.lr = as_float("lr", lr, lo=0.0, lo_open=True)
        self.seed = as_optional_int("seed", seed, lo=0)
        self.weight_decay = as_float("weight_decay", weight_decay, lo=0.0)
        self.warmup_ratio = as_float("warmup_ratio", warmup_ratio, lo=0.0, hi=1.0)
        self.output_dir = None if output_dir in (None, "", "none") else Path(str(output_dir))
        self._workdir: Path | None = None
        self.checkpoint: Path | None = None
        self._state_meta: dict[str, Any] | None = None

    def config(self) -> dict[str, Any]:
        base = super().config()
        base.pop("label_map", None)
        return {**base, "epochs": self.epochs, "lr": self.lr, "batch_size": self.batch_size, "seed": self.seed,
                "weight_decay": self.weight_decay, "warmup_ratio": self.warmup_ratio}

    def set_workdir(self, path: Path) -> None:
        """Checkpoints go to ``path`` unless ``output_dir`` was given."""
        self._workdir = Path(path)

    def _ensure_loaded(self) -> None:
        if self._model is None:
            raise NotFittedError("hf-finetune: call fit() or load_state() before classify()")

    # ---- training ------------------------------------------------------------------------------
    def fit(self, train: Sequence[Item], dev: Sequence[Item], labels: Sequence[str], *, input_kind: str,
            seed: int = 0) -> None:
        import torch

        tr, ys = labelled(train, labels)
        if not tr:
            raise ConfigError("hf-finetune: the training split has no labelled items")
        seed = self.seed if self.seed is not None else int(seed)
        labels = list(labels)
        torch.manual_seed(seed)
        self._load_from(self.path, new_head=True, num_labels=len(labels), id2label=dict(enumerate(labels)),
                        label2id={lab: i for i, lab in enumerate(labels)}, ignore_mismatched_sizes=True)
        model = self._model
        y = torch.tensor([labels.index(v) for v in ys])
        firsts, seconds = self._inputs(tr, input_kind)
        steps = self.epochs * ((len(tr) + self.batch_size - 1) // self.batch_size)
        warm = int(round(self.warmup_ratio * steps))
        decay = [p for n, p in model.named_parameters() if not any(k in n.lower() for k in ("bias", "norm"))]
        no_decay = [p for n, p in model.named_parameters() if any(k in n.lower() for k in ("bias", "norm"))]
        opt = torch.optim.AdamW([{"params": decay, "weight_decay": self.weight_decay},
                                 {"params": no_decay, "weight_decay": 0.0}], lr=self.lr)
        sched = torch.optim.lr_scheduler.LambdaLR(
            opt, lambda s: (s + 1) / max(1, warm) if s < warm else max(0.0, (steps - s) / max(1, steps - warm)))
        rng = np.random.default_rng(seed)
        history: list[dict[str, Any]] = []
        dv, dys = labelled(dev, labels, "dev")
        for epoch in range(self.epochs):
            model.train()
            total, n = 0.0, 0
            for rows, batch in self._batches(firsts, seconds, order=rng.permutation(len(tr)).tolist()):
                out = model(**batch, labels=y[rows].to(self.device))
                opt.zero_grad()
                out.loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                opt.step()
                sched.step()
                total += float(out.loss.detach()) * len(rows)
                n += len(rows)
            model.eval()
            rec: dict[str, Any] = {"epoch": epoch + 1, "train_loss": round(total / max(1, n), 6)}
            if dv:
                pred = np.array(labels)[self._proba(dv, input_kind).argmax(1)]
                rec["dev_accuracy"] = round(float(np.mean(pred == np.array(dys))), 6)
            history.append(rec)
        model.eval()
        self._save(tr, labels, seed, history, input_kind)

    def _save(self, tr: Sequence[Item], labels: list[str], seed: int, history: list[dict[str, Any]],
              input_kind: str) -> None:
        key = stable_hash({"config": self.config(), "seed": seed, "labels": labels, "input_kind": input_kind,
                           "train": [[it.text, it.text_pair, it.aspect, it.span, it.label] for it in tr]}, 16)
        root = self.output_dir or self._workdir or Path(tempfile.mkdtemp(prefix="sentiprobe-hf-finetune-"))
        out = root / f"ft-{key}"
        out.mkdir(parents=True, exist_ok=True)
        self._model.save_pretrained(str(out))
        self._tok.save_pretrained(str(out))
        weights, safe = weight_files(out)
        if not safe:  # save_pretrained writes safetensors; refuse to leave a pickle behind
            raise ConfigError(f"hf-finetune: {out} was not written as safetensors")
        self.checkpoint = out
        self.fitted_input_kind = input_kind
        self._state_meta = {"checkpoint": str(out), "weights_sha256": files_hash(weights), "labels": labels,
                            "input_kind": input_kind, "seed": seed, "history": history}

    # ---- state ---------------------------------------------------------------------------------
    def get_state(self) -> State | None:
        return (dict(self._state_meta), {}) if self._state_meta is not None else None

    def load_state(self, state: State) -> None:
        meta, _ = state
        try:
            d, expected, labels = Path(meta["checkpoint"]), meta["weights_sha256"], list(meta["labels"])
            kind = str(meta["input_kind"])
        except KeyError as exc:
            raise ConfigError(f"hf-finetune: fitted state lacks {exc.args[0]!r}") from None
        if not d.is_dir():
            raise ConfigError(f"hf-finetune: the fine-tuned checkpoint {d} no longer exists; fit again")
        weights, _ = weight_files(d)
        actual = files_hash(weights)
        if actual != expected:
            raise ConfigError(f"hf-finetune: the weights in {d} changed since fitting "
                              f"(expected {expected[:16]}..., got {actual[:16]}...); fit again")
        self._load_from(d)
        names = [str(self._model.config.id2label[i]) for i in range(self._model.config.num_labels)]
        if names != labels:
            raise ConfigError(f"hf-finetune: checkpoint labels {names} differ from the state's {labels}")
        self.checkpoint = d
        self.fitted_input_kind = kind  # what the model was trained on
        self._state_meta = dict(meta)

    def classify(self, items: Sequence[Item], labels: Sequence[str], input_kind: str) -> list[Prediction]:
        self._ensure_loaded()
        self.check_input_kind(input_kind)
        if not items:
            return []
        classes = [str(self._model.config.id2label[i]) for i in range(self._model.config.num_labels)]
        return predictions_from_proba(items, self._proba(items, input_kind), classes, labels, self.name)

    def checkpoint_identity(self) -> dict[str, Any] | None:
        """Identity of the fine-tuned checkpoint (``None`` before fitting)."""
        return checkpoint_identity(self.checkpoint) if self.checkpoint else None


MODELS.register(
    "hf-finetune", HFFinetune, tags=("hf",),
    description="fine-tune a local Hugging Face checkpoint on the train split (torch loop; saved as safetensors)",
    params={
        **_COMMON,
        "path": "str, default: the packaged all-MiniLM-L6-v2: LOCAL checkpoint directory to fine-tune "
                "(hub ids are refused: nothing is downloaded)",
        "epochs": "int, default 3: passes over the training items",
        "lr": "float, default 5e-5: AdamW learning rate (linear warm-up then decay)",
        "seed": "int, default: the runner's seed: head initialisation, dropout and shuffling",
        "weight_decay": "float, default 0.01",
        "warmup_ratio": "float in [0,1], default 0.1: share of steps with linear warm-up",
        "output_dir": "directory for fine-tuned checkpoints (default: checkpoints/ beside the run's cache, "
                      "else a new temporary directory)",
    })
