"""Closed questions answered by the packaged SmolLM2-135M-Instruct: each option's log-likelihood, no decoding.

Why not constrained JSON generation (:mod:`.local_constrained`): a verdict of a few fields costs some forty
decoding steps, each a forward pass, per question set; reading the model's next-token distribution after
the question costs one, and every option of a closed question (``yes``/``no``, ``positive``/``negative``/
``neutral``) is a single token of SmolLM2's vocabulary, so one pass gives all of them. The questions about
one text share its prompt prefix: the prefix is run once and its key/value cache is reused by every
question (a batch of the question suffixes), and a prefix shared by every item (an instruction with worked
examples) is run once per process, so examples cost nothing per item but attention over them. The texts are
the caller's, verbatim (a plain completion prompt: a small model follows examples better than a chat turn).

Scores are the log-probabilities of the options renormalised over the options (natural log), rounded to
1e-4 so float noise (thread count, batch shape) cannot flip a comparison. The model runs in float32 on
every CPU (no dtype-dependent decisions). Loading reuses :mod:`.local_lm`'s converted float32 copy.
"""
from __future__ import annotations

import copy
import inspect
import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, require
from .assets import set_threads, sha256_cached
from .fluency_lm import load_packaged
from .local_lm import smollm2_gguf


DECIMALS = 4
VERSION = "1"
"""Enters :attr:`ClosedQuestionLM.model_id`: a change of the scoring rule invalidates cached answers."""


@dataclass(frozen=True)
class Question:
    """One closed question: the text after the item's own part, and its options (each a single token that
    follows the text, e.g. ``" positive"``)."""

    text: str
    options: tuple[str, ...]


@dataclass(frozen=True)
class Item:
    """The questions about one text: ``shared`` is the same for many items (an instruction, run once),
    ``own`` is this item's part of the prompt (the texts to judge)."""

    shared: str
    own: str
    questions: tuple[Question, ...]


class ClosedQuestionLM:
    """Answers :class:`Item` questions with SmolLM2-135M-Instruct (see the module docstring)."""

    def __init__(self, *, threads: int | None = None, convert_dir: Path | None = None) -> None:
        self.gguf = smollm2_gguf()
        self.threads = threads
        self.convert_dir = convert_dir
        self.model_id = f"{self.gguf.stem}-{sha256_cached(self.gguf)[:16]}-float32-closed-v{VERSION}"
        self._tok: Any = None
        self._model: Any = None
        self._shared: dict[str, Any] = {}
        self._option_ids: dict[tuple[str, ...], list[int]] = {}
        self._lock = threading.Lock()
        self._cache_kw = "past_key_values"
        self.stats = {"items": 0, "questions": 0, "load_s": 0.0, "forward_s": 0.0, "forward_cpu_s": 0.0}

    def _ensure(self) -> tuple[Any, Any]:
        if self._model is None:
            t0 = time.perf_counter()
            require("torch", "hf", "the local verifier of ARTS generation (or use --verifier none)")
            require("transformers", "hf", "the local verifier of ARTS generation (or use --verifier none)")
            set_threads(self.threads)
            self._tok, self._model = load_packaged(self.gguf, "float32", self.convert_dir)
            # transformers 5 names the key/value cache argument ``cache``, earlier versions ``past_key_values``
            params = inspect.signature(self._model.model.forward).parameters
            self._cache_kw = "cache" if "cache" in params else "past_key_values"
            self.stats["load_s"] += time.perf_counter() - t0
        return self._tok, self._model

    def _ids(self, text: str) -> list[int]:
        return list(self._tok(text, add_special_tokens=False)["input_ids"])

    def _options(self, options: tuple[str, ...]) -> list[int]:
        if options not in self._option_ids:
            ids = [self._ids(o) for o in options]
            if any(len(x) != 1 for x in ids) or len({x[0] for x in ids}) != len(ids):
                raise ConfigError(f"closed-question options must be distinct single tokens, got {options!r}")
            self._option_ids[options] = [x[0] for x in ids]
        return self._option_ids[options]

    def answer(self, items: Sequence[Item]) -> list[list[dict[str, float]]]:
        """Per item, per question: ``{option: log p(option | prompt)}`` renormalised over the options."""
        torch = require("torch", "hf", "the local verifier of ARTS generation (or use --verifier none)")
        with self._lock:
            self._ensure()
            out = []
            t0, c0 = time.perf_counter(), time.process_time()
            with torch.inference_mode():
                for it in items:
                    out.append(self._one(torch, it))
            self.stats["forward_s"] += time.perf_counter() - t0
            self.stats["forward_cpu_s"] += time.process_time() - c0
            self.stats["items"] += len(items)
            self.stats["questions"] += sum(len(it.questions) for it in items)
        return out

    def _prefix_cache(self, torch: Any, shared: str) -> tuple[Any, int]:
        if shared not in self._shared:
            ids = self._ids(shared)
            res = self._model.model(input_ids=torch.tensor([ids]), use_cache=True)  # the body: no logits needed
            self._shared[shared] = (_cache_of(res), len(ids))
        return self._shared[shared]

    def _one(self, torch: Any, it: Item) -> list[dict[str, float]]:
        if not it.questions:
            return []
        base, n_shared = self._prefix_cache(torch, it.shared)
        own = self._ids(it.own)
        past = copy.deepcopy(base)
        n = n_shared
        if own:
            res = self._model.model(input_ids=torch.tensor([own]), use_cache=True,
                                    position_ids=torch.arange(n, n + len(own))[None], **{self._cache_kw: past})
            past = _cache_of(res)
            n += len(own)
        qs = [self._ids(q.text) for q in it.questions]
        width = max(len(x) for x in qs)
        rows = len(qs)
        past.batch_repeat_interleave(rows)
        pad = self._tok.pad_token_id if self._tok.pad_token_id is not None else 0
        inp = torch.tensor([x + [pad] * (width - len(x)) for x in qs])  # right padding: causal, read before it
        mask = torch.ones((rows, n + width), dtype=torch.long)
        pos = torch.arange(n, n + width)[None].expand(rows, -1)
        hidden = self._model.model(input_ids=inp, attention_mask=mask, position_ids=pos,
                                   **{self._cache_kw: past}).last_hidden_state
        last = hidden[torch.arange(rows), torch.tensor([len(x) - 1 for x in qs])]  # each row's last real token
        logits = self._model.lm_head(last)  # the vocabulary projection only where an answer is read
        out = []
        for r, q in enumerate(it.questions):
            row = torch.log_softmax(logits[r].float(), dim=-1)
            vals = [float(row[i]) for i in self._options(q.options)]
            z = max(vals) + math.log(sum(math.exp(v - max(vals)) for v in vals))
            out.append({o: round(v - z, DECIMALS) for o, v in zip(q.options, vals)})
        return out


def _cache_of(res: Any) -> Any:
    """The key/value cache of a model output (``cache`` in transformers 5, ``past_key_values`` before)."""
    got = getattr(res, "cache", None)
    return got if got is not None else res.past_key_values
