"""Issue 12: a re-run whose predictions are all cached reads no training data, loads no fitted state and
re-scores nothing; one missing prediction restores the state, and nothing else changes the answers."""
from __future__ import annotations

import pytest

from sentiprobe import api
from sentiprobe.models.baselines import TfidfLRModel
from sentiprobe.run import fitting
from sentiprobe.suites.base import Suite


@pytest.fixture()
def counted(monkeypatch):
    calls = {"load_state": 0, "training": 0}
    load_state, training = TfidfLRModel.load_state, Suite.training

    def counting_load_state(self, state):
        calls["load_state"] += 1
        return load_state(self, state)

    def counting_training(self):
        calls["training"] += 1
        return training(self)

    monkeypatch.setattr(TfidfLRModel, "load_state", counting_load_state)
    monkeypatch.setattr(Suite, "training", counting_training)
    return calls


def _run(tmp_path, name, data_dir, limit):
    doc = api.run(["arts-laptop"], ["tfidf-lr"], out=tmp_path / name, cache_dir=str(tmp_path / "cache"), n_boot=50,
                  limit=limit, limit_mode="first", progress=False, data_dir=str(data_dir))
    return doc["runs"]["tfidf-lr"]["suites"]["arts-laptop"]


def test_a_cached_rerun_touches_neither_training_data_nor_state(data_dir, tmp_path, counted):
    first = _run(tmp_path, "a", data_dir, 100)
    assert first["fit"][0]["restored_from_cache"] is False and first["cache"]["computed"] == 100
    counted.update(load_state=0, training=0)
    again = _run(tmp_path, "b", data_dir, 100)
    assert counted == {"load_state": 0, "training": 0}
    assert again["cache"] == {"hits": 100, "computed": 0, "score_from_cache": True}
    assert again["metrics"] == first["metrics"] and again["model_fingerprints"] == first["model_fingerprints"]
    assert again["fit"][0]["n_train"] == first["fit"][0]["n_train"] > 0
    more = _run(tmp_path, "c", data_dir, 150)  # 50 new items: the state is restored once, nothing refitted
    assert counted["load_state"] == 1 and more["cache"] == {"hits": 100, "computed": 50, "score_from_cache": False}
    assert more["model_fingerprints"] == first["model_fingerprints"]


def test_a_changed_data_file_forgets_the_remembered_training_fingerprint(data_dir, tmp_path, monkeypatch):
    from sentiprobe.suites import get_suite

    suite = get_suite("arts-laptop", data_dir)
    state = fitting._family_files(suite)
    some = next(p for p, st in state.items() if st is not None)
    moved = dict(state, **{some: [state[some][0] + 1, *state[some][1:]]})  # as if the file had been replaced
    monkeypatch.setattr(fitting, "_family_files", lambda s: moved)
    from sentiprobe.run.cache import PredictionCache

    cache = PredictionCache.open(tmp_path / "c")
    try:
        calls = []
        original = Suite.train_fingerprint
        monkeypatch.setattr(Suite, "train_fingerprint", lambda self: calls.append(1) or original(self))
        fitting.train_fingerprint(suite, cache)
        fitting.train_fingerprint(suite, cache)
        assert len(calls) == 1  # remembered
        monkeypatch.setattr(fitting, "_family_files", lambda s: state)
        fitting.train_fingerprint(suite, cache)
        assert len(calls) == 2  # the family's files changed: computed again
    finally:
        cache.close()
