"""Reversals that read wrong only in their surroundings (:mod:`sentiprobe.generate.arts.flow`): made-up sentences of
the forms a blind reading of laptop RevTgt and RevNon variants failed.

The corrected mode runs with ``rank="rules"`` (no language model)."""
from __future__ import annotations

from pathlib import Path

import pytest

import _arts_kit

from sentiprobe.generate.arts import GenerateConfig
from sentiprobe.generate.arts.charedit import CharEdit
from sentiprobe.generate.arts.flow import flow_clash, plus_contrast

RULES = GenerateConfig(rank="rules", phrase_source="template", strategies=("revtgt", "revnon"))


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def run(tmp_path: Path, kit, sents):
    return _arts_kit.generate_towe(tmp_path, kit, sents, RULES)


variant = _arts_kit.variant
refusal = _arts_kit.refusal


def test_unpleasant_never_describes_a_made_thing(tmp_path, kit):
    gen = run(tmp_path, kit, [("n", "Very nice aluminum casing.", [("aluminum casing", "positive", ["nice"])]),
                              ("s", "The staff was nice.", [("staff", "positive", ["nice"])])])
    v = variant(gen, "n_0_adv1")
    assert v is not None, refusal(gen, "n_0")
    assert "unpleasant" not in v.sentence and "nasty" not in v.sentence, v.sentence
    offered = {c["text"]: c["valid"] for site in v.choices for c in site["candidates"]}
    assert offered.get("Very poor aluminum casing.") is True, offered  # the made thing's complaint competes
    s = variant(gen, "s_0_adv1")  # a person may be unpleasant: the rule leaves the choice alone
    assert s is not None and s.sentence in ("The staff was unpleasant.", "The staff was bad."), refusal(gen, "s_0")


def test_a_one_syllable_opposite_after_more_takes_its_synthetic_form(tmp_path, kit):
    gen = run(tmp_path, kit, [("m", "This one has a more powerful processor.",
                               [("processor", "positive", ["powerful"])])])
    v = variant(gen, "m_0_adv1")
    assert v is not None, refusal(gen, "m_0")
    assert "more weak" not in v.sentence, v.sentence
    assert v.sentence in ("This one has a weaker processor.", "This one has a more powerless processor."), v.sentence


def test_a_comparative_under_much_is_never_negated(tmp_path, kit):
    gen = run(tmp_path, kit, [("h", "Since the update I am much happier with the keyboard.",
                               [("keyboard", "positive", ["happier"])])])
    v = variant(gen, "h_0_adv1")
    assert v is None or "not much" not in v.sentence, v.sentence


def test_a_complaint_after_plus_becomes_a_contrast_or_is_refused(tmp_path, kit):
    gen = run(tmp_path, kit, [("p", "Works as described plus a great price.", [("price", "positive", ["great"])]),
                              ("q", "It has a fast processor plus a great screen and a roomy keyboard.",
                               [("screen", "positive", ["great"]), ("keyboard", "positive", ["roomy"])])])
    v = variant(gen, "p_0_adv1")
    assert v is not None, refusal(gen, "p_0")
    assert v.sentence.startswith("Works as described but a "), v.sentence
    q = variant(gen, "q_0_adv1")
    assert q is None or "plus a great" in q.sentence, q.sentence
    assert q is not None or "'plus' adds an advantage" in (refusal(gen, "q_0") or "")


def test_thanks_for_never_holds_a_complaint(tmp_path, kit):
    gen = run(tmp_path, kit, [("t", "Thanks for the quick delivery and great price.",
                               [("delivery", "positive", ["quick"]), ("price", "positive", ["great"])])])
    for key in ("t_1_adv1", "t_0_adv2"):
        assert variant(gen, key) is None, variant(gen, key).sentence
    assert "'thanks for'" in (refusal(gen, "t_1") or ""), refusal(gen, "t_1")


def test_cant_complain_sums_up_praise(tmp_path, kit):
    gen = run(tmp_path, kit, [("c", "The speed is good and it does the job, can't complain about that!",
                               [("speed", "positive", ["good"])])])
    v = variant(gen, "c_0_adv1")
    assert v is None, v.sentence
    assert "sums itself up as praise" in (refusal(gen, "c_0") or ""), refusal(gen, "c_0")


def test_two_exclamations_take_no_but_and_one_reversed_alone_is_refused(tmp_path, kit):
    # no *but how* fits between them, and *and* over opposite facts reads as nonsense to blind readers
    gen = run(tmp_path, kit, [("w", "I can't believe how quiet the fan is and how quick the boot is.",
                               [("fan", "positive", ["quiet"]), ("boot", "positive", ["quick"])])])
    got = [v for v in (variant(gen, k) for k in ("w_0_adv1", "w_0_adv2", "w_1_adv1", "w_1_adv2")) if v is not None]
    assert got == [], [v.sentence for v in got]
    assert "'how' clauses" in (refusal(gen, "w_0") or ""), refusal(gen, "w_0")


def test_flow_clash_lets_plus_add_a_complaint_to_a_complaint():
    text = "A terrible price plus a slow shipping."
    src = "A great price plus a fast shipping."
    edits = [CharEdit(2, 7, "terrible", "great", "antonym", ""), CharEdit(21, 25, "slow", "fast", "antonym", "")]
    assert flow_clash(text, edits, edits) is None
    assert flow_clash("A great price plus a slow shipping.", edits[1:], edits[1:]) is not None
    assert plus_contrast(src, edits[1:], edits[1:]) is not None  # *A great price but a slow shipping.*
    comma = [CharEdit(22, 26, "slow", "fast", "antonym", "")]
    assert plus_contrast("A great price, plus a fast shipping.", comma, comma) is None  # *, plus*: refused instead


def test_a_past_wish_keeps_its_negation(tmp_path, kit):
    gen = run(tmp_path, kit, [("w", "I did not want Windows 8 and my old laptop crashed.",
                               [("Windows 8", "negative", ["did not want"])])])
    v = variant(gen, "w_0_adv1")
    assert v is None or "I wanted" not in v.sentence, v.sentence


def test_a_side_read_only_by_its_certainty_adverb_still_loses_its_contrast(tmp_path, kit):
    gen = run(tmp_path, kit, [("d", "The food was definitely on point, but I could not justify it for the price.",
                               [("food", "positive", ["on point"])])])
    v = variant(gen, "d_0_adv1")
    # *definitely off the mark, but I could not justify it*: no contrast left, so the repair joins with *and*
    assert v is not None, refusal(gen, "d_0")
    assert v.sentence == "The food was definitely off the mark, and I could not justify it for the price.", v.sentence


def test_a_liking_verb_whose_object_keeps_its_praise_is_not_reversed_alone(tmp_path, kit):
    gen = run(tmp_path, kit, [("l", "I am loving the nice keyboard.", [("keyboard", "positive", ["loving"])]),
                              ("d", "I like the lighted keyboard at night.", [("keyboard", "positive", ["like"])])])
    v = variant(gen, "l_0_adv1")
    assert v is None or not any(w in v.sentence for w in ("not loving the nice", "hating the nice")), v.sentence
    d = variant(gen, "d_0_adv1")  # a participle describes: the liking is reversed
    assert d is not None and "the lighted keyboard" in d.sentence, refusal(gen, "d_0")


def test_a_liking_verb_whose_praised_object_is_an_opinion_too_takes_antonyms_for_both(tmp_path, kit):
    # laptop test 484:1, opinions *loving* and *fast*: a negation would read *not loving the fast performance*
    gen = run(tmp_path, kit, [("l", "I am loving the nice performance also.",
                               [("performance", "positive", ["loving", "nice"])])])
    v = variant(gen, "l_0_adv1")
    assert v is not None, refusal(gen, "l_0")
    assert "not" not in v.sentence and "nice" not in v.sentence and "hating" in v.sentence, v.sentence
    # the negation for *nice* falls on *loving*: with *hating* it read *I am not hating the fast performance also*
    offered = {c["text"]: c["valid"] for site in v.choices for c in site["candidates"]}
    assert not any(ok and "not loving" in t for t, ok in offered.items()), offered
    # a comparison after the object is no modifier of it: *I dislike those programs worse than Office* never
    gen = run(tmp_path, kit, [("c", "I like those programs better than Office.",
                               [("programs", "positive", ["like", "better"])])])
    c = variant(gen, "c_0_adv1")
    assert c is None or "worse" not in c.sentence, c.sentence


def test_an_extreme_adjective_takes_a_plain_opposite_over_its_prefixed_denial(tmp_path, kit):
    gen = run(tmp_path, kit, [("x", "The packing and everything was perfect.", [("packing", "positive", ["perfect"])])])
    v = variant(gen, "x_0_adv1")
    assert v is not None and "imperfect" not in v.sentence, refusal(gen, "x_0")
    offered = [c for site in v.choices for c in site["candidates"] if "imperfect" in c["text"]]
    assert offered and not any(c["valid"] for c in offered), offered  # the language model never weighs it


def test_an_opinion_that_results_from_an_unchanged_degree_is_not_reversed(tmp_path, kit):
    gen = run(tmp_path, kit, [("r", "It is so good and responsive that it makes gaming much more enjoyable.",
                               [("gaming", "positive", ["enjoyable"])])])
    v = variant(gen, "r_0_adv1")
    assert v is None, v.sentence
    assert "unchanged degree" in (refusal(gen, "r_0") or ""), refusal(gen, "r_0")


def test_an_opinion_after_once_used_to_is_not_reversed(tmp_path, kit):
    gen = run(tmp_path, kit, [("o", "Once you get used to the trackpad it is very easy to use.",
                               [("trackpad", "positive", ["easy"])])])
    v = variant(gen, "o_0_adv1")
    assert v is None, v.sentence
    gen = run(tmp_path, kit, [("a", "Once used to the OS it is easy, and the screen is great.",
                               [("screen", "positive", ["great"])])])
    a = variant(gen, "a_0_adv1")  # a clause of its own after *and*
    assert a is not None, refusal(gen, "a_0")
    assert a.sentence.startswith("Once used to the OS it is easy, but the screen is "), a.sentence


def test_a_wish_for_improvement_is_a_complaint_on_its_side_of_a_contrast(tmp_path, kit):
    gen = run(tmp_path, kit, [("i", "I like the design but there are some things that need to be improved.",
                               [("design", "positive", ["like"])])])
    v = variant(gen, "i_0_adv1")
    # *I dislike the design but ... need to be improved*: no contrast left, so the repair joins with *and*
    assert v is not None, refusal(gen, "i_0")
    assert v.sentence == "I dislike the design and there are some things that need to be improved.", v.sentence
