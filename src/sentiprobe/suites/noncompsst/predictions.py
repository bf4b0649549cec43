"""Seeded predictions (the ``predictions`` stage of both suites): reading files made elsewhere and the one
seeded check both score stages use.

Predictions of multi-seed suites carry ``Prediction.seed``; one (item, seed) pair has at most one
prediction and every seed must cover every item. Every seed is checked and scored: there is no
"first seed" view (it made ``compare`` test seed 0 while the metrics averaged all seeds). Files made
elsewhere (CSV, TSV or JSONL) have a
``label`` column (an integer 0..6), an optional ``seed`` column and one key column:

- ``line``: 0-based line number in ``stimuli_flat.txt`` (noncompsst);
- ``text``: the stimulus string exactly as in ``stimuli_flat.txt`` (noncompsst). A string that
  occurs at n lines may be given once per seed (it then stands for all n lines) or n times (assigned
  to its lines in order);
- ``item_id`` (or ``id``): the item id (both suites; e.g. a run's ``predictions/<suite>.jsonl``,
  where the seed is the ``seed`` field, or ``meta.seed`` in files written before it existed).

Without a seed column every row belongs to a single seed 0.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.errors import DataError, PredictionError
from ...core.io import read_table
from ...core.types import Item, Prediction

if TYPE_CHECKING:
    from ..base import Suite

KEY_COLUMNS = ("item_id", "id", "line", "text")
LABEL_COLUMNS = ("label", "pred", "prediction")


def parse_label(v: Any) -> str | None:
    """A label cell as ``"0".."6"``; empty/null -> None; anything else raises ValueError."""
    if v is None or (isinstance(v, str) and v.strip() == ""):
        return None
    if isinstance(v, bool):
        raise ValueError(v)
    if isinstance(v, int):
        s = str(v)
    elif isinstance(v, float) and v.is_integer():
        s = str(int(v))
    elif isinstance(v, str):
        s = v.strip()
    else:
        raise ValueError(v)
    if s not in ("0", "1", "2", "3", "4", "5", "6"):
        raise ValueError(v)
    return s


def parse_seed(v: Any) -> int | None:
    if v is None or (isinstance(v, str) and v.strip() == ""):
        return None
    if isinstance(v, bool):
        raise ValueError(v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return int(str(v).strip())


def read_predictions(suite: Suite, path: Path, column: str | None = None) -> list[Prediction]:
    """Stage of ``noncompsst``: a predictions file made elsewhere (see the module docstring) as seeded
    Predictions, keyed by any key column (``line``, ``text``, ``item_id``/``id``)."""
    return read_seeded(path, suite.items("test"), column=column, allow=KEY_COLUMNS)


def read_sst7_predictions(suite: Suite, path: Path, column: str | None = None) -> list[Prediction]:
    """Stage of ``sst7``: as :func:`read_predictions`, keyed by item ids only."""
    return read_seeded(path, suite.items("test"), column=column, allow=("item_id", "id"))


def read_seeded(path: str | Path, items: Sequence[Item], *, column: str | None = None,
                allow: Sequence[str] = KEY_COLUMNS) -> list[Prediction]:
    """Read a predictions file into Predictions with ``seed`` set (see the module docstring).

    ``items`` must carry ``meta["line"]`` and ``meta["stimulus"]`` for the ``line``/``text`` keys.
    Unknown keys, labels outside 0..6 and bad seeds raise PredictionError naming the offenders.
    """
    path = Path(path)
    rows = read_table(path, "predictions file")
    if not rows:
        raise DataError("no predictions in file", path=path)
    header = list(rows[0].keys())
    key = next((c for c in allow if c in header), None)
    if key is None:
        raise DataError(f"no key column (looked for {', '.join(allow)}; header has {header})", path=path)
    labc = column or next((c for c in LABEL_COLUMNS if c in header), None)
    if labc is None or labc not in header:
        raise DataError(f"no label column (looked for {column or ', '.join(LABEL_COLUMNS)}; header has {header})",
                        path=path)
    by_line = {it.meta.get("line"): it.item_id for it in items if "line" in it.meta}
    by_text: dict[str, list[str]] = {}
    for it in items:
        if "stimulus" in it.meta:
            by_text.setdefault(it.meta["stimulus"], []).append(it.item_id)
    known = {it.item_id for it in items}
    parsed: list[tuple[str | list[str], str | None, int | None, int]] = []
    unknown, bad_label, bad_seed = [], [], []
    for n, r in enumerate(rows, 1):
        k = r.get(key)
        try:
            lab = parse_label(r.get(labc))
        except ValueError:
            bad_label.append(f"row {n}: {r.get(labc)!r}")
            continue
        raw_seed = r.get("seed")
        if raw_seed is None and isinstance(r.get("meta"), dict):
            raw_seed = r["meta"].get("seed")  # files written when the seed rode in meta
        try:
            seed = parse_seed(raw_seed)
        except ValueError:
            bad_seed.append(f"row {n}: {raw_seed!r}")
            continue
        if key == "line":
            try:
                target: str | list[str] = by_line[int(str(k).strip())]
            except (KeyError, ValueError):
                unknown.append(f"line {k!r}")
                continue
        elif key == "text":
            if k not in by_text:
                unknown.append(str(k))
                continue
            target = by_text[k]
        else:
            if str(k) not in known:
                unknown.append(str(k))
                continue
            target = str(k)
        parsed.append((target, lab, seed, n))
    if bad_label:
        raise PredictionError("labels that are not integers 0..6", bad_label, path=path)
    if bad_seed:
        raise PredictionError("seeds that are not integers", bad_seed, path=path)
    if unknown:
        what = {"line": "line numbers not in stimuli_flat.txt (0-based)",
                "text": "texts that are not stimuli of stimuli_flat.txt"}.get(key, "ids not in the suite")
        raise PredictionError(f"predictions for {what}", unknown, path=path)
    seeded = [p for p in parsed if p[2] is not None]
    if seeded and len(seeded) != len(parsed):
        rows_wo = [f"row {p[3]}" for p in parsed if p[2] is None]
        raise PredictionError("some rows have a seed and others do not", rows_wo, path=path)
    out: list[Prediction] = []
    # text keys: a string with several lines is given once (all lines) or once per line (in order)
    used: dict[tuple[str, int], int] = {}
    for target, lab, seed, n in parsed:
        s = 0 if seed is None else seed
        ids = [target] if isinstance(target, str) else target
        if len(ids) > 1:
            total = sum(1 for t, _, sd, _ in parsed if t is target and (0 if sd is None else sd) == s)
            if total == len(ids):
                j = used.get((ids[0], s), 0)
                used[(ids[0], s)] = j + 1
                ids = [ids[j]]
            elif total != 1:
                raise PredictionError(f"a text that occurs at {len(ids)} lines is given {total} times for seed {s} "
                                      f"(give it once or once per line)", [f"row {n}"], path=path)
        for iid in ids:
            out.append(Prediction(iid, lab, parse_ok=lab is not None, meta={"source": str(path)}, seed=s))
    return out


@dataclass(frozen=True)
class Seeded:
    """Predictions checked against items, by seed.

    Attributes:
        seeds: the seeds, sorted.
        labels: seed -> {item_id: label or None (unparseable or missing)}.
        missing: ``item_id@seed`` of (item, seed) pairs without any prediction.
        unparsed: ``item_id@seed`` of predictions whose label is None.
    """

    seeds: tuple[int, ...]
    labels: dict[int, dict[str, str | None]]
    missing: tuple[str, ...]
    unparsed: tuple[str, ...]


def check_seeded(items: Sequence[Item], predictions: Sequence[Prediction], labels: Sequence[str], *,
                 suite: str, missing: str = "error", path: str | Path | None = None) -> Seeded:
    """Validate seeded predictions: known ids, labels in the label set, one per (item, seed), full coverage.

    This is the one check of both suites' score stages (``Suite.check_predictions`` stays the generic,
    single-seed check). A prediction whose ``seed`` is None belongs to seed 0. Missing
    (item, seed) pairs and unparseable labels raise PredictionError unless ``missing == "wrong"``,
    in which case they are returned (as None labels) for the caller to handle and report.
    """
    known = {it.item_id for it in items}
    allowed = set(labels)
    per: dict[int, dict[str, str | None]] = {}
    unknown, dups, bad = [], [], []
    for p in predictions:
        seed = 0 if p.seed is None else p.seed
        if isinstance(seed, bool) or not isinstance(seed, int):
            bad.append(f"{p.item_id} seed={seed!r}")
            continue
        if p.item_id not in known:
            unknown.append(p.item_id)
            continue
        if p.label is not None and p.label not in allowed:
            bad.append(f"{p.item_id}@{seed}={p.label}")
            continue
        d = per.setdefault(seed, {})
        if p.item_id in d:
            dups.append(f"{p.item_id}@{seed}")
        d[p.item_id] = p.label
    if unknown:
        raise PredictionError(f"predictions for ids that are not in suite {suite}", unknown, path=path)
    if bad:
        raise PredictionError(f"labels outside the label set {list(labels)} (or bad seeds)", bad, path=path)
    if dups:
        raise PredictionError("duplicate predictions for the same item and seed", dups, path=path)
    if not per:
        raise PredictionError(f"no predictions for suite {suite}", [], path=path)
    seeds = tuple(sorted(per))
    absent = [f"{it.item_id}@{s}" for s in seeds for it in items if it.item_id not in per[s]]
    unparsed = [f"{iid}@{s}" for s in seeds for iid, lab in per[s].items() if lab is None]
    if absent and missing != "wrong":
        raise PredictionError(f"missing predictions: every seed ({', '.join(map(str, seeds))}) must cover every "
                              "item (use --missing wrong to count them as wrong where the metric allows)",
                              absent, path=path)
    if unparsed and missing != "wrong":
        raise PredictionError("predictions without a label (use --missing wrong to count them as wrong)",
                              unparsed, path=path)
    for s in seeds:
        for it in items:
            per[s].setdefault(it.item_id, None)
    return Seeded(seeds, per, tuple(absent), tuple(unparsed))

