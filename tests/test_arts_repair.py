"""ARTS corrected mode: a reversal's clash repaired by a second small edit instead of a refusal (real sentences of
the restaurant and laptop TOWE test files with their gold annotations), and the forms left refused.

Like ``test_arts_quality.py`` the generator runs with ``rank="rules"`` (no language model)."""
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


def test_an_additive_is_removed_and_and_becomes_but_where_the_opinions_now_differ(tmp_path, kit):
    drinks = "I love the drinks, esp lychee martini, and the food is also VERY good."
    wine = "Our waiter was helpful and charming, the food was perfect, and the wine was good, too."
    gen = run(tmp_path, kit, [
        ("d", drinks, [("drinks", "positive", ["love"]), ("food", "positive", ["good"])]),
        ("w", wine, [("waiter", "positive", ["helpful", "charming"]), ("food", "positive", ["perfect"]),
                     ("wine", "positive", ["good"])]),
    ])
    v = variant(gen, "d_1_adv1")
    assert v is not None and v.sentence == "I love the drinks, esp lychee martini, but the food is VERY bad.", v
    assert {"additive_removed", "and_to_but"} <= set(ops(v))
    v = variant(gen, "d_0_adv1")
    assert v is not None and v.sentence.endswith(", but the food is VERY good."), v.sentence
    v = variant(gen, "w_2_adv1")
    assert v is not None and v.sentence.endswith("the food was perfect, but the wine was bad."), v.sentence
    v = variant(gen, "w_0_adv2")  # RevNon: the food and the wine reversed alike keep their *and*
    assert v is not None and v.sentence.endswith("the food was poor, and the wine was bad."), v
    v = variant(gen, "w_0_adv1")  # the food and the wine still agree: *and* stays, the *too* goes
    assert v is not None and v.sentence.endswith("the food was perfect, and the wine was good."), v.sentence
    assert "and_to_but" not in ops(v)


def test_an_additive_after_a_semicolon_is_removed_with_its_comma(tmp_path, kit):
    text = ("As stated, I haven't dined *in* the restaurant but stopped by there to pick up takeout and it seems a "
            "very relaxing place; also, the bar looks nice.")
    gen = run(tmp_path, kit, [("b", text, [("place", "positive", ["relaxing"]), ("bar", "positive", ["nice"])])])
    v = variant(gen, "b_1_adv1")
    assert v is not None and "relaxing place; the bar " in v.sentence and "also" not in v.sentence, v
    assert "additive_removed" in ops(v)


def test_an_additive_that_works_as_a_conjunction_stays_refused(tmp_path, kit):
    text = ("Easy to install also small to leave anywhere at your bedroom also very easy to configure for ADSl cable "
            "or wifi.")
    gen = run(tmp_path, kit, [("e", text, [("install", "positive", ["Easy"]),
                                           ("configure for ADSl cable or wifi", "positive", ["easy"])])])
    for aid in ("e_0", "e_1"):
        assert variant(gen, aid + "_adv1") is None
    assert "additive 'also'" in (refusal(gen, "e_1", "revtgt") or "")


def test_but_becomes_and_between_two_aspects_clauses_that_now_agree(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("b", "Great food but the service was dreadful!",
         [("food", "positive", ["Great"]), ("service", "negative", ["dreadful"])]),
        ("m", "I like coming back to Mac OS but this laptop is lacking in speaker quality compared to my $ 400 old HP "
              "laptop.", [("Mac OS", "positive", ["like"]), ("speaker quality", "negative", ["lacking"])]),
    ], with_lexicon(tmp_path, {"lacking": "negative"}))
    v = variant(gen, "b_0_adv1")
    assert v is not None and v.sentence.endswith(" food and the service was dreadful!"), v
    assert "but_to_and" in ops(v)
    v = variant(gen, "m_1_adv1")
    # (*lacking in* has the opposite *rich in* too: the rule order may take either; the *but* becomes *and*)
    assert v is not None and ("Mac OS and this laptop is not lacking" in v.sentence
                              or "Mac OS and this laptop is rich in" in v.sentence), v


def test_but_of_a_concession_inside_one_aspect_stays_refused(tmp_path, kit):
    text = "Food was decent, but not great."
    gen = run(tmp_path, kit, [("f", text, [("Food", "positive", ["decent", "not great"])])],
              with_lexicon(tmp_path, {"decent": "positive"}))
    assert variant(gen, "f_0_adv1") is None


def test_but_is_added_where_a_general_aspect_and_a_kind_of_it_now_differ(tmp_path, kit):
    text = "The food is good, the teriyaki I recommend."
    gen = run(tmp_path, kit, [("t", text, [("food", "positive", ["good"]), ("teriyaki", "positive", ["recommend"])])])
    v = variant(gen, "t_1_adv1")
    assert v is not None and v.sentence == "The food is good, but the teriyaki I don't recommend.", v
    assert "but_added" in ops(v)


def test_no_but_is_added_inside_a_list_of_noun_phrases(tmp_path, kit):
    text = "Great food, delicious dumplings and a warm welcome."
    gen = run(tmp_path, kit, [("l", text, [("food", "positive", ["Great"]), ("dumplings", "positive", ["delicious"])])])
    v = variant(gen, "l_1_adv1")
    assert v is None or "but" not in v.sentence, v.sentence


def test_the_and_made_but_joins_the_clauses_never_two_nouns(tmp_path, kit):
    text = "I love the wine, and the drinks and food are also good."
    gen = run(tmp_path, kit, [("n", text, [("wine", "positive", ["love"]), ("drinks", "positive", ["good"]),
                                           ("food", "positive", ["good"])])])
    v = variant(gen, "n_0_adv1")
    assert v is not None and v.sentence.endswith(" the wine, but the drinks and food are good."), v


def test_but_is_inserted_after_a_lone_comma_between_two_clauses_that_now_differ(tmp_path, kit):
    text = "This item is a beautiful piece, it works well, it is easy to carry."
    gen = run(tmp_path, kit, [("c", text, [("works", "positive", ["well"]), ("carry", "positive", ["easy"])])])
    for key in ("c_1_adv1", "c_0_adv2"):  # RevTgt of the carrying, RevNon of the working
        v = variant(gen, key)
        assert v is not None and "it works well, but it is " in v.sentence, (key, v)
        assert "but_inserted" in ops(v)


def test_and_becomes_but_between_two_aspects_that_now_differ(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("h", "The screen is bright, and all the hardware seemed to be working perfectly.",
         [("screen", "positive", ["bright"]), ("hardware", "positive", ["perfectly"])]),
        ("p", "Fresh bread, attentive service, and pretty good prices.",
         [("bread", "positive", ["Fresh"]), ("service", "positive", ["attentive"]), ("prices", "positive", ["good"])]),
    ])
    v = variant(gen, "h_1_adv1")
    assert v is not None and v.sentence.startswith("The screen is bright, but all the hardware seemed"), v
    assert "and_to_but" in ops(v)
    v = variant(gen, "h_0_adv2")  # RevNon: the hardware reversed, the screen kept
    assert v is not None and v.sentence.startswith("The screen is bright, but all the hardware seemed"), v
    v = variant(gen, "p_2_adv1")
    assert v is not None and v.sentence.startswith("Fresh bread, attentive service, but pretty "), v


def test_and_stays_where_the_sentence_already_holds_a_contrast_or_the_sides_already_differed(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("a", "The food is cheap but very good, the atmosphere is great.",
         [("food", "positive", ["very good"]), ("atmosphere", "positive", ["great"])]),
        ("d", "The food is great and the service is awful.",
         [("food", "positive", ["great"]), ("service", "negative", ["awful"])]),
        ("t", "They have a very good chicken and good tuna as well.",
         [("chicken", "positive", ["good"]), ("tuna", "positive", ["good"])]),
        ("s", "The discount was generous, as they knew the service was excellent.",
         [("discount", "positive", ["generous"]), ("service", "positive", ["excellent"])]),
    ])
    for key in ("a_1_adv1", "a_0_adv2", "d_0_adv1", "d_0_adv2", "d_1_adv1", "t_1_adv1", "t_0_adv2", "s_1_adv1",
                "s_0_adv2"):
        v = variant(gen, key)
        assert v is None or " but " not in v.sentence.split("cheap but")[-1], (key, v.sentence)


def test_and_becomes_but_where_the_other_predicate_has_no_aspect_but_keeps_its_polarity(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("w", "Well designed and fast.", [("designed", "positive", ["Well"])]),
        ("s", "It is super fast and has outstanding graphics.", [("graphics", "positive", ["outstanding"])]),
        ("a", "It arrived so fast and customer service was great.", [("customer service", "positive", ["great"])]),
        # *and* between two adjectives of one predicate, the edited opinion in the clause after them: no pair
        ("q", "It's so quick and responsive that it makes surfing so much more pleasurable!",
         [("surfing", "positive", ["pleasurable"])]),
        # a companion is no opinion (*friend* is polar to VADER)
        ("f", "My friend had a burger and I had these wonderful pancakes.", [("pancakes", "positive", ["wonderful"])]),
        # the other predicate holds no polar word
        ("n", "The screen is bright and it has two ports.", [("screen", "positive", ["bright"])]),
        # a denied higher degree is the highest praise, not a complaint
        ("h", "It has a wonderful battery life and I couldn't be happier.",
         [("battery life", "positive", ["wonderful"])]),
    ], with_lexicon(tmp_path, {"fast": "positive"}))
    for key, start in (("w_0_adv1", "Poorly designed but fast."), ("s_0_adv1", "It is super fast but has "),
                       ("a_0_adv1", "It arrived so fast but customer service was "),
                       ("h_0_adv1", "It has a terrible battery life but I couldn't be happier.")):
        v = variant(gen, key)
        assert v is not None and v.sentence.startswith(start), (key, v)
        assert "and_to_but" in ops(v)
    for key in ("q_0_adv1", "f_0_adv1", "n_0_adv1"):
        v = variant(gen, key)
        assert v is None or "and_to_but" not in ops(v), v


def test_a_clause_final_as_well_is_removed_where_the_opinions_now_differ(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("t", "They have a very tasty chicken with avocado and good tuna as well.",
         [("chicken", "positive", ["very tasty"]), ("tuna", "positive", ["good"])]),
        ("p", "The pasta was great and the salad was good as well.",
         [("pasta", "positive", ["great"]), ("salad", "positive", ["good"])]),
    ])
    v = variant(gen, "t_1_adv1")
    assert v is not None and v.sentence == "They have a very tasty chicken with avocado but bad tuna.", v
    assert {"additive_removed", "and_to_but"} <= set(ops(v))
    v = variant(gen, "p_1_adv1")
    assert v is not None and v.sentence == "The pasta was great but the salad was bad.", v
    v = variant(gen, "t_1_adv2")  # RevNon: the chicken reversed, the tuna kept
    assert v is None or "as well" not in v.sentence, v
