"""Tiny inline-SVG charts (no plotting dependency). All labels are escaped. The comparison report's Profile
figure lives in :mod:`sentiprobe.render.profile` (re-exported here)."""
from __future__ import annotations

from collections.abc import Sequence
from html import escape

from .profile import profile


def _scale(unit: str) -> tuple[float, float, float, str]:
    """(lo, hi, display factor, suffix) of an axis for a metric unit."""
    if unit == "correlation":
        return -1.0, 1.0, 1.0, ""
    if unit in ("coefficient",):
        return -1.0, 1.0, 1.0, ""
    if unit == "score":
        return 0.0, 1.0, 1.0, ""
    return 0.0, 1.0, 100.0, "%"


def _fmt(v: float, factor: float) -> str:
    return f"{factor * v:.1f}" if factor == 100.0 else f"{v:.3f}"


def ci_bars(rows: Sequence[tuple[str, float, float | None, float | None]], *, width: int = 640,
            bar_h: int = 20, label_w: int = 210, unit: str = "fraction", title: str = "",
            unreliable: frozenset[str] | set[str] = frozenset()) -> str:
    """Horizontal bars with confidence-interval whiskers; the axis follows the metric unit (% for fractions,
    -1..1 for correlations). The value label sits right of the whisker, never on it. A row named in
    ``unreliable`` (an interval over too few units) gets a dashed whisker and a \u26a0 before its label."""
    lo, hi, factor, suffix = _scale(unit)
    h = bar_h * len(rows) + 30
    plot_w = width - label_w - 70
    span = hi - lo

    def x(v: float) -> float:
        return label_w + (min(max(v, lo), hi) - lo) / span * plot_w

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" role="img" '
           f'aria-label="{escape(title or "bar chart with confidence intervals")}" class="plot" '
           f'font-size="11" font-family="sans-serif">']
    zero = x(0.0)
    for i, (name, v, cl, ch) in enumerate(rows):
        y = 4 + i * bar_h
        mark = "\u26a0 " if name in unreliable else ""
        out.append(f'<text x="{label_w - 6}" y="{y + bar_h * 0.65:.1f}" text-anchor="end">{mark}{escape(name)}</text>')
        a, b = sorted((zero, x(v)))
        out.append(f'<rect x="{a:.1f}" y="{y + 4}" width="{max(b - a, 0.5):.1f}" height="{bar_h - 8}" '
                   f'fill="#6c8ebf"><title>{escape(name)}: {_fmt(v, factor)}{suffix}</title></rect>')
        end = x(v)
        if cl is not None and ch is not None:
            yc = y + bar_h / 2
            dash = ' stroke-dasharray="3 2"' if name in unreliable else ""
            out.append(f'<line x1="{x(cl):.1f}" x2="{x(ch):.1f}" y1="{yc}" y2="{yc}" stroke="#222"{dash}/>'
                       f'<line x1="{x(cl):.1f}" x2="{x(cl):.1f}" y1="{yc - 4}" y2="{yc + 4}" stroke="#222"/>'
                       f'<line x1="{x(ch):.1f}" x2="{x(ch):.1f}" y1="{yc - 4}" y2="{yc + 4}" stroke="#222"/>')
            end = max(end, x(ch))
        out.append(f'<text x="{end + 5:.1f}" y="{y + bar_h * 0.65:.1f}">{_fmt(v, factor)}{suffix}</text>')
    axis_y = 4 + len(rows) * bar_h + 14
    for t in (0, 0.25, 0.5, 0.75, 1.0):
        tv = lo + t * span
        tick = f"{factor * tv:.0f}" if factor == 100.0 else f"{tv:.1f}"
        out.append(f'<text x="{x(tv):.1f}" y="{axis_y}" text-anchor="middle" fill="#777">{tick}</text>')
    out.append("</svg>")
    return "".join(out)


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    if hi <= lo:
        return [lo]
    return [lo + (hi - lo) * k / (n - 1) for k in range(n)]


def scatter(points: Sequence[tuple[float, float]], *, labels: Sequence[str] | None = None, width: int = 460,
            height: int = 440, xlabel: str = "", ylabel: str = "", r: float | None = None,
            diagonal: bool = True) -> str:
    """A scatter plot (e.g. model vs human ratings): axis ticks with values, the diagonal y = x over the common
    range, Pearson's r in the corner when given, escaped point titles."""
    if not points:
        return ""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    left, right, top, bottom = 64, 16, 24, 48
    pw, ph = width - left - right, height - top - bottom
    sx = pw / ((x1 - x0) or 1)
    sy = ph / ((y1 - y0) or 1)

    def px(a: float) -> float:
        return left + (a - x0) * sx

    def py(b: float) -> float:
        return top + ph - (b - y0) * sy

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-size="11" '
           f'font-family="sans-serif" role="img" class="plot" aria-label="{escape(ylabel)} vs {escape(xlabel)}">'
           f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#ccc"/>']
    for t in _ticks(x0, x1):
        out.append(f'<line x1="{px(t):.1f}" x2="{px(t):.1f}" y1="{top + ph}" y2="{top + ph + 4}" stroke="#777"/>'
                   f'<text x="{px(t):.1f}" y="{top + ph + 16}" text-anchor="middle" fill="#555">{t:.2f}</text>')
    for t in _ticks(y0, y1):
        out.append(f'<line x1="{left - 4}" x2="{left}" y1="{py(t):.1f}" y2="{py(t):.1f}" stroke="#777"/>'
                   f'<text x="{left - 6}" y="{py(t) + 4:.1f}" text-anchor="end" fill="#555">{t:.2f}</text>')
    if diagonal:
        d0, d1 = max(x0, y0), min(x1, y1)
        if d1 > d0:
            out.append(f'<line x1="{px(d0):.1f}" y1="{py(d0):.1f}" x2="{px(d1):.1f}" y2="{py(d1):.1f}" '
                       f'stroke="#c66" stroke-dasharray="4 3"><title>y = x</title></line>')
    for i, (a, b) in enumerate(points):
        tip = f"<title>{escape(labels[i])}</title>" if labels else ""
        out.append(f'<circle cx="{px(a):.1f}" cy="{py(b):.1f}" r="2.5" fill="#6c8ebf" fill-opacity="0.6">'
                   f"{tip}</circle>")
    if r is not None:
        out.append(f'<text x="{left + 8}" y="{top + 14}" fill="#333">r = {r:.3f} (n = {len(points)})</text>')
    out.append(f'<text x="{left + pw / 2}" y="{height - 10}" text-anchor="middle">{escape(xlabel)}</text>')
    out.append(f'<text x="14" y="{top + ph / 2}" transform="rotate(-90 14 {top + ph / 2})" '
               f'text-anchor="middle">{escape(ylabel)}</text></svg>')
    return "".join(out)


def heatmap(matrix: Sequence[Sequence[int]], labels: Sequence[str], *, cell: int = 44) -> str:
    """A confusion-matrix heat map (rows gold, columns predicted)."""
    k = len(labels)
    top = 70
    left = 90
    mx = max((max(r) for r in matrix), default=1) or 1
    w = max(left + k * cell + 10, 250)  # room for the caption whatever the number of labels
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{top + k * cell + 10}" '
           f'font-size="11" font-family="sans-serif" role="img" aria-label="confusion matrix" class="plot">']
    for j, lab in enumerate(labels):
        out.append(f'<text x="{left + j * cell + cell / 2}" y="{top - 8}" text-anchor="middle">{escape(lab)}</text>')
        out.append(f'<text x="{left - 6}" y="{top + j * cell + cell / 2 + 4}" text-anchor="end">{escape(lab)}</text>')
    for i in range(k):
        for j in range(k):
            v = matrix[i][j]
            a = 0.1 + 0.9 * v / mx
            out.append(f'<rect x="{left + j * cell}" y="{top + i * cell}" width="{cell - 1}" height="{cell - 1}" '
                       f'fill="#3b6fb6" fill-opacity="{a:.2f}"/><text x="{left + j * cell + cell / 2}" '
                       f'y="{top + i * cell + cell / 2 + 4}" text-anchor="middle">{int(v)}</text>')
    out.append('<text x="4" y="14">rows: gold, columns: predicted</text></svg>')
    return "".join(out)


__all__ = ["ci_bars", "heatmap", "profile", "scatter"]
