"""ARTS corrected mode: discourse ties that an unchanged part of the sentence keeps (checks 25-28 of
``generate/arts/context.py`` and the concession of ``clash.concession_lost``). Each failure form of a blind audit,
in short made-up sentences, is refused (RevTgt) or loses that non-target's reversal (RevNon), and a near miss of
the same shape is left alone.

Like ``test_arts_context.py`` the generator runs with ``rank="rules"`` (no language model)."""
from __future__ import annotations

import pytest

import _arts_kit
from test_arts_quality import refusal, run, variant


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def test_a_parenthesis_that_elaborates_the_aspect_before_it_keeps_its_polarity(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("a", "They have excellent food (the fish is delicious).",
         [("food", "positive", ["excellent"]), ("fish", "positive", ["delicious"])]),
        # a parenthesis without an evaluation of its own
        ("n", "They have excellent food (we went there twice).", [("food", "positive", ["excellent"])]),
    ])
    for aid in ("a_0", "a_1"):  # never *poor food (the fish is delicious)*, *excellent food (the fish is bland)*
        assert variant(gen, aid + "_adv1") is None, variant(gen, aid + "_adv1").sentence
        assert "parenthesis" in (refusal(gen, aid, "revtgt") or ""), refusal(gen, aid, "revtgt")
    assert variant(gen, "a_1_adv2") is None, variant(gen, "a_1_adv2").sentence
    assert "parenthesis" in (refusal(gen, "a_1", "revnon") or ""), refusal(gen, "a_1", "revnon")
    assert variant(gen, "n_0_adv1") is not None, refusal(gen, "n_0", "revtgt")


def test_an_example_of_a_noun_keeps_the_nouns_polarity(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("e", "Their desserts, especially the silky creme brulee, are good.",
         [("desserts", "positive", ["good"]), ("creme brulee", "positive", ["silky"])]),
        ("l", "They have great dishes like the tasty paella.",
         [("dishes", "positive", ["great"]), ("paella", "positive", ["tasty"])]),
        # an example without an evaluation of its own
        ("n", "Their desserts, especially the creme brulee, are good.", [("desserts", "positive", ["good"])]),
    ])
    for aid in ("e_1", "l_1"):  # never *especially the rough creme brulee, are good*
        assert variant(gen, aid + "_adv1") is None, variant(gen, aid + "_adv1").sentence
        assert "example" in (refusal(gen, aid, "revtgt") or ""), refusal(gen, aid, "revtgt")
    assert variant(gen, "e_0_adv2") is None, variant(gen, "e_0_adv2").sentence
    assert "example" in (refusal(gen, "e_0", "revnon") or ""), refusal(gen, "e_0", "revnon")
    assert variant(gen, "n_0_adv1") is not None, refusal(gen, "n_0", "revtgt")


def test_a_concession_whose_sides_read_alike_after_the_edit_is_refused(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("c", "While the room was noisy, the drinks were great, and the food was superb.",
         [("room", "negative", ["noisy"]), ("drinks", "positive", ["great"]), ("food", "positive", ["superb"])]),
    ])
    # never *While the room was noisy, the drinks were terrible, but the food was superb*
    assert variant(gen, "c_1_adv1") is None, variant(gen, "c_1_adv1").sentence
    assert "concession 'While'" in (refusal(gen, "c_1", "revtgt") or ""), refusal(gen, "c_1", "revtgt")
    # the food's clause is no part of the concession: *..., the drinks were great, but the food was bad*
    assert variant(gen, "c_2_adv1") is not None, refusal(gen, "c_2", "revtgt")


def test_a_sentence_verdict_that_every_opinion_agrees_with_keeps_its_polarity(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("v", "Great price, free shipping, what else can I ask for!",
         [("price", "positive", ["Great"]), ("shipping", "positive", ["free"])]),
        ("t", "Excellent tapas at great prices, romantic, excellent",
         [("tapas", "positive", ["Excellent"]), ("prices", "positive", ["great"])]),
        # no verdict
        ("n", "Great price, free shipping, fast delivery!", [("price", "positive", ["Great"])]),
        # a mixed sentence already weighs its verdict
        ("m", "Excellent tapas at high prices, romantic, excellent",
         [("tapas", "positive", ["Excellent"]), ("prices", "negative", ["high"])]),
    ])
    for aid in ("v_0", "t_0"):  # never *Bad price, free shipping, what else can I ask for!*
        assert variant(gen, aid + "_adv1") is None, variant(gen, aid + "_adv1").sentence
        assert "verdict" in (refusal(gen, aid, "revtgt") or ""), refusal(gen, aid, "revtgt")
    assert variant(gen, "v_1_adv2") is None, variant(gen, "v_1_adv2").sentence
    assert "verdict" in (refusal(gen, "v_1", "revnon") or ""), refusal(gen, "v_1", "revnon")
    assert variant(gen, "n_0_adv1") is not None, refusal(gen, "n_0", "revtgt")
    assert "verdict" not in (refusal(gen, "m_0", "revtgt") or ""), refusal(gen, "m_0", "revtgt")
    # a later opinion is a detail the verdict weighs: *Excellent tapas at high prices, romantic, excellent*
    assert "verdict" not in (refusal(gen, "t_1", "revtgt") or ""), refusal(gen, "t_1", "revtgt")


def test_a_verdict_that_nothing_is_missing_sums_up_every_opinion(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("w", "Fresh bread at a fair price, what more could you want.",
         [("bread", "positive", ["Fresh"]), ("price", "positive", ["fair"])]),
        # a recommendation weighs a later opinion: only the first is what it sums up
        ("r", "Fresh bread at a fair price, highly recommended.",
         [("bread", "positive", ["Fresh"]), ("price", "positive", ["fair"])]),
        # a verdict question on what one would expect, also in the order of a statement
        ("x", "The staff was on point - what else you would expect from a grand hotel?",
         [("staff", "positive", ["on point"])]),
        ("y", "The staff was great, what else would you expect?", [("staff", "positive", ["great"])]),
    ])
    for aid in ("x_0", "y_0"):  # never *The staff was not on point - what else you would expect from ...*
        assert variant(gen, aid + "_adv1") is None, variant(gen, aid + "_adv1").sentence
        assert "verdict" in (refusal(gen, aid, "revtgt") or ""), refusal(gen, aid, "revtgt")
    # never *Fresh bread at an unfair price, what more could you want*, as RevTgt nor as RevNon
    assert variant(gen, "w_1_adv1") is None, variant(gen, "w_1_adv1").sentence
    assert "verdict" in (refusal(gen, "w_1", "revtgt") or ""), refusal(gen, "w_1", "revtgt")
    assert variant(gen, "w_0_adv2") is None, variant(gen, "w_0_adv2").sentence
    # (the whole-review verdict check of verdict.py may still refuse it: *an unfair price, highly recommended*)
    assert "agrees with every opinion" not in (refusal(gen, "r_1", "revtgt") or ""), refusal(gen, "r_1", "revtgt")


def test_a_clause_after_a_semicolon_that_refers_back_keeps_its_polarity(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("p", "The appetizers are excellent; you can make a great meal out of them.",
         [("appetizers", "positive", ["excellent"]), ("meal", "positive", ["great"])]),
        # no pronoun: two claims side by side
        ("n", "The appetizers are excellent; the staff is friendly.",
         [("appetizers", "positive", ["excellent"]), ("staff", "positive", ["friendly"])]),
    ])
    for aid in ("p_0", "p_1"):  # never *The appetizers are terrible; you can make a great meal out of them*
        assert variant(gen, aid + "_adv1") is None, variant(gen, aid + "_adv1").sentence
        assert "refers back" in (refusal(gen, aid, "revtgt") or ""), refusal(gen, aid, "revtgt")
    assert variant(gen, "p_1_adv2") is None, variant(gen, "p_1_adv2").sentence
    assert "refers back" in (refusal(gen, "p_1", "revnon") or ""), refusal(gen, "p_1", "revnon")
    assert variant(gen, "n_0_adv1") is not None, refusal(gen, "n_0", "revtgt")
