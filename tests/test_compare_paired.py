"""The paired-comparison engine: each suite's own metrics on its own unit, the same numbers everywhere."""
from __future__ import annotations

import json

import numpy as np
import pytest

import toy
from sentiprobe import api
from sentiprobe.cli import main
from sentiprobe.compare import compare_predictions, compare_runs
from sentiprobe.stats.paired import compare_units
from sentiprobe.stats.units import UnitMetric, UnitScores

toy.register()


def _table(values):
    v = np.asarray(values, dtype=float)
    return UnitScores("item", len(v), len(v), {"accuracy": UnitMetric("mean", {"values": v}, correct=v)},
                      compared=("accuracy",))


def test_engine_properties():
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 2, 200), rng.integers(0, 2, 200)
    doc = compare_units({"a": _table(a), "b": _table(b)}, n_boot=300, seed=1, alpha=0.05)
    d = doc["pairs"][0]["metrics"]["accuracy"]
    assert d["difference"] == pytest.approx(100 * (a.mean() - b.mean())) and d["unit"] == "pp"
    assert d["ci_low"] <= d["difference"] <= d["ci_high"] and 0 < d["p_holm"] <= 1
    assert d["mcnemar"]["counts"]["b"] == int(((a == 1) & (b == 0)).sum())
    swapped = compare_units({"b": _table(b), "a": _table(a)}, n_boot=300, seed=1,
                            alpha=0.05)["pairs"][0]["metrics"]["accuracy"]
    assert swapped["difference"] == pytest.approx(-d["difference"])
    same = compare_units({"a": _table(a), "a2": _table(a)}, n_boot=200, seed=1,
                         alpha=0.05)["pairs"][0]["metrics"]["accuracy"]
    assert same["difference"] == 0 and same["p_value"] == 1.0
    assert doc["systems"]["a"]["accuracy"]["n"] == 200 and doc["leaderboard"]["accuracy"][0] in ("a", "b")


def test_engine_refuses_different_units():
    from sentiprobe.core.errors import ConfigError

    with pytest.raises(ConfigError, match="not scored on the same units"):
        compare_units({"a": _table([1, 0]), "b": _table([1, 0, 1])}, n_boot=10, seed=0, alpha=0.05)


@pytest.mark.realdata
def test_arts_columns_compared_on_ars_over_source_examples(data_dir, capsys):
    """Two published columns of one results CSV: ARS and accuracy on originals over the ARTS unit."""
    path = data_dir / "arts" / "output" / "laptop_results.csv"
    doc = compare_predictions("arts-laptop", [path], column=["bert_pt", "MemNet"], data_dir=str(data_dir),
                              n_boot=200, confidence=0.95)
    assert doc["unit"] == "source example" and doc["n_units"] == 638
    assert doc["metrics"] == ["ars", "accuracy_original"] and doc["system_names"] == ["bert_pt", "MemNet"]
    assert round(100 * doc["systems"]["bert_pt"]["ars"]["value"], 2) == 53.29  # the paper's ARS, computed
    assert doc["suite_metrics"]["bert_pt"]["ars"]["value"] == doc["systems"]["bert_pt"]["ars"]["value"]
    pair = doc["pairs"][0]["metrics"]["ars"]
    ars = {n: doc["systems"][n]["ars"]["value"] for n in ("bert_pt", "MemNet")}
    assert abs(pair["difference"]) == pytest.approx(100 * abs(ars["bert_pt"] - ars["MemNet"]))
    assert main(["compare", "--suite", "arts-laptop", "--data-dir", str(data_dir), "--predictions", str(path),
                 "--column", "bert_pt", "--column", "MemNet", "--n-boot", "100"]) == 0
    out = capsys.readouterr().out
    assert "638 source examples" in out and "dars" in out and " pp " in out


@pytest.mark.realdata
def test_soul_compared_by_review(data_dir, tmp_path):
    from sentiprobe.suites import get_suite

    items = get_suite("soul-rc", data_dir).items("test")
    files = []
    for k, lab in enumerate(("true", "false")):
        f = tmp_path / f"s{k}.csv"
        f.write_text("item_id,label\n" + "".join(f"{it.item_id},{lab}\n" for it in items))
        files.append(f)
    doc = compare_predictions("soul-rc", files, data_dir=str(data_dir), n_boot=100, seed=0, confidence=0.95)
    assert doc["unit"] == "review" and doc["n_units"] == 1091
    acc = doc["suite_metrics"]["s0"]["accuracy"]
    assert doc["systems"]["s0"]["accuracy"]["value"] == pytest.approx(acc["value"])
    assert acc["n"] == 1091  # the suite's own CI resamples the same unit


def test_compare_runs_and_report_command(tmp_path, capsys):
    a = tmp_path / "a"
    b = tmp_path / "b"
    api.run(["toy"], ["slow-lexicon"], out=a, n_boot=50, progress=False)
    api.run(["toy"], ["majority"], out=b, n_boot=50, progress=False)
    run_a = a if (a / "results.json").exists() else a / "slow-lexicon"
    run_b = b if (b / "results.json").exists() else b / "majority"
    doc = compare_runs([run_a, run_b], n_boot=100, seed=0, confidence=0.95)
    assert doc["systems"] == ["slow-lexicon", "majority"] and "toy" in doc["suites"]
    assert main(["compare", "--runs", str(run_a), str(run_b), "--json", "--n-boot", "50"]) == 0
    assert json.loads(capsys.readouterr().out)["suites"]["toy"]["unit"] == "item"


@pytest.mark.realdata
def test_stored_runs_compare_from_results_alone(data_dir, tmp_path, monkeypatch):
    """Two run folders moved elsewhere, the data directory unset and the suites unbindable: ``compare_runs``
    gives the numbers the run gave (its comparison.json), and those are the results' own numbers."""
    import shutil

    import sentiprobe.compare as compare_mod

    out = tmp_path / "run"
    api.run(["arts-laptop", "sentivent-polar"], ["majority", "tfidf-lr"], out=out, data_dir=str(data_dir),
            n_boot=40, limit=30, progress=False, cache_dir=str(tmp_path / "cache"), reference="none")
    given = json.loads((out / "comparison.json").read_text(encoding="utf-8"))
    moved = tmp_path / "elsewhere"
    for m in ("majority", "tfidf-lr"):
        shutil.copytree(out / m, moved / m)
    shutil.rmtree(out)
    monkeypatch.delenv("SENTIPROBE_DATA_DIR", raising=False)

    def unbindable(*args, **kwargs):
        raise AssertionError("compare re-bound a suite: it must work from the stored per-unit scores")

    monkeypatch.setattr(compare_mod, "get_suite", unbindable)
    doc = compare_runs([moved / "majority", moved / "tfidf-lr"], n_boot=40, seed=0, confidence=0.95)
    assert set(doc["suites"]) == set(given["suites"]) == {"arts-laptop", "sentivent-polar"}
    for suite, entry in doc["suites"].items():
        assert entry["systems"] == given["suites"][suite]["systems"]
        assert entry["pairs"] == given["suites"][suite]["pairs"]
        for m in ("majority", "tfidf-lr"):
            stored = json.loads((moved / m / "results.json").read_text(encoding="utf-8"))["suites"][suite]
            for metric, shown in entry["systems"][m].items():
                own = stored["metrics"][metric]
                assert (own["value"], own["ci_low"], own["ci_high"], own["n"]) == (
                    shown["value"], shown["ci_low"], shown["ci_high"], shown["n"]), (suite, m, metric)


def test_stored_per_unit_scores_are_validated_and_round_trip():
    from sentiprobe.core.results import ResultsSchemaError, validate_units
    from sentiprobe.stats.units import unit_metrics

    v = np.array([1.0, 0.0, 1.0, 1.0])
    us = UnitScores("item", 4, 4, {"accuracy": UnitMetric("mean", {"values": v}, correct=v),
                                   "again": UnitMetric("ratio", {"numerator": v, "denominator": np.ones(4)})},
                    compared=("accuracy",))
    doc = json.loads(json.dumps(us.to_dict()))
    validate_units(doc, "u")
    assert len(doc["arrays"]) == 2  # the shared array is stored once
    assert unit_metrics(UnitScores.from_dict(doc), n_boot=30, seed=0, alpha=0.1) == unit_metrics(
        us, n_boot=30, seed=0, alpha=0.1)
    short = json.loads(json.dumps(doc))
    short["arrays"]["a0"] = [1, 0]
    with pytest.raises(ResultsSchemaError, match="4 numbers"):
        validate_units(short, "u")
    dangling = json.loads(json.dumps(doc))
    dangling["metrics"]["accuracy"]["arrays"]["values"] = "a9"
    with pytest.raises(ResultsSchemaError, match="not among the arrays"):
        validate_units(dangling, "u")
