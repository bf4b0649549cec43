"""ARTS report fragment: escaping, strategy table, SVG chart, failure examples with marked changes."""
from __future__ import annotations

from sentiprobe.core.types import Item
from sentiprobe.suites import get_suite
from sentiprobe.suites.arts.report import drop_chart, render_section, report_section, token_diff
from sentiprobe.suites.arts.score import predictions_from_mapping

EVIL = "<script>alert('x')</script>"


def test_token_diff_marks_changes_and_escapes():
    a, b = token_diff("Nice screen, keyboard works great!", "Bad screen, but keyboard works <b>great!")
    assert a == "<del>Nice</del> screen, keyboard works <del>great!</del>"
    assert b == "<mark>Bad</mark> screen, <mark>but</mark> keyboard works <mark>&lt;b&gt;great!</mark>"


def test_drop_chart_is_inline_svg():
    svg = drop_chart([("RevTgt", -22.32), ("A<B", 1.5)])
    assert svg.startswith("<svg") and svg.endswith("</svg>") and "A&lt;B" in svg and "-22.32" in svg
    assert drop_chart([]) == ""


def test_report_section_escapes_dataset_and_model_text(tmp_path):
    suite = get_suite("arts-laptop", data_dir=tmp_path)
    items = [Item("s_0", "s_0", "test", f"The {EVIL} screen is nice.", "positive", aspect=EVIL),
             Item("s_0_adv1", "s_0", "test", f"The {EVIL} screen is bad.", "negative", aspect=EVIL, kind="revtgt"),
             Item("s_0_adv3", "s_0", "test", f"The {EVIL} screen is nice, but keys are bad.", "positive",
                  aspect=EVIL, kind="adddiff")]
    res = suite.score(items, predictions_from_mapping({"s_0": "positive", "s_0_adv1": "positive",
                                                       "s_0_adv3": "positive"}), n_boot=50)
    html = suite.report_section(res.to_dict())
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<svg" in html and "RevTgt" in html and "AddDiff" in html
    assert "<mark>bad.</mark>" in html and "<del>nice.</del>" in html
    assert "Robustness failures" in html and "s_0_adv1" in html
    assert "ARS" in html and "0.00" in html  # ARS is 0/1 units
    assert report_section({}).startswith('<section class="sp-arts">')
    assert "ARTS: arts-laptop" in html and render_section("<b>x</b>", {}).count("&lt;b&gt;x") == 1
