"""HTML fragment for the ARTS section of a report: strategy table with CIs, an inline-SVG bar chart
of the accuracy drop per strategy, and failure examples with the changed words marked.

Rendered from ``render/templates/suites/arts.html.j2`` (autoescape); the marked diffs and the chart escape every
piece of dataset or model text themselves. The fragment is self-contained (inline SVG, inline styles, no
scripts).
"""
from __future__ import annotations

import difflib
from html import escape
from typing import Any

from markupsafe import Markup

from ...render import fragment, render
from .formats import STRATEGY_NAMES
from .score import format_rate


def token_diff(a: str, b: str) -> tuple[str, str]:
    """Escaped HTML of ``a`` and ``b`` with differing tokens marked (``<del>`` in a, ``<mark>`` in b)."""
    ta, tb = a.split(), b.split()
    out_a: list[str] = []
    out_b: list[str] = []
    sm = difflib.SequenceMatcher(None, ta, tb, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        ea = " ".join(escape(t) for t in ta[i1:i2])
        eb = " ".join(escape(t) for t in tb[j1:j2])
        if op == "equal":
            out_a.append(ea)
            out_b.append(eb)
            continue
        if ea:
            out_a.append(f"<del>{ea}</del>")
        if eb:
            out_b.append(f"<mark>{eb}</mark>")
    return " ".join(x for x in out_a if x), " ".join(x for x in out_b if x)


def _float(s: Any) -> float | None:
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def drop_chart(bars: list[tuple[str, float]], width: int = 520) -> str:
    """Inline SVG: one horizontal bar per (label, change in percentage points), zero line in the middle."""
    if not bars:
        return ""
    row, label_w, pad = 26, 150, 60
    height = row * len(bars) + 30
    half = (width - label_w - 2 * pad) / 2
    zero = label_w + pad + half
    scale = half / max(1.0, max(abs(v) for _, v in bars))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="Accuracy change per strategy (percentage points)" style="font:12px sans-serif">']
    for i, (label, v) in enumerate(bars):
        y = 10 + i * row
        w = abs(v) * scale
        x = zero - w if v < 0 else zero
        colour = "#c0392b" if v < 0 else "#27ae60"
        parts.append(f'<text x="{label_w - 4}" y="{y + 15}" text-anchor="end">{escape(label)}</text>')
        parts.append(f'<rect x="{x:.1f}" y="{y + 3}" width="{w:.1f}" height="16" fill="{colour}"/>')
        tx = x - 4 if v < 0 else x + w + 4
        anchor = "end" if v < 0 else "start"
        parts.append(f'<text x="{tx:.1f}" y="{y + 15}" text-anchor="{anchor}">{v:+.2f}</text>')
    parts.append(f'<line x1="{zero:.1f}" y1="5" x2="{zero:.1f}" y2="{height - 20}" stroke="#333"/>')
    parts.append(f'<text x="{zero:.1f}" y="{height - 5}" text-anchor="middle">0 pp (change vs original)</text>')
    parts.append("</svg>")
    return "".join(parts)


def report_section(result: dict[str, Any], title: str = "ARTS") -> str:
    """HTML fragment for one ARTS result (``SuiteScore.to_dict()`` shape: ``metrics`` + ``details``), rendered
    from ``render/templates/suites/arts.html.j2``."""
    metrics = result.get("metrics") or {}
    details = result.get("details") or {}
    rows = []
    bars: list[tuple[str, float]] = []
    for r in details.get("strategies") or []:
        s = str(r.get("strategy", ""))
        name = str(r.get("name") or STRATEGY_NAMES.get(s, s))
        mc = r.get("paired") or {}
        c = mc.get("counts") or {}
        rows.append({"s": s, "name": name, "units": r.get("units", ""), "change": r.get("change_pp"),
                     "mcnemar_p": mc.get("p_value"), "welch_p": (r.get("welch") or {}).get("p"),
                     # the paired test: McNemar's p with its method and the discordant pairs in the tooltip
                     "mcnemar_title": f"{mc.get('method', '')}; {mc.get('pairs', '')} pairs: source right & "
                                      f"variant wrong {c.get('b', '?')}, the reverse {c.get('c', '?')}",
                     "both": (r.get("both_not_in_paper") or {}).get("percent")})
        v = _float(r.get("change_pp"))
        if v is not None and r.get("units"):
            bars.append((name, v))
    total = _float(details.get("ars_minus_original_pp"))
    if total is not None:
        bars.append(("ARS (all variants)", total))
    examples = []
    for e in details.get("examples") or []:
        src, var = e.get("source") or {}, e.get("variant") or {}
        a, b = token_diff(str(src.get("text", "")), str(var.get("text", "")))
        s = str(e.get("strategy", ""))
        examples.append({"strategy": STRATEGY_NAMES.get(s, s), "source": src, "variant": var, "a": Markup(a),
                         "b": Markup(b)})
    warnings = [str(w.get("item_id")) for w in details.get("data_warnings") or []]
    return render("suites/arts.html.j2", title=str(title), metrics=metrics, details=details,
                  counts=details.get("counts") or {}, confidence=result.get("confidence"), rows=rows,
                  chart=fragment(drop_chart(bars)), missing=details.get("missing") or {}, examples=examples,
                  warnings=warnings, rate=_pct)


def _pct(v: float | None) -> str:
    return format_rate(v) or "\u2014"


def render_section(name: str, entry: dict[str, Any]) -> str:
    """The report stage: the section of one ARTS suite's results entry (pure, escaped)."""
    return report_section(entry, title=f"ARTS: {name}")
