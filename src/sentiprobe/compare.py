"""Paired comparison of several systems' predictions on one suite (the API behind ``sentiprobe compare``).

>>> from sentiprobe.compare import compare_predictions
>>> doc = compare_predictions("sentivent-polar", ["a.csv", "b.csv", "c.csv"])   # doctest: +SKIP
>>> doc["cochran_q"]["p_value"], [p["mcnemar"]["p_holm"] for p in doc["pairs"]]  # doctest: +SKIP

Every file is read with the suite's own reader (so published layouts work) and validated against the
suite's test items; the tests themselves are in :mod:`sentiprobe.stats.significance`.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .core.errors import ConfigError


def _names(paths: Sequence[str | Path], names: Sequence[str] | None) -> list[str]:
    if names is not None:
        if len(names) != len(paths):
            raise ConfigError(f"{len(names)} names for {len(paths)} prediction files")
        if len(set(names)) != len(names):
            raise ConfigError(f"system names must be unique: {list(names)}")
        return list(names)
    out: list[str] = []
    for p in paths:
        base = Path(p).stem
        name, k = base, 2
        while name in out:
            name, k = f"{base}#{k}", k + 1
        out.append(name)
    return out


def compare_predictions(suite: str, predictions: Sequence[str | Path], *, names: Sequence[str] | None = None,
                        reference: str | None = None, column: str | None = None, data_dir: str | None = None,
                        missing: str = "error", n_boot: int = 1000, seed: int = 0, alpha: float = 0.05,
                        exact_below: int = 25, metrics: Sequence[str] = ("accuracy", "macro_f1")) -> dict[str, Any]:
    """Per-system metrics, Cochran's Q, pairwise McNemar and paired bootstrap (Holm-adjusted).

    ``missing="wrong"`` scores missing predictions as wrong (they never match the gold label).
    See :func:`sentiprobe.stats.significance.compare_systems` for the document's layout.
    """
    from .stats.significance import compare_systems
    from .suites import get_suite

    if len(predictions) < 2:
        raise ConfigError("compare needs at least two prediction files")
    check_settings(n_boot=n_boot, alpha=alpha, exact_below=exact_below)
    s = get_suite(suite, data_dir)
    if s.task != "classify":
        raise ConfigError(f"suite {suite!r} is a {s.task} suite; compare works on classification suites")
    items = s.items("test")
    if any(it.label is None for it in items):
        raise ConfigError(f"suite {suite!r} has no gold label per item (its metrics compare model and human "
                          "ratings), so per-item paired tests do not apply; compare its runs' metrics instead")
    sys_names = _names(predictions, names)
    if reference is not None and reference not in sys_names:
        raise ConfigError(f"--reference {reference!r} is not one of the systems {sys_names}")
    systems: dict[str, list[str | None]] = {}
    suite_metrics: dict[str, Any] = {}
    missing_counts: dict[str, int] = {}
    for name, path in zip(sys_names, predictions):
        preds = s.read_predictions(path, column=column)
        by_id = s.check_predictions(items, preds, missing=missing, path=path)
        systems[name] = [by_id[it.item_id].label if it.item_id in by_id else None for it in items]
        missing_counts[name] = sum(it.item_id not in by_id for it in items)
        scored = s.score(items, preds, n_boot=n_boot, seed=seed, missing=missing)
        suite_metrics[name] = {k: m.to_dict() for k, m in scored.metrics.items()}
    doc = compare_systems([it.label for it in items], systems, s.labels, reference=reference, n_boot=n_boot,
                          seed=seed, alpha=alpha, exact_below=exact_below, metrics=metrics)
    doc.update({"suite": suite, "predictions": {n: str(p) for n, p in zip(sys_names, predictions)},
                "column": column, "missing_policy": missing, "missing_predictions": missing_counts,
                "suite_metrics": suite_metrics})
    return doc


def check_settings(*, n_boot: int, alpha: float, exact_below: int = 0) -> None:
    """ConfigError for resampling and test settings outside their domain (before any work is done)."""
    import math

    if isinstance(n_boot, bool) or not isinstance(n_boot, int) or n_boot < 0:
        raise ConfigError(f"--n-boot must be a non-negative integer, not {n_boot!r}")
    if not isinstance(alpha, float | int) or not math.isfinite(alpha) or not 0.0 < alpha < 1.0:
        raise ConfigError(f"--alpha must be a number in (0, 1), not {alpha!r}")
    if isinstance(exact_below, bool) or not isinstance(exact_below, int) or exact_below < 0:
        raise ConfigError(f"--exact-below must be a non-negative integer, not {exact_below!r}")
