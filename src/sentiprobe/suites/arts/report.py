"""HTML fragment for the ARTS section of a report: strategy table with CIs, an inline-SVG bar chart
of the accuracy drop per strategy, and failure examples with the changed words marked.

Every piece of dataset or model text goes through :func:`html.escape`. The fragment is
self-contained (inline SVG, inline styles, no scripts).
"""
from __future__ import annotations

import difflib
from html import escape
from typing import Any

from ...core.types import ci_label
from .formats import STRATEGY_NAMES
from .score import format_rate


def _pct(v: float | None) -> str:
    return format_rate(v) or "—"


def _ci(m: dict[str, Any] | None) -> str:
    if not m or m.get("value") is None:
        return "—"
    s = _pct(m.get("value"))
    if m.get("ci_low") is not None and m.get("ci_high") is not None:
        s += f" <small>[{_pct(m['ci_low'])}, {_pct(m['ci_high'])}]</small>"
    return s


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


def _mcnemar_cell(mc: dict[str, Any]) -> str:
    """The paired test of a strategy: McNemar's p with its method and the discordant pairs in the tooltip."""
    p = mc.get("p_value")
    if p is None:
        return "<td>—</td>"
    c = mc.get("counts") or {}
    title = (f"{mc.get('method', '')}; {mc.get('pairs', '')} pairs: source right & variant wrong "
             f"{c.get('b', '?')}, the reverse {c.get('c', '?')}")
    return f'<td title="{escape(title)}">{escape(f"{p:.3g}")}</td>'


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
    """HTML fragment for one ARTS result (``SuiteScore.to_dict()`` shape: ``metrics`` + ``details``)."""
    metrics = result.get("metrics") or {}
    details = result.get("details") or {}
    h = [f'<section class="sp-arts"><h3>{escape(str(title))}</h3>']
    counts = details.get("counts") or {}
    ori, ars = metrics.get("accuracy_original"), metrics.get("ars")
    h.append("<p>Accuracy on the original examples: " + _ci(ori)
             + f" (n = {escape(str((ori or {}).get('n', '—')))}); Aspect Robustness Score (ARS): " + _ci(ars)
             + f" (n = {escape(str((ars or {}).get('n', '—')))} units; "
             + escape(f"{(counts.get('ars') or {}).get('correct', '—')} units fully correct") + "). "
             + "ARS − original: " + escape(str(details.get("ars_minus_original_pp") or "—")) + " pp.</p>")
    rows = details.get("strategies") or []
    bars: list[tuple[str, float]] = []
    if rows:
        ci = escape(ci_label(result.get("confidence")))
        h.append(f'<table class="sp-table"><thead><tr><th>Strategy</th><th>Units</th><th>Ori (%) [{ci}]</th>'
                 f'<th>New (%) [{ci}]</th><th>Change (pp)</th>'
                 '<th title="McNemar\'s test on each variant paired with its source example (the primary test)">'
                 'McNemar p (paired)</th><th title="independent samples, as in the paper">Welch p (paper\'s test)</th>'
                 '<th title="not a paper metric">Both (%)</th></tr></thead><tbody>')
        for r in rows:
            s = str(r.get("strategy", ""))
            name = str(r.get("name") or STRATEGY_NAMES.get(s, s))
            w = r.get("welch") or {}
            p = w.get("p")
            mc = r.get("paired") or {}
            both = (r.get("both_not_in_paper") or {}).get("percent")
            h.append(f"<tr><td>{escape(name)}</td><td>{escape(str(r.get('units', '')))}</td>"
                     f"<td>{_ci(metrics.get(f'accuracy_{s}_source'))}</td><td>{_ci(metrics.get(f'accuracy_{s}'))}</td>"
                     f"<td>{escape(str(r.get('change_pp') or '—'))}</td>{_mcnemar_cell(mc)}"
                     f"<td>{'—' if p is None else escape(f'{p:.3g}')}</td><td>{escape(str(both or '—'))}</td></tr>")
            v = _float(r.get("change_pp"))
            if v is not None and r.get("units"):
                bars.append((name, v))
        h.append("</tbody></table>")
    total = _float(details.get("ars_minus_original_pp"))
    if total is not None:
        bars.append(("ARS (all variants)", total))
    h.append(drop_chart(bars))
    miss = details.get("missing") or {}
    if miss.get("count"):
        h.append(f"<p>Missing predictions: {escape(str(miss['count']))} (counted as wrong); first: "
                 + escape(", ".join(map(str, miss.get("first_ids") or []))) + "</p>")
    ex = details.get("examples") or []
    if ex:
        h.append("<h4>Robustness failures (source right, variant wrong)</h4><table class=\"sp-table\"><thead><tr>"
                 "<th>Strategy</th><th>Aspect</th><th>Original</th><th>Variant</th><th>Gold → predicted</th>"
                 "</tr></thead><tbody>")
        for e in ex:
            src, var = e.get("source") or {}, e.get("variant") or {}
            a, b = token_diff(str(src.get("text", "")), str(var.get("text", "")))
            s = str(e.get("strategy", ""))
            h.append(f"<tr><td>{escape(STRATEGY_NAMES.get(s, s))}</td><td>{escape(str(var.get('aspect') or ''))}</td>"
                     f"<td>{a}<br><small>{escape(str(src.get('item_id', '')))}: {escape(str(src.get('gold')))} → "
                     f"{escape(str(src.get('predicted')))}</small></td><td>{b}<br><small>"
                     f"{escape(str(var.get('item_id', '')))}</small></td>"
                     f"<td>{escape(str(var.get('gold')))} → {escape(str(var.get('predicted')))}</td></tr>")
        h.append("</tbody></table>")
    warns = details.get("data_warnings") or []
    if warns:
        h.append(f"<p><small>{len(warns)} data warning(s) (tolerated irregularities of the released data): "
                 + escape("; ".join(str(w.get("item_id")) for w in warns[:10])) + "</small></p>")
    h.append(f"<p><small>{escape(str(details.get('rounding', '')))}</small></p></section>")
    return "".join(h)


def render_section(name: str, entry: dict[str, Any]) -> str:
    """The report stage: the section of one ARTS suite's results entry (pure, escaped)."""
    return report_section(entry, title=f"ARTS: {name}")
