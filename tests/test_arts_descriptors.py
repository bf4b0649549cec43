"""ARTS corrected mode: unchanged descriptors of the reversed opinion's noun that keep its old polarity (checks
29-31, ``generate/arts/descriptors.py``). Each failure form of the blind audit, in short made-up sentences, is
refused, and a near miss of the same shape is left alone.

Like ``test_arts_context.py`` the generator runs with ``rank="rules"`` (no language model)."""
from __future__ import annotations

import pytest

import _arts_kit
from test_arts_quality import refusal, run, variant


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def test_a_descriptor_set_off_after_the_target_keeps_its_polarity(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("d", "A lovely patio, perfect for long lunches.", [("patio", "positive", ["lovely"])]),
        ("m", "It has a good microphone, good enough for beginners.", [("microphone", "positive", ["good"])]),
        # a descriptor with no polar word
        ("o", "A lovely patio, open until midnight.", [("patio", "positive", ["lovely"])]),
        # the next item of a list, not a descriptor
        ("l", "Great pasta, friendly and fast service.",
         [("pasta", "positive", ["Great"]), ("service", "positive", ["friendly", "fast"])]),
    ])
    for aid in ("d_0", "m_0"):
        assert variant(gen, aid + "_adv1") is None, variant(gen, aid + "_adv1")  # *An ugly patio, perfect for ...*
        assert "descriptor after" in (refusal(gen, aid, "revtgt") or ""), refusal(gen, aid, "revtgt")
    assert variant(gen, "o_0_adv1") is not None, refusal(gen, "o_0", "revtgt")
    assert "descriptor after" not in (refusal(gen, "l_0", "revtgt") or "")


def test_a_superlative_frame_keeps_the_polarity_of_its_content(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("n", "The nicest part is the cool keyboard and quiet fan.",
         [("keyboard", "positive", ["nicest", "cool"]), ("fan", "positive", ["nicest", "quiet"])]),
        ("t", "The best thing about it is the great screen.", [("screen", "positive", ["best"])]),
        # nothing polar on the other side of the copula: the frame only names it
        ("b", "The best part is the screen.", [("screen", "positive", ["best"])]),
    ])
    for aid in ("n_0", "n_1", "t_0"):
        assert variant(gen, aid + "_adv1") is None, variant(gen, aid + "_adv1")  # *The worst part is the ... quiet fan*
        assert "frames (" in (refusal(gen, aid, "revtgt") or ""), refusal(gen, aid, "revtgt")
    assert variant(gen, "b_0_adv1") is not None, refusal(gen, "b_0", "revtgt")


def test_a_relative_clause_on_the_opinions_noun_keeps_its_polarity(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("s", "There is something so lovely about the garden, sipping a cool drink that makes every visit "
              "worthwhile.", [("garden", "positive", ["lovely"])]),
        ("r", "The garden has a lovely spot that makes every visit worthwhile.", [("garden", "positive", ["lovely"])]),
        # an infinitive names a use, no second opinion
        ("c", "It is a cozy place to go with friends.", [("place", "positive", ["cozy"])]),
    ])
    for aid in ("s_0", "r_0"):
        assert variant(gen, aid + "_adv1") is None, variant(gen, aid + "_adv1")  # *something so ugly ... worthwhile*
        assert "relative clause" in (refusal(gen, aid, "revtgt") or ""), refusal(gen, aid, "revtgt")
    assert variant(gen, "c_0_adv1") is not None, refusal(gen, "c_0", "revtgt")


def test_an_example_clause_keeps_the_polarity_of_the_clause_it_illustrates(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("e", "The build is great... eg the screen is one of the best to look at.",
         [("build", "positive", ["great"]), ("screen", "positive", ["best"])]),
        ("g", "The soup is rich, e.g. the broth is superb.",
         [("soup", "positive", ["rich"]), ("broth", "positive", ["superb"])]),
        # an example with nothing polar of its own
        ("n", "The build is great... eg the screen is made of metal.", [("build", "positive", ["great"])]),
    ])
    for aid in ("e_0", "e_1", "g_1"):  # never *The build is great... eg the screen is one of the worst*
        assert variant(gen, aid + "_adv1") is None, variant(gen, aid + "_adv1").sentence
        assert "example ('" in (refusal(gen, aid, "revtgt") or ""), refusal(gen, aid, "revtgt")
    assert "example ('" not in (refusal(gen, "n_0", "revtgt") or ""), refusal(gen, "n_0", "revtgt")


def test_even_before_a_comparative_presupposes_the_praise_before_it(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("d", "Great bar, and even greater pizza!", [("pizza", "positive", ["greater"])]),
        # *than* names what is compared
        ("t", "Great bar, and the pizza was even better than the wine.", [("pizza", "positive", ["better"])]),
    ])
    # never *Great bar, and even worse pizza*
    assert variant(gen, "d_0_adv1") is None, variant(gen, "d_0_adv1").sentence
    assert "presupposes 'Great'" in (refusal(gen, "d_0", "revtgt") or ""), refusal(gen, "d_0", "revtgt")
    assert "presupposes" not in (refusal(gen, "t_0", "revtgt") or ""), refusal(gen, "t_0", "revtgt")
