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
                              n_boot=200)
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
    doc = compare_predictions("soul-rc", files, data_dir=str(data_dir), n_boot=100, seed=0, alpha=0.05)
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
    doc = compare_runs([run_a, run_b], n_boot=100, seed=0, alpha=0.05)
    assert doc["systems"] == ["slow-lexicon", "majority"] and "toy" in doc["suites"]
    assert main(["compare", "--runs", str(run_a), str(run_b), "--json", "--n-boot", "50"]) == 0
    assert json.loads(capsys.readouterr().out)["suites"]["toy"]["unit"] == "item"
