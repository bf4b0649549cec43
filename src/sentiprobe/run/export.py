"""The per-item table of a run directory (``sentiprobe export``): one row per prediction, joined with its item.

Error analysis wants the input, the gold label and the prediction side by side; a predictions file holds only
the model's side (and, since the run-directory layout of issue 16, ``gold`` and ``correct``). The items come
from the data exactly as the run loaded them: ``get_suite(name, data_dir, options)`` with the data directory
recorded in the model's ``results.json`` (``provenance.data_dir``) and the suite options the run was given
(``config.suite_options``). Predictions files of either generation are read: the gold label and correctness
are always recomputed from the items, never trusted from the file.
"""
from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, DataError
from ..core.io import read_json, read_jsonl
from ..core.results import read_results
from ..suites import get_suite
from ..suites.predictions_io import prediction_from_record

COLUMNS = ("model", "suite", "item_id", "group_id", "split", "kind", "text", "text_pair", "aspect", "gold",
           "prediction", "correct", "seed")
"""Columns of the table, in order (``seed`` is empty for single-seed suites)."""
FORMATS = ("csv", "jsonl")


def model_dirs(run_dir: str | Path) -> list[Path]:
    """The model directories of a run: those listed in ``summary.json``, or ``run_dir`` itself when it is one.

    A listed model without a readable ``results.json`` (absent, a directory) is a DataError naming it: leaving it
    out would export a table without that model (or a header-only table) and exit 0.
    """
    root = Path(run_dir)
    summary = root / "summary.json"
    if (root / "results.json").is_file() or ((root / "results.json").exists() and not summary.exists()):
        return [root]  # one model's directory (a results.json that is not a file: read_results says so)
    if not summary.exists():
        raise DataError("not a run directory (no summary.json or results.json)", path=root)
    doc = read_json(summary, "run summary")
    try:
        dirs = [root / str(r.get("dir", m)) for m, r in doc["runs"].items()]
    except (KeyError, TypeError, AttributeError) as exc:
        raise DataError(f"unreadable run summary ({type(exc).__name__}: {exc})", path=summary) from None
    if not dirs:
        raise DataError("the run summary lists no model", path=summary, field="runs")
    for d in dirs:
        if not (d / "results.json").is_file():
            what = "is not a file" if (d / "results.json").exists() else "is missing"
            raise DataError(f"model {d.name!r} is listed in summary.json but its results.json {what} (an "
                            "unfinished or damaged run: run it again)", path=d / "results.json")
    return dirs


def iter_rows(run_dir: str | Path, data_dir: str | None = None) -> Iterator[dict[str, Any]]:
    """Rows of the per-item table for every model and suite of ``run_dir`` (see :data:`COLUMNS`).

    ``data_dir`` overrides the data directory recorded in the run (a run moved to another machine).
    """
    for mdir in model_dirs(run_dir):
        results = read_results(mdir / "results.json")
        model = str(results.get("model", {}).get("name", mdir.name))
        ddir = data_dir or results.get("provenance", {}).get("data_dir")
        options: Mapping[str, Any] = (results.get("config") or {}).get("suite_options") or {}
        for name in results.get("suites", {}):
            pfile = mdir / "predictions" / f"{name}.jsonl"
            if not pfile.is_file():
                raise DataError(f"suite {name!r} has results but no predictions file", path=pfile)
            suite = get_suite(name, ddir, options.get(name))
            items = {it.item_id: it for it in suite.items("test")}
            for i, rec in enumerate(read_jsonl(pfile, "predictions file"), 1):
                p = prediction_from_record(rec, pfile, i)
                it = items.get(p.item_id)
                if it is None:
                    raise DataError(f"prediction for an item the suite {name!r} does not have", path=pfile,
                                    record=p.item_id, field="item_id")
                yield {"model": model, "suite": name, "item_id": it.item_id, "group_id": it.group_id,
                       "split": it.split, "kind": it.kind, "text": it.text, "text_pair": it.text_pair,
                       "aspect": it.aspect, "gold": it.label, "prediction": p.label,
                       "correct": None if it.label is None else p.label == it.label, "seed": p.seed}


def render(rows: Iterator[dict[str, Any]], fmt: str) -> str:
    """The table as CSV (header, empty cells for nulls, ``true``/``false``) or JSON lines."""
    if fmt not in FORMATS:
        raise ConfigError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if fmt == "jsonl":
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(COLUMNS), lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if v is None else str(v).lower() if isinstance(v, bool) else v) for k, v in r.items()})
    return buf.getvalue()
