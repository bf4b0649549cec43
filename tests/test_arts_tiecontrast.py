"""ARTS corrected mode: RevTgt contrasts a tie whose word of the old polarity is another aspect's opinion
(:mod:`sentiprobe.generate.arts.tiecontrast`); sentences from the SemEval test files."""
from __future__ import annotations

import pytest

import _arts_kit
from test_arts_clash import with_lexicon
from test_arts_quality import run, variant

refusal = _arts_kit.refusal

MENU = "The menu is great, with a good selection, and everything that I have tried is absolutely delicious."
DESSERTS = "Desserts are almost incredible: my personal favorite is their Tart of the Day."


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def test_a_comma_with_holding_another_aspects_opinion_takes_but(tmp_path, kit):
    gen = run(tmp_path, kit, [("m", MENU, [("menu", "positive", ["great"]), ("selection", "positive", ["good"])])])
    for key, kept in (("m_0", "with a good selection, and everything"), ("m_1", "The menu is great, but with a ")):
        v = variant(gen, key + "_adv1")
        assert v is not None and kept in v.sentence and ", but with a " in v.sentence, refusal(gen, key)
        assert "but_inserted" in [e.op for e in v.edits]
        assert v.sentence.endswith(", and everything that I have tried is absolutely delicious.")


def test_a_with_phrase_that_holds_another_noun_stays_refused(tmp_path, kit):
    # *with the rolls usually terrible and the sushi/sashimi not quite on the same level*: the comparison turns too
    text = ("The food is all-around good, with the rolls usually excellent and the sushi/sashimi not quite on the "
            "same level.")
    gen = run(tmp_path, kit, [("r", text, [("food", "positive", ["good"]), ("rolls", "positive", ["excellent"])])])
    assert variant(gen, "r_1_adv1") is None
    assert "phrase ties" in (refusal(gen, "r_1") or "")
    v = variant(gen, "r_0_adv1")  # the food reversed: the phrase is the rolls' alone
    assert v is not None and v.sentence.startswith("The food is all-around ") and ", but with the rolls usually " \
        "excellent and" in v.sentence, refusal(gen, "r_0")


def test_a_colon_between_two_aspects_clauses_becomes_comma_but(tmp_path, kit):
    gen = run(tmp_path, kit, [("d", DESSERTS, [("Desserts", "positive", ["incredible"]),
                                               ("Tart of the Day", "positive", ["favorite"])])],
              with_lexicon(tmp_path, {"favorite": "positive", "incredible": "positive"}))  # as the training file
    v = variant(gen, "d_0_adv1")
    assert v is not None and v.sentence.startswith("Desserts are almost ") and v.sentence.endswith(
        ", but my personal favorite is their Tart of the Day."), refusal(gen, "d_0")
    assert "incredible" not in v.sentence and "elaboration_contrasted" in [e.op for e in v.edits]


def test_an_elaboration_without_a_copular_clause_stays_refused(tmp_path, kit):
    # *authentic Italian cuisine made absolutely fresh* is no clause of its own: *, but inauthentic ... made
    # absolutely stale* would read broken
    text = "The food was excellent - authentic Italian cuisine made absolutely fresh."
    gen = run(tmp_path, kit, [("f", text, [("food", "positive", ["excellent"]),
                                           ("Italian cuisine", "positive", ["authentic", "fresh"])])],
              with_lexicon(tmp_path, {"authentic": "positive", "fresh": "positive", "excellent": "positive",
                                          "stale": "negative", "inauthentic": "negative"}))
    assert variant(gen, "f_1_adv1") is None
    assert "elaboration" in (refusal(gen, "f_1") or "")
