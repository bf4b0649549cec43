"""Stage ``report`` (pure): the LexComp section of a results entry, escaped HTML (a template of
:mod:`sentiprobe.render`).

Shows the probe next to the docs/protocols/lexcomp.md#majority-baselines majority baselines (and the control task /
selectivity when the probe trained one), ablation bars (docs/protocols/lexcomp.md#ablations), the per-layer accuracy
curve, and the probe configuration.
"""
from __future__ import annotations

from html import escape
from typing import Any

from ...render import fragment, render
from ...render.svg import ci_bars


def _curve(points: list[tuple[str, float]], width: int = 420, height: int = 160) -> str:
    """A small line chart of accuracy per layer (0..L-1), y in [0, 1]."""
    if not points:
        return ""
    n = len(points)
    xs = [40 + i * (width - 60) / max(n - 1, 1) for i in range(n)]
    ys = [height - 20 - v * (height - 40) for _, v in points]
    path = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys))
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
            'font-size="10" font-family="sans-serif">'),
           f'<polyline points="{path}" fill="none" stroke="#6c8ebf" stroke-width="2"/>']
    for (k, v), x, y in zip(points, xs, ys):
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="#6c8ebf"><title>layer {escape(k)}: '
                   f'{100 * v:.1f}</title></circle>')
        out.append(f'<text x="{x:.1f}" y="{height - 5}" text-anchor="middle">{escape(k)}</text>')
    out.append("</svg>")
    return "".join(out)


def render_section(name: str, entry: dict[str, Any]) -> str:
    """The LexComp section of a results entry (``render/templates/suites/lexcomp.html.j2``)."""
    d = entry.get("details") or {}
    m = entry.get("metrics") or {}
    main = "span_f1" if d.get("task") == "phrase-type" else "accuracy"
    rows = [("probe (this model)", (m.get(main) or {}).get("value"))]
    if "control_accuracy" in m:
        rows.append(("control task", m["control_accuracy"].get("value")))
        rows.append(("selectivity", m.get("selectivity", {}).get("value")))
    for k, v in (d.get("baselines") or {}).items():
        if isinstance(v, int | float) and not isinstance(v, bool):
            rows.append((k.replace("_", " "), v))
    ablations = ""
    abl = [(k, v) for k, v in m.items() if k.startswith("accuracy_ablation_") and v.get("value") is not None]
    if abl:
        bars = [("full model", m[main]["value"], m[main].get("ci_low"), m[main].get("ci_high"))]
        bars += [(k.removeprefix("accuracy_ablation_").replace("_", "+"), v["value"], v.get("ci_low"),
                  v.get("ci_high")) for k, v in abl]
        maj = (d.get("baselines") or {}).get("majority_all")
        if isinstance(maj, int | float):
            bars.append(("majority-all", float(maj), None, None))
        ablations = ci_bars(bars)
    pts = sorted(((k, float(v)) for k, v in (d.get("layers") or {}).items() if v is not None),
                 key=lambda kv: int(kv[0]))
    return render("suites/lexcomp.html.j2", details=d, rows=rows, best=(d.get("baselines") or {}).get("best"),
                  ablations=fragment(ablations), curve=fragment(_curve(pts)))
