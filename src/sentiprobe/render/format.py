"""Number formatting for reports: percentages (half-up), metric values by unit, intervals, p-values.

Plain strings; the templates escape them like any other text (see :mod:`sentiprobe.render.env`).
"""
from __future__ import annotations

import json
import math
from typing import Any

from ..core.rounding import percent
from ..core.types import metric_unit

DASH = "\u2014"

UNIT_LABELS = {"fraction": "%", "correlation": "r", "coefficient": "coefficient", "score": "score", "count": "count"}
"""How a metric unit reads in a column header."""


def pct(v: float | None) -> str:
    """A fraction as a percentage with two decimals (round half up), or an em dash (None, NaN, inf)."""
    if v is None or not math.isfinite(float(v)):
        return DASH
    return percent(float(v))


def pct1(v: Any, missing: str = "n/a") -> str:
    """A fraction as a percentage with one decimal (``0.8125`` -> ``81.2``); ``missing`` when not a number."""
    if not isinstance(v, int | float):
        return missing
    return f"{100 * float(v):.1f}"


def num(v: Any, digits: int = 2) -> str:
    """A number with ``digits`` decimals; an em dash for None, the text itself when it is not a number."""
    if v is None:
        return DASH
    try:
        return f"{float(v):.{digits}f}"
    except (TypeError, ValueError):
        return str(v)


def unit_of(m: dict[str, Any], name: str = "") -> str:
    """The metric's unit (``Metric.unit``); results written before units existed get it from the name."""
    return str(m.get("unit") or metric_unit(m.get("name") or name))


def format_value(name: str, v: float | None, unit: str | None = None) -> str:
    """A metric value for display by its unit: fractions as percentages with two decimals, correlations and
    coefficients with three decimals, counts as integers."""
    if v is None or not math.isfinite(float(v)):
        return DASH
    u = unit or unit_of({}, name)
    if u == "fraction":
        return pct(v)
    if u == "count":
        return str(round(v))
    return f"{v:.3f}"


def is_percentage(name: str, value: float | None, unit: str | None = None) -> bool:
    """Whether a metric is shown as a percentage (its unit is ``fraction``)."""
    return value is not None and (unit or unit_of({}, name)) == "fraction"


def signed(v: float, nd: int) -> str:
    """``+1.2`` / ``-0.4``; a value that rounds to zero is ``+0.0``, never ``-0.0``."""
    return f"{round(v, nd) + 0.0:+.{nd}f}"


def p_value(p: float) -> str:
    """A p-value with three significant digits (two below 0.001)."""
    return f"{p:.2g}" if p < 0.001 else f"{p:.3g}"


def text(v: Any) -> str:
    """``v`` as text; None as the empty string."""
    return "" if v is None else str(v)


def short(v: Any, width: int = 80) -> str:
    """A value as text (JSON for non-strings), cut to ``width`` characters with an ellipsis."""
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, default=str)
    return text if len(text) <= width else text[: width - 1] + "\u2026"


__all__ = ["DASH", "UNIT_LABELS", "format_value", "is_percentage", "num", "p_value", "pct", "pct1",
           "short", "signed", "text", "unit_of"]


def describe_limit(record: Any, n_items: Any = None) -> str:
    """One sentence for banners: how the limited items were chosen."""
    if not record:
        return ""
    if not isinstance(record, dict):
        return f"only the first {record} test items were used ({n_items} items scored)"
    if record.get("mode") == "first":
        return (f"only the first {record.get('n_items')} of {record.get('of_items')} test items were used "
                f"(--limit {record.get('value')} --limit-mode first)")
    strat = ", stratified by gold label" if record.get("stratified_by") else ""
    units = "" if record.get("unit") == "item" else \
        f"{record.get('n_units')} of {record.get('of_units')} {record.get('unit')}s, "
    return (f"a seeded random sample (seed {record.get('seed')}{strat}): {units}{record.get('n_items')} of "
            f"{record.get('of_items')} test items (--limit {record.get('value')}; sample #{record.get('units_hash')})")
