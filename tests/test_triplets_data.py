"""Real data: every shipped triplet dataset loads, round-trips (golden 2,542 on joinedsemeval test), matches the
authors' eda_stats.txt, and a perfect predictor (predicted grid = gold grid) scores 1 everywhere."""
from __future__ import annotations

import pytest

from sentiprobe.core.errors import ConfigError
from sentiprobe.core.types import Prediction
from sentiprobe.suites import SUITES, get_suite
from sentiprobe.suites.triplets.data import load_dataset
from sentiprobe.protocols.triplets.grid import Entry, build_grid, decode
from sentiprobe.suites.triplets.load import DATASETS, NO_TRAIN

pytestmark = pytest.mark.realdata
NAMES = ("sentivent-triplet", "sentivent-triplet-direct", "absa-triplet-explicit")


def test_specs_registered():
    for n in NAMES:
        spec = SUITES.get(n)
        assert spec.task == "extract" and spec.input_kind == "tokens" and "generate" in spec.accepts


def test_joinedsemeval_round_trip_golden(data_dir):
    st = get_suite("absa-triplet-explicit", data_dir).stats()
    assert st["test"]["round_trip_triplets"] == 2542
    assert st["test"]["sentences"] == 1478
    for split in ("train", "dev", "test"):
        assert st[split]["eda_stats_match"] is True, split


@pytest.fixture(scope="module")
def paper(data_dir):
    suite = get_suite("sentivent-triplet", data_dir)
    return suite, suite.stats()


def test_paper_dataset_matches_eda_and_train_is_labelled(paper, data_dir):
    _, st = paper
    assert st["dev"]["eda_stats_match"] is True and st["test"]["eda_stats_match"] is True
    assert st["dev"]["eda"]["sentences_n"] == 681 and st["test"]["eda"]["target_n"] == 1180
    assert st["train"]["label"] == "reconstructed train"
    assert st["train"]["sentences"] == 5475              # the authors' train sentence count
    assert st["train_source"]["kind"] == "reconstructed train"
    gap = st["reconstruction_gap"]["dev"]
    assert 0 < gap["common"] <= min(gap["shipped_triplets"], gap["reconstructed_triplets"])
    no_empty = get_suite("sentivent-triplet", data_dir, empty_sentences=False)
    assert len(no_empty.items("dev")) == 462


def _perfect(items):
    out = []
    for it in items:
        d = decode(build_grid(len(it.tokens), [Entry.from_json(e) for e in it.meta["entries"]]))
        out.append(Prediction(it.item_id, None, meta={"triplets": [list(t) for t in d.triplets],
                                                      "targets": [list(s) for s in d.targets],
                                                      "polars": [list(s) for s in d.polars]}))
    return out


@pytest.mark.parametrize("dataset", DATASETS)
def test_every_dataset_loads_and_perfect_predictor_scores_one(data_dir, dataset):
    suite = get_suite("absa-triplet-explicit", data_dir)
    for split in ("train", "dev", "test"):
        if split == "train" and dataset in NO_TRAIN:
            continue
        items = load_dataset(suite, dataset, split)
        assert items and all(it.tokens for it in items)
        res = suite.score(items, _perfect(items), n_boot=0)
        for k in ("triplet", "target", "polar"):
            for s in ("precision", "recall", "f1"):
                assert res.metrics[f"{k}_{s}"].value == 1.0, (dataset, split, k, s)
        assert res.metrics["parse_failure_rate"].value == 0.0


def test_reconstructed_train_perfect_and_missing_train(paper):
    suite, _ = paper
    train = suite.items("train")
    assert {it.meta["source"] for it in train} == {"reconstructed train"}
    assert suite.score(train, _perfect(train), n_boot=0).metrics["triplet_f1"].value == 1.0
    with pytest.raises(ConfigError):
        suite.items("validation")


def test_user_train_file_option(data_dir, tmp_path):
    src = data_dir / "sentivent" / "triplets" / "sentivent-devproto" / "dev.json"
    suite = get_suite("sentivent-triplet", data_dir, train_file=str(src))
    assert len(suite.items("train")) == 681
    st = suite.stats()
    assert st["train_source"]["kind"] == "user file" and len(st["train_source"]["sha256"]) == 64
    assert "reconstruction_gap" not in st


def test_unknown_option_did_you_mean_and_env_not_read(data_dir, monkeypatch):
    with pytest.raises(ConfigError, match="did you mean 'train_file'"):
        get_suite("sentivent-triplet", data_dir, train_fil="x")
    monkeypatch.setenv("SENTIPROBE_TRIPLETS_TRAIN_FILE", "/nonexistent.json")
    suite = get_suite("sentivent-triplet", data_dir)
    assert suite.describe()["options"]["train_file"] is None
    from sentiprobe.cli.suite_args import parse_suite_args

    parsed = parse_suite_args([], ["sentivent-triplet"], environ={"SENTIPROBE_TRIPLETS_TRAIN_FILE": "/x.json"})
    assert str(parsed["sentivent-triplet"]["train_file"]) == "/x.json"


def test_protocol_option_paper_faithful_selects_on_test(data_dir):
    clean = get_suite("absa-triplet-explicit", data_dir)
    tr, sel = clean.training()
    assert {it.split for it in tr} == {"train"} and {it.split for it in sel} == {"dev"}
    paper = get_suite("absa-triplet-explicit", data_dir, protocol="paper-faithful")
    tr, sel = paper.training()
    assert {it.split for it in tr} == {"train", "dev"} and {it.split for it in sel} == {"test"}
    items = paper.items("test")[:5]
    from sentiprobe.core.types import Prediction

    det = paper.score(items, [Prediction(items[0].item_id, None, meta={"triplets": []})], n_boot=0,
                      missing="wrong").details
    assert det["protocol"].startswith("paper-faithful") and "TEST" in det["protocol"]
    assert det["missing_sentences"] == 4
