"""The Profile figure of a comparison report: every model's headline value and interval on every suite.

What it must not do is mislead, so its layout follows three rules:

- **each row is a band**: a row's height grows with the number of models, so every model's marker (offset
  vertically so that equal values do not hide each other) stays inside its own row's band, never in a
  neighbour's; bands are shaded alternately so the eye reads them as rows;
- **each model has its own style**: a colour from Paul Tol's colour-blind-safe *muted* palette and a marker
  shape, paired so that no two models share both for up to :data:`MAX_MODELS` models (the shapes alone tell the
  first eight apart, the colours alone the first nine); past 72 models the marker is drawn hollow;
- **each scale has its own axis**: rates on a 0-100 % axis, correlations and coefficients on their own -1...1
  axis with its zero marked, scores on 0-1; one panel per scale, each with its ticks, so a correlation of 0.03
  never sits where 51 % would.

An interval over fewer than :data:`~sentiprobe.core.results.SMALL_SAMPLE_UNITS` units is drawn dashed and its row
label marked (the interval is unreliable at that size). Pure SVG, every label escaped.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

COLOURS = ("#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77", "#CC6677", "#882255", "#AA4499")
"""Paul Tol's muted qualitative palette (colour-blind safe), in his order."""

MARKERS = ("circle", "square", "triangle-up", "diamond", "triangle-down", "plus", "star", "hexagon")
"""Marker shapes; 8 is coprime with the 9 colours, so (colour, shape) pairs repeat only after 72 models."""

MAX_MODELS = 2 * len(COLOURS) * len(MARKERS)
"""The most models the figure tells apart (filled, then hollow markers); beyond, it is not drawn."""

R = 4.5
"""A marker's half-size in px."""
STEP = 7
"""Vertical distance between two models' markers in a row."""


def model_style(k: int) -> tuple[str, str, bool]:
    """(colour, marker shape, hollow) of the ``k``-th model: distinct for every ``k`` < :data:`MAX_MODELS`
    (colour ``k mod 9`` and shape ``k mod 8`` are a pair unique below 72 by the Chinese remainder theorem)."""
    return COLOURS[k % len(COLOURS)], MARKERS[k % len(MARKERS)], (k // (len(COLOURS) * len(MARKERS))) % 2 == 1


def _polygon(points: Sequence[tuple[float, float]]) -> str:
    return "M" + " L".join(f"{x:.2f},{y:.2f}" for x, y in points) + " Z"


def marker_path(shape: str, r: float = R) -> str:
    """The SVG path of a marker centred on the origin (place it with ``transform="translate(x,y)"``)."""
    if shape == "circle":
        return f"M{-r:.2f},0 A{r:.2f},{r:.2f} 0 1,0 {r:.2f},0 A{r:.2f},{r:.2f} 0 1,0 {-r:.2f},0 Z"
    if shape == "square":
        s = r * 0.85
        return _polygon([(-s, -s), (s, -s), (s, s), (-s, s)])
    if shape == "triangle-up":
        return _polygon([(0, -r), (r, r * 0.8), (-r, r * 0.8)])
    if shape == "triangle-down":
        return _polygon([(0, r), (r, -r * 0.8), (-r, -r * 0.8)])
    if shape == "diamond":
        return _polygon([(0, -r), (r, 0), (0, r), (-r, 0)])
    if shape == "plus":
        t = r * 0.38
        return _polygon([(-t, -r), (t, -r), (t, -t), (r, -t), (r, t), (t, t), (t, r), (-t, r), (-t, t), (-r, t),
                         (-r, -t), (-t, -t)])
    if shape == "star":
        pts = []
        for i in range(10):
            rad = r if i % 2 == 0 else r * 0.45
            a = -math.pi / 2 + i * math.pi / 5
            pts.append((rad * math.cos(a), rad * math.sin(a)))
        return _polygon(pts)
    if shape == "hexagon":
        return _polygon([(r * math.cos(math.pi / 6 + i * math.pi / 3), r * math.sin(math.pi / 6 + i * math.pi / 3))
                         for i in range(6)])
    raise ValueError(f"unknown marker shape {shape!r}")


def _marker(k: int, x: float, y: float, title: str = "", extra: str = "") -> str:
    colour, shape, hollow = model_style(k)
    fill = "#fff" if hollow else colour
    tip = f"<title>{escape(title)}</title>" if title else ""
    return (f'<path d="{marker_path(shape)}" transform="translate({x:.1f},{y:.1f})" fill="{fill}" '
            f'stroke="{colour if hollow else "#333"}" stroke-width="{1.4 if hollow else 0.6}" '
            f'data-colour="{colour}" data-marker="{shape}{"-hollow" if hollow else ""}"{extra}>{tip}</path>')


PANELS = (("fraction", "rates, 0 to 100 %", 0.0, 1.0), ("correlation", "correlations (r), \u22121 to 1", -1.0, 1.0),
          ("coefficient", "agreement coefficients, \u22121 to 1", -1.0, 1.0), ("score", "scores, 0 to 1", 0.0, 1.0))
"""One panel per scale: (unit, heading, axis low, axis high); an unknown unit is drawn with the rates."""


def _fmt(v: float, unit: str) -> str:
    return f"{100 * v:.1f}%" if unit == "fraction" else f"{v:.3f}"


def _tick(v: float, unit: str) -> str:
    return f"{100 * v:.0f}%" if unit == "fraction" else f"{v:g}".replace("-", "\u2212")  # a minus sign


Values = Mapping[str, Mapping[str, tuple[float | None, float | None, float | None]]]


def profile(rows: Sequence[tuple[str, str]], values: Values, *, width: int = 900, label_w: int = 250,
            unreliable: Mapping[str, str] | None = None) -> str:
    """The Profile figure (see the module docstring).

    ``rows``: (label, unit) per row; ``values[model][label] = (value, ci_low, ci_high)``; ``unreliable``: row
    label -> why its intervals are unreliable (too few units): those whiskers are dashed and the row marked.
    Returns '' when there are more models than the figure can tell apart (:data:`MAX_MODELS`).
    """
    models = list(values)
    if not models or not rows or len(models) > MAX_MODELS:
        return ""
    unreliable = unreliable or {}
    row_h = max(26, int((len(models) - 1) * STEP + 2 * R + 12))
    plot_w = width - label_w - 30
    col_w = max(180, 7 * max(len(m) for m in models) + 28)  # ~7 px per 11 px character
    per_row = max(1, (width - 20) // col_w)
    legend_h = 20 * ((len(models) + per_row - 1) // per_row) + 6
    out: list[str] = []
    for k, m in enumerate(models):
        lx, ly = 16 + (k % per_row) * col_w, 12 + (k // per_row) * 20
        out.append(f'<g class="legend-entry" data-model="{escape(m)}">{_marker(k, lx, ly)}'
                   f'<text x="{lx + 10}" y="{ly + 4}">{escape(m)}</text></g>')
    y = legend_h
    if unreliable:
        out.append(f'<text x="10" y="{y + 12}" fill="#a50">\u26a0 dashed interval: fewer units than a reliable '
                   "interval needs (see the row)</text>")
        y += 18
    units = {u for _, u in rows}
    known = {p[0] for p in PANELS}
    n_band = 0
    for unit, heading, lo, hi in PANELS:
        panel = [(lab, u) for lab, u in rows if u == unit or (unit == "fraction" and u not in known)]
        if not panel:
            continue
        if len(units) > 1 or unit != "fraction":
            out.append(f'<text x="10" y="{y + 14}" font-weight="bold" class="panel-heading">{escape(heading)}</text>')
            y += 20
        top = y

        def x(v: float, lo: float = lo, hi: float = hi) -> float:
            return label_w + (min(max(v, lo), hi) - lo) / (hi - lo) * plot_w

        bottom = top + row_h * len(panel)
        for i, (label, _) in enumerate(panel):  # the bands first: the grid and the markers lie on them
            shade = "#f1f4f8" if (n_band + i) % 2 == 0 else "#fff"
            out.append(f'<rect class="band" data-row="{escape(label)}" x="4" y="{top + i * row_h}" '
                       f'width="{width - 8}" height="{row_h}" fill="{shade}"/>')
        n_band += len(panel)
        for t in range(5):
            tv = lo + (hi - lo) * t / 4
            out.append(f'<line x1="{x(tv):.1f}" x2="{x(tv):.1f}" y1="{top}" y2="{bottom}" '
                       f'stroke="{"#999" if tv == 0 and lo < 0 else "#ddd"}" stroke-width="0.8"/>'
                       f'<text class="tick" data-panel="{unit}" x="{x(tv):.1f}" y="{bottom + 13}" '
                       'text-anchor="middle" fill="#666">'
                       f"{_tick(tv, unit)}</text>")
        for label, _ in panel:
            why = unreliable.get(label)
            mark = "\u26a0 " if why else ""
            tip = f"<title>{escape(why)}</title>" if why else ""
            out.append(f'<g class="row" data-row="{escape(label)}">'
                       f'<text x="{label_w - 10}" y="{y + row_h / 2 + 4:.1f}" text-anchor="end">{mark}{escape(label)}'
                       f"{tip}</text>")
            if all(values[m].get(label, (None,))[0] is None for m in models):
                out.append(f'<text x="{label_w + 8}" y="{y + row_h / 2 + 4:.1f}" fill="#777">not computable for '
                           "any model (see the suite's section)</text>")
            for k, m in enumerate(models):
                v, cl, ch = values[m].get(label, (None, None, None))
                if v is None:
                    continue
                colour = model_style(k)[0]
                yc = y + 6 + R + k * STEP
                interval = ""
                if cl is not None and ch is not None:
                    dash = ' stroke-dasharray="3 2"' if why else ""
                    out.append(f'<line x1="{x(cl):.1f}" x2="{x(ch):.1f}" y1="{yc:.1f}" y2="{yc:.1f}" '
                               f'stroke="{colour}" stroke-width="1.6"{dash}/>')
                    interval = f" [{_fmt(cl, unit)}, {_fmt(ch, unit)}]" + (f" ({why})" if why else "")
                out.append(_marker(k, x(v), yc, f"{m}, {label}: {_fmt(v, unit)}{interval}",
                                   f' class="dot" data-model="{escape(m)}" data-row="{escape(label)}" '
                                   f'data-panel="{unit}" '
                                   f'data-value="{v!r}"'))
            out.append("</g>")
            y += row_h
        y += 22
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}" font-size="11" '
            'font-family="sans-serif" role="img" class="plot profile" '
            'aria-label="profile of the models across suites">')
    return head + "".join(out) + "</svg>"


__all__ = ["COLOURS", "MARKERS", "MAX_MODELS", "marker_path", "model_style", "profile"]
