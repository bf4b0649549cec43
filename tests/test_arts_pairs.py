"""ARTS corrected mode: coordinated pairs and lists a reversal would leave half reversed, and opposites that fit a
person (``generate/arts/pairs.py``). Each failure form of the blind audit, in short made-up sentences, is refused
or repaired, and a near miss of the same shape is left alone.

Like ``test_arts_descriptors.py`` the generator runs with ``rank="rules"`` (no language model)."""
from __future__ import annotations

import pytest

import _arts_kit
from test_arts_quality import refusal, run, variant


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def test_an_adjective_coordinated_with_the_opinion_is_never_left_with_the_old_polarity(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("d", "It has a dynamic and friendly staff, but tiny tables.",
         [("staff", "positive", ["friendly"]), ("tables", "negative", ["tiny"])]),
        # both adjectives are the target's opinions: both are reversed
        ("b", "The staff was friendly and helpful.", [("staff", "positive", ["friendly", "helpful"])]),
    ])
    assert variant(gen, "d_0_adv1") is None, variant(gen, "d_0_adv1").sentence  # *a dynamic and unfriendly staff*
    assert "pair would read mixed" in (refusal(gen, "d_0", "revtgt") or ""), refusal(gen, "d_0", "revtgt")
    assert variant(gen, "b_0_adv1") is not None, refusal(gen, "b_0", "revtgt")


def test_charm_of_a_person_reverses_to_a_word_for_a_person(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("w", "Our waiter was helpful and charming.", [("waiter", "positive", ["helpful", "charming"])]),
        ("p", "The patio is charming.", [("patio", "positive", ["charming"])]),
    ])
    v = variant(gen, "w_0_adv1")
    assert v is not None, refusal(gen, "w_0", "revtgt")
    assert "rude" in v.sentence and "unappealing" not in v.sentence, v.sentence
    p = variant(gen, "p_0_adv1")
    assert p is None or "rude" not in p.sentence, p.sentence  # a thing is never rude


def test_one_reversed_item_of_a_list_is_contrasted_or_refused(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("l", "Great pasta, fresh bread, friendly service.",
         [("pasta", "positive", ["Great"]), ("bread", "positive", ["fresh"]), ("service", "positive", ["friendly"])]),
        ("m", "Great pasta, fresh bread, tasty desserts, and friendly service.",
         [("pasta", "positive", ["Great"]), ("bread", "positive", ["fresh"]), ("desserts", "positive", ["tasty"]),
          ("service", "positive", ["friendly"])]),
        ("a", "Although tiny, it has lovely decor, tasty food and friendly staff.",
         [("decor", "positive", ["lovely"]), ("food", "positive", ["tasty"]), ("staff", "positive", ["friendly"])]),
    ])
    v = variant(gen, "l_2_adv1")  # the last item: a contrast before it, as a reviewer writes
    assert v is not None and ", but " in v.sentence, v.sentence if v else refusal(gen, "l_2", "revtgt")
    # one complaint in the middle of a longer list of praise, and the last one after a concession: refused
    for aid in ("m_1", "a_2"):
        assert variant(gen, aid + "_adv1") is None, variant(gen, aid + "_adv1").sentence
        assert "one item of a list" in (refusal(gen, aid, "revtgt") or ""), refusal(gen, aid, "revtgt")
    # a short tally whose first item is reversed reads as pros and cons
    assert "one item of a list" not in (refusal(gen, "l_0", "revtgt") or ""), refusal(gen, "l_0", "revtgt")


def test_a_reversed_first_item_of_a_list_is_set_off_by_but(tmp_path, kit):
    text = "Good service, great food, good value, and never have to wait in line!"
    gen = run(tmp_path, kit, [("f", text, [("service", "positive", ["Good"]), ("food", "positive", ["great"]),
                                           ("value", "positive", ["good"])])])
    v = variant(gen, "f_0_adv1")  # the first item: the rest of the list reads as the praise it was
    assert v is not None and v.sentence.endswith(" service, but great food, good value, and never have to wait in "
                                                 "line!"), v.sentence if v else refusal(gen, "f_0", "revtgt")
    assert "but_inserted" in [e.op for e in v.edits]
    text = "Great food, great waitstaff, great atmosphere, and best of all GREAT beer!"
    gen = run(tmp_path, kit, [("m", text, [("food", "positive", ["Great"]), ("waitstaff", "positive", ["great"]),
                                           ("atmosphere", "positive", ["great"]), ("beer", "positive", ["GREAT"])])])
    v = variant(gen, "m_0_adv1")
    assert v is not None and ", but great waitstaff, great atmosphere, and best of all GREAT beer!" in v.sentence, v
    v = variant(gen, "m_2_adv1")  # a middle item has no one place for the contrast
    assert v is None, v.sentence
    assert "one item of a list" in (refusal(gen, "m_2", "revtgt") or ""), refusal(gen, "m_2", "revtgt")
    text = "Our waiter was helpful and charming, the food was perfect, and the wine was good, too."
    gen = run(tmp_path, kit, [("w", text, [("waiter", "positive", ["helpful", "charming"]),
                                           ("food", "positive", ["perfect"]), ("wine", "positive", ["good"])])])
    v = variant(gen, "w_0_adv1")  # an edit beyond the first item (the additive *too* removed): no one contrast
    assert v is None or ", but the food" not in v.sentence, v.sentence
