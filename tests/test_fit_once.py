"""Seed-invariant adapters are fitted and asked once per multi-seed suite (the runner)."""
from __future__ import annotations

import dataclasses

import pytest
import toy

from sentiprobe import api
from sentiprobe.models.base import MODELS
from sentiprobe.suites import SUITES


class CountingLexicon(toy.SlowLexicon):
    name = "counting-lexicon"
    seed_invariant = True
    fits = 0

    def fit(self, train, dev, labels, *, input_kind, seed=0):
        type(self).fits += 1
        super().fit(train, dev, labels, input_kind=input_kind, seed=seed)


class SeededLexicon(CountingLexicon):
    name = "seeded-lexicon"
    seed_invariant = False


@pytest.fixture(autouse=True)
def _register():
    toy.register()
    if "toy3seeds" not in SUITES:
        def score(items, predictions, options, context, config):  # the toy scorer, on the first seed's predictions
            return toy._score(items, [p for p in predictions if p.seed in (None, 0)], options, context, config)

        SUITES.register(dataclasses.replace(toy.toy_spec("toy3seeds"), seeds=3, score=score))
    for cls in (CountingLexicon, SeededLexicon):
        if cls.name not in MODELS:
            MODELS.register(cls.name, cls, description="test", params={})
        cls.fits = 0


@pytest.mark.parametrize("use_cache", [True, False])
def test_seed_invariant_model_is_fitted_once(tmp_path, use_cache):
    doc = api.run(["toy3seeds"], ["counting-lexicon"], out=tmp_path / "run", use_cache=use_cache,
                  cache_dir=str(tmp_path / "c"), progress=False)["runs"]["counting-lexicon"]
    e = doc["suites"]["toy3seeds"]
    assert CountingLexicon.fits == 1
    assert e["seeds_identical_by_construction"] is True
    assert len(e["fit"]) == 1
    lines = (tmp_path / "run" / "counting-lexicon" / "predictions" / "toy3seeds.jsonl").read_text().splitlines()
    assert len(lines) == 3 * e["n_items"]  # one prediction per item and seed, as before


def test_seeded_model_is_still_fitted_per_seed(tmp_path):
    doc = api.run(["toy3seeds"], ["seeded-lexicon"], out=tmp_path / "run", cache_dir=str(tmp_path / "c"),
                  progress=False)["runs"]["seeded-lexicon"]
    assert SeededLexicon.fits == 3
    assert doc["suites"]["toy3seeds"]["seeds_identical_by_construction"] is False
