"""Ray Tune search: selection and tie rule (pure), and one small end-to-end search (private single-node Ray)."""
from __future__ import annotations

import csv
import importlib.util
import json
import math
import os

import pytest

from sentiprobe.core.errors import ConfigError
from sentiprobe.run.tune import TuneConfig, select, subsample


def _row(order, score, loss, rungs=2, C=1.0):
    return {"order": order, "trial_id": f"t{order}", "config.C": C, "rungs": rungs, "dev_score": score,
            "dev_loss": loss, "error": ""}


def test_select_highest_dev_score_ties_to_lowest_loss_then_earliest():
    rows = [_row(0, 0.80, 0.5), _row(1, 0.90, 0.7), _row(2, 0.90, 0.6), _row(3, 0.95, 0.1, rungs=1),
            _row(4, 0.90, 0.6)]
    assert select(rows, 2)["trial_id"] == "t2"  # t3 stopped early; t1/t2/t4 tie: lowest loss, then earliest
    assert select([_row(0, 0.5, float("nan")), _row(1, 0.5, 0.9)], 2)["trial_id"] == "t1"  # no loss loses a tie
    with pytest.raises(ConfigError, match="no trial finished; 1 failed, the first with: boom"):
        select([{**_row(0, None, None, rungs=0), "error": "boom"}], 2)


def test_subsample_is_nested_and_seeded():
    small, big = subsample(100, 0.25, 3), subsample(100, 0.5, 3)
    assert len(small) == 25 and len(big) == 50 and set(small) <= set(big)
    assert subsample(100, 0.25, 3) == small != subsample(100, 0.25, 4)


@pytest.mark.parametrize("kw, msg", [({"metric": "f1"}, "metric must be"), ({"fidelities": (1.0, 0.5)}, "increasing"),
                                     ({"space": {"C": ("log", 1, 2)}}, "space.C must start"),
                                     ({"space": {"C": ("loguniform", 2, 1)}}, "0 < low < high"),
                                     ({"searcher": "hyperopt"}, "optuna or random")])
def test_config_errors(kw, msg):
    with pytest.raises(ConfigError, match=msg):
        TuneConfig(**{"model": "tfidf-lr", "suite": "arts-laptop", "space": {"C": ("loguniform", 0.1, 10)}, **kw})


@pytest.mark.slow
@pytest.mark.realdata
def test_tune_search_end_to_end(tmp_path, data_dir, monkeypatch):
    if importlib.util.find_spec("ray") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("Ray is not installed but CI=true: CI must install sentiprobe[ray]")
        pytest.skip("Ray is not installed (pip install 'sentiprobe[ray]')")
    from sentiprobe.run.tune import search

    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    cfg = TuneConfig(model="tfidf-lr", suite="arts-laptop", space={"C": ("loguniform", 0.01, 100.0)},
                     fixed_args={"char": False, "max_iter": 200}, num_samples=4, fidelities=(0.5, 1.0),
                     max_train=400, seeds=(0, 1), limit=30, n_boot=50)
    doc = search(cfg, tmp_path / "t", data_dir=str(data_dir), cache_dir=str(tmp_path / "cache"))
    with open(tmp_path / "t" / "trials.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 4 and doc["n_trials"] == 4
    for r in rows:
        assert 0.01 <= float(r["config.C"]) <= 100 and r["rungs"] in ("1", "2") and not r["error"]
        assert (r["stopped_early"] == "True") == (r["rungs"] == "1")
    full = [r for r in rows if r["rungs"] == "2"]
    best = max(full, key=lambda r: (float(r["dev_score"]), -float(r["dev_loss"]), -int(r["order"])))
    assert math.isclose(doc["chosen_args"]["C"], float(best["config.C"]))
    assert doc["chosen_args"]["char"] is False and doc["selection"]["trial_id"] == best["trial_id"]
    assert doc["searcher"] == ("optuna-tpe" if importlib.util.find_spec("optuna") else "random")
    assert doc["final"]["jobs"] == {"best/arts-laptop/seed0": "done", "best/arts-laptop/seed1": "done"}
    assert doc["final"]["test"]["ars"]["n_seeds"] == 2
    assert json.loads((tmp_path / "t" / "tune.json").read_text()) == json.loads(json.dumps(doc))
    assert not list((tmp_path / "t").rglob("*.pkl"))  # Ray Tune's state (pickles) is not kept
