"""The run directory: one layout whatever the number of models, and never a mix of two runs.

Layout::

    <out>/summary.json             configuration (with its hash), headline metric names, per-model metrics
    <out>/report.html              comparison report over the models (also with one model)
    <out>/comparison.json          paired comparisons of the models (two or more models)
    <out>/<model>/results.json     that model's full results document (schema in ``core/results.py``)
    <out>/<model>/predictions/<suite>.jsonl
    <out>/<model>/report.html
    <out>/<model>/run.log          what happened, including the error of a failed run
    <out>/references/<name>/       a reference system (published predictions, read, not run): results.json,
                                   predictions/, report.html

A directory that is not empty is reused only by the same configuration (``config_hash`` in
``summary.json``): that is resuming, and finished work comes back from the cache. Anything else is refused
unless ``overwrite``. Either way the old run's own files are removed first (so a suite that fails this time
leaves no stale predictions beside the new results), and files sentiprobe did not write are never touched.
"""
from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..core.hashing import stable_hash
from ..core.io import PART_SUFFIX, is_partial_write, loads_json

TOP_FILES = ("summary.json", "report.html", "comparison.json", "results.json", "run.log")
"""Top-level files a run writes (``results.json`` / ``run.log``: the one-model layout of older versions)."""
MODEL_FILES = ("results.json", "report.html", "run.log")
SUMMARY = "summary.json"


def config_hash(models: Sequence[tuple[str, Mapping[str, Any]]], config: Mapping[str, Any]) -> str:
    """Hash of what decides a run's results: suites, models and their configuration, data, seeds, scoring.

    Left out: where things go and how (out/cache directories, progress, cache repair), which do not change
    a number in the results.
    """
    keep = ("suites", "data_dir", "seed", "n_boot", "limit", "missing", "skip_unsupported", "suite_options")
    sample = {k: config.get(k) for k in ("limit_mode", "limit_seed")} if config.get("limit") is not None else {}
    return stable_hash({"models": [[m, dict(a)] for m, a in models],
                        **{k: config.get(k) for k in keep}, **sample}, 16)


def _previous_hash(out: Path) -> str | None:
    try:
        doc = loads_json((out / SUMMARY).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc.get("config_hash") if isinstance(doc, dict) else None


def prepare(out: Path, chash: str, *, overwrite: bool) -> None:
    """Make ``out`` ready for a run of configuration ``chash`` (see the module docstring)."""
    for p in (out, *out.parents):
        if p.exists() and not p.is_dir():
            raise ConfigError(f"--out {out}: {p} exists and is not a directory")
    if out.is_dir():
        _remove_partial_writes(out, TOP_FILES)  # a run killed while writing its first summary.json
    if out.is_dir() and any(out.iterdir()):
        prev = _previous_hash(out)
        if prev != chash and not overwrite:
            what = ("a run of a different configuration" if prev else
                    "files that are not a sentiprobe run of this configuration")
            raise ConfigError(f"--out {out} holds {what}; choose another --out or pass --overwrite "
                              "(which removes only sentiprobe's own files there)")
        remove_own(out)
    out.mkdir(parents=True, exist_ok=True)


def _remove_partial_writes(d: Path, names: Sequence[str]) -> None:
    for f in d.iterdir():
        if f.is_file() and not f.is_symlink() and is_partial_write(f, names):
            f.unlink()


def _remove_predictions(d: Path) -> None:
    if not d.is_dir() or d.is_symlink():
        return
    for f in d.iterdir():
        if f.is_file() and (f.suffix == ".jsonl" or f.name.endswith(PART_SUFFIX)):
            f.unlink()
    if not any(d.iterdir()):
        d.rmdir()


def remove_own(out: Path) -> list[str]:
    """Remove the files a sentiprobe run wrote in ``out`` (any layout); unknown files stay. Returns them."""
    removed = []
    for name in TOP_FILES:
        if (out / name).is_file():
            (out / name).unlink()
            removed.append(name)
    _remove_partial_writes(out, TOP_FILES)
    _remove_predictions(out / "predictions")
    refs = out / "references"  # the reference systems' directories (run/references.py)
    dirs = sorted(out.iterdir()) + (sorted(refs.iterdir()) if refs.is_dir() and not refs.is_symlink() else [])
    for d in dirs:
        if not d.is_dir() or d.is_symlink():
            continue
        if not any((d / n).is_file() for n in MODEL_FILES):
            continue  # not a model directory of ours
        for n in MODEL_FILES:
            if (d / n).is_file():
                (d / n).unlink()
                removed.append(f"{d.name}/{n}")
        _remove_partial_writes(d, MODEL_FILES)
        _remove_predictions(d / "predictions")
        if (d / "checkpoints").is_dir() and not (d / "checkpoints").is_symlink():
            shutil.rmtree(d / "checkpoints")  # fine-tuned weights of a --no-cache run
        if not any(d.iterdir()):
            d.rmdir()
    if refs.is_dir() and not refs.is_symlink() and not any(refs.iterdir()):
        refs.rmdir()
    return removed
