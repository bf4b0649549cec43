"""Report defects found by a new user's session, each pinned by a test (issue 16 item 3)."""
from __future__ import annotations

import re

from sentiprobe.core.types import Metric
from sentiprobe.report.html import metrics_table, page
from sentiprobe.report.svg import ci_bars, heatmap, scatter


def test_metrics_carry_a_unit_and_display_follows_it():
    assert Metric("pearson_maxabs", 0.101, 0.002, 0.2, 259).unit == "correlation"
    assert Metric("ars", 0.5, 0.4, 0.6, 638).unit == "fraction"
    html = metrics_table({"pearson_maxabs": Metric("pearson_maxabs", 0.101, 0.002, 0.208, 259).to_dict(),
                          "macro_f1_all": Metric("macro_f1_all", 0.263, 0.202, 0.319, 259).to_dict()})
    assert "0.101" in html and "10.10" not in html and "26.30" in html  # r as r, rates as %
    assert "value (%)" not in html


def test_correlation_bars_use_an_r_axis():
    svg = ci_bars([("pearson_maxabs", 0.101, 0.002, 0.208)], unit="correlation")
    assert ">0.101<" in svg and "10.1" not in svg and ">-1.0<" in svg


def test_bar_labels_sit_right_of_the_whiskers():
    svg = ci_bars([("accuracy", 0.5, 0.3, 0.9)])
    whisker_end = max(float(x) for x in re.findall(r'x2="([\d.]+)"', svg))
    label_x = float(re.findall(r'<text x="([\d.]+)"[^>]*>50\.0%', svg)[0])
    assert label_x > whisker_end


def test_scatter_has_ticks_r_and_the_diagonal():
    svg = scatter([(0.0, 0.5), (1.0, 1.5), (2.0, 1.0)], xlabel="human", ylabel="model", r=0.5)
    assert "r = 0.500" in svg and "y = x" in svg
    assert len(re.findall(r'text-anchor="end" fill="#555"', svg)) >= 3  # y tick values
    assert re.search(r'<text x="14" y="[\d.]+" transform="rotate\(-90', svg)  # y label inside the canvas


def test_confusion_caption_fits():
    svg = heatmap([[1, 0, 0], [0, 1, 0], [0, 0, 1]], ["true", "false", "not-given"])
    width = int(re.search(r'width="(\d+)"', svg).group(1))
    assert width >= 250 and '<text x="4" y="14">rows: gold, columns: predicted</text>' in svg


def test_viewport_meta():
    assert '<meta name="viewport"' in page("t", "")


def test_limit_runs_get_a_banner_and_classifiers_no_prompt_template():
    from sentiprobe.report.html import _suite_section
    from sentiprobe.suites.soul.report import render_section

    entry = {"n_items": 20, "limit": 20, "metrics": {}, "cache": {}}
    assert 'class="banner"' in _suite_section("toy", entry)
    d = {"details": {"prompt_template": {"name": "rc-chat", "version": "1", "hash": "x"}, "modes": {"classify": 3}}}
    assert "prompt template" not in render_section("soul-rc", d)
    d["details"]["modes"] = {"generate": 3}
    assert "prompt template" in render_section("soul-rc", d)


def test_sentivent_metrics_appear_once():
    from sentiprobe.suites.sentivent.report import render_section

    html = render_section("sentivent-polar", {"metrics": {"accuracy": Metric("accuracy", .5, .4, .6, 9).to_dict()},
                                              "details": {}})
    assert "accuracy" not in html  # the report's metric table shows it; the section adds per-label detail


def test_user_facing_notes_cite_papers_or_docs_not_internal_specs():
    """String literals a user can see (messages, notes, help) never cite the internal specs ("spec §6.4")."""
    import ast
    from pathlib import Path

    import sentiprobe

    pat = re.compile(r"\bspec (§|\d|section)")
    bad = []
    for f in Path(sentiprobe.__file__).parent.rglob("*.py"):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and n.body
                and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for n in ast.walk(tree):
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs and pat.search(n.value):
                bad.append(f"{f.name}:{n.lineno}: {n.value[:80]}")
    assert not bad, bad
