"""ARTS corrected mode: frames that presuppose the polarity of the opinion they hold (checks 17-20,
``generate/arts/context.py``). Each failure form of the blind audit, in short made-up sentences, is refused, and a
near miss of the same shape is left alone.

Like ``test_arts_clash.py`` the generator runs with ``rank="rules"`` (no language model)."""
from __future__ import annotations

import pytest

import _arts_kit
from test_arts_quality import refusal, run, variant


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def test_a_verb_of_enduring_or_a_concession_keeps_its_objects_polarity(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("p", "We came back and put up with the waiters' bad manners.", [("waiters", "negative", ["bad"])]),
        ("g", "Once you get past the poorly designed setup you will like it.",
         [("setup", "negative", ["poorly designed"])]),
        ("d", "Despite its lovely decor, we will not return.", [("decor", "positive", ["lovely"])]),
        # the frames by lemma: any form of the verb
        ("l", "We lived with the tiny keyboard for a year.", [("keyboard", "negative", ["tiny"])]),
        ("c", "Everyone complained about the slow service.", [("service", "negative", ["slow"])]),
        # the same noun phrase as the object of a plain verb is a claim of its own
        ("n", "We came back and talked about the waiters' bad manners.", [("waiters", "negative", ["bad"])]),
    ])
    assert variant(gen, "p_0_adv1") is None  # *put up with the waiters' good manners*
    assert "'put up with'" in (refusal(gen, "p_0", "revtgt") or "")
    assert variant(gen, "g_0_adv1") is None  # *get past the well designed setup*
    assert "'get past'" in (refusal(gen, "g_0", "revtgt") or "")
    assert variant(gen, "d_0_adv1") is None  # *Despite its ugly decor, we will not return*
    assert "conceded by 'despite'" in (refusal(gen, "d_0", "revtgt") or "")
    assert variant(gen, "l_0_adv1") is None  # *lived with the huge keyboard*
    assert "'lived with'" in (refusal(gen, "l_0", "revtgt") or ""), refusal(gen, "l_0", "revtgt")
    assert variant(gen, "c_0_adv1") is None  # *complained about the fast service* (an evaluating verb's object)
    assert variant(gen, "n_0_adv1") is not None, refusal(gen, "n_0", "revtgt")


def test_a_result_clause_of_the_opinions_degree_is_never_stranded(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("s", "The sushi is so fresh that it melts in your mouth.", [("sushi", "positive", ["fresh"])]),
        ("t", "The toppings are so fresh you'd think they grow them.", [("toppings", "positive", ["fresh"])]),
        ("h", "The hinges are so bad, I can't wait till it dies.", [("hinges", "negative", ["bad"])]),
        # a degree *so* without a result clause
        ("n", "The sushi is so fresh and the rice is warm.", [("sushi", "positive", ["fresh"])]),
    ])
    for aid in ("s_0", "t_0", "h_0"):
        assert variant(gen, aid + "_adv1") is None, variant(gen, aid + "_adv1")
        assert "result clause" in (refusal(gen, aid, "revtgt") or ""), refusal(gen, aid, "revtgt")
    assert variant(gen, "n_0_adv1") is not None, refusal(gen, "n_0", "revtgt")


def test_a_verb_of_causing_ties_its_two_sides(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("o", "The new system makes this computer into a super tablet.", [("system", "positive", ["new"])]),
        ("a", "A small, quiet patio makes for a comfortable place to study.",
         [("patio", "positive", ["small"]), ("place", "positive", ["comfortable"])]),
        # the subject keeps no polar word: the result may be reversed alone
        ("b", "They make the best pizza in town.", [("pizza", "positive", ["best"])]),
        # making as producing, with no result: no causal tie
        ("s", "Our friendly server made great food suggestions.", [("server", "positive", ["friendly"])]),
    ])
    assert variant(gen, "o_0_adv1") is None  # *The old system makes this computer into a super tablet*
    assert "one side of 'makes'" in (refusal(gen, "o_0", "revtgt") or "")
    assert variant(gen, "a_0_adv1") is None  # *A large, quiet patio makes for a comfortable place*
    assert "one side of 'makes'" in (refusal(gen, "a_0", "revtgt") or "")
    # RevNon drops the non-target's reversal instead
    assert variant(gen, "a_1_adv2") is None or "A small" in variant(gen, "a_1_adv2").sentence
    assert variant(gen, "b_0_adv1") is not None, refusal(gen, "b_0", "revtgt")
    assert "one side of" not in (refusal(gen, "s_0", "revtgt") or "")


def test_a_not_just_frame_ties_its_clauses(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("j", "They don't just look good; they deliver excellent performance.",
         [("performance", "positive", ["excellent"]), ("look", "positive", ["good"])]),
        # *not just* before a noun phrase means *rather than*: no frame
        ("r", "They have excellent service, not just a quick meal.", [("service", "positive", ["excellent"])]),
    ])
    assert variant(gen, "j_0_adv1") is None  # *They don't just look good; they deliver poor performance*
    assert "n't just" in (refusal(gen, "j_0", "revtgt") or "")
    assert variant(gen, "j_0_adv2") is None
    assert "not just" not in (refusal(gen, "r_0", "revtgt") or "")


def test_a_causal_link_ties_the_reversed_opinion_to_its_reason(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("b", "The small size was a bonus because of my tiny desk.", [("size", "positive", ["bonus"])]),
        ("t", "Tables are close, so you bump elbows with other guests.", [("Tables", "negative", ["close"])]),
        ("k", "Typing becomes uncomfortable due to the sharp edges.", [("Typing", "negative", ["uncomfortable"])]),
        ("m", "I use a mouse because I didn't like the trackpad.", [("trackpad", "negative", ["didn't like"])]),
        # the target is the reason: the link is reversed with it
        ("l", "I love this laptop because of the screen.", [("screen", "positive", ["love"])]),
        # both sides reversed together
        ("c", "The screen is great because it is bright.", [("screen", "positive", ["great", "bright"])]),
        # a temporal *since* is no reason
        ("s", "The battery has not degraded since I bought it.", [("battery", "positive", ["not degraded"])]),
    ])
    for aid in ("b_0", "t_0", "k_0", "m_0"):  # *was not a bonus because of my tiny desk*, *are not close, so ...*
        assert variant(gen, aid + "_adv1") is None, variant(gen, aid + "_adv1")
        assert "to a reason or consequence" in (refusal(gen, aid, "revtgt") or ""), refusal(gen, aid, "revtgt")
    for aid in ("l_0", "c_0", "s_0"):
        assert variant(gen, aid + "_adv1") is not None, refusal(gen, aid, "revtgt")


def test_a_wish_or_a_requirement_is_not_a_judgement(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("w", "Go here if you want fresh and tasty salads.", [("salads", "positive", ["fresh", "tasty"])]),
        ("i", "It was important that it was powerful enough to run games.", [("games", "positive", ["powerful"])]),
        ("h", "I use it hoping the cable will stay nice.", [("cable", "positive", ["nice"])]),
        ("l", "If you are looking to taste some great curry, visit.", [("curry", "positive", ["great"])]),
        # a clause coordinated with the wish is said, not wished
        ("n", "I wanted it for its size and this little boy is very nice.", [("boy", "positive", ["nice"])]),
        # the opinion first, then a wish
        ("a", "The menu has lots of options: I hope to go back soon.", [("menu", "positive", ["lots"])]),
    ])
    for sid, word in (("w", "'want'"), ("i", "'important'"), ("h", "'hoping'"), ("l", "'looking'")):
        assert variant(gen, f"{sid}_0_adv1") is None, variant(gen, f"{sid}_0_adv1").sentence
        assert word in (refusal(gen, f"{sid}_0", "revtgt") or ""), refusal(gen, f"{sid}_0", "revtgt")
    assert variant(gen, "n_0_adv1") is not None, refusal(gen, "n_0", "revtgt")
    assert "wish" not in (refusal(gen, "a_0", "revtgt") or ""), refusal(gen, "a_0", "revtgt")


def test_an_elaboration_keeps_the_sense_of_the_clause_it_strengthens(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("a", "The fans are quiet, actually they are never audible.", [("fans", "positive", ["quiet"])]),
        ("f", "The screen is dim; in fact it is hard to read outside.", [("screen", "negative", ["dim"])]),
        # *actually* inside the clause is no elaboration of another one
        ("n", "The fans are actually quiet.", [("fans", "positive", ["quiet"])]),
    ])
    for sid in ("a", "f"):
        assert variant(gen, f"{sid}_0_adv1") is None, variant(gen, f"{sid}_0_adv1").sentence
        assert "elaborated by" in (refusal(gen, f"{sid}_0", "revtgt") or ""), refusal(gen, f"{sid}_0", "revtgt")
    assert variant(gen, "n_0_adv1") is not None, refusal(gen, "n_0", "revtgt")


def test_the_use_an_evaluation_is_for_and_an_amount_of_praise_are_not_reversed(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("q", "Good for a quick sushi lunch.", [("sushi lunch", "positive", ["Good", "quick"])]),
        ("s", "The reviewer was full of superlatives for the screen.", [("screen", "positive", ["superlatives"])]),
        # one opinion on an evaluation with a use
        ("n", "The place is good for a quick lunch.", [("place", "positive", ["good"])]),
    ])
    assert variant(gen, "q_0_adv1") is None, variant(gen, "q_0_adv1").sentence  # *Bad for a slow sushi lunch*
    assert "describes what" in (refusal(gen, "q_0", "revtgt") or ""), refusal(gen, "q_0", "revtgt")
    assert variant(gen, "s_0_adv1") is None, variant(gen, "s_0_adv1").sentence  # *not full of superlatives*
    assert "an amount" in (refusal(gen, "s_0", "revtgt") or ""), refusal(gen, "s_0", "revtgt")
    assert variant(gen, "n_0_adv1") is not None, refusal(gen, "n_0", "revtgt")


def test_a_causal_as_after_a_comma_ties_its_reason(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("a", "I had to buy a mouse, as I am old school and hate the pad.", [("pad", "negative", ["hate"])]),
        # *as advertised* gives no reason
        ("n", "The battery lasts as advertised and the screen is great.", [("screen", "positive", ["great"])]),
        # an inverted *as is X* says *likewise*, no reason
        ("i", "The pizza is terrific, as is the pasta.", [("pizza", "positive", ["terrific"])]),
    ])
    assert variant(gen, "a_0_adv1") is None, variant(gen, "a_0_adv1").sentence  # *..., as I love the pad*
    assert "tied by 'as'" in (refusal(gen, "a_0", "revtgt") or ""), refusal(gen, "a_0", "revtgt")
    assert variant(gen, "n_0_adv1") is not None, refusal(gen, "n_0", "revtgt")
    assert "tied by 'as'" not in (refusal(gen, "i_0", "revtgt") or ""), refusal(gen, "i_0", "revtgt")


def test_a_feeling_keeps_the_polarity_of_its_reason_after_as(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("g", "We were happy we came as the soup was very good and the bread was warm.",
         [("soup", "positive", ["very good"]), ("bread", "positive", ["warm"])]),
        # a temporal *as* with no feeling in its main clause
        ("t", "The waiter left as the soup was very good.", [("soup", "positive", ["very good"])]),
    ])
    assert variant(gen, "g_0_adv1") is None, variant(gen, "g_0_adv1").sentence  # *happy we came as the soup was bad*
    assert "reason ('as')" in (refusal(gen, "g_0", "revtgt") or ""), refusal(gen, "g_0", "revtgt")
    v = variant(gen, "g_1_adv2")  # RevNon drops the soup's reversal
    assert v is None or "very good" in v.sentence, v.sentence
    assert variant(gen, "t_0_adv1") is not None, refusal(gen, "t_0", "revtgt")


def test_praise_in_the_object_of_a_purpose_is_a_wish(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("v", "We go there to eat the fresh bread.", [("bread", "positive", ["fresh"])]),
        # a complaint in a purpose is ironic: its reversal reads as plain praise
        ("c", "We waited an hour, to buy expensive slices.", [("slices", "negative", ["expensive"])]),
    ])
    assert variant(gen, "v_0_adv1") is None, variant(gen, "v_0_adv1").sentence  # *go there to eat the stale bread*
    assert "object of a purpose" in (refusal(gen, "v_0", "revtgt") or ""), refusal(gen, "v_0", "revtgt")
    assert variant(gen, "c_0_adv1") is not None, refusal(gen, "c_0", "revtgt")
