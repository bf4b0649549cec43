"""A reversal that the sentence's own verdict on the whole review still contradicts
(:mod:`sentiprobe.generate.arts.verdict`): made-up sentences, one or more per form blind readers rejected.

The corrected mode runs with ``rank="rules"`` (no language model)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import _arts_kit

from sentiprobe.generate.arts import GenerateConfig
from sentiprobe.generate.arts.charedit import CharEdit
from sentiprobe.generate.arts.verdict import recommendation_repair, stance_clash, verdict_clash

RULES = GenerateConfig(rank="rules", phrase_source="template", strategies=("revtgt", "revnon"))


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def run(tmp_path: Path, kit, sents):
    return _arts_kit.generate_towe(tmp_path, kit, sents, RULES)


variant = _arts_kit.variant
refusal = _arts_kit.refusal


def test_a_complaint_beside_an_unchanged_verdict_of_praise_is_refused(tmp_path, kit):
    sents = [("e", "Had a great experience here... the waiter was friendly.", [("waiter", "positive", ["friendly"])]),
             ("b", "It definitely beats my old laptop and the screen was great.", [("screen", "positive", ["great"])]),
             ("h", "It does all I need, has a long battery life and I couldn't be happier.",
              [("battery life", "positive", ["long"])]),
             ("k", "Cozy room, great soup, friendly staff keep us coming back!", [("soup", "positive", ["great"])])]
    gen = run(tmp_path, kit, sents)
    for sid, _, _ in sents:
        v = variant(gen, f"{sid}_0_adv1")
        if sid in "bh" and v is not None:  # the and/but repair may turn it into a contrast, which reads right
            assert " but " in v.sentence, v.sentence
            continue
        assert v is None, v.sentence
        assert "verdict" in (refusal(gen, f"{sid}_0") or ""), (sid, refusal(gen, f"{sid}_0"))


def test_praise_beside_an_unchanged_verdict_of_complaint_is_refused(tmp_path, kit):
    gen = run(tmp_path, kit, [("n", "Don't ever bother, the soup was bland.", [("soup", "negative", ["bland"])])])
    assert variant(gen, "n_0_adv1") is None, variant(gen, "n_0_adv1").sentence
    assert "verdict" in (refusal(gen, "n_0") or ""), refusal(gen, "n_0")


def test_a_complaint_about_what_an_imperative_recommends_is_refused_or_the_recommendation_reversed(tmp_path, kit):
    sents = [("o", "Also get the Onion Rings -- best we've ever had.", [("Onion Rings", "positive", ["best"])]),
             ("s", "Sit back in one of those comfortable chairs.", [("chairs", "positive", ["comfortable"])]),
             ("t", "Also get the onion rings and the burger -- best we've ever had.",
              [("onion rings", "positive", ["best"]), ("burger", "positive", ["best"])])]
    gen = run(tmp_path, kit, sents)
    v = variant(gen, "o_0_adv1")  # *get* has the one-word opposite *skip*: the recommendation moves with the aspect
    assert v is not None and v.sentence == "Also skip the Onion Rings -- worst we've ever had.", v
    assert "recommendation_reversed" in [e.op for e in v.edits]
    v = variant(gen, "t_0_adv1")  # both aspects share the opinion: both reversed, the recommendation with them
    assert v is None or v.sentence.startswith("Also skip the onion rings and the burger"), v.sentence
    # *sit back in* has no such opposite
    assert variant(gen, "s_0_adv1") is None, variant(gen, "s_0_adv1").sentence
    assert "recommends what" in (refusal(gen, "s_0") or ""), refusal(gen, "s_0")


def test_the_recommendation_is_reversed_only_for_reversed_aspects_alone():
    text = "Try the soup and the bread -- best we've ever had."
    offsets = [(m.start(), m.end()) for m in re.finditer(r"\w+|[^\w\s]+", text)]
    soup, bread = text.index("soup"), text.index("bread")
    e = _edit(text, "best", "worst")
    assert recommendation_repair(text, offsets, [e], [(soup, soup + 4, 1), (bread, bread + 5, 1)]) == (0, "Skip")
    # an aspect of the object that keeps its praise keeps the recommendation (the variant is refused)
    assert recommendation_repair(text, offsets, [e], [(soup, soup + 4, 1), (bread, bread + 5, 0)]) is None
    # a complaint turned into praise is no recommendation's reversal
    assert recommendation_repair(text, offsets, [e], [(soup, soup + 4, -1)]) is None


def _edit(text: str, word: str, new: str) -> CharEdit:
    a = text.index(word)
    return CharEdit(a, a + len(word), new, word, "antonym", "test")


@pytest.mark.parametrize("text,word,new", [
    ("Had a great experience here... the staff was friendly; the food was tasty.", "friendly", "rude"),
    ("Highly recommended... it is a quiet place; the bar looks nice.", "looks nice", "doesn't look nice"),
    ("It has a long battery life and I couldn't be happier.", "long", "short"),
    ("This beats any laptop I owned, built well.", "well", "poorly"),
    ("It definitely beats my old mac and the screen is great.", "great", "dim"),
    ("Whenever I am nearby I will go to this place for fresh fish.", "fresh", "stale"),
    ("The one positive thing I can say is that the service was fast.", "fast", "slow"),
])
def test_a_complaint_beside_a_praising_verdict_is_refused(text, word, new):
    e = _edit(text, word, new)
    assert verdict_clash(text, [e], [e], [], [(text.index(word), text.index(word) + 1)]) is not None


def test_a_praise_beside_a_complaining_verdict_is_refused():
    text = "Don't bother with this place, the fish was stale."
    e = _edit(text, "stale", "fresh")
    assert verdict_clash(text, [e], [], [e], []) is not None


def test_an_edited_verdict_opposite_an_unchanged_one_is_refused_across_a_contrast():
    text = "Don't ever bother - the wine was sour, but the waiters made this the worst experience of my life."
    e = _edit(text, "worst", "best")
    assert verdict_clash(text, [e], [], [e], []) is not None


def test_a_contrast_licenses_the_mixed_review():
    text = "Highly recommended, although the bar is ugly."
    e = _edit(text, "ugly", "pretty")
    assert verdict_clash(text, [e], [], [e], []) is None  # praise beside praise
    text = "Highly recommended, although the bar is pretty."
    e = _edit(text, "pretty", "ugly")
    assert verdict_clash(text, [e], [e], [], []) is None
    text = "Highly recommended... I did not eat there but it looks calm; the bar looks nice."
    e = _edit(text, "looks nice", "doesn't look nice")  # the 'but' lies beyond the semicolon
    assert verdict_clash(text, [e], [e], [], []) is not None


def test_a_negated_or_edited_verdict_is_not_a_verdict():
    text = "It was not a great experience and the staff was friendly."
    e = _edit(text, "friendly", "rude")
    assert verdict_clash(text, [e], [e], [], []) is None
    text = "Had a great experience, the staff was friendly."
    e1, e2 = _edit(text, "great", "bad"), _edit(text, "friendly", "rude")
    assert verdict_clash(text, [e1, e2], [e1, e2], [], []) is None


@pytest.mark.parametrize("text,term,word,new", [
    ("Sit back in one of those comfortable chairs.", "chairs", "comfortable", "uncomfortable"),
    ("Also get the onion rings -- best we have ever had.", "onion rings", "best", "worst"),
    ("Try the soup, it is delicious.", "soup", "delicious", "bland"),
])
def test_an_imperative_recommendation_of_the_reversed_aspect_is_refused(text, term, word, new):
    e = _edit(text, word, new)
    a = text.index(term)
    assert verdict_clash(text, [e], [e], [], [(a, a + len(term))]) is not None
    # the same complaint about an aspect outside the recommendation's object: the imperative does not reach it
    assert verdict_clash(text, [e], [e], [], [(len(text) - 1, len(text))]) is None


def test_generate_refuses_the_reversal_beside_a_verdict(tmp_path, kit):
    gen = run(tmp_path, kit, [("g", "Had a great experience here, the staff was friendly.",
                               [("staff", "positive", ["friendly"])]),
                              ("s", "Sit back in one of those comfortable chairs.",
                               [("chairs", "positive", ["comfortable"])])])
    for aid in ("g_0", "s_0"):
        assert variant(gen, aid + "_adv1") is None, variant(gen, aid + "_adv1").sentence
        assert "verdict" in (refusal(gen, aid) or "") or "recommend" in (refusal(gen, aid) or ""), refusal(gen, aid)


@pytest.mark.parametrize("text,word,new", [
    ("Whenever I am nearby I will go to this place for fresh fish and big portions.", "big", "small"),
    ("If you are nearby, definitely stop by for a great meal.", "great", "terrible"),
    ("It is worth the trip just for a great dinner.", "great", "awful"),
])
def test_a_complaint_inside_a_praising_frame_is_refused_even_beside_a_written_but(text, word, new):
    e = _edit(text, word, new)
    a = text.index(" and ") if " and " in text else text.index(word)
    but = CharEdit(a + 1, a + 4, "but", "and", "and_to_but", "test") if " and " in text else None
    edits = [e] + ([but] if but else [])
    assert verdict_clash(text, edits, [e], [], []) is not None


def test_a_verdict_on_the_reversed_aspect_itself_moves_with_it():
    text = "It's simply the best meal in town, so fresh."
    e = CharEdit(text.index("the best"), text.index("the best"), "not ", "", "negation_added", "test")
    a = text.index("meal")
    assert verdict_clash(text, [e], [e], [], [(a, a + 4)]) is None
    e2 = _edit(text, "fresh", "stale")  # a reversal beside the unchanged verdict on the meal is still refused
    assert verdict_clash(text, [e2], [e2], [], []) is not None


def test_a_verdict_on_an_unchanged_aspect_is_that_aspects_opinion():
    text = "A place where you always have a good meal at a fair price."
    e = _edit(text, "fair", "unfair")
    meal, price = text.index("meal"), text.index("price")
    assert verdict_clash(text, [e], [e], [], [(price, price + 5)]) is not None  # without the aspects: a verdict
    assert verdict_clash(text, [e], [e], [], [(price, price + 5)], [(meal, meal + 4), (price, price + 5)]) is None


def test_a_reversal_under_an_unchanged_stance_or_condition_is_refused(tmp_path, kit):
    sents = [("d", "Disappointingly, their wonderful cocktail has been taken off the menu.",
              [("cocktail", "positive", ["wonderful"])]),
             ("p", "I was pleasantly surprised to see such friendly staff.",
              [("staff", "positive", ["friendly"])]),
             ("c", "Performance is much better on the Pro, especially if you install an SSD.",
              [("Performance", "positive", ["better"])])]
    gen = run(tmp_path, kit, sents)
    for sid, _, _ in sents:
        v = variant(gen, f"{sid}_0_adv1")
        assert v is None, v.sentence
        why = refusal(gen, f"{sid}_0") or ""
        assert ("stance" in why) if sid in "dp" else ("condition" in why), (sid, why)


def test_a_stance_ends_with_its_statement_and_moves_with_an_edit_of_it():
    src = "They always seem glad to see us, and the food is wonderful."
    at = src.index("wonderful")
    edit = CharEdit(at, at + len("wonderful"), "terrible", "wonderful", "antonym", "")
    assert stance_clash(src, [edit], [edit]) is None  # *glad to see* governs *us*, not the food
    src = "Unfortunately, it runs XP and support is ending."
    fix = CharEdit(0, len("Unfortunately"), "Fortunately", "Unfortunately", "antonym", "")
    at = src.index("is ending")
    edit = CharEdit(at, at + 2, "is not", "is", "copula_negated", "")
    assert stance_clash(src, [fix, edit], [edit]) is None
    assert "stance" in (stance_clash(src, [edit], [edit]) or "")


def test_one_of_two_exclamative_how_clauses_reversed_is_refused(tmp_path, kit):
    text = "I can't believe how quiet the fan is and how fast this thing boots up."
    gen = run(tmp_path, kit, [("w", text, [("fan", "positive", ["quiet"]), ("boots up", "positive", ["fast"])])])
    for key in ("w_0_adv1", "w_1_adv1"):
        assert variant(gen, key) is None, variant(gen, key).sentence
    assert "'how' clauses" in (refusal(gen, "w_0") or ""), refusal(gen, "w_0")


def test_an_emoticon_argues_with_an_opinion_turned_against_it_and_advice_with_its_reason():
    src = "Great for all my graphic design classes this year: - )"
    edit = CharEdit(0, 5, "Poor", "Great", "antonym", "")
    assert "emoticon" in (stance_clash(src, [edit], [edit]) or "")
    assert stance_clash(src, [edit], [], [edit]) is None  # praise under a smiley is no clash
    src = ":) Great product, great price, great delivery, and great service."
    at = src.rindex("great")
    edit = CharEdit(at, at + 5, "terrible", "great", "antonym", "")
    assert "emoticon" in (stance_clash(src, [edit], [edit]) or "")
    src2 = ":) Great product, great price, great delivery, but great service."
    at = src2.rindex("great")
    edit = CharEdit(at, at + 5, "terrible", "great", "antonym", "")
    assert stance_clash(src2, [edit], [edit]) is None  # across a contrast the review is mixed
    at = src.index(", and great service")
    but = CharEdit(at, at + 5, ", but", ", and", "and_to_but", "")
    at = src.rindex("great")
    edit = CharEdit(at, at + 5, "terrible", "great", "antonym", "")
    assert stance_clash(src, [but, edit], [edit]) is None  # a contrast the edit writes counts too
    src = "The portions are large so if you are hungry, this is the place for you."
    edit = CharEdit(17, 22, "small", "large", "antonym", "")
    assert "condition" in (stance_clash(src, [edit], [edit]) or "")


def test_just_what_i_was_looking_for_is_a_verdict():
    src = "It's just what we were looking for and it works great."
    at = src.index("great")
    edit = CharEdit(at, at + 5, "terrible", "great", "antonym", "")
    assert "verdict" in (verdict_clash(src, [edit], [edit], [], []) or "")
