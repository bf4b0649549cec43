"""Rater tables (CSV, one column per rater, one row per unit) and the agreement report of ``sentiprobe agree``.

File format: a header row naming the raters, one row per annotation unit, one label per rater; a blank
cell (or a value listed in ``missing``) is a missing rating, never a category. Columns that are not
raters must be named: ``id_column`` (kept as the unit id; a column called ``id``, ``unit``, ``unit_id``
or ``item_id`` is taken as the id column automatically and reported), ``ignore`` (dropped, reported), or
select the raters with ``raters``. A table with fewer than two raters is an error. A JSON-lines file
(``.jsonl``, or text starting with ``{``) holds one object per unit, keys as the CSV header (``null`` or an absent
key: a missing rating).
"""
from __future__ import annotations

import csv
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, DataError
from ..core.io import iter_jsonl_text, read_user_text
from ..core.types import SCHEMA_VERSION
from .agreement import (
    LEVELS,
    MAX_CATEGORICAL_VALUES,
    cohen_kappa,
    fleiss_kappa,
    gwet_ac1,
    krippendorff_alpha,
    landis_koch,
    pairwise_cohen,
    percent_agreement,
)
from .bootstrap import DEFAULT_N_BOOT
from .level import confidence_of

ID_COLUMN_NAMES = ("id", "unit", "unit_id", "item_id")


@dataclass(frozen=True)
class RatingTable:
    """A units x raters table of labels (``None`` = missing rating).

    Attributes:
        raters: rater names (column headers), in file order.
        unit_ids: one id per unit (the id column, or ``row <n>`` with n the 1-based data row).
        ratings: one tuple per unit, aligned with ``raters``.
        source: where the table was read from.
        id_column: the id column used, if any; ignored: columns dropped on request.
    """

    raters: tuple[str, ...]
    unit_ids: tuple[str, ...]
    ratings: tuple[tuple[str | None, ...], ...]
    source: str = ""
    id_column: str | None = None
    ignored: tuple[str, ...] = ()


def read_rating_table(path: str | Path, *, raters: Sequence[str] | None = None, id_column: str | None = None,
                      ignore: Sequence[str] = (), missing: Sequence[str] = ("",),
                      delimiter: str | None = None) -> RatingTable:
    """Read a rater table (see the module docstring). Raises DataError / ConfigError on bad input."""
    path = Path(path)
    text = read_user_text(path, "rater table")  # missing, directory, binary content, encoding, BOM
    if not text.strip():
        raise DataError("empty rater table", path=path)
    if path.suffix.lower() in (".jsonl", ".json") or text.lstrip().startswith("{"):
        rows = _jsonl_rows(text, path)
    else:
        if delimiter is None:
            first = text.splitlines()[0]
            delimiter = "\t" if first.count("\t") > first.count(",") else ","
        try:
            rows = list(csv.reader(text.splitlines(), delimiter=delimiter))
        except csv.Error as exc:
            raise DataError(f"malformed CSV: {exc}", path=path) from None
    header = [h.strip() for h in rows[0]]
    if len(set(header)) != len(header):
        dup = sorted({h for h in header if header.count(h) > 1})
        raise DataError(f"duplicate column names {dup}", path=path, record="header")
    if id_column is None:
        auto = [h for h in header if h.lower() in ID_COLUMN_NAMES]
        id_column = auto[0] if auto else None
    for name, what in ([(id_column, "id column")] if id_column else []) + [(c, "ignored column") for c in ignore]:
        if name not in header:
            raise ConfigError(f"{what} {name!r} is not in the header {header} of {path}")
    if raters is not None:
        unknown = [r for r in raters if r not in header]
        if unknown:
            raise ConfigError(f"raters {unknown} are not in the header {header} of {path}")
        rater_cols = list(raters)
    else:
        rater_cols = [h for h in header if h != id_column and h not in set(ignore)]
    if len(rater_cols) < 2:
        raise DataError(f"agreement needs at least two raters; the table has {len(rater_cols)} rater "
                        f"column(s) {rater_cols}", path=path, record="header")
    pos = {h: i for i, h in enumerate(header)}
    miss = {m.strip() for m in missing}
    ids, table = [], []
    for r, row in enumerate(rows[1:], start=1):
        if not row or (all(not c.strip() for c in row) and len(row) <= 1):
            continue  # a blank line is not a unit
        if len(row) != len(header):
            raise DataError(f"expected {len(header)} fields, found {len(row)}", path=path, record=f"row {r}")
        ids.append(row[pos[id_column]].strip() if id_column else f"row {r}")
        table.append(tuple(None if row[pos[c]].strip() in miss else row[pos[c]].strip() for c in rater_cols))
    if not table:
        raise DataError("no units in rater table", path=path)
    if id_column:
        dups = sorted(u for u, k in Counter(ids).items() if k > 1)
        if dups:
            raise DataError(f"duplicate unit ids {dups[:10]} (each unit must be one row)", path=path,
                            record=dups[0], field=id_column)
    ignored = tuple(h for h in header if h not in set(rater_cols) and h != id_column)
    return RatingTable(tuple(rater_cols), tuple(ids), tuple(table), str(path), id_column, ignored)


def _jsonl_rows(text: str, path: Path) -> list[list[str]]:
    """A JSON-lines rater table (one object per unit: ``{"unit": "u1", "rater_a": "pos", ...}``) as CSV-like rows:
    the header is every key in order of first appearance; an absent key or ``null`` is a missing rating."""
    objs = list(iter_jsonl_text(text, path, "expected a JSON object per unit (rater name -> label)"))
    header: dict[str, None] = {}
    for _, obj in objs:
        header.update(dict.fromkeys(obj))
    rows = [list(header)]
    for line, obj in objs:
        row = []
        for k in header:
            v = obj.get(k)
            if isinstance(v, bool) or not isinstance(v, str | int | float | type(None)):
                raise DataError(f"a rating must be a string, a number or null, not {type(v).__name__}", path=path,
                                record=f"line {line}", field=k)
            row.append("" if v is None else str(v))
        rows.append(row)
    return rows


def agreement_report(table: RatingTable, *, level: str = "nominal", categories: Sequence[str] | None = None,
                     weights: str | None = None, ci: str = "analytic", n_boot: int = DEFAULT_N_BOOT,
                     seed: int = 0, alpha: float, pairwise: bool = True) -> dict[str, Any]:
    """Fleiss' kappa, Krippendorff's alpha (at ``level``), Gwet's AC1 and percent agreement of a table.

    ``weights`` (identity / linear / quadratic) applies to Fleiss, AC1, percent agreement and the
    pairwise Cohen kappas; ``level`` applies to alpha. Units with fewer than two ratings are excluded
    from observed agreement and reported in ``details`` (with a single rating they still count for
    category prevalence in Fleiss' kappa and AC1, as in Gwet's handbook).
    """
    if level not in LEVELS:
        raise ConfigError(f"unknown level {level!r}; use one of {', '.join(LEVELS)}")
    rows = [list(r) for r in table.ratings]
    if level in ("interval", "ratio") and categories is None:
        check_numeric(table, nonnegative=level == "ratio")
    kw: dict[str, Any] = dict(categories=categories, ci=ci, n_boot=n_boot, seed=seed, alpha=alpha)
    results = {"krippendorff_alpha": krippendorff_alpha(rows, level=level, **kw)}
    n_values = len({str(v).strip() for r in rows for v in r if v is not None})
    categorical = level in ("nominal", "ordinal") or n_values <= MAX_CATEGORICAL_VALUES
    if categorical:
        results.update({
            "fleiss_kappa": fleiss_kappa(rows, weights=weights, **kw),
            "gwet_ac1": gwet_ac1(rows, weights=weights, **kw),
            "percent_agreement": percent_agreement(rows, weights=weights, **kw),
        })
        if len(table.raters) == 2:
            results["cohen_kappa"] = cohen_kappa([r[0] for r in rows], [r[1] for r in rows], weights=weights,
                                                 **kw)
    n_rated = [sum(v is not None for v in r) for r in rows]
    single = [u for u, k in zip(table.unit_ids, n_rated) if k == 1]
    unrated = [u for u, k in zip(table.unit_ids, n_rated) if k == 0]
    metrics = {}
    for name, res in results.items():
        m = res.to_metric().to_dict()
        m["se"] = res.se
        metrics[name] = m
    details: dict[str, Any] = {
        **({} if categorical else {"categorical_coefficients": (
            f"not computed: {n_values} distinct values at the {level} level; Fleiss' kappa, Gwet's AC1, percent "
            "agreement and Cohen's kappa would treat every distinct value as a category")}),
        "source": table.source, "raters": list(table.raters), "id_column": table.id_column,
        "ignored_columns": list(table.ignored), "level": level, "weights": weights or "identity", "ci": ci,
        "confidence": confidence_of(alpha),
        "categories": list(results["krippendorff_alpha"].categories)[:MAX_CATEGORICAL_VALUES],
        "n_units_total": len(rows),
        "n_units_used": sum(k >= 2 for k in n_rated),
        "n_units_excluded_single_rating": len(single),
        "n_units_excluded_no_rating": len(unrated),
        "excluded_units_first": (single + unrated)[:20],
        "excluded_note": ("units with fewer than two ratings do not enter observed agreement; units with "
                          "exactly one rating still count for category prevalence in Fleiss' kappa and AC1 "
                          "(Gwet's handbook); Krippendorff's alpha uses units with >= 2 ratings only"),
        "ratings_per_rater": {r: sum(row[i] is not None for row in rows) for i, r in enumerate(table.raters)},
        "units_by_number_of_ratings": {str(k): n_rated.count(k) for k in sorted(set(n_rated))},
        "coefficients": {name: res.to_dict() for name, res in results.items()},
        "interpretation": {name: landis_koch(res.value) for name, res in results.items()
                           if name != "percent_agreement"},
        "interpretation_scale": "Landis & Koch (1977)",
    }
    if pairwise and len(table.raters) > 2:
        details["pairwise_cohen_kappa"] = pairwise_cohen(rows, table.raters, weights=weights, **kw)
    return {"schema_version": SCHEMA_VERSION, "kind": "agreement", "metrics": metrics, "details": details}


def agree(path: str | Path, *, raters: Sequence[str] | None = None, id_column: str | None = None,
          ignore: Sequence[str] = (), missing: Sequence[str] = ("",), alpha: float, **kw: Any) -> dict[str, Any]:
    """Read a rater table and return its agreement report (the API behind ``sentiprobe agree``)."""
    table = read_rating_table(path, raters=raters, id_column=id_column, ignore=ignore, missing=missing)
    return agreement_report(table, alpha=alpha, **kw)


def check_numeric(table: RatingTable, *, nonnegative: bool = False) -> None:
    """Interval and ratio ratings must be finite numbers, ratio ones non-negative: DataError naming the unit and
    the rater otherwise."""
    for uid, row in zip(table.unit_ids, table.ratings):
        for rater, v in zip(table.raters, row):
            if v is None:
                continue
            try:
                x = float(v)
            except ValueError:
                raise DataError(f"rating {v!r} is not a number (interval/ratio levels need numbers; pass "
                                "--categories for ordered text labels)", path=table.source, record=uid,
                                field=rater) from None
            if not math.isfinite(x):
                raise DataError(f"rating {v!r} is not a finite number (leave the cell blank for a missing rating)",
                                path=table.source, record=uid, field=rater)
            if nonnegative and x < 0:
                raise DataError(f"rating {v!r} is negative; the ratio level needs values >= 0 (a ratio scale has an "
                                "absolute zero): use --level interval", path=table.source, record=uid, field=rater)
