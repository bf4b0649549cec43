"""ARTS corrected mode: an *and* a reversal made misfit in a sentence that already holds a contrast
(:mod:`sentiprobe.generate.arts.beside`), and the *and* of a chain of three clauses the contrast goes to
(:func:`sentiprobe.generate.arts.repair.contrast_made`); sentences from the SemEval test files or their forms."""
from __future__ import annotations

import pytest

import _arts_kit
from test_arts_quality import run, variant

from sentiprobe.generate.arts.beside import STITCHED

refusal = _arts_kit.refusal

DIFFERENCE = ("What a difference, the service was very comforting and the food was better than average, but what "
              "really standed out was such a dynamic and extensive beer list.")


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def test_an_and_beside_a_sentence_initial_though_becomes_a_comma_and_while(tmp_path, kit):
    # *crashes* (a review verb) and the removed negation leave the sides of the *, and* opposite; the *Though*
    # kept the *but* out and the parser reads *isnt superb* as a name, so the side was not read at all
    text = "Though please note that sometimes it crashes, and the sound quality isnt superb."
    gen = run(tmp_path, kit, [("t", text, [("sound quality", "negative", ["isnt superb"])])])
    v = variant(gen, "t_0_adv1")
    assert v is not None and v.sentence == ("Though please note that sometimes it crashes, while the sound quality "
                                            "is superb."), refusal(gen, "t_0")
    assert "and_to_while" in [e.op for e in v.edits]


def test_an_and_between_two_aspects_beside_a_but_becomes_while(tmp_path, kit):
    gen = run(tmp_path, kit, [("d", DIFFERENCE, [("service", "positive", ["comforting"]),
                                                 ("food", "positive", ["better"])])])
    v = variant(gen, "d_1_adv1")  # the food reversed: the repair of contrast_made, beside the *but*
    assert v is not None and ("the service was very comforting, while the food was worse than average, but what"
                              in v.sentence), refusal(gen, "d_1")
    w = variant(gen, "d_0_adv1")  # the service reversed: the *and* -> *but* of the plain case, refused before
    assert w is not None and "comforting, while the food was better than average, but" in w.sentence, \
        refusal(gen, "d_0")


def test_a_predicate_without_a_subject_beside_a_contrast_is_refused(tmp_path, kit):
    # *, while always smiling* would read as a concession of the unfriendliness: no wording fits
    text = "The place is tiny but the staff is friendly and always smiling."
    gen = run(tmp_path, kit, [("s", text, [("staff", "positive", ["friendly"])])])
    assert variant(gen, "s_0_adv1") is None
    assert refusal(gen, "s_0") == STITCHED


def test_a_while_needs_room_beside_the_other_contrast(tmp_path, kit):
    text = "The food was great but the service was slow and the room was cold."
    gen = run(tmp_path, kit, [("d", text, [("food", "positive", ["great"]), ("service", "negative", ["slow"]),
                                           ("room", "negative", ["cold"])])])
    assert variant(gen, "d_1_adv1") is None  # *great but the service was fast*: the *but* no longer contrasts
    assert "right after 'but'" in (refusal(gen, "d_1") or "")
    v = variant(gen, "d_2_adv1")  # the room reversed, after the *and*: the *but* keeps its two sides
    assert v is not None and v.sentence.endswith("was slow, while the room was not cold."), refusal(gen, "d_2")
    # a later contrast that refers back to the reversed clause would argue with it
    text = "The seats are hard and I hated the music, but we got used to it."
    gen = run(tmp_path, kit, [("b", text, [("music", "negative", ["hated"]), ("seats", "negative", ["hard"])])])
    assert variant(gen, "b_0_adv1") is None
    assert "refers back" in (refusal(gen, "b_0") or ""), refusal(gen, "b_0")


def test_an_and_without_another_contrast_still_becomes_but(tmp_path, kit):
    text = "The place is small and the food is great and the bartender made superb drinks."
    gen = run(tmp_path, kit, [("p", text, [("food", "positive", ["great"]), ("drinks", "positive", ["superb"])])])
    v = variant(gen, "p_0_adv1")
    assert v is not None and "while" not in v.sentence


def test_in_a_chain_of_three_clauses_the_and_next_to_the_reversed_one_contrasts(tmp_path, kit):
    text = "The staff greeted me warmly at the door and I was seated promptly and the food was excellent."
    gen = run(tmp_path, kit, [("c", text, [("staff", "positive", ["warmly"]), ("food", "positive", ["excellent"])])])
    v = variant(gen, "c_1_adv1")
    assert v is not None and v.sentence.startswith(
        "The staff greeted me warmly at the door and I was seated promptly but the food was "), refusal(gen, "c_1")
    n = variant(gen, "c_0_adv2")  # RevNon reverses the food: the same joint
    assert n is not None and " promptly but the food was " in n.sentence
    s = variant(gen, "c_0_adv1")  # the staff reversed: the first *and* is the one next to it
    assert s is not None and " at the door but I was seated promptly and the food was excellent." in s.sentence


def test_a_reversal_after_a_run_on_clause_gets_a_but_at_the_seam(tmp_path, kit):
    # the parser hangs *The MBP is beautiful* before *has* as a complement: no coordinator to turn
    text = "The MBP is beautiful has many wonderful capabilities."
    gen = run(tmp_path, kit, [("r", text, [("capabilities", "positive", ["wonderful"])])])
    v = variant(gen, "r_0_adv1")
    assert v is not None and v.sentence.startswith("The MBP is beautiful but has many "), refusal(gen, "r_0")
    assert "but_inserted" in [e.op for e in v.edits]


def test_two_touching_phrases_that_now_differ_get_a_but(tmp_path, kit):
    text = "great food good wine that's it."
    gen = run(tmp_path, kit, [("w", text, [("food", "positive", ["great"]), ("wine", "positive", ["good"])])])
    v = variant(gen, "w_1_adv1")
    assert v is not None and v.sentence.startswith("great food but "), refusal(gen, "w_1")
    n = variant(gen, "w_1_adv2")  # RevNon reverses the food: the same seam
    assert n is not None and " food but good wine" in n.sentence


def test_phrases_with_a_word_at_the_seam_get_no_but(tmp_path, kit):
    # *at* joins the price to the food: no run-on, so nothing is inserted (the price is weighed, not listed)
    gen = run(tmp_path, kit, [("t", "Great food at good prices.", [("food", "positive", ["Great"]),
                                                                  ("prices", "positive", ["good"])])])
    v = variant(gen, "t_1_adv1")
    assert v is None or " but " not in v.sentence, v.sentence
