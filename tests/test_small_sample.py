"""Small-sample honesty: an interval over fewer than SMALL_SAMPLE_UNITS units is marked unreliable, with why, in
every place it is shown or written: the console table, the model's report, the comparison report,
results.json and comparison.json. The mark is derived from each metric's ``n`` (whatever computed it)."""
from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path

import pytest

import toy
from sentiprobe.cli import main
from sentiprobe.core.results import (SMALL_SAMPLE_UNITS, ResultsSchemaError, mark_small_sample_comparison,
                                     mark_small_samples, read_results, small_sample_note, validate_metric)
from sentiprobe.core.types import Metric
from sentiprobe.report.html import render_report

toy.register()


def test_the_rule_is_n_below_the_threshold_with_an_interval():
    small = Metric("ars", 0.0, 0.0, 0.0, 3).to_dict()
    assert small_sample_note(small, "source example") == "3 source examples < 30: interval unreliable"
    one = Metric("ars", 0.5, 0.1, 0.9, 1).to_dict()
    assert small_sample_note(one, "review") == "1 review < 30: interval unreliable"
    assert small_sample_note(Metric("ars", 0.5, 0.4, 0.6, SMALL_SAMPLE_UNITS).to_dict()) is None
    assert small_sample_note(Metric("ars", 0.5, None, None, 3).to_dict()) is None  # no interval, nothing to mark
    assert small_sample_note(Metric.not_computable("ars", "no items", 0).to_dict()) is None
    marked = mark_small_samples({"ars": small, "big": Metric("big", 0.5, 0.4, 0.6, 400).to_dict()}, "item")
    assert marked["ars"]["small_sample"] is True and marked["ars"]["small_sample_note"].startswith("3 items < 30")
    assert "small_sample" not in marked["big"]
    validate_metric(marked["ars"], "m")
    with pytest.raises(ResultsSchemaError, match="small_sample_note"):
        validate_metric({**small, "small_sample": True}, "m")
    comp = mark_small_sample_comparison({"unit": "review", "n_units": 3,
                                         "systems": {"a": {"accuracy": {"value": 0.3, "ci_low": 0.0, "ci_high": 1.0,
                                                                        "n": 3}}}})
    assert comp["small_sample"] is True and comp["small_sample_note"].startswith("3 reviews < 30")
    assert comp["systems"]["a"]["accuracy"]["small_sample_note"] == "3 reviews < 30: interval unreliable"


def _check_run(out: Path, console: str, suites: list[str], models: list[str]) -> None:
    """Every headline cell with an interval carries the mark in the console, and each suite says why; every
    small metric is marked in results.json and in its model's report; the comparison is marked too."""
    for model in models:
        results = read_results(out / model)
        html = (out / model / "report.html").read_text(encoding="utf-8")
        for suite in suites:
            entry = results["suites"][suite]
            small = {k: m for k, m in entry["metrics"].items() if m.get("ci_low") is not None and m["n"] < 30}
            assert small, f"{model}/{suite}: a --limit 5 run has small intervals"
            for k, m in small.items():
                assert m.get("small_sample") is True and " < 30: interval unreliable" in m["small_sample_note"], k
            section = html.split(f'id="{suite}"')[1].split("<h2")[0]
            table = section.split("<table")[1]
            for k, m in small.items():
                row = next(r for r in table.split("<tr>") if f"<code>{k}</code>" in r)
                assert f"\u26a0 {escape(m['small_sample_note'])}" in row, (model, suite, k)
            assert "Small sample:" in section
            # the bar charts: no small metric's bar is left unmarked, and the marks are there
            assert not any(f">{k}</text>" in section for k in small)
            assert any(f"\u26a0 {k}</text>" in section for k in small)
    for line in console.splitlines():
        if line.strip().startswith(tuple(models)) and "[" in line:  # a model's row with an interval
            assert line.count("[") == line.count("\u2020"), line
    for suite in suites:
        # the suite's heading names its unit (``toy  (n = items)``)
        block = re.split(rf"\n{re.escape(suite)}(?:  \(n = [^)\n]*\))?\n", console)[1].split("\n\n")[0]
        assert re.search(r"\u2020 \d+ [a-z ]+ < 30: interval unreliable", block), block
    comparison = json.loads((out / "comparison.json").read_text())
    report = (out / "report.html").read_text(encoding="utf-8")
    for suite in suites:
        comp = comparison["suites"][suite]
        assert comp["small_sample"] is True and comp["small_sample_note"].endswith("paired tests are unreliable")
        for model in models:
            assert all(m["small_sample"] for m in comp["systems"][model].values() if m.get("ci_low") is not None)
        section = report.split(f'id="{suite}"')[1].split("<h2")[0]
        assert f"\u26a0 Small sample: {escape(comp['small_sample_note'])}" in section
        board = section.split('class="leaderboard"')[1].split("</table>")[0]
        assert board.count('<span class="muted">[') == board.count("\u26a0") > 0, board  # every interval, marked
        assert "\u26a0 unreliable: too few units" in section.split('class="pairwise"')[1]


def test_a_limit_5_run_marks_every_small_interval_toy(tmp_path, capsys):
    out = tmp_path / "r"
    code = main(["run", "--suite", "toy", "--model", "majority,slow-lexicon", "--out", str(out), "--limit", "5",
                 "--n-boot", "50", "--no-progress"])
    console = capsys.readouterr().out
    assert code == 0, console
    _check_run(out, console, ["toy"], ["majority", "slow-lexicon"])
    assert main(["compare", "--runs", str(out / "majority"), str(out / "slow-lexicon"), "--n-boot", "50"]) == 0
    assert "\u2020 6 items < 30: the intervals and paired tests are unreliable" in capsys.readouterr().out


@pytest.mark.realdata
def test_a_limit_5_run_marks_every_small_interval(tmp_path, capsys, data_dir):
    """The issue's examples: ARTS on 3 source examples and SOUL on 3 reviews."""
    out = tmp_path / "r"
    code = main(["run", "--suite", "arts-rest,soul-rc", "--model", "majority,tfidf-lr", "--out", str(out),
                 "--limit", "5", "--n-boot", "50", "--no-progress", "--data-dir", str(data_dir)])
    console = capsys.readouterr().out
    assert code == 0, console
    _check_run(out, console, ["arts-rest", "soul-rc"], ["majority", "tfidf-lr"])
    assert "source examples < 30: interval unreliable" in console and "reviews < 30: interval unreliable" in console
    doc = read_results(out / "majority")
    assert "interval unreliable" in render_report(doc)
