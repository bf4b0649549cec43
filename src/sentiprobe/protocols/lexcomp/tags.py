"""BIO spans, span F1 (strict and ``allennlp08`` compatibility) and constrained Viterbi decoding
(docs/protocols/lexcomp.md#metrics, #predict).

Tags: ``O``, untyped ``I`` and typed ``B-X``.

- strict spans: ``B-X`` plus the maximal run of ``I`` after it is ``(X, s, e)``; an ``I`` run that does not
  follow ``B-X``/``I`` (ill-formed output) is ``("", s, e)``, which no gold span has;
- ``allennlp08``: AllenNLP 0.8's BIO extractor wants typed ``I-X``; with bare ``I`` it never extends a
  ``B-X``: each ``B-X`` is ``(X, s, s)`` and each maximal ``I`` run ``("", s, e)`` (in gold too).
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

MODES = ("strict", "allennlp08")

Span = tuple[str, int, int]


def spans(tags: Sequence[str], mode: str = "strict") -> set[Span]:
    out: set[Span] = set()
    i, n = 0, len(tags)
    while i < n:
        t = tags[i]
        if t.startswith("B-"):
            j = i
            if mode == "strict":
                while j + 1 < n and tags[j + 1] == "I":
                    j += 1
            out.add((t[2:], i, j))
            i = j + 1
        elif t == "I":
            j = i
            while j + 1 < n and tags[j + 1] == "I":
                j += 1
            out.add(("", i, j))
            i = j + 1
        else:
            i += 1
    return out


def span_counts(gold: Sequence[Sequence[str]], pred: Sequence[Sequence[str]], mode: str = "strict"):
    """Per-sentence (tp, fp, fn) arrays."""
    rows = []
    for g, p in zip(gold, pred):
        gs, ps = spans(g, mode), spans(p, mode)
        tp = len(gs & ps)
        rows.append((tp, len(ps) - tp, len(gs) - tp))
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


def f1_from_counts(c: np.ndarray) -> float:
    tp, fp, fn = (int(x) for x in c.sum(0)) if len(c) else (0, 0, 0)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def allowed_transitions(tags: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """(start allowed (K,), transition allowed (K, K)): ``I`` only after ``B-X`` or ``I``, never first."""
    k = len(tags)
    start = np.array([t != "I" for t in tags])
    trans = np.ones((k, k), dtype=bool)
    for j, t in enumerate(tags):
        if t == "I":
            for i, prev in enumerate(tags):
                trans[i, j] = prev == "I" or prev.startswith("B-")
    return start, trans


def viterbi(logp: np.ndarray, tags: Sequence[str]) -> list[str]:
    """Best tag path under the hard constraints, from per-token log-probabilities ``(T, K)``."""
    start, trans = allowed_transitions(tags)
    neg = -1e30
    T = logp.shape[0]
    if T == 0:
        return []
    score = np.where(start, logp[0], neg)
    back = np.zeros((T, len(tags)), dtype=np.int64)
    tmask = np.where(trans, 0.0, neg)
    for t in range(1, T):
        cand = score[:, None] + tmask  # (prev, cur)
        back[t] = cand.argmax(0)
        score = cand.max(0) + logp[t]
    path = [int(score.argmax())]
    for t in range(T - 1, 0, -1):
        path.append(int(back[t, path[-1]]))
    return [tags[j] for j in reversed(path)]
