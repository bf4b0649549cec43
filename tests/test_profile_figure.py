"""The Profile figure's layout rules, without a browser (the rendered coordinates are checked in
test_report_browser.py): styles stay distinct for as many models as it draws, each scale gets its own panel and
axis, rows over too few units are dashed and marked, and a figure that cannot tell the models apart is not
drawn but said."""
from __future__ import annotations

import re

from _profile_kit import nine_model_docs
from sentiprobe.render.profile import COLOURS, MARKERS, MAX_MODELS, model_style, profile
from sentiprobe.report.html import render_comparison


def test_every_model_has_its_own_style_up_to_the_maximum():
    styles = [model_style(k) for k in range(MAX_MODELS)]
    assert len(set(styles)) == MAX_MODELS
    assert len({s[0] for s in styles[:len(COLOURS)]}) == len(COLOURS)  # the first nine differ in colour
    assert len({s[1] for s in styles[:len(MARKERS)]}) == len(MARKERS)  # the first eight in shape too


def test_scales_have_their_own_panels_and_small_samples_are_dashed():
    rows = [("a: acc", "fraction"), ("b: r", "correlation"), ("c: acc", "fraction")]
    values = {"m1": {"a: acc": (0.5, 0.4, 0.6), "b: r": (0.027, -0.1, 0.15), "c: acc": (0.2, 0.0, 0.9)},
              "m2": {"a: acc": (0.7, 0.6, 0.8)}}
    svg = profile(rows, values, unreliable={"c: acc": "3 items < 30: interval unreliable"})
    assert "rates, 0 to 100 %" in svg and "correlations (r), \u22121 to 1" in svg
    ticks = re.findall(r'class="tick" data-panel="correlation"[^>]*>([^<]*)<', svg)
    assert ticks == ["\u22121", "\u22120.5", "0", "0.5", "1"]
    assert re.findall(r'data-row="c: acc" data-panel="fraction"', svg)
    dashed = re.findall(r'<line[^>]*stroke-dasharray[^>]*/>', svg)
    assert len(dashed) == 1 and "\u26a0 c: acc" in svg and "3 items &lt; 30: interval unreliable" in svg
    # rows in their panels: a over c (rates), then b (correlations) below both
    y = {lab: float(re.search(rf'class="band" data-row="{re.escape(lab)}" x="4" y="([\d.]+)"', svg).group(1))
         for lab, _ in rows}
    assert y["a: acc"] < y["c: acc"] < y["b: r"]


def test_too_many_models_for_one_figure_are_said_not_drawn():
    many = {f"m{k}": {"r": (0.5, 0.4, 0.6)} for k in range(MAX_MODELS + 1)}
    assert profile([("r", "fraction")], many) == ""
    docs = nine_model_docs()
    one = next(iter(docs.values()))
    html = render_comparison({f"model-{k}": one for k in range(MAX_MODELS + 1)}, None)
    assert f"no figure: {MAX_MODELS + 1} models are more than its {MAX_MODELS} distinct markers" in html
