"""Tiny inline-SVG charts (no plotting dependency). All labels are escaped."""
from __future__ import annotations

from collections.abc import Sequence
from html import escape


def ci_bars(rows: Sequence[tuple[str, float, float | None, float | None]], *, width: int = 640,
            bar_h: int = 18, label_w: int = 210, lo: float = 0.0, hi: float = 1.0) -> str:
    """Horizontal bars with confidence-interval whiskers for values in [lo, hi]."""
    h = bar_h * len(rows) + 24
    plot_w = width - label_w - 60
    span = (hi - lo) or 1.0

    def x(v: float) -> float:
        return label_w + (min(max(v, lo), hi) - lo) / span * plot_w

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" role="img" '
           f'font-size="11" font-family="sans-serif">']
    for i, (name, v, cl, ch) in enumerate(rows):
        y = 4 + i * bar_h
        out.append(f'<text x="{label_w - 6}" y="{y + bar_h * 0.7:.1f}" text-anchor="end">{escape(name)}</text>')
        out.append(f'<rect x="{label_w}" y="{y + 3}" width="{x(v) - label_w:.1f}" height="{bar_h - 6}" '
                   f'fill="#6c8ebf"><title>{escape(name)}: {v:.4f}</title></rect>')
        if cl is not None and ch is not None:
            yc = y + bar_h / 2
            out.append(f'<line x1="{x(cl):.1f}" x2="{x(ch):.1f}" y1="{yc}" y2="{yc}" stroke="#222"/>')
        out.append(f'<text x="{x(v) + 4:.1f}" y="{y + bar_h * 0.7:.1f}">{100 * v:.1f}</text>')
    axis_y = 4 + len(rows) * bar_h + 12
    for t in (0, 0.25, 0.5, 0.75, 1.0):
        tv = lo + t * span
        out.append(f'<text x="{x(tv):.1f}" y="{axis_y}" text-anchor="middle" fill="#777">{100 * tv:.0f}</text>')
    out.append("</svg>")
    return "".join(out)


def scatter(points: Sequence[tuple[float, float]], *, labels: Sequence[str] | None = None, width: int = 420,
            height: int = 420, xlabel: str = "", ylabel: str = "") -> str:
    """A scatter plot (e.g. model vs human ratings) with escaped point titles."""
    if not points:
        return ""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    pad = 40
    sx = (width - 2 * pad) / ((x1 - x0) or 1)
    sy = (height - 2 * pad) / ((y1 - y0) or 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-size="11" '
           f'font-family="sans-serif"><rect x="{pad}" y="{pad}" width="{width - 2 * pad}" '
           f'height="{height - 2 * pad}" fill="none" stroke="#ccc"/>']
    for i, (a, b) in enumerate(points):
        cx, cy = pad + (a - x0) * sx, height - pad - (b - y0) * sy
        t = f"<title>{escape(labels[i])}</title>" if labels else ""
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="2.5" fill="#6c8ebf" fill-opacity="0.6">{t}</circle>')
    out.append(f'<text x="{width / 2}" y="{height - 8}" text-anchor="middle">{escape(xlabel)}</text>')
    out.append(f'<text x="12" y="{height / 2}" transform="rotate(-90 12 {height / 2})" '
               f'text-anchor="middle">{escape(ylabel)}</text></svg>')
    return "".join(out)


def heatmap(matrix: Sequence[Sequence[int]], labels: Sequence[str], *, cell: int = 44) -> str:
    """A confusion-matrix heat map (rows gold, columns predicted)."""
    k = len(labels)
    top = 70
    left = 90
    mx = max((max(r) for r in matrix), default=1) or 1
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + k * cell + 10}" height="{top + k * cell + 10}" '
           f'font-size="11" font-family="sans-serif">']
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
    out.append(f'<text x="{left}" y="14">rows: gold, columns: predicted</text></svg>')
    return "".join(out)
