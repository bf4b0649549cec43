"""Model selection from hyper-parameter search exports (e.g. Weights & Biases sweep CSVs).

A search export is a CSV with one row per run, a run-name column and numeric columns (hyper-parameters
and metrics). :func:`read_search_export` parses it (empty cells are missing values; a non-numeric value
in a numeric column is a DataError naming file, row and column). :func:`select_winner` picks the
winning run as a paper does it: the best value of an ``objective`` column (runs where it is missing are
excluded and counted), ties broken by further columns in order (e.g. the lowest dev loss), remaining
ties by file order (reported). :func:`best_of` picks the best winner across several searches.

Column names of the metrics reported for a winner are grouped by suffix (``_best_epoch_dev``,
``_best_epoch_test`` by default) so that the dev and test figures of the winner are reported side by side.
"""
from __future__ import annotations

import csv
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, DataError
from ..core.types import SCHEMA_VERSION

TEXT_COLUMNS = frozenset({"Name", "State", "Notes", "User", "Tags", "Created", "Sweep", "lexicon_features",
                          "model_name", "model_type", "ID", "Group", "JobType"})


@dataclass(frozen=True)
class SearchRun:
    """One run of a search export.

    Attributes:
        name: run name (not unique across files, and not always within one).
        row: 1-based data row in the file.
        numbers: numeric columns (``None`` = empty cell).
        text: the other columns, verbatim.
    """

    name: str
    row: int
    numbers: dict[str, float | None]
    text: dict[str, str]

    def get(self, column: str) -> float | str | None:
        if column in self.numbers:
            return self.numbers[column]
        return self.text.get(column)


def _number(value: str) -> float | None:
    v = value.strip()
    if v == "" or v.lower() in ("nan", "none", "null", "-"):
        return None
    return float(v)


def read_search_export(path: str | Path, *, name_column: str = "Name",
                       text_columns: Iterable[str] = TEXT_COLUMNS) -> list[SearchRun]:
    """Parse a search export CSV (see the module docstring)."""
    path = Path(path)
    if not path.is_file():
        raise DataError("search export not found", path=path)
    text_cols = set(text_columns)
    with open(path, encoding="utf-8-sig", newline="") as f:
        reader = csv.DictReader(f)
        header = reader.fieldnames or []
        if name_column not in header:
            raise DataError(f"no run-name column {name_column!r} (header: {header[:8]}...)", path=path,
                            record="header")
        runs = []
        for r, row in enumerate(reader, start=1):
            if None in row:
                raise DataError("more fields than header columns", path=path, record=f"row {r}")
            numbers: dict[str, float | None] = {}
            text: dict[str, str] = {}
            for col, val in row.items():
                if val is None:
                    raise DataError("fewer fields than header columns", path=path, record=f"row {r}", field=col)
                if col in text_cols or col == name_column:
                    text[col] = val
                    continue
                try:
                    x = _number(val)
                except ValueError:
                    raise DataError(f"not a number: {val!r}", path=path, record=f"row {r}", field=col) from None
                if x is not None and not math.isfinite(x):
                    x = None
                numbers[col] = x
            runs.append(SearchRun(row[name_column], r, numbers, text))
    if not runs:
        raise DataError("search export has no runs", path=path)
    return runs


@dataclass(frozen=True)
class Selection:
    """The winning run of a search.

    Attributes:
        source: the export file (or a label).
        objective: column maximised (or minimised, see ``maximize``).
        tie_breakers: ``(column, "min"|"max")`` pairs applied in order on ties.
        winner: run name; winner_row: its 1-based data row.
        objective_value: the winner's objective.
        n_runs: runs in the export; n_missing_objective: runs excluded for a missing objective.
        n_tied_on_objective: runs sharing the best objective (1 = no tie);
        resolved_by: ``objective``, a tie-breaker column, or ``file order``.
        config: the winner's hyper-parameters (text columns and the ``hyperparameters`` given).
        splits: per suffix (``dev``, ``test``): metric family -> value.
    """

    source: str
    objective: str
    maximize: bool
    tie_breakers: tuple[tuple[str, str], ...]
    winner: str
    winner_row: int
    objective_value: float
    n_runs: int
    n_missing_objective: int
    n_tied_on_objective: int
    resolved_by: str
    config: dict[str, Any] = field(default_factory=dict)
    splits: dict[str, dict[str, float | None]] = field(default_factory=dict)
    schema_version: int = SCHEMA_VERSION

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["tie_breakers"] = [list(t) for t in self.tie_breakers]
        return d


def select_winner(runs: Sequence[SearchRun], objective: str, *, maximize: bool = True,
                  tie_breakers: Sequence[tuple[str, str]] = (), source: str = "",
                  hyperparameters: Sequence[str] = (),
                  split_suffixes: dict[str, str] | None = None) -> Selection:
    """The run with the best ``objective`` (see the module docstring)."""
    if not runs:
        raise ConfigError("no runs to select from")
    if objective not in runs[0].numbers:
        raise ConfigError(f"objective column {objective!r} is not a numeric column of {source or 'the export'}")
    for col, how in tie_breakers:
        if how not in ("min", "max"):
            raise ConfigError(f"tie breaker {col!r}: direction must be 'min' or 'max', not {how!r}")
    valid = [r for r in runs if r.numbers.get(objective) is not None]
    if not valid:
        raise ConfigError(f"no run has a value for {objective!r} in {source or 'the export'}")
    sign = 1.0 if maximize else -1.0
    best = max(sign * r.numbers[objective] for r in valid)  # type: ignore[operator]
    cands = [r for r in valid if sign * r.numbers[objective] == best]  # type: ignore[operator]
    n_tied = len(cands)
    resolved = "objective"
    for col, how in tie_breakers:
        if len(cands) == 1:
            break
        have = [r for r in cands if r.numbers.get(col) is not None]
        if not have:
            continue
        s = 1.0 if how == "max" else -1.0
        top = max(s * r.numbers[col] for r in have)  # type: ignore[operator]
        cands = [r for r in have if s * r.numbers[col] == top]  # type: ignore[operator]
        resolved = col
    if len(cands) > 1:
        resolved = "file order"
    win = min(cands, key=lambda r: r.row)
    suffixes = split_suffixes if split_suffixes is not None else {"dev": "_best_epoch_dev",
                                                                   "test": "_best_epoch_test"}
    splits = {}
    for split, suf in suffixes.items():
        splits[split] = {c[: -len(suf)]: v for c, v in win.numbers.items() if c.endswith(suf)}
    config: dict[str, Any] = dict(win.text)
    for h in hyperparameters:
        config[h] = win.get(h)
    value = float(win.numbers[objective])  # type: ignore[arg-type]
    return Selection(source, objective, maximize, tuple((c, h) for c, h in tie_breakers), win.name, win.row,
                     value, len(runs), len(runs) - len(valid), n_tied, resolved, config, splits)


def best_of(selections: Sequence[Selection]) -> Selection:
    """The selection with the best objective value (first on ties); all must share the objective."""
    if not selections:
        raise ConfigError("no selections to compare")
    objs = {(s.objective, s.maximize) for s in selections}
    if len(objs) > 1:
        raise ConfigError(f"selections use different objectives: {sorted(objs)}")
    sign = 1.0 if selections[0].maximize else -1.0
    return max(selections, key=lambda s: sign * s.objective_value)
