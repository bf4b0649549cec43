"""Judge-human agreement for the SOUL judge (an extra, not from the paper: the paper claims "high
agreement" without a coefficient).

Rating files (CSV, TSV or JSONL):

- ``judge.jsonl`` written by ``sentiprobe judge`` (rows with ``scores: {system: {criterion: score}}``;
  missing items, ``scores: null``, are skipped and counted);
- flat tables with ``item_id``, optionally ``system`` (default ``system``), and one column per criterion
  (``correctness``, ``alignment``, ``relevance``, ``conciseness``, ``originality``), integers 1-3.
  With several human raters, give one file per rater (or average them beforehand and round).

Agreement per criterion over the (item, system) pairs rated in both files: Cohen's kappa with
quadratic weights (the primary coefficient: the 1-3 scale is ordinal), with linear weights, and the
exact-agreement rate, each with its CI (``stats.agreement.cohen_kappa``; percentile bootstrap, seeded).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core.errors import DataError
from ...core.io import read_table
from ...core.types import SCHEMA_VERSION
from ...stats.agreement import cohen_kappa
from ...stats.level import alpha_of
from .judge import CRITERIA, SCORE_RANGE

Key = tuple[str, str]


def _int_score(v: Any, path: Path, record: str, field: str) -> int | None:
    if v is None or (isinstance(v, str) and not v.strip()):
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise DataError(f"score {v!r} is not a number", path=path, record=record, field=field) from None
    if isinstance(v, bool) or not f.is_integer() or not SCORE_RANGE[0] <= f <= SCORE_RANGE[1]:
        raise DataError(f"score {v!r} is not an integer in {SCORE_RANGE[0]}-{SCORE_RANGE[1]}", path=path,
                        record=record, field=field)
    return int(f)


def read_ratings(path: str | Path) -> tuple[dict[Key, dict[str, int | None]], dict[str, Any]]:
    """Ratings ``{(item_id, system): {criterion: score or None}}`` and counts (see the module docstring)."""
    path = Path(path)
    if not path.is_file():
        raise DataError("ratings file not found", path=path)
    rows = read_table(path)
    out: dict[Key, dict[str, int | None]] = {}
    info: dict[str, Any] = {"path": str(path), "rows": len(rows), "missing_items": 0}
    for i, r in enumerate(rows, 1):
        iid = r.get("item_id")
        if iid in (None, ""):
            raise DataError("missing item_id", path=path, record=f"row {i}", field="item_id")
        iid = str(iid)
        if "scores" in r:  # a judge.jsonl record
            if r["scores"] is None:
                info["missing_items"] += 1
                continue
            if not isinstance(r["scores"], dict):
                raise DataError("scores is not an object", path=path, record=iid, field="scores")
            pairs = [(str(s), v) for s, v in r["scores"].items()]
        else:
            pairs = [(str(r.get("system") or "system"), r)]
        for system, scores in pairs:
            if not isinstance(scores, dict):
                raise DataError("scores of a system are not an object", path=path, record=iid, field=system)
            absent = [c for c in CRITERIA if c not in scores]
            if absent:
                raise DataError(f"missing criteria {absent}", path=path, record=f"{iid}/{system}")
            key = (iid, system)
            if key in out:
                raise DataError("duplicate rating", path=path, record=f"{iid}/{system}")
            out[key] = {c: _int_score(scores[c], path, f"{iid}/{system}", c) for c in CRITERIA}
    return out, info


def judge_human_agreement(judge: dict[Key, dict[str, int | None]], human: dict[Key, dict[str, int | None]], *,
                          n_boot: int = 1000, seed: int = 0, confidence: float) -> dict[str, Any]:
    """Weighted kappa (quadratic, linear) and exact agreement per criterion (see the module docstring), with
    intervals at ``confidence``."""
    alpha = alpha_of(confidence)  # ConfigError before any work
    keys = sorted(set(judge) & set(human))
    cats = list(range(SCORE_RANGE[0], SCORE_RANGE[1] + 1))
    doc: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "n_pairs": len(keys),
                           "n_only_judge": len(set(judge) - set(human)), "n_only_human": len(set(human) - set(judge)),
                           "systems": sorted({s for _, s in keys}),
                           "note": "not from the paper (it reports no coefficient); pairs = (item, system)",
                           "confidence": float(confidence), "criteria": {}}
    for c in CRITERIA:
        a = [judge[k][c] for k in keys]
        b = [human[k][c] for k in keys]
        row: dict[str, Any] = {}
        for w in ("quadratic", "linear"):
            r = cohen_kappa(a, b, weights=w, categories=cats, ci="bootstrap", n_boot=n_boot, seed=seed,
                            alpha=alpha)
            row[f"kappa_{w}"] = r.to_metric().to_dict() | {"interpretation": r.to_dict().get("interpretation")}
        r = cohen_kappa(a, b, categories=cats, ci="bootstrap", n_boot=n_boot, seed=seed, alpha=alpha)
        row["exact_agreement"] = {"value": r.pa, "n": r.n_units}
        doc["criteria"][c] = row
    return doc
