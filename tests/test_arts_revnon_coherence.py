"""ARTS corrected mode: RevNon (every non-target's opinion reversed, the target's kept) reads as one sentence.

A blind audit found RevNon variants that RevTgt's checks and repairs would have caught: each test is a short
made-up sentence of a failure's form. Like ``test_arts_quality.py`` the generator runs with ``rank="rules"``."""
from __future__ import annotations

import pytest

import _arts_kit
from test_arts_quality import refusal, run, variant


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def ops(v) -> list[str]:
    return [e.op for e in v.edits]


def test_a_with_phrase_ties_the_reversed_opinion_to_a_coordinated_adjective_of_its_host(tmp_path, kit):
    # *Small but charming room with extremely unfriendly staff*: *charming* is a conjunct of *Small*, on the host
    gen = run(tmp_path, kit, [("w", "Small but charming room with extremely friendly and helpful staff.",
                               [("room", "positive", ["charming"]), ("staff", "positive", ["friendly", "helpful"])])])
    assert variant(gen, "w_0_adv2") is None, variant(gen, "w_0_adv2")
    assert "'with' phrase" in (refusal(gen, "w_0", "revnon") or "")


def test_equally_ties_the_kept_opinion_to_the_reversed_one_and_is_removed(tmp_path, kit):
    gen = run(tmp_path, kit, [("e", "The burgers are great and the wraps are equally tasty.",
                               [("burgers", "positive", ["great"]), ("wraps", "positive", ["equally tasty"])])])
    v = variant(gen, "e_1_adv2")  # never *The burgers are terrible but the wraps are equally tasty*
    assert v is not None and "equally" not in v.sentence and v.sentence.endswith(" but the wraps are tasty."), v
    assert {"additive_removed", "and_to_but"} <= set(ops(v))
    v = variant(gen, "e_0_adv1")  # RevTgt of the wraps alike: *great but the wraps are equally bland* no more
    assert v is not None and "equally" not in v.sentence, v


def test_a_clause_about_a_reversed_non_target_that_keeps_its_sentiment_blocks_its_reversal(tmp_path, kit):
    # *A dessert cart paired with fine port provides the imperfect ending*: the clause names the kept target
    text = "A dessert cart paired with fine port provides the perfect ending."
    gen = run(tmp_path, kit, [("c", text, [("port", "positive", ["fine"]), ("dessert cart", "positive", ["perfect"])])])
    assert variant(gen, "c_0_adv2") is None, variant(gen, "c_0_adv2")
    assert "a clause about the non-target" in (refusal(gen, "c_0", "revnon") or "")


def test_an_opinion_shared_with_a_blocked_non_target_is_not_reversed_for_another(tmp_path, kit):
    # *waiting* annotated with the bartender's *rude*: the bartender's clause blocks it for both
    text = "We had a lazy manager and a rude bartender who had us waiting for drinks, and then told us to relax."
    gen = run(tmp_path, kit, [("s", text, [("manager", "negative", ["lazy"]), ("bartender", "negative", ["rude"]),
                                           ("waiting", "negative", ["rude"]), ("drinks", "neutral", ["waiting"])])])
    v = variant(gen, "s_0_adv2")  # never *a lazy manager and a polite bartender who had us waiting*
    assert v is None or " rude bartender" in v.sentence, v


def test_and_becomes_but_past_a_non_target_whose_annotation_reads_the_other_way(tmp_path, kit):
    # the *courtesy* annotated negative is left as is: it does not make the reversed side mixed
    text = "This laptop has a sloppy keyboard (courtesy of the design) and the screen is poor."
    gen = run(tmp_path, kit, [("k", text, [("keyboard", "negative", ["sloppy"]), ("design", "negative", ["courtesy"]),
                                           ("screen", "negative", ["poor"])])])
    v = variant(gen, "k_2_adv2")
    assert v is not None and v.sentence.endswith(") but the screen is poor."), v
    assert "and_to_but" in ops(v)


def test_but_is_inserted_before_a_verbless_second_side_that_now_differs(tmp_path, kit):
    # *working with it is so much harder, so many cool features*: the fragment reads as the clause's reason
    gen = run(tmp_path, kit, [
        ("f", "Working with it is so much easier, so many cool features.",
         [("Working", "positive", ["easier"]), ("features", "positive", ["cool"])]),
        ("l", "The food was good, the service prompt, and the price very fair.",
         [("food", "positive", ["good"]), ("service", "positive", ["prompt"]), ("price", "positive", ["fair"])]),
    ])
    v = variant(gen, "f_1_adv2")
    assert v is not None and v.sentence == "Working with it is so much harder, but so many cool features.", v
    assert "but_inserted" in ops(v)
    v = variant(gen, "l_2_adv2")  # a list with gapped verbs takes no *but* (*The food was bad, but the service ...*)
    assert v is None or "but" not in v.sentence, v


def test_an_opinion_that_describes_a_purpose_is_not_reversed(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("p", "Small size and low weight for easy travel, and the screen is sharp.",
         [("travel", "positive", ["easy"]), ("screen", "positive", ["sharp"])]),
        ("q", "Good for a quick lunch.", [("lunch", "positive", ["quick"])]),
        ("m", "Way too much money for such a bland meal.", [("meal", "negative", ["bland"])]),
    ])
    v = variant(gen, "p_1_adv2")  # never *low weight for hard travel*
    assert v is None or "easy travel" in v.sentence, v
    assert variant(gen, "q_0_adv1") is None  # never *Good for a slow lunch*
    assert "describes a purpose" in (refusal(gen, "q_0", "revtgt") or "")
    assert "purpose" not in (refusal(gen, "m_0", "revtgt") or "")  # a price paid for it is no purpose


def test_and_never_becomes_a_second_but_of_one_sentence(tmp_path, kit):
    text = "The food was great but the service was slow and the room was cold."
    gen = run(tmp_path, kit, [("d", text, [("food", "positive", ["great"]), ("service", "negative", ["slow"]),
                                           ("room", "negative", ["cold"])])])
    for key in ("d_1_adv2", "d_2_adv2", "d_1_adv1"):  # never *... but the service was slow but the room was not cold*
        v = variant(gen, key)
        assert v is None or v.sentence.count(" but ") < 2, v
    # the clause after the *and* has its own subject: a comma and *while* contrast it (:mod:`.beside`)
    v = variant(gen, "d_1_adv2")
    assert v is not None and v.sentence.endswith(" was slow, while the room was not cold."), \
        refusal(gen, "d_1", "revnon")
    gen = run(tmp_path, kit, [("y", "The room is simple yet cozy and the food is great.",
                               [("room", "positive", ["cozy"]), ("food", "positive", ["great"])])])
    v = variant(gen, "y_0_adv2")  # a *yet* inside one description is no contrast of clauses
    assert v is not None and v.sentence == "The room is simple yet cozy but the food is terrible.", v


def test_a_scalar_even_before_a_comparative_ties_it_to_the_earlier_opinion(tmp_path, kit):
    # never *The food is terrible but the milkshakes are even better!*
    gen = run(tmp_path, kit, [("m", "The food is great and the milkshakes are even better!",
                               [("food", "positive", ["great"]), ("milkshakes", "positive", ["even better"])])])
    v = variant(gen, "m_0_adv1")
    assert v is None or "even better" not in v.sentence, v
    assert v is not None or "'even'" in (refusal(gen, "m_0", "revtgt") or "")


def test_no_negation_after_a_degree_adverb_of_the_verb(tmp_path, kit):
    # never *a new drive which I highly don't recommend*
    gen = run(tmp_path, kit, [("h", "I put in a new drive which I highly recommend.",
                               [("drive", "positive", ["highly recommend"])])])
    v = variant(gen, "h_0_adv1")
    assert v is None or "highly don't" not in v.sentence, v
    assert v is not None or "degree adverb 'highly'" in (refusal(gen, "h_0", "revtgt") or "")


def test_a_softened_complaint_takes_no_opposite_and_no_second_degree_word(tmp_path, kit):
    # never *The switch is a bit clear*; never RevNon's *the smoothies are a little really big*
    gen = run(tmp_path, kit, [("s", "The switch is a bit obscure.", [("switch", "negative", ["obscure"])]),
                              ("d", "While the smoothies are a little big, the juices are the best I have had!",
                               [("smoothies", "negative", ["big"]), ("juices", "positive", ["best"])])])
    v = variant(gen, "s_0_adv1")
    assert v is None or "a bit clear" not in v.sentence, v
    v = variant(gen, "d_1_adv2")
    assert v is None or "little really" not in v.sentence, v
