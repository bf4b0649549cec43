"""``triplet-rules``: the dependency + opinion-lexicon triplet baseline (issue 20 point 4).

Unit tests parse hand-written sentences with the real spaCy model and VADER word list (both small, offline PyPI
packages) and check each rule of the module docstring; the real-data test runs the model through the runner on
the three triplet suites as the main job does.
"""
from __future__ import annotations

import pytest

pytest.importorskip("spacy")
pytest.importorskip("vaderSentiment")

from sentiprobe.models import MODELS, create_model


def _triplets(sentence: str, **kw) -> set[tuple[str, str, str]]:
    words = sentence.split(" ")
    (out,) = create_model("triplet-rules", **kw).extract([words])
    for tl, tr, ol, orr, _ in out["triplets"]:
        assert 0 <= tl <= tr < len(words) and 0 <= ol <= orr < len(words)
        assert tr < ol or orr < tl  # a target never overlaps its opinion span
    assert out["targets"] == sorted({(t[0], t[1]) for t in out["triplets"]})
    return {(" ".join(words[t[0]:t[1] + 1]), " ".join(words[t[2]:t[3] + 1]), t[4]) for t in out["triplets"]}


@pytest.fixture(scope="module")
def model_available():
    try:
        create_model("triplet-rules").extract([["ok"]])
    except ImportError as exc:  # MissingExtraError: the spaCy model package is absent
        pytest.skip(str(exc))


def test_amod_and_compound_target(model_available):
    assert _triplets("Great hot dogs and terrible customer service .") == {
        ("dogs", "Great", "positive"), ("customer service", "terrible", "negative")}


def test_copula_subject_and_negation(model_available):
    assert _triplets("The food was delicious .") == {("food", "delicious", "positive")}
    assert _triplets("The food was not good .") == {("food", "good", "negative")}


def test_verb_object_and_pronouns_are_never_targets(model_available):
    assert _triplets("I love the pizza .") == {("pizza", "love", "positive")}
    assert _triplets("It was great .") == set()


def test_conjoined_targets_and_opinions(model_available):
    assert _triplets("The food and the service were excellent .") == {
        ("food", "excellent", "positive"), ("service", "excellent", "positive")}
    # a conjunct with an opinion word of its own keeps it
    assert _triplets("This place has a cute decor and terrible prices .") == {
        ("decor", "cute", "positive"), ("prices", "terrible", "negative")}


def test_preposition_object_and_adjacent_opinion_words(model_available):
    assert _triplets("I was impressed with the food .") == {("food", "impressed", "positive")}
    # adjacent opinion words of one target merge, as decoding a grid merges adjacent polar spans
    assert _triplets("A nice friendly place .") == {("place", "nice friendly", "positive")}
    assert _triplets("We had a lovely , friendly waiter .") == {
        ("waiter", "lovely", "positive"), ("waiter", "friendly", "positive")}


def test_no_lexicon_word_no_triplet_and_config_in_the_fingerprint(model_available):
    assert _triplets("Shares of the company rose 4 % on Monday .") == set()  # implicit: not in the lexicon
    a, b = create_model("triplet-rules"), create_model("triplet-rules", min_valence=1.5)
    assert a.fingerprint != b.fingerprint and a.config()["versions"]["spacy"]
    entry = MODELS.entry("triplet-rules")
    assert "default" in entry.tags and a.capabilities == frozenset({"extract"})


@pytest.mark.realdata
def test_main_job_runs_it_on_the_three_triplet_suites(data_dir, tmp_path, model_available):
    from sentiprobe import api

    suites = ["absa-triplet-explicit", "sentivent-triplet", "sentivent-triplet-direct"]
    doc = api.run(suites, ["triplet-rules"], out=tmp_path / "out", data_dir=str(data_dir), progress=False,
                  n_boot=20, cache_dir=str(tmp_path / "cache"))["runs"]["triplet-rules"]
    assert not doc.get("errors") and sorted(doc["suites"]) == sorted(suites)
    for name, entry in doc["suites"].items():
        m = entry["metrics"]
        assert m["parse_failure_rate"]["value"] == 0.0, name
        assert entry["n_items"] > 700
    # the explicit review benchmark is what a lexicon of review words can do; SENTiVENT's implicit economic
    # sentiment is not (README "The main job" has the figures)
    assert doc["suites"]["absa-triplet-explicit"]["metrics"]["triplet_f1"]["value"] > 0.2
    # the two SENTiVENT suites share their test sentences: the second reads the first's cached answers
    assert doc["suites"]["sentivent-triplet-direct"]["cache"]["computed"] == 0
