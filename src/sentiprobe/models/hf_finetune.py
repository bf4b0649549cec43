"""``hf-finetune``: fine-tune a local Hugging Face checkpoint on a suite's train split.

The shared torch loop of :mod:`.finetune_loop` (AdamW, warm-up then a linear / cosine / constant schedule, gradient
clipping, seeded shuffling and head initialisation, per-epoch dev selection) on CPU or GPU (``device=auto``: CUDA
when present; the device and the dtype are in :meth:`HFFinetune.config`, hence in the cache key and the run record).

Heads (``head``):

- ``auto``: the checkpoint's own ``AutoModelForSequenceClassification`` head, re-initialised for the
  suite's labels;
- ``noncompsst``: the NonCompSST reference head (docs/protocols/noncompsst.md#training-recipe): first-token final hidden
  state -> linear (hidden -> 100) -> dropout 0.1 -> ReLU -> linear (100 -> labels) -> log-softmax, NLL
  loss; only the encoder of the checkpoint is loaded (a sentiment head it has is discarded);
- ``sentivent``: the SENTiVENT lexicon-augmented head (docs/protocols/sentivent.md#lexicon-settings): the item's lexicon
  features (``Item.features``, the columns of the feature group ``lexicon_features``: ``pol``,
  ``posnegneupol`` or ``all``, in the suite's column order) concatenated to the first-token hidden state ->
  dropout -> dense (hidden + n_features, both ways) -> tanh -> dropout -> linear to the labels; dropout =
  the encoder's hidden dropout. ``lexicon_features`` other than ``none`` implies this head.

Recipes (``recipe``) preset the paper's settings; any argument given explicitly wins:

- ``noncompsst``: head ``noncompsst``, AdamW lr 5e-6, batch 32, 5 epochs, cosine schedule with linear
  warm-up over ``warmup_ratio`` of the steps (0.1, the training script's value; the paper says 0.2: pass
  ``warmup_ratio=0.2``), after each epoch the state with the strictly best dev accuracy is kept. The
  ``sst7`` / ``noncompsst`` suites run three seeds (``--seed 1`` gives the reference's seeds 1, 2, 3).

Checkpoint selection (``select``): ``last`` epoch, or the epoch with the strictly best ``dev_accuracy`` /
``dev_macro_f1`` (falls back to the last epoch, recorded, when the suite offers no dev items).

The fine-tuned model is saved with ``save_pretrained`` (safetensors) into ``<output_dir>/ft-<key>``; a
custom head is saved beside it as ``head.safetensors``. The key hashes the base checkpoint, the
hyper-parameters, the seed, the labels, the input kind and the training items. ``output_dir`` defaults to
the directory the runner passes to :meth:`HFFinetune.set_workdir`, else a new temporary directory. The
fitted state is ``({"checkpoint": dir, "weights_sha256": ..., "head": ..., ...}, {})``: no arrays, no pickles.

``save_to=DIR`` also copies the fine-tuned checkpoint (weights, config with the suite's labels as ``id2label``,
tokenizer) to ``DIR``, a name the user chose, so ``hf-classifier`` can evaluate it on other suites
(``--model-arg path=DIR``); only the ``auto`` head is a checkpoint ``hf-classifier`` loads, so the custom heads
refuse it. ``train_limit=N`` fine-tunes on a seeded sample of N training items (quick starts and smoke tests).
"""
from __future__ import annotations

import functools
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from ..core.errors import ConfigError, require
from ..core.options import option
from ..core.hashing import stable_hash
from ..core.types import Item, Prediction
from .assets import (checkpoint_identity, files_hash, minilm_dir, resolve_device, set_threads, verified_checkpoint,
                     weight_files)
from .base import MODELS, State
from .finetune_loop import SCHEDULES, adamw, seed_torch
from .finetune_loop import lr_factor  # noqa: F401  (re-exported: the schedule's documented home until 0.1)
from .finetune_loop import train as train_loop
from .hf import EXTRA, HFClassifier
from .lexicon import FEATURE_GROUPS, feature_group_columns, lexicon_matrix
from .utils import NotFittedError, labelled, predictions_from_proba

HEADS = ("auto", "noncompsst", "sentivent")
SELECTIONS = ("last", "dev_accuracy", "dev_macro_f1")
LEXICON_GROUPS = ("none", *FEATURE_GROUPS)
DEFAULTS: dict[str, Any] = {"epochs": 3, "lr": 5e-5, "batch_size": 16, "warmup_ratio": 0.1, "schedule": "linear",
                            "select": "last", "head": "auto"}
RECIPES: dict[str, dict[str, Any]] = {
    "none": {},
    "noncompsst": {"head": "noncompsst", "lr": 5e-6, "batch_size": 32, "epochs": 5, "schedule": "cosine",
                   "warmup_ratio": 0.1, "select": "dev_accuracy"},
}


def _given(value: Any) -> bool:
    return value is not None and not (isinstance(value, str) and value.strip().lower() in ("", "none", "default"))


@functools.cache
def _headed_class() -> type:
    """``torch.nn.Module`` of an encoder with a custom head (built lazily: torch is an extra)."""
    import torch

    class Headed(torch.nn.Module):
        def __init__(self, encoder: Any, kind: str, n_labels: int, n_features: int, dropout: float) -> None:
            super().__init__()
            self.encoder = encoder
            hidden = int(encoder.config.hidden_size)
            nn = torch.nn
            if kind == "noncompsst":
                self.head = nn.Sequential(nn.Linear(hidden, 100), nn.Dropout(0.1), nn.ReLU(), nn.Linear(100, n_labels))
            else:
                w = hidden + n_features
                self.head = nn.Sequential(nn.Dropout(dropout), nn.Linear(w, w), nn.Tanh(), nn.Dropout(dropout),
                                          nn.Linear(w, n_labels))

        def forward(self, features: Any = None, **batch: Any) -> Any:
            h = self.encoder(**batch).last_hidden_state[:, 0]
            if features is not None:
                h = torch.cat([h, features.to(h.dtype)], dim=-1)
            return self.head(h)

    return Headed


class HFFinetune(HFClassifier):
    """Fine-tunes ``path`` for the suite's labels, then classifies with the fine-tuned model."""

    name = "hf-finetune"
    learns = True

    def label_mapping(self, labels: Sequence[str]) -> dict[str, Any] | None:
        """None: the fine-tuned head's classes are the suite's labels (the base checkpoint's are not used)."""
        return None

    def __init__(self, path: str | None = None, recipe: str = "none", head: str | None = None,
                 epochs: int | str | None = None, lr: float | str | None = None, batch_size: int | str | None = None,
                 seed: int | None = None, max_length: int = 128, weight_decay: float = 0.01,
                 warmup_ratio: float | str | None = None, schedule: str | None = None, select: str | None = None,
                 max_grad_norm: float = 1.0, lexicon_features: str = "none", output_dir: str | None = None,
                 device: str = "auto", threads: int | None = None, allow_pickle: bool = False,
                 train_limit: int | None = None, save_to: str | None = None) -> None:
        """Arguments as :class:`HFFinetuneOptions` declares them (``MODELS.create`` parses and checks them); an
        unset recipe argument (None or ``default``) takes the recipe's value."""
        if path is None or str(path).strip().lower() in ("", "none", "minilm"):
            path = str(minilm_dir())  # the packaged all-MiniLM-L6-v2: fine-tuning works offline out of the box
        self.recipe = recipe
        given: dict[str, Any] = {"head": head, "epochs": epochs, "lr": lr, "batch_size": batch_size,
                                 "warmup_ratio": warmup_ratio, "schedule": schedule, "select": select}
        v = {k: (x if _given(x) else RECIPES[self.recipe].get(k, DEFAULTS[k])) for k, x in given.items()}
        super().__init__(path=path, batch_size=v["batch_size"], max_length=max_length,
                         device=resolve_device(device, "Hugging Face models", EXTRA), threads=threads,
                         allow_pickle=allow_pickle)
        self.epochs: int = v["epochs"]
        self.lr: float = v["lr"]
        self.seed = seed
        self.weight_decay = weight_decay
        self.warmup_ratio: float = v["warmup_ratio"]
        self.schedule: str = v["schedule"]
        self.select: str = v["select"]
        self.max_grad_norm = max_grad_norm
        self.lexicon_features = lexicon_features
        self.head: str = v["head"]
        if self.lexicon_features != "none":
            if self.head == "noncompsst":
                raise ConfigError("hf-finetune: lexicon_features need the sentivent head (head=sentivent or auto)")
            self.head = "sentivent"
        elif self.head == "sentivent":
            raise ConfigError("hf-finetune: head=sentivent concatenates lexicon features: set lexicon_features "
                              "to pol, posnegneupol or all")
        self.output_dir = None if output_dir in (None, "", "none") else Path(str(output_dir))
        self.train_limit = train_limit
        self.save_to = None if save_to in (None, "", "none") else Path(str(save_to)).expanduser().absolute()
        if self.save_to is not None and self.head != "auto":
            raise ConfigError(f"hf-finetune: save_to writes a checkpoint hf-classifier loads, which needs head=auto "
                              f"(this model has head={self.head})")
        self._workdir: Path | None = None
        self.checkpoint: Path | None = None
        self._state_meta: dict[str, Any] | None = None
        self._labels: list[str] | None = None
        self.lex_columns: list[str] | None = None

    def config(self) -> dict[str, Any]:
        base = super().config()
        base.pop("label_map", None)
        return {**base, "recipe": self.recipe, "head": self.head, "epochs": self.epochs, "lr": self.lr,
                "batch_size": self.batch_size, "seed": self.seed, "optimizer": "AdamW",
                "weight_decay": self.weight_decay, "warmup_ratio": self.warmup_ratio, "schedule": self.schedule,
                "select": self.select, "max_grad_norm": self.max_grad_norm,
                "lexicon_features": self.lexicon_features, "device": self.device, "dtype": "float32",
                **({"train_limit": self.train_limit} if self.train_limit is not None else {}),
                **({"save_to": str(self.save_to)} if self.save_to is not None else {})}

    def set_workdir(self, path: Path) -> None:
        """Checkpoints go to ``path`` unless ``output_dir`` was given."""
        self._workdir = Path(path)

    request_uses_state = True  # the request lists the lexicon columns chosen at fit time

    def request(self, item: Item, labels: Sequence[str], input_kind: str) -> dict[str, Any]:
        d = super().request(item, labels, input_kind)
        if self.lexicon_features != "none":  # the features are an input of the lexicon head
            f = item.features if isinstance(item.features, dict) else {}
            d["features"] = [f.get(c) for c in (self.lex_columns or sorted(f))]
        return d

    def _ensure_loaded(self) -> None:
        if self._model is None:
            raise NotFittedError("hf-finetune: call fit() or load_state() before classify()")

    # ---- models --------------------------------------------------------------------------------
    def _build_custom(self, d: Path, n_labels: int, n_features: int) -> None:
        """Tokenizer + encoder of ``d`` (any head it has is dropped) + a new custom head."""
        require("torch", EXTRA, "Hugging Face models")
        tr = require("transformers", EXTRA, "Hugging Face models")
        set_threads(self.threads, EXTRA)
        _, safe = weight_files(d, self.allow_pickle)
        self._tok = tr.AutoTokenizer.from_pretrained(str(d), local_files_only=True)
        enc = tr.AutoModel.from_pretrained(str(d), local_files_only=True, use_safetensors=safe,
                                           **({} if safe else {"weights_only": True}))
        cfg = enc.config
        dropout = float(getattr(cfg, "hidden_dropout_prob", getattr(cfg, "dropout", 0.1)) or 0.0)
        self._model = _headed_class()(enc, self.head, n_labels, n_features, dropout).to(self.device)

    def _features(self, items: Sequence[Item]) -> np.ndarray | None:
        if self.head != "sentivent":
            return None
        if self.lex_columns is None:
            raise NotFittedError("hf-finetune: no lexicon columns (not fitted)")
        return lexicon_matrix(items, self.lex_columns, self.name)

    def _logits(self, batch: dict[str, Any], feats: np.ndarray | None, rows: Sequence[int]) -> Any:
        import torch

        if self.head == "auto":
            return self._model(**batch).logits
        f = None if feats is None else torch.as_tensor(feats[list(rows)], dtype=torch.float32, device=self.device)
        return self._model(features=f, **batch)

    def _proba(self, items: Sequence[Item], input_kind: str) -> np.ndarray:
        import torch

        self._ensure_loaded()
        firsts, seconds = self._inputs(items, input_kind)
        feats = self._features(items)
        out = np.zeros((len(items), len(self._classes())))
        with torch.inference_mode():
            for rows, batch in self._batches(firsts, seconds):
                out[rows] = torch.softmax(self._logits(batch, feats, rows).float(), dim=-1).cpu().numpy()
        return out

    def _classes(self) -> list[str]:
        if self._labels is not None:
            return self._labels
        return [str(self._model.config.id2label[i]) for i in range(self._model.config.num_labels)]

    # ---- training ------------------------------------------------------------------------------
    def fit(self, train: Sequence[Item], dev: Sequence[Item], labels: Sequence[str], *, input_kind: str,
            seed: int = 0) -> None:
        import torch

        tr, ys = labelled(train, labels)
        if not tr:
            raise ConfigError("hf-finetune: the training split has no labelled items")
        seed = self.seed if self.seed is not None else int(seed)
        labels = list(labels)
        if self.train_limit is not None and len(tr) > self.train_limit:
            keep = sorted(np.random.default_rng(seed).choice(len(tr), self.train_limit, replace=False).tolist())
            tr, ys = [tr[i] for i in keep], [ys[i] for i in keep]
        seed_torch(seed)
        if self.head == "sentivent":
            first = next((it for it in tr if isinstance(it.features, dict)), None)
            if first is None:
                raise ConfigError("hf-finetune: lexicon_features is set but the training items carry no lexicon "
                                  "features (use sentivent-polar / sentivent-clause with a lexicon setting)")
            self.lex_columns = feature_group_columns(list(first.features or {}), self.lexicon_features)
            if not self.lex_columns:
                raise ConfigError(f"hf-finetune: no lexicon feature matches group {self.lexicon_features!r}")
        if self.head == "auto":
            self._labels = None
            self._load_from(self.path, new_head=True, num_labels=len(labels), id2label=dict(enumerate(labels)),
                            label2id={lab: i for i, lab in enumerate(labels)}, ignore_mismatched_sizes=True)
        else:
            self._labels = labels
            self._build_custom(self.path, len(labels), len(self.lex_columns or []))
        model = self._model
        feats = self._features(tr)
        y = torch.tensor([labels.index(v) for v in ys])
        firsts, seconds = self._inputs(tr, input_kind)

        def loss(rows: list[int]) -> Any:
            batch = self._encode([firsts[r] for r in rows], [seconds[r] for r in rows])
            logits = self._logits(batch, feats, rows)
            return torch.nn.functional.cross_entropy(logits.float(), y[rows].to(self.device))

        dv, dys = labelled(dev, labels, "dev")

        def evaluate() -> dict[str, Any]:
            from sklearn.metrics import f1_score

            pred = np.array(labels)[self._proba(dv, input_kind).argmax(1)]
            return {"dev_accuracy": round(float(np.mean(pred == np.array(dys))), 6),
                    "dev_macro_f1": round(float(f1_score(dys, pred, average="macro", zero_division=0)), 6)}

        select = self.select if dv or self.select == "last" else "last"
        result = train_loop(model, len(tr), loss, optimizer=adamw(model, self.lr, self.weight_decay,
                                                                  decay_bias_and_norm=False),
                            epochs=self.epochs, batch_size=self.batch_size, seed=seed, schedule=self.schedule,
                            warmup_ratio=self.warmup_ratio, max_grad_norm=self.max_grad_norm,
                            evaluate=evaluate if dv else None, select=select)
        history, selected = result.history, result.selected_epoch
        sel = {"rule": select if select == self.select else f"last (no dev items for {self.select})",
               "epoch": selected}
        self._save(tr, labels, seed, history, input_kind, sel)

    def _save(self, tr: Sequence[Item], labels: list[str], seed: int, history: list[dict[str, Any]],
              input_kind: str, selection: dict[str, Any]) -> None:
        key = stable_hash({"config": self.config(), "seed": seed, "labels": labels, "input_kind": input_kind,
                           "train": [[it.text, it.text_pair, it.aspect, it.span, it.label, it.features]
                                     for it in tr]}, 16)
        root = self.output_dir or self._workdir or Path(tempfile.mkdtemp(prefix="sentiprobe-hf-finetune-"))
        out = root / f"ft-{key}"
        out.mkdir(parents=True, exist_ok=True)
        head: dict[str, Any] | None = None
        if self.head == "auto":
            self._model.save_pretrained(str(out))
        else:
            from safetensors.torch import save_file

            self._model.encoder.save_pretrained(str(out))
            save_file({k: v.detach().cpu().contiguous() for k, v in self._model.head.state_dict().items()},
                      str(out / "head.safetensors"))
            head = {"kind": self.head, "labels": labels, "columns": list(self.lex_columns or [])}
        self._tok.save_pretrained(str(out))
        weights, safe = weight_files(out)
        if not safe:  # save_pretrained writes safetensors; refuse to leave a pickle behind
            raise ConfigError(f"hf-finetune: {out} was not written as safetensors")
        self.checkpoint = out
        self.fitted_input_kind = input_kind
        self._state_meta = {"checkpoint": str(out), "weights_sha256": files_hash(weights), "labels": labels,
                            "input_kind": input_kind, "seed": seed, "history": history, "selection": selection,
                            "head": head, "n_train": len(tr)}
        self._export()

    def _export(self) -> None:
        """Copy the fine-tuned checkpoint to ``save_to`` (the files ``hf-classifier`` loads). One destination
        holds one model: a second suite fine-tuned by this process into the same ``save_to`` is refused."""
        if self.save_to is None or self.checkpoint is None:
            return
        key = self.checkpoint.name
        owner = _EXPORTED.setdefault(str(self.save_to), key)
        if owner != key:
            raise ConfigError(f"hf-finetune: save_to={self.save_to} already holds the model fine-tuned on another "
                              "suite of this run; fine-tune one suite per save_to directory")
        self.save_to.mkdir(parents=True, exist_ok=True)
        for f in self.checkpoint.iterdir():
            if f.is_file():
                shutil.copy2(f, self.save_to / f.name)

    # ---- state ---------------------------------------------------------------------------------
    def get_state(self) -> State | None:
        return (dict(self._state_meta), {}) if self._state_meta is not None else None

    def load_state(self, state: State) -> None:
        meta, _ = state
        d = verified_checkpoint("hf-finetune", meta)
        try:
            labels, kind = list(meta["labels"]), str(meta["input_kind"])
        except KeyError as exc:
            raise ConfigError(f"hf-finetune: fitted state lacks {exc.args[0]!r}") from None
        head = meta.get("head")
        if (head or {}).get("kind", "auto") != self.head:
            raise ConfigError(f"hf-finetune: the fitted state has head {(head or {}).get('kind', 'auto')!r}, "
                              f"this model head={self.head}")
        if head is None:
            self._labels = None
            self._load_from(d)
            names = self._classes()
        else:
            from safetensors.torch import load_file

            self.lex_columns = list(head.get("columns") or []) or None
            self._build_custom(d, len(labels), len(self.lex_columns or []))
            self._model.head.load_state_dict(load_file(str(d / "head.safetensors")))
            self._model.eval()
            self._labels = names = list(head["labels"])
        if names != labels:
            raise ConfigError(f"hf-finetune: checkpoint labels {names} differ from the state's {labels}")
        self.checkpoint = d
        self.fitted_input_kind = kind  # what the model was trained on
        self._state_meta = dict(meta)
        self._export()

    def classify(self, items: Sequence[Item], labels: Sequence[str], input_kind: str) -> list[Prediction]:
        self._ensure_loaded()
        self.check_input_kind(input_kind)
        if not items:
            return []
        return predictions_from_proba(items, self._proba(items, input_kind), self._classes(), labels, self.name)

    def checkpoint_identity(self) -> dict[str, Any] | None:
        """Identity of the fine-tuned checkpoint (``None`` before fitting)."""
        return checkpoint_identity(self.checkpoint) if self.checkpoint else None


_EXPORTED: dict[str, str] = {}
"""``save_to`` directory -> the fine-tuned checkpoint this process copied there."""

Unset = Literal["default"]
"""``default`` (or unset): the recipe's value."""


@dataclass(frozen=True)
class HFFinetuneOptions:
    """``--model-arg`` of ``hf-finetune`` (an unset recipe argument takes the value of ``recipe``)."""

    path: str | None = option(None, "LOCAL checkpoint directory to fine-tune (hub ids are refused: nothing is "
                                    "downloaded); unset: the packaged all-MiniLM-L6-v2")
    recipe: str = option("none", "preset of a paper's recipe (explicit arguments win); noncompsst = head noncompsst, "
                                 "lr 5e-6, batch 32, 5 epochs, cosine, warm-up 0.1, select dev_accuracy",
                         choices=tuple(RECIPES))
    head: str | Unset | None = option(None, "auto: the checkpoint's classification head; noncompsst: first token -> "
                                            "100 -> dropout 0.1 -> ReLU -> labels; sentivent: with lexicon "
                                            "features; unset: auto (recipe noncompsst: noncompsst)", choices=HEADS)
    epochs: int | Unset | None = option(None, "passes over the training items; unset: 3 (recipe noncompsst: 5)",
                                        lo=0, hi=1000)
    lr: float | Unset | None = option(None, "AdamW peak learning rate; unset: 5e-5 (recipe noncompsst: 5e-6)",
                                      lo=0.0, lo_open=True)
    batch_size: int | Unset | None = option(None, "training and scoring batch; unset: 16 (recipe noncompsst: 32)",
                                            lo=1)
    max_length: int = option(128, "truncation length in tokens", lo=8, hi=100_000)
    seed: int | None = option(None, "head initialisation, dropout and shuffling; unset: the runner's seed", lo=0)
    weight_decay: float = option(0.01, "AdamW weight decay (not on biases and norms)", lo=0.0)
    warmup_ratio: float | Unset | None = option(None, "share of steps with linear warm-up (NonCompSST code 0.1, "
                                                      "paper 0.2); unset: 0.1", lo=0.0, hi=1.0)
    schedule: str | Unset | None = option(None, "after warm-up; unset: linear (recipe noncompsst: cosine)",
                                          choices=SCHEDULES)
    select: str | Unset | None = option(None, "the epoch kept (strictly best on dev); unset: last (recipe "
                                              "noncompsst: dev_accuracy)", choices=SELECTIONS)
    max_grad_norm: float = option(1.0, "gradient clipping (0: off)", lo=0.0)
    lexicon_features: str = option("none", "SENTiVENT lexicon feature group concatenated to the first-token state "
                                           "(sentivent head)", choices=LEXICON_GROUPS)
    output_dir: str | None = option(None, "directory for fine-tuned checkpoints; unset: checkpoints/ beside the "
                                          "run's cache, else a new temporary directory")
    device: str = option("auto", "auto (CUDA when present), cpu, cuda or cuda:N")
    threads: int | None = option(None, "torch.set_num_threads (process-wide); unset: torch's", lo=1)
    allow_pickle: bool = option(False, "accept pickle-based pytorch_model.bin when no safetensors exist")
    train_limit: int | None = option(None, "fine-tune on a seeded sample of N training items (quick starts, "
                                           "smoke tests); unset: the whole train split", lo=1)
    save_to: str | None = option(None, "also copy the fine-tuned checkpoint (safetensors, config with the suite's "
                                       "labels, tokenizer) to this directory, for hf-classifier path=DIR (head=auto; "
                                       "one suite per directory)")


MODELS.register(
    "hf-finetune", HFFinetune, tags=("hf",), options=HFFinetuneOptions,
    description="fine-tune a local Hugging Face checkpoint on the train split (torch loop; saved as safetensors); "
                "recipes: NonCompSST reference head, SENTiVENT lexicon-augmented head")
