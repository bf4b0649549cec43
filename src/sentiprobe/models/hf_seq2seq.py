"""``hf-seq2seq``: the SOUL paper's text-to-text recipe (T5 / Flan-T5) on a LOCAL checkpoint.

docs/protocols/soul.md#text-to-text, #training-recipe, #jg-fine-tuning (the reference ``slm.py``):

- source string ``"Review:\\n{review}\\n\\nStatement:\\n{statement}"`` (:data:`SOURCE_TEMPLATE`, the same
  string as the SOUL suite's ``seq2seq-source`` prompt template, which the SOUL predict stage sends);
- target: the label word (``task=rc``), or ``"Label:\\n{label}\\nJustification:\\n{justification}"``
  (``task=jg``, :data:`JG_TARGET_TEMPLATE`), the justification read from ``Item.meta["justification"]``;
- both truncated at ``max_length`` (512) **from the right**; the number of truncated sources and targets is
  logged and kept in the fitted state. Batches are padded to their longest member rather than to 512
  (the masked positions change nothing but the run time); target pads are set to -100 for the loss;
- AdamW at a constant learning rate (the shared loop of :mod:`.finetune_loop` without a schedule): no warm-up,
  no scheduler, no clipping, no accumulation; the data
  is reshuffled every epoch (seeded); the model after the **last** epoch is kept (no selection). The code's
  defaults are lr 1e-4, batch 8, 8 epochs; the paper averages seeds 0, 1 and 42 (run the model once per
  seed: ``--seed``);
- greedy decoding (one beam, no sampling), at most ``max_new_tokens`` (512) new tokens, special tokens
  skipped. The SOUL predict stage extracts the label with docs/protocols/soul.md#label-extraction (and for JG the
  justification with docs/protocols/soul.md#justification-extraction) and keeps the raw decoded text
  (``Prediction.raw``).

The fitted model is written with ``save_pretrained`` (safetensors) under ``<output_dir>/s2s-<key>``; the
fitted state is that path and its weights hash (no arrays, nothing pickled). Nothing is downloaded:
``path`` must be a local directory (``config.json``, safetensors weights, a tokenizer).
"""
from __future__ import annotations

import logging
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, require
from ..core.options import option
from ..core.hashing import stable_hash
from ..core.types import Item
from .assets import (checkpoint_identity, files_hash, local_dir, resolve_device, set_threads, verified_checkpoint,
                     weight_files)
from .base import MODELS, ModelAdapter, State
from .finetune_loop import adamw, seed_torch
from .finetune_loop import train as train_loop
from .utils import labelled

log = logging.getLogger("sentiprobe")
EXTRA = "hf"

SOURCE_TEMPLATE = "Review:\n{review}\n\nStatement:\n{statement}"
JG_TARGET_TEMPLATE = "Label:\n{label}\nJustification:\n{justification}"
TASKS = ("rc", "jg")
DTYPES = ("float32", "bfloat16", "float16")


def source_text(item: Item) -> str:
    """The seq2seq source string of a SOUL item (docs/protocols/soul.md#text-to-text): review, then statement."""
    return SOURCE_TEMPLATE.format(review=item.text, statement=item.text_pair or "")


def target_text(item: Item, task: str) -> str:
    """The training target: the label (RC, docs/protocols/soul.md#text-to-text) or label + justification (JG,
    docs/protocols/soul.md#jg-target)."""
    if item.label is None:
        raise ConfigError(f"hf-seq2seq: item {item.item_id} has no label to train on")
    if task == "rc":
        return item.label
    just = item.meta.get("justification")
    if not isinstance(just, str) or not just.strip():
        raise ConfigError(f"hf-seq2seq: JG training item {item.item_id} has no meta['justification'] "
                          "(the JG target is the label and the justification, Deng et al. 2023)")
    return JG_TARGET_TEMPLATE.format(label=item.label, justification=just)


def torch_dtype(name: str) -> Any:
    import torch

    return {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[name]


class HFSeq2Seq(ModelAdapter):
    """Fine-tunes a local text-to-text checkpoint on SOUL and generates answers (module docstring)."""

    name = "hf-seq2seq"
    learns = True
    capabilities = frozenset({"generate"})
    #: read by the SOUL predict stage: generate from the seq2seq source and extract labels with
    #: docs/protocols/soul.md#label-extraction
    answer_mode = "generate"
    text_to_text = True

    def __init__(self, path: str | None = None, task: str = "rc", epochs: int = 8, lr: float = 1e-4,
                 batch_size: int = 8, eval_batch_size: int | None = None, max_length: int = 512,
                 max_new_tokens: int = 512, seed: int | None = None, weight_decay: float = 0.01,
                 output_dir: str | None = None, device: str = "auto", dtype: str = "float32",
                 threads: int | None = None, allow_pickle: bool = False) -> None:
        """Arguments as :class:`HFSeq2SeqOptions` declares them (``MODELS.create`` parses and checks them)."""
        self.path = local_dir(path, "checkpoint")
        self.task = task
        self.epochs = epochs
        self.lr = lr
        self.train_batch_size = batch_size
        # docs/protocols/soul.md#training-recipe: test batch 16 for RC, 4 for JG (decoding only; it changes no output)
        self.batch_size = eval_batch_size if eval_batch_size is not None else (16 if self.task == "rc" else 4)
        self.max_length = max_length
        self.max_new_tokens = max_new_tokens
        self.seed = seed
        self.weight_decay = weight_decay
        self.output_dir = None if output_dir in (None, "", "none") else Path(str(output_dir))
        self.device = resolve_device(device, "Hugging Face models", EXTRA)
        self.dtype = dtype
        self.threads = threads
        self.allow_pickle = allow_pickle
        _, self._safe = weight_files(self.path, self.allow_pickle)
        self._identity: dict[str, Any] | None = None
        self._workdir: Path | None = None
        self._tok: Any = None
        self._model: Any = None
        self._state_meta: dict[str, Any] | None = None

    def config(self) -> dict[str, Any]:
        if self._identity is None:
            self._identity = checkpoint_identity(self.path, self.allow_pickle)
        return {"checkpoint": self._identity, "recipe": "soul-t5 (docs/protocols/soul.md#text-to-text)",
                "task": self.task,
                "epochs": self.epochs, "lr": self.lr, "batch_size": self.train_batch_size,
                "optimizer": "AdamW", "weight_decay": self.weight_decay, "schedule": "constant, no warm-up",
                "selection": "last epoch", "max_length": self.max_length, "truncation": "right",
                "max_new_tokens": self.max_new_tokens, "decoding": "greedy", "seed": self.seed,
                "device": self.device, "dtype": self.dtype}

    def set_workdir(self, path: Path) -> None:
        self._workdir = Path(path)

    # ---- loading -------------------------------------------------------------------------------
    def _load(self, d: Path) -> None:
        require("torch", EXTRA, "Hugging Face models")
        tr = require("transformers", EXTRA, "Hugging Face models")
        set_threads(self.threads, EXTRA)
        _, safe = weight_files(d, self.allow_pickle)
        self._tok = tr.AutoTokenizer.from_pretrained(str(d), local_files_only=True)
        # docs/protocols/soul.md#text-to-text: a too-long source loses its end (the statement)
        self._tok.truncation_side = "right"
        model = tr.AutoModelForSeq2SeqLM.from_pretrained(
            str(d), local_files_only=True, use_safetensors=safe, **({} if safe else {"weights_only": True}))
        self._model = model.to(device=self.device, dtype=torch_dtype(self.dtype)).eval()

    def _ensure_loaded(self) -> None:
        if self._model is None:  # not fitted: the base checkpoint answers zero-shot
            self._load(self.path)

    def _count_truncated(self, texts: Sequence[str]) -> int:
        lengths = [len(ids) for ids in self._tok(list(texts), truncation=False)["input_ids"]]
        return sum(n > self.max_length for n in lengths)

    def _encode(self, texts: Sequence[str]) -> dict[str, Any]:
        """Token ids and attention mask only: an encoder-decoder takes no ``token_type_ids``, which some tokenizers
        return (``generate`` and the forward pass refuse them)."""
        enc = self._tok(list(texts), padding=True, truncation=True, max_length=self.max_length, return_tensors="pt")
        return {k: enc[k].to(self.device) for k in ("input_ids", "attention_mask") if k in enc}

    # ---- training ------------------------------------------------------------------------------
    def _target_ids(self, targets: Sequence[str]) -> Any:
        """Token ids of the targets, right-truncated, with pad positions set to -100
        (docs/protocols/soul.md#text-to-text: ignored)."""
        y = self._encode(targets)["input_ids"]
        return y.masked_fill(y == self._tok.pad_token_id, -100)

    def fit(self, train: Sequence[Item], dev: Sequence[Item], labels: Sequence[str], *, input_kind: str,
            seed: int = 0) -> None:
        tr, _ = labelled(train, labels)
        if not tr:
            raise ConfigError("hf-seq2seq: the training split has no labelled items")
        seed = self.seed if self.seed is not None else int(seed)
        seed_torch(seed)
        self._load(self.path)
        sources = [source_text(it) for it in tr]
        targets = [target_text(it, self.task) for it in tr]
        n_trunc_src, n_trunc_tgt = self._count_truncated(sources), self._count_truncated(targets)
        if n_trunc_src or n_trunc_tgt:
            log.warning("hf-seq2seq: %d of %d training sources and %d targets are longer than %d tokens and were "
                        "truncated from the right (Deng et al. 2023)", n_trunc_src, len(tr), n_trunc_tgt,
                        self.max_length)
        model = self._model

        def loss(rows: list[int]) -> Any:
            batch = self._encode([sources[r] for r in rows])
            y = self._target_ids([targets[r] for r in rows])
            return model(**batch, labels=y).loss

        history = train_loop(model, len(tr), loss, optimizer=adamw(model, self.lr, self.weight_decay),
                             epochs=self.epochs, batch_size=self.train_batch_size, seed=seed).history
        self._save(tr, seed, input_kind, history, {"sources": n_trunc_src, "targets": n_trunc_tgt})

    def _save(self, tr: Sequence[Item], seed: int, input_kind: str, history: list[dict[str, Any]],
              truncated: dict[str, int]) -> None:
        key = stable_hash({"config": self.config(), "seed": seed, "input_kind": input_kind,
                           "train": [[source_text(it), target_text(it, self.task)] for it in tr]}, 16)
        root = self.output_dir or self._workdir or Path(tempfile.mkdtemp(prefix="sentiprobe-hf-seq2seq-"))
        out = root / f"s2s-{key}"
        out.mkdir(parents=True, exist_ok=True)
        self._model.save_pretrained(str(out))
        self._tok.save_pretrained(str(out))
        weights, safe = weight_files(out)
        if not safe:
            raise ConfigError(f"hf-seq2seq: {out} was not written as safetensors")
        self.fitted_input_kind = input_kind
        self._state_meta = {"checkpoint": str(out), "weights_sha256": files_hash(weights), "task": self.task,
                            "input_kind": input_kind, "seed": seed, "n_train": len(tr), "history": history,
                            "truncated": truncated}

    # ---- state ---------------------------------------------------------------------------------
    def get_state(self) -> State | None:
        return (dict(self._state_meta), {}) if self._state_meta is not None else None

    def load_state(self, state: State) -> None:
        meta, _ = state
        d = verified_checkpoint("hf-seq2seq", meta)
        try:
            task, kind = str(meta["task"]), str(meta["input_kind"])
        except KeyError as exc:
            raise ConfigError(f"hf-seq2seq: fitted state lacks {exc.args[0]!r}") from None
        if task != self.task:
            raise ConfigError(f"hf-seq2seq: the fitted state is for task {task!r}, this model is task={self.task}")
        self._load(d)
        self.fitted_input_kind = kind
        self._state_meta = dict(meta)

    @property
    def fitted_task(self) -> str | None:
        """The task the fitted model was trained for (None before fitting)."""
        return None if self._state_meta is None else str(self._state_meta["task"])

    # ---- generation ----------------------------------------------------------------------------
    def generate(self, prompts: Sequence[str], **kwargs: Any) -> list[str]:
        """Greedy decoding of each source string (``max_tokens`` overrides ``max_new_tokens``)."""
        import torch

        temperature = float(kwargs.get("temperature") or 0.0)
        if temperature != 0.0:
            raise ConfigError("hf-seq2seq decodes greedily (Deng et al. 2023); temperature must be 0")
        max_new = int(kwargs.get("max_tokens") or self.max_new_tokens)
        self._ensure_loaded()
        n_trunc = self._count_truncated(prompts)
        if n_trunc:
            log.warning("hf-seq2seq: %d of %d sources are longer than %d tokens and were truncated from the right",
                        n_trunc, len(prompts), self.max_length)
        out: list[str] = []
        with torch.inference_mode():
            for s in range(0, len(prompts), self.batch_size):
                enc = self._encode(prompts[s:s + self.batch_size])
                ids = self._model.generate(**enc, max_new_tokens=max_new, do_sample=False, num_beams=1)
                out.extend(self._tok.batch_decode(ids, skip_special_tokens=True))
        return [t.strip() for t in out]

    def close(self) -> None:
        self._model = None
        self._tok = None


@dataclass(frozen=True)
class HFSeq2SeqOptions:
    """``--model-arg`` of ``hf-seq2seq``."""

    path: str | None = option(None, "LOCAL seq2seq checkpoint directory, required (T5, Flan-T5; safetensors + "
                                    "tokenizer)")
    task: str = option("rc", "the training target: the label word (rc) or 'Label:\\n...\\nJustification:\\n...' "
                             "(jg, Deng et al. 2023); use jg for soul-jg", choices=TASKS)
    epochs: int = option(8, "training epochs (code default; paper grid {4, 8})", lo=0, hi=1000)
    lr: float = option(1e-4, "constant AdamW learning rate (paper grid 1e-6..1e-4)", lo=0.0, lo_open=True)
    batch_size: int = option(8, "training batch (paper grid {2, 4, 8})", lo=1)
    eval_batch_size: int | None = option(None, "decoding batch; unset: 16 (rc) / 4 (jg)", lo=1)
    max_length: int = option(512, "source/target truncation length (right truncation, counted)", lo=8, hi=100_000)
    max_new_tokens: int = option(512, "greedy decoding length limit", lo=1, hi=100_000)
    seed: int | None = option(None, "training seed; unset: the runner's seed (paper: seeds 0, 1, 42)", lo=0)
    weight_decay: float = option(0.01, "AdamW weight decay (torch's default)", lo=0.0)
    output_dir: str | None = option(None, "directory for fine-tuned checkpoints; unset: checkpoints/ beside the "
                                          "run's cache")
    device: str = option("auto", "auto (CUDA when present), cpu, cuda or cuda:N")
    dtype: str = option("float32", "weights and compute dtype", choices=DTYPES)
    threads: int | None = option(None, "torch.set_num_threads (process-wide); unset: torch's", lo=1)
    allow_pickle: bool = option(False, "accept pickle-based pytorch_model.bin when no safetensors exist")


MODELS.register(
    "hf-seq2seq", HFSeq2Seq, tags=("hf",), options=HFSeq2SeqOptions,
    description="SOUL text-to-text recipe: fine-tune a local T5/Flan-T5 checkpoint (AdamW constant lr, last "
                "epoch) and answer by greedy generation (soul-rc / soul-jg)")
