"""A sweep's tables say what their columns hold: under the interval header the pooled system's interval (the
seeds pooled on the same resamples, as comparison.json has it), the spread of the seeds in a column named for
it, and a model whose seeds all agree says so in words (toy suites: no data files)."""
from __future__ import annotations

import json
import re

import toy
from sentiprobe.core.types import Metric
from sentiprobe.render.format import format_value
from sentiprobe.report.html import render_comparison
from sentiprobe.run.executors import LocalExecutor
from sentiprobe.run.progress import results_table
from sentiprobe.run.sweep import parse_config, run_sweep
from sentiprobe.run.sweep_report import pooled_entry, table_summary

toy.register()

GRID = {"models": ["majority", {"name": "slow-lexicon", "label": "lex"}], "suites": ["toy"], "seeds": [0, 1],
        "n_boot": 50}


def _cell_text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def test_sweep_report_and_console_hold_the_pooled_interval_and_the_spread_apart(tmp_path):
    out = tmp_path / "sweep"
    run_sweep(parse_config(GRID), out, LocalExecutor())
    comparison = json.loads((out / "comparison.json").read_text())
    pooled = comparison["suites"]["toy"]["systems"]
    html = (out / "report.html").read_text()
    board = html.split('class="leaderboard"')[1].split("</table>")[0]
    assert "accuracy [95% CI]" in board and "accuracy: spread of the seeds (sd)" in board
    assert "mean \u00b1 sd" not in html and "\u00b1" not in board
    heads = re.findall(r"<th>(.*?)</th>", board)
    for label in ("majority", "lex"):
        p = pooled[label]["accuracy"]
        interval = (f"{format_value('', p['value'], 'fraction')} [{format_value('', p['ci_low'], 'fraction')}, "
                    f"{format_value('', p['ci_high'], 'fraction')}]")
        row = next(r for r in board.split("<tr>") if f">{label}</a>" in r)
        cells = dict(zip(heads, re.findall(r"<td[^>]*>(.*?)</td>", row), strict=True))
        assert _cell_text(cells["accuracy [95% CI]"]).startswith(interval), (cells, interval)
        spread = cells["accuracy: spread of the seeds (sd)"]
        assert "deterministic" in spread and "2 seeds" in spread  # both models ignore the seed
    table = results_table(table_summary(json.loads((out / "summary.json").read_text())))
    head = next(ln for ln in table.splitlines() if "accuracy (%)" in ln)
    assert "accuracy seed sd" in head
    for label in ("majority", "lex"):
        p = pooled[label]["accuracy"]
        line = next(ln for ln in table.splitlines() if ln.strip().startswith(label))
        assert f"[{format_value('', p['ci_low'], 'fraction')}, {format_value('', p['ci_high'], 'fraction')}]" in line
        assert "same on all 2 seeds (deterministic)" in line and "\u00b1" not in line


def _entry(value: float, n: int = 40) -> dict:
    return {"metrics": {"accuracy": Metric("accuracy", value, value - 0.1, value + 0.1, n).to_dict()},
            "seconds": {"score": 1.0}, "n_items": n}


def test_pooled_entry_puts_the_interval_and_the_spread_in_separate_fields():
    pooled = {"accuracy": {"value": 0.6, "ci_low": 0.45, "ci_high": 0.74, "n": 40}}
    e = pooled_entry([(0, _entry(0.5)), (1, _entry(0.7))], pooled)
    m = e["metrics"]["accuracy"]
    assert (m["value"], m["ci_low"], m["ci_high"], m["n"]) == (0.6, 0.45, 0.74, 40)
    assert m["n_seeds"] == 2 and abs(m["seed_mean"] - 0.6) < 1e-12 and abs(m["seed_sd"] - 0.1414213) < 1e-6
    # without a paired comparison (a one-model sweep) no interval is made up: the seeds' mean, said so
    alone = pooled_entry([(0, _entry(0.5)), (1, _entry(0.7))])["metrics"]["accuracy"]
    assert alone["ci_low"] is None and alone["ci_high"] is None and "no pooled interval" in alone["note"]
    docs = {"a": {"model": {"name": "a"}, "suites": {"toy": e}}, "b": {"model": {"name": "b"}, "suites": {
        "toy": pooled_entry([(0, _entry(0.3)), (1, _entry(0.3))], pooled)}}}
    board = render_comparison(docs, None).split('class="leaderboard"')[1].split("</table>")[0]
    assert "60.00 <span" in board and "[45.00, 74.00]" in board
    assert "14.14 <span" in board and "sd of 2 seeds, mean 60.00" in board
    assert "the same value on all 2 seeds (deterministic)" in board
    table = results_table({"headline": {"toy": ["accuracy"]}, "runs": {"a": {"suites": {"toy": e}}}})
    assert "60.00 [45.00, 74.00]" in table and "14.14 (2 seeds)" in table


def test_a_limited_sweep_marks_its_pooled_intervals_as_small_samples(tmp_path):
    out = tmp_path / "sweep"
    run_sweep(parse_config({**GRID, "limit": 5}), out, LocalExecutor())
    summary = json.loads((out / "summary.json").read_text())
    for label in ("majority", "lex"):
        m = summary["models"][label]["suites"]["toy"]["metrics"]["accuracy"]
        assert m["small_sample"] is True and m["small_sample_note"] == f"{m['n']} items < 30: interval unreliable"
    table = results_table(table_summary(summary))
    rows = [ln for ln in table.splitlines() if ln.strip().startswith(("majority ", "lex "))]
    assert rows and all("] \u2020" in ln for ln in rows) and "\u2020 6 items < 30: interval unreliable" in table
    assert "interval unreliable" in (out / "report.html").read_text()
