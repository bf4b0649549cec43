"""HTML report section of the SENTiVENT suites: metric table with CIs, per-label table and a
confusion-matrix heat map as inline SVG (``render/templates/suites/sentivent.html.j2``). Every piece of text is
escaped (autoescape; :func:`html.escape` in the SVG)."""
from __future__ import annotations

from html import escape
from typing import Any

from ...render import fragment, render


def confusion_svg(matrix: list[list[int]], labels: list[str], *, cell: int = 48) -> str:
    """Heat map of a confusion matrix (rows gold, columns predicted); shade by row share (recall)."""
    k = len(labels)
    left, top = 96, 64
    w, h = left + k * cell + 12, top + k * cell + 28
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" role="img" '
           f'aria-label="confusion matrix" font-family="sans-serif" font-size="11">']
    for j, lab in enumerate(labels):
        x = left + j * cell + cell / 2
        out.append(f'<text x="{x:.1f}" y="{top - 8}" text-anchor="middle">{escape(str(lab))}</text>')
        out.append(f'<text x="{left - 6}" y="{top + j * cell + cell / 2 + 4:.1f}" text-anchor="end">'
                   f'{escape(str(lab))}</text>')
    for i, row in enumerate(matrix):
        total = sum(row) or 1
        for j, v in enumerate(row):
            share = v / total
            x, y = left + j * cell, top + i * cell
            color = "#2e7d32" if i == j else "#c62828"
            fg = "#fff" if share > 0.55 else "#000"
            tip = escape(f"gold {labels[i]} predicted {labels[j]}: {v} ({100 * share:.1f}% of gold {labels[i]})")
            out.append(f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" fill="{color}" '
                       f'fill-opacity="{0.08 + 0.92 * share:.3f}"><title>{tip}</title></rect>')
            out.append(f'<text x="{x + cell / 2 - 1:.1f}" y="{y + cell / 2 + 3:.1f}" text-anchor="middle" '
                       f'fill="{fg}">{int(v)}</text>')
    out.append(f'<text x="{left}" y="{top - 40}">{escape("predicted →")}</text>')
    out.append(f'<text x="4" y="{top - 40}">{escape("gold ↓")}</text>')
    out.append(f'<text x="{left}" y="{h - 8}" fill="#555">{escape("shade: share of the gold row")}</text></svg>')
    return "".join(out)


def render_section(suite: str, result: dict[str, Any]) -> str:
    """The section for one suite's results entry (``{"metrics": ..., "details": ...}``): what is SENTiVENT's
    (the headline metrics are in the report's own metric table)."""
    details = result.get("details", {})
    cm, labels = details.get("confusion_matrix"), details.get("labels")
    notes = []
    if details.get("n_missing_predictions"):
        notes.append(f"{details['n_missing_predictions']} missing predictions counted as wrong")
    if details.get("n_invalid_predictions"):
        notes.append(f"{details['n_invalid_predictions']} predictions outside the label set counted as wrong")
    lex = details.get("lexicon") or {}
    if lex.get("label"):
        notes.append(f"lexicon features: {lex['label']}")
    return render("suites/sentivent.html.j2", per_label=details.get("per_label") or [], notes=notes,
                  confusion=fragment(confusion_svg(cm, [str(x) for x in labels]) if cm and labels else ""))
