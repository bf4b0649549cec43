"""The sst7 suite: items, per-seed scoring (docs/protocols/noncompsst.md#sst7-metrics), prediction files, report
section."""
from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, f1_score

import sentiprobe.api as sp
from sentiprobe.core.errors import ConfigError, PredictionError
from sentiprobe.core.hashing import file_sha256
from sentiprobe.core.types import Prediction
from sentiprobe.suites import Suite, get_suite

pytestmark = pytest.mark.realdata


def fake(items, seeds=(0, 1, 2)):
    """Seed-dependent predictions that are right about half of the time."""
    out = []
    for s in seeds:
        for i, it in enumerate(items):
            lab = it.label if (i * (s + 3)) % 5 < 3 else str((int(it.label) + 1 + s) % 7)
            out.append(Prediction(it.item_id, lab, seed=s))
    return out


def test_items(data_dir):
    suite = get_suite("sst7", data_dir)
    test, dev = suite.items("test"), suite.items("dev")
    assert len(test) == 1975 and len(dev) == 971
    first = test[0]
    assert (first.item_id, first.text, first.label) == ("sst7-test-1", "Effective but too-tepid biopic", "3")
    assert suite.n_seeds == 3 and suite.labels == tuple("0123456")
    assert "noncompsst/sst7/test.tsv" in suite.data_files() and suite.available()


def test_score_is_the_mean_over_seeds(data_dir):
    suite = get_suite("sst7", data_dir)
    items = suite.items("test")
    preds = fake(items)
    res = suite.score(items, preds, n_boot=80)
    gold = [it.label for it in items]
    by_seed = {s: [p.label for p in preds if p.seed == s] for s in (0, 1, 2)}
    f1 = [f1_score(gold, by_seed[s], average="macro") for s in by_seed]
    acc = [accuracy_score(gold, by_seed[s]) for s in by_seed]
    assert res.metrics["macro_f1"].value == pytest.approx(np.mean(f1), abs=1e-12)
    assert res.metrics["accuracy"].value == pytest.approx(np.mean(acc), abs=1e-12)
    for m in res.metrics.values():
        assert m.ci_low <= m.value <= m.ci_high and m.n == 1975
    assert res.details["per_seed"]["macro_f1"] == [round(v, 6) for v in f1]
    assert np.asarray(res.details["confusion_summed_over_seeds"]).sum() == 3 * 1975
    html = suite.report_section({"metrics": {}, "details": res.details})
    assert "<svg" in html and "seed 2" in html


def test_prediction_files_and_errors(data_dir, tmp_path):
    suite = get_suite("sst7", data_dir)
    items = suite.items("test")
    preds = fake(items)
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(p.to_dict()) + "\n" for p in preds))
    doc = sp.score("sst7", path, n_boot=40)
    assert doc["details"]["seeds"] == [0, 1, 2]
    assert doc["metrics"]["macro_f1"]["value"] == pytest.approx(suite.score(items, preds, n_boot=0)
                                                                 .metrics["macro_f1"].value)
    path.write_text("".join(json.dumps(p.to_dict()) + "\n" for p in preds if not
                            (p.seed == 1 and p.item_id == "sst7-test-7")))
    with pytest.raises(PredictionError, match="missing") as ei:
        sp.score("sst7", path, n_boot=40)
    assert ei.value.offenders == ["sst7-test-7@1"]
    doc = sp.score("sst7", path, n_boot=40, missing="wrong")
    assert doc["details"]["missing"] == 1
    csv = tmp_path / "p.csv"
    csv.write_text("item_id,label\nsst7-test-1,3\nsst7-test-99999,2\n")
    with pytest.raises(PredictionError, match="ids not in the suite"):
        sp.score("sst7", csv, n_boot=40)


def test_every_seed_is_checked(data_dir):
    """The one seeded check validates every seed (the old per-suite check returned only the first)."""
    suite = get_suite("sst7", data_dir)
    items = suite.items("test")
    preds = fake(items)
    bad = [Prediction(p.item_id, "9", seed=p.seed) if (p.seed == 2 and p.item_id == "sst7-test-5") else p
           for p in preds]
    with pytest.raises(PredictionError, match="label set") as ei:
        suite.score(items, bad, n_boot=0)
    assert ei.value.offenders == ["sst7-test-5@2=9"]
    assert type(suite).check_predictions is Suite.check_predictions  # the generic check is not overridden
    res = suite.score(items, preds, n_boot=0)
    assert res.details["seeds"] == [0, 1, 2] and set(res.details["train"]) == {"source"}  # train not built


def test_sst7_options(monkeypatch, data_dir, tmp_path):
    f = tmp_path / "train.tsv"
    f.write_text("A fine film .\t5\nAwful\t0\n", encoding="utf-8")
    monkeypatch.setenv("SENTIPROBE_SST7_TRAIN_FILE", str(f))
    phrase_files = {"sst_dictionary": None, "sst_labels": None}
    assert get_suite("sst7", data_dir).describe()["options"] == {"train_file": None, "train_source": "auto",
                                                                 **phrase_files}
    suite = get_suite("sst7", data_dir, train_file=str(f))
    assert suite.describe()["options"] == {"train_file": str(f), "train_source": "auto", **phrase_files}
    assert [(it.text, it.label) for it in suite.train_items()] == [("A fine film .", "5"), ("Awful", "0")]
    assert "noncompsst/sst7/train.tsv" not in suite.data_files()
    items = suite.items("test")
    assert suite.score(items, fake(items), n_boot=0).details["train"]["source"] == "file"  # nothing trained here
    info = suite.score(items, fake(items), n_boot=0, trained=True).details["train"]  # a model was fitted on it
    assert info == {"source": "user-file", "train_file": str(f), "train_file_sha256": file_sha256(f),
                    "n_train": 2, "n_removed": 0, "n_unresolved": 0}
    with pytest.raises(ConfigError, match="did you mean 'train_file'"):
        get_suite("sst7", data_dir, trainfile=str(f))
    stats = get_suite("sst7", data_dir, train_source="sentences").stats()
    assert stats["test"]["items"] == 1975 and stats["train_source"]["source"] == "sst-sentences"
