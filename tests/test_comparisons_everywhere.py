"""Issue 20: paired comparisons where users look (points 1, 2, 3, 5, 6, 7, 8 of the issue).

Each test names the defect it guards against: the main job's comparison.json held ``"suites": {}`` because one
model ran on a single suite; sweeps reported jobs as models; every Holm p-value of well-separated models was the
floor of 1,000 resamples; the console was 144 columns wide with 55 "skipped" lines; ``--limit`` took the first
items; the report said "model arguments: none" for an LLM configured from the environment.
"""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

import toy
from sentiprobe import api
from sentiprobe.cli import main
from sentiprobe.compare import compare_runs
from sentiprobe.core.errors import ConfigError, SentiprobeError
from sentiprobe.core.types import Item
from sentiprobe.report.comparison import leaderboard, render_comparison
from sentiprobe.run.limit import apply_limit, describe_limit
from sentiprobe.run.progress import results_table
from sentiprobe.run.config import capability_problem
from sentiprobe.stats.paired import compare_units, competition_ranks, holm_resamples
from sentiprobe.stats.units import UnitMetric, UnitScores

toy.register()


def _table(values, correct=True):
    v = np.asarray(values, dtype=float)
    return UnitScores("item", len(v), len(v),
                      {"accuracy": UnitMetric("mean", {"values": v}, correct=v if correct else None)},
                      compared=("accuracy",))


# ---- 1. pairing over what ran ---------------------------------------------------------------------------
def test_a_model_that_ran_one_suite_blocks_no_other_suite(tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    api.run(["toy", "toy2"], ["slow-lexicon"], out=a, n_boot=50, progress=False)
    api.run(["toy"], ["majority"], out=b, n_boot=50, progress=False)
    api.run(["toy2"], ["majority"], model_args={}, out=c, n_boot=50, progress=False)
    doc = compare_runs([a / "slow-lexicon", b / "majority", c / "majority"], names=["lex", "maj-toy", "maj-toy2"],
                       n_boot=50, confidence=0.95)
    assert set(doc["suites"]) == {"toy", "toy2"} and not doc["not_compared"]
    assert doc["suites"]["toy"]["system_names"] == ["lex", "maj-toy"]
    assert doc["coverage"]["toy"]["not_run"] == ["maj-toy2"] and doc["suites"]["toy2"]["not_run"] == ["maj-toy"]
    html = render_comparison({n: json.loads((d / "results.json").read_text()) for n, d in
                              (("lex", a / "slow-lexicon"), ("maj-toy", b / "majority"), ("maj-toy2", c / "majority"))},
                             doc)
    assert html.count('class="pairwise"') == 4 and "not run on this suite" in html
    assert "no paired comparison" not in html


def test_a_suite_only_one_model_ran_says_so(tmp_path):
    api.run(["toy", "toy2"], ["slow-lexicon"], out=tmp_path / "a", n_boot=20, progress=False)
    api.run(["toy"], ["majority"], out=tmp_path / "b", n_boot=20, progress=False)
    doc = compare_runs([tmp_path / "a" / "slow-lexicon", tmp_path / "b" / "majority"], n_boot=20, confidence=0.95)
    assert list(doc["suites"]) == ["toy"] and doc["not_compared"]["toy2"] == "only 1 system ran it (slow-lexicon)"


# ---- model labels ------------------------------------------------------------------------------------------
def test_the_same_model_twice_under_two_labels(tmp_path, capsys):
    out = tmp_path / "r"
    assert main(["run", "--suite", "toy", "--model", "fast=slow-lexicon,small=slow-lexicon", "--model-arg",
                 "small:batch_size=3", "--out", str(out), "--n-boot", "20", "--no-progress", "--jobs", "1"]) == 0
    stdout = capsys.readouterr().out
    fast = json.loads((out / "fast" / "results.json").read_text())
    small = json.loads((out / "small" / "results.json").read_text())
    assert fast["model"]["label"] == "fast" and fast["model"]["name"] == "slow-lexicon" and fast["model"]["args"] == {}
    assert small["model"]["args"] == {"batch_size": "3"}
    assert json.loads((out / "comparison.json").read_text())["systems"] == ["fast", "small"]
    assert "  fast " in stdout and "  small " in stdout
    with pytest.raises(ConfigError, match="more than once"):
        api.run(["toy"], ["x=majority", "x=slow-lexicon"], out=tmp_path / "d", progress=False)
    with pytest.raises(ConfigError, match="model label"):
        api.run(["toy"], ["a/b=majority"], out=tmp_path / "e", progress=False)
    with pytest.raises(SentiprobeError, match="did you mean"):
        api.run(["toy"], ["a=majorty"], out=tmp_path / "f", progress=False)


# ---- 3. p-values a reviewer accepts ------------------------------------------------------------------------
def test_resamples_put_the_bootstrap_floor_below_the_strictest_holm_threshold():
    for n_tests in (1, 6, 30, 90):
        b = holm_resamples(n_tests, 0.05, 1000)
        assert b >= 1000 and 2 / (b + 1) < 0.05 / n_tests
    assert holm_resamples(30, 0.05, 0) == 0  # --n-boot 0 keeps the bootstrap off


def test_well_separated_systems_are_significant_and_the_floor_is_said():
    rng = np.random.default_rng(0)
    n = 400
    tables = {f"s{k}": _table(rng.random(n) < 0.3 + 0.15 * k, correct=False) for k in range(4)}
    doc = compare_units(tables, n_boot=200, seed=0, alpha=0.05)
    t = doc["tests"]
    assert t["n_tests"] == 6 and t["bootstrap_resamples"] >= 4 * 6 / 0.05
    assert t["p_floor"] < t["strictest_holm_threshold"]
    far = next(p for p in doc["pairs"] if {p["a"], p["b"]} == {"s0", "s3"})["metrics"]["accuracy"]
    assert far["at_floor"] and far["p_value"] == pytest.approx(t["p_floor"]) and far["significant"]
    assert "paired bootstrap" in far["test"]


def test_mcnemar_is_the_test_where_per_unit_correctness_exists():
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, 2, 300), rng.integers(0, 2, 300)
    e = compare_units({"a": _table(a), "b": _table(b)}, n_boot=100, seed=0,
                      alpha=0.05)["pairs"][0]["metrics"]["accuracy"]
    assert e["test"].startswith("McNemar") and e["p_value"] == e["mcnemar"]["p_value"]
    assert "bootstrap" in e and not e["at_floor"]


def test_ranks_share_ties_and_unrun_models_sit_unranked_at_the_bottom():
    assert competition_ranks({"a": 0.5, "b": 0.7, "c": 0.5, "d": None}) == {"a": 2, "b": 1, "c": 2, "d": None}
    m = {"value": 0.5, "ci_low": 0.4, "ci_high": 0.6, "n": 10, "unit": "fraction"}
    docs = {"zeta": {"suites": {"s": {"metrics": {"acc": m}}}},
            "alpha": {"suites": {"s": {"metrics": {"acc": {**m, "value": 0.9}}}}},
            "beta": {"suites": {"s": {"metrics": {"acc": m}}}},
            "gamma": {"suites": {}, "skipped": {"s": "cannot do it"}}}
    html = leaderboard("s", docs, ["acc"], {}, {"gamma": "not applicable: cannot do it"})
    rows = re.findall(r"<tr[^>]*><td[^>]*>(\d*)</td><td>([a-z]+)</td>", html)
    assert rows == [("1", "alpha"), ("2", "zeta"), ("2", "beta"), ("", "gamma")]
    assert "not applicable: cannot do it" in html and "ranked by acc" in html


def test_headings_name_metric_and_unit(tmp_path):
    api.run(["toy"], ["slow-lexicon", "majority"], out=tmp_path / "r", n_boot=30, progress=False)
    html = (tmp_path / "r" / "report.html").read_text()
    assert "()" not in html
    assert "<h3>accuracy (%): pairwise differences, in percentage points (pp)</h3>" in html
    assert "p<sub>Holm</sub>" in html and "Holm-corrected over the 2 tests" in html


# ---- 5. a console a person reads ---------------------------------------------------------------------------
def _summary(**entry):
    base = {"metrics": {"accuracy": {"value": 0.5, "ci_low": 0.4, "ci_high": 0.6, "n": 60, "unit": "fraction"}},
            "seconds": {"predict": 1.0}, "n_items": 60, "limit": None}
    return {"headline": {"s": ["accuracy"]}, "out": "runs/x",
            "runs": {"m": {"suites": {"s": {**base, **entry}}, "errors": {},
                           "skipped": {f"t{i}": "needs tokens" for i in range(55)}}}}


def test_table_fits_100_columns_with_n_limit_marker_and_one_skipped_line():
    long = {"type": "DataError", "message": "x" * 300}
    s = _summary(limit={"value": 20, "mode": "sample"})
    s["runs"]["m"]["errors"] = {"s2": long}
    text = results_table(s)
    lines = text.splitlines()
    assert max(len(ln) for ln in lines) <= 100
    assert sum("not applicable" in ln for ln in lines) == 1 and "55 (suite, model) pair(s)" in text
    row = next(ln for ln in lines if ln.startswith("  m "))
    assert "60*" in row and "50.00 [40.00, 60.00]" in row
    assert any(ln.startswith("* --limit") for ln in lines) and "FAILED: DataError" in text


def test_parse_failures_beside_the_headline_and_a_hint_when_nothing_parsed():
    pf = {"value": 0.125, "unit": "fraction", "n": 8}
    assert "parse failures 12.5%" in results_table(_summary(metrics={
        "accuracy": {"value": 0.5, "n": 8, "unit": "fraction"}, "parse_failure_rate": pf}))
    text = results_table(_summary(metrics={"accuracy": {"value": 0.0, "ci_low": 0.0, "ci_high": 0.0, "n": 8},
                                           "parse_failure_rate": {**pf, "value": 1.0}}))
    assert "no reply could be parsed" in text and "0.00 [0.00, 0.00]" not in text


def test_capability_messages_name_the_missing_capability():
    from sentiprobe.suites import SUITES

    msg = capability_problem(SUITES.get("lexcomp-phrase-type"), {"classify", "embed"}, "minilm-lr")
    assert "needs the capability 'tokens'" in msg and "the model has classify, embed" in msg
    assert "cannot classify" not in msg
    jg = SUITES.get("soul-jg")
    assert capability_problem(jg, {"classify"}, "tfidf-lr", bare=False) is None  # asked for explicitly: it runs
    assert "cannot generate" in capability_problem(jg, {"classify"}, "tfidf-lr", bare=True)
    assert capability_problem(jg, {"generate"}, "llm", bare=True) is None


def test_no_third_party_bars_without_a_terminal(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("HF_HUB_DISABLE_PROGRESS_BARS", raising=False)
    assert main(["run", "--suite", "toy", "--model", "majority", "--out", str(tmp_path / "r"), "--n-boot", "0",
                 "--no-progress"]) == 0
    import os

    assert os.environ.get("HF_HUB_DISABLE_PROGRESS_BARS") == "1"


def test_triplet_headline_is_f1():
    from sentiprobe.suites import SUITES

    assert SUITES.get("absa-triplet-explicit").headline[0] == "triplet_f1"
    assert SUITES.get("lexcomp-phrase-type").headline == ("span_f1",)


# ---- 6. --limit samples ------------------------------------------------------------------------------------
def _items():
    out = []
    for u in range(200):
        label = "pos" if u < 150 else "neg"  # a file sorted by label: its first items are all "pos"
        out.append(Item(f"u{u}", f"u{u}", "test", "source", label))
        out.append(Item(f"u{u}:v", f"u{u}", "test", "variant", "neg" if label == "pos" else "pos"))
    return out


def test_limit_samples_whole_units_stratified_by_the_unit_label():
    items = _items()
    first, rec_first = apply_limit(items, 40, mode="first")
    assert len(first) == 40 and all(it.group_id in {f"u{k}" for k in range(20)} for it in first)
    chosen, rec = apply_limit(items, 40, seed=3, unit="source example")
    units = {it.group_id for it in chosen}
    assert len(chosen) == 40 and len(units) == 20 and all(len([i for i in chosen if i.group_id == u]) == 2
                                                          for u in units)
    sources = [it for it in chosen if it.item_id == it.group_id]
    assert sum(it.label == "neg" for it in sources) == 5  # 25% of the units, as in the data (first: 0%)
    assert rec["mode"] == "sample" and rec["seed"] == 3 and rec["n_units"] == 20 and rec["of_units"] == 200
    assert rec["stratified_by"] == "gold label" and len(rec["units_hash"]) == 16
    assert apply_limit(items, 40, seed=3)[0] == chosen  # the same sample for every model of a run
    assert apply_limit(items, 40, seed=4)[1]["units_hash"] != rec["units_hash"]
    assert "seeded random sample (seed 3" in describe_limit(rec) and "first 40" in describe_limit(rec_first)


def test_every_model_of_a_run_gets_the_same_sample_and_the_report_says_how(tmp_path):
    doc = api.run(["toy"], ["majority", "slow-lexicon"], out=tmp_path / "r", n_boot=0, progress=False, limit=10,
                  limit_seed=7)
    a, b = (doc["runs"][m]["suites"]["toy"] for m in ("majority", "slow-lexicon"))
    assert a["items_hash"] == b["items_hash"] and a["limit"] == b["limit"] and a["limit"]["seed"] == 7
    comparison = json.loads((tmp_path / "r" / "comparison.json").read_text())
    assert comparison["suites"]["toy"]["n_units"] == 10  # the sampled items, found again by compare
    for page in ("report.html", "majority/report.html"):
        assert "seeded random sample (seed 7" in (tmp_path / "r" / page).read_text()


# ---- 7. model identity -------------------------------------------------------------------------------------
def test_identity_in_results_and_report(tmp_path):
    doc = api.run(["toy"], ["slow-lexicon"], model_args={"batch_size": "5"}, out=tmp_path / "r", n_boot=0,
                  progress=False)["runs"]["slow-lexicon"]
    ident = doc["model"]["identity"]
    assert ident["adapter"] == "slow-lexicon" and ident["class"].endswith("SlowLexicon")
    assert ident["given"] == ["batch_size"] and "classify" in ident["capabilities"]
    html = (tmp_path / "r" / "slow-lexicon" / "report.html").read_text()
    assert 'aria-label="model identity"' in html and "model arguments: none" not in html


def test_urls_lose_credentials_and_queries():
    from sentiprobe.models.base import public_config, public_url

    assert public_url("https://user:secret@host.example:8443/v1?key=abc#x") == "https://host.example:8443/v1"
    assert public_config({"base_url": "http://a:b@127.0.0.1:9/v1", "n": [1, "http://x/?token=t"]}) == \
        {"base_url": "http://127.0.0.1:9/v1", "n": [1, "http://x/"]}


def test_llm_settings_from_the_environment_are_shown(tmp_path, monkeypatch):
    from sentiprobe.report.html import identity_table
    from sentiprobe.run.config import model_identity

    monkeypatch.setenv("SENTIPROBE_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("SENTIPROBE_LLM_MODEL", "served-7b")
    ident = model_identity("openai-compatible", {"temperature": "0"})
    cfg = ident["config"]
    assert cfg["base_url"] == "http://127.0.0.1:9/v1" and cfg["model"] == "served-7b"
    assert "base_url" in ident["not_given"] and "temperature" in ident["given"]
    html = identity_table({"model": {"name": "openai-compatible", "label": "llm", "args": {"temperature": "0"},
                                     "identity": ident}})
    assert "served-7b" in html and "http://127.0.0.1:9/v1" in html and "default or environment" in html
    assert "endpoint" in html and "max_tokens" in html


# ---- suite report sections: the paired test, raw replies, no training protocol for a zero-shot model --------
def test_arts_strategy_table_shows_the_paired_test_and_labels_welch_as_the_papers():
    from sentiprobe.suites.arts.report import report_section

    row = {"strategy": "revtgt", "units": 10, "change_pp": "-20.00",
           "paired": {"p_value": 0.0123, "method": "exact-binomial", "pairs": 12, "counts": {"b": 8, "c": 1}},
           "welch": {"p": 0.2}}
    html = report_section({"metrics": {}, "details": {"strategies": [row]}})
    head = html.split("</thead>")[0]
    assert "McNemar p (paired)" in head and "Welch p (paper's test)" in head
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", html.split("<tbody>")[1])
    assert "0.0123" in cells and "0.2" in cells and cells.index("0.0123") < cells.index("0.2")


def test_triplet_report_shows_raw_replies_and_no_training_protocol_for_zero_shot():
    from sentiprobe.suites.triplets.report import render_section

    entry = {"metrics": {}, "fit": [{"fitted": False}],
             "details": {"protocol": "clean: epoch selected on dev, test scored once",
                         "train_source": {"kind": "shipped"},
                         "failures": [{"record": "s1", "reason": "not JSON", "reply": "Sure! <b>Here</b>"}]}}
    html = render_section("absa-triplet-explicit", entry)
    assert "epoch selected on dev" not in html and "zero-shot" in html and "trained on: shipped" not in html
    assert "Sure! &lt;b&gt;Here&lt;/b&gt;" in html
    entry["fit"] = [{"fitted": True}]
    assert "epoch selected on dev" in render_section("absa-triplet-explicit", entry)


def test_a_rerun_with_the_same_predictions_takes_the_comparison_from_the_cache(tmp_path, monkeypatch):
    import sentiprobe.compare as cmp

    kw = {"out": tmp_path / "r", "cache_dir": str(tmp_path / "c"), "n_boot": 30, "progress": False}
    api.run(["toy", "toy2"], ["slow-lexicon", "majority"], **kw)
    first = json.loads((tmp_path / "r" / "comparison.json").read_text())
    calls = []
    monkeypatch.setattr(cmp, "compare_seeded", lambda *a, **k: calls.append(1))
    api.run(["toy", "toy2"], ["slow-lexicon", "majority"], **kw)
    assert calls == [] and json.loads((tmp_path / "r" / "comparison.json").read_text()) == first


def test_long_labels_and_many_wide_metrics_still_fit():
    m = {"value": 0.123456, "ci_low": 0.1, "ci_high": 0.2, "n": 9, "unit": "fraction"}
    metrics = {f"a_rather_long_metric_name_{k}": m for k in range(4)}
    label = "a-very-long-model-label-from-a-sweep-config"
    text = results_table({"headline": {"s": list(metrics)}, "runs": {label: {"suites": {"s": {
        "metrics": metrics, "n_items": 9, "seconds": {}}}}}})
    assert max(len(ln) for ln in text.splitlines()) <= 100
    assert f"  {label}" in text and all(f"{k}" in text for k in metrics)
