"""The grid tagging scheme (GTS) of docs/protocols/triplets.md#measures: BIO reading, gold grid construction and
decoding.

Why a module of its own: the gold side of every triplet evaluation is *the decoded gold grid*, not the JSON
(docs/protocols/triplets.md#decoding), so the builder and the decoder must be exactly the reference's, and the same
decoder must read model grids. Everything here is plain Python/numpy on word indices (no model, no files), so it is
tested on tiny hand-made grids.

Conventions: spans are inclusive ``(start, end)`` word indices; a triplet is
``(al, ar, pl, pr, polarity)`` (target span, polar span, ``positive``/``neutral``/``negative``).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

EMPTY, T, P, NEG, NEU, POS = 0, 1, 2, 3, 4, 5
IGNORE = -1
TAG_NAMES = ("empty", "T", "P", "Neg", "Neu", "Pos")
POLARITY_TAG = {"negative": NEG, "neutral": NEU, "positive": POS}
TAG_POLARITY = {v: k for k, v in POLARITY_TAG.items()}
POLARITIES = ("positive", "neutral", "negative")
#: tie order of the polarity vote (docs/protocols/triplets.md#decoding step 2): Pos first, then Neu, then Neg
_VOTE_ORDER = (POS, NEU, NEG)

Span = tuple[int, int]
Triplet = tuple[int, int, int, int, str]


def read_bio(tags: Sequence[str]) -> list[Span]:
    """Spans of a BIO tag sequence with the reference's reading rule (docs/protocols/triplets.md#data).

    Scan left to right: ``B`` closes any open span and opens a new one, ``O`` closes an open span, ``I`` only
    continues an open span (an ``I`` with no open span is ignored). Any other tag counts as ``O``.
    """
    spans: list[Span] = []
    start = -1
    for i, tag in enumerate(tags):
        if tag == "B":
            if start >= 0:
                spans.append((start, i - 1))
            start = i
        elif tag == "I":
            continue
        elif start >= 0:
            spans.append((start, i - 1))
            start = -1
    if start >= 0:
        spans.append((start, len(tags) - 1))
    return spans


@dataclass(frozen=True)
class Entry:
    """One GTS ``triples`` entry: target span(s), the polar spans linked to them, and one polarity."""

    targets: tuple[Span, ...]
    polars: tuple[Span, ...]
    sentiment: str

    def triplets(self) -> list[Triplet]:
        """The raw triplets of the entry: the cross product targets x polar spans (docs/protocols/triplets.md#data)."""
        return [(a[0], a[1], o[0], o[1], self.sentiment) for a in self.targets for o in self.polars]

    def to_json(self) -> dict:
        return {"targets": [list(s) for s in self.targets], "polars": [list(s) for s in self.polars],
                "sentiment": self.sentiment}

    @classmethod
    def from_json(cls, d: dict) -> Entry:
        return cls(tuple(tuple(s) for s in d["targets"]), tuple(tuple(s) for s in d["polars"]),  # type: ignore[misc]
                   d["sentiment"])


def build_grid(n: int, entries: Sequence[Entry]) -> np.ndarray:
    """The gold n x n grid (docs/protocols/triplets.md#grid): upper triangle labelled, lower triangle ``IGNORE``.

    Entries are processed in file order; inside an entry: target cells (T), then polar cells (P), then the
    polarity of every (target word, polar word) pair at (min, max). Later writes overwrite earlier ones
    (a word that is both target and polar gets a polarity tag on its diagonal, kept for fidelity). Spans
    reaching past ``n`` (a truncated sentence) are clipped; a span entirely past ``n`` disappears.
    """
    grid = np.full((n, n), IGNORE, dtype=np.int64)
    grid[np.triu_indices(n)] = EMPTY
    for e in entries:
        tag = POLARITY_TAG[e.sentiment]
        targets = [(lo, min(r, n - 1)) for lo, r in e.targets if lo < n]
        polars = [(lo, min(r, n - 1)) for lo, r in e.polars if lo < n]
        for lo, r in targets:
            _fill_square(grid, lo, r, T)
        for lo, r in polars:
            _fill_square(grid, lo, r, P)
        for al, ar in targets:
            for pl, pr in polars:
                for i in range(al, ar + 1):
                    for j in range(pl, pr + 1):
                        grid[min(i, j), max(i, j)] = tag
    return grid


def _fill_square(grid: np.ndarray, lo: int, r: int, tag: int) -> None:
    for i in range(lo, r + 1):
        grid[i, i:r + 1] = tag


def diagonal_spans(grid: np.ndarray, tag: int) -> list[Span]:
    """Spans of consecutive diagonal cells equal to ``tag`` (docs/protocols/triplets.md#decoding step 1: adjacent spans
    merge)."""
    spans: list[Span] = []
    start = -1
    n = grid.shape[0]
    for i in range(n):
        if grid[i, i] == tag:
            if start < 0:
                start = i
        elif start >= 0:
            spans.append((start, i - 1))
            start = -1
    if start >= 0:
        spans.append((start, n - 1))
    return spans


@dataclass(frozen=True)
class Decoded:
    """What decoding one grid gives: diagonal target spans, diagonal polar spans, triplets."""

    targets: list[Span] = field(default_factory=list)
    polars: list[Span] = field(default_factory=list)
    triplets: list[Triplet] = field(default_factory=list)


def decode(grid: np.ndarray, *, reference_quirk: bool = False) -> Decoded:
    """Decode a (gold or predicted) grid, docs/protocols/triplets.md#decoding.

    Pairing: for every target span A and polar span O, count the polarity tags of the cells
    ``(min(i, j), max(i, j))`` for i in A, j in O; no polarity tag -> not linked; otherwise the most frequent
    one, ties to Pos, then Neu, then Neg. ``reference_quirk`` reproduces the reference reading: cell ``(i, j)``
    when the target starts before the polar span, else ``(j, i)``, and an ignored (-1) cell met that way
    votes Pos. On word-level grids of disjoint spans both readings meet the same cells; the -1 vote only
    matters for grids with ignored cells inside spans (the reference's non-first sub-word pieces).
    """
    targets = diagonal_spans(grid, T)
    polars = diagonal_spans(grid, P)
    triplets: list[Triplet] = []
    for al, ar in targets:
        for pl, pr in polars:
            votes = {NEG: 0, NEU: 0, POS: 0}
            for i in range(al, ar + 1):
                for j in range(pl, pr + 1):
                    if reference_quirk:
                        v = int(grid[i, j] if al <= pl else grid[j, i])
                        if v == IGNORE:
                            v = POS
                    else:
                        v = int(grid[min(i, j), max(i, j)])
                    if v in votes:
                        votes[v] += 1
            best = max(_VOTE_ORDER, key=lambda t: (votes[t], -_VOTE_ORDER.index(t)))
            if votes[best] > 0:
                triplets.append((al, ar, pl, pr, TAG_POLARITY[best]))
    return Decoded(targets, polars, triplets)


def round_trip(n: int, entries: Sequence[Entry]) -> Decoded:
    """The gold side of the evaluation: build the gold grid and decode it (docs/protocols/triplets.md#decoding step
    3)."""
    return decode(build_grid(n, entries))
