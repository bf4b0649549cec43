"""ARTS corrected mode: reversals that a clause about the target or a contrast with a plain statement used to
block, and the forms that stay refused. Short made-up sentences of the forms found among the refused targets of
the restaurant and laptop test files; like ``test_arts_repair.py`` the generator ranks by rules."""
from __future__ import annotations

import pytest

import _arts_kit
from test_arts_clash import with_lexicon
from test_arts_quality import refusal, run, variant


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def ops(v) -> list[str]:
    return [e.op for e in v.edits]


def test_a_quantity_in_a_clause_about_the_target_is_no_opinion(tmp_path, kit):
    text = "They offer very quick delivery which is great when you don't have much time."
    gen = run(tmp_path, kit, [("q", text, [("delivery", "positive", ["quick", "great"])])],
              with_lexicon(tmp_path, {"much": "positive"}))
    v = variant(gen, "q_0_adv1")
    assert v is not None and v.sentence.startswith("They offer very slow delivery which is "), \
        refusal(gen, "q_0", "revtgt")


def test_a_clause_naming_who_had_the_dish_is_no_opinion(tmp_path, kit):
    text = "The soup we tried was bland."
    gen = run(tmp_path, kit, [("s", text, [("soup", "negative", ["bland"])])],
              with_lexicon(tmp_path, {"tried": "positive"}))
    v = variant(gen, "s_0_adv1")
    assert v is not None and v.sentence.startswith("The soup we tried was "), refusal(gen, "s_0", "revtgt")


def test_a_clause_about_the_target_with_an_opinion_stays_refused(tmp_path, kit):
    text = "The rude waiter who kept us waiting forever was a disaster."
    gen = run(tmp_path, kit, [("w", text, [("waiter", "negative", ["rude"])])])
    assert variant(gen, "w_0_adv1") is None


def test_no_negation_falls_on_a_pair_of_coordinated_predicates(tmp_path, kit):
    text = "The steak I ordered was tasteless and burned and the fries were cold."
    gen = run(tmp_path, kit, [("p", text, [("steak", "negative", ["tasteless", "burned"]),
                                           ("fries", "negative", ["cold"])])])
    v = variant(gen, "p_0_adv1")
    assert v is None or " not " not in v.sentence, v.sentence


def test_but_becomes_and_between_a_statement_and_the_reversed_clause(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("c", "It's not cheap but the screen is impressive.", [("screen", "positive", ["impressive"])]),
        ("j", "The pasta was definitely good, but I just couldn't justify it for the price.",
         [("pasta", "positive", ["good"])]),
    ])
    v = variant(gen, "c_0_adv1")
    assert v is not None and v.sentence == "It's not cheap and the screen is unimpressive.", v
    assert "but_to_and" in ops(v)
    v = variant(gen, "j_0_adv1")
    assert v is not None and ", and I just couldn't justify it" in v.sentence, v


def test_but_before_a_fragment_or_after_a_not_frame_stays_refused(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("f", "We had a very nice dinner, but nothing amazing.", [("dinner", "positive", ["nice"])]),
        ("n", "Not because it was cheap, but the food here is always delicious.",
         [("food", "positive", ["delicious"])]),
        ("z", "The room might be way too tiny, but it is cozy and the food is great.",
         [("food", "positive", ["great"])]),
    ])
    for aid in ("f_0", "n_0", "z_0"):
        v = variant(gen, aid + "_adv1")
        assert v is None or "but_to_and" not in ops(v), v.sentence


def test_and_becomes_but_between_the_reversed_predicate_and_a_coordinated_one(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("t", "The hosts are attentive and have smiles on their faces.", [("hosts", "positive", ["attentive"])]),
        ("w", "The waiters always look angry and even ignore the regulars.", [("waiters", "negative", ["angry"])]),
        ("m", "The tablet itself was fast, ran smoothly, and had no problems.", [("ran", "positive", ["smoothly"])]),
    ])
    v = variant(gen, "t_0_adv1")
    assert v is not None and v.sentence.endswith(" but have smiles on their faces."), refusal(gen, "t_0", "revtgt")
    assert "and_to_but" in ops(v)
    v = variant(gen, "w_0_adv1")  # *and even* adds to what came before: no *but* fits
    assert v is None, v.sentence
    v = variant(gen, "m_0_adv1")  # the middle of three predicates: *was fast, ran poorly, but had no problems*
    assert v is None, v.sentence


def test_a_stance_adverb_does_not_read_as_praise_beside_an_elaboration():
    """*Definitely avoid the pasta - it was terrible*: VADER rates *definitely* positive on its own, which split
    the reversed statement from its (reversed) elaboration."""
    from sentiprobe.generate.arts.charedit import CharEdit
    from sentiprobe.generate.arts.clash import elaboration_split
    from sentiprobe.generate.arts.polarity import Polarity
    from sentiprobe.generate.arts.text import token_offsets, tokenize

    text = "Definitely try the pasta with clams - it was delicious."
    toks = tokenize(text)
    offsets = token_offsets(text, toks)
    a, b = text.index("try"), text.index("delicious")
    edits = [CharEdit(a, a + 3, "avoid", "try", "antonym", "test"),
             CharEdit(b, b + 9, "awful", "delicious", "antonym", "test")]
    assert elaboration_split(Polarity(), text, toks, offsets, edits) is None
    half = [CharEdit(a, a + 3, "avoid", "try", "antonym", "test")]  # the elaboration left as is: a split
    assert elaboration_split(Polarity(), text, toks, offsets, half) is not None
