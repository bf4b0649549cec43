"""ARTS corrected mode: discourse clashes that blind audits found, each now refused (sentences from the audit
sheets with their gold annotations), and the near misses each rule must leave alone.

Like ``test_arts_quality.py`` the generator runs with ``rank="rules"`` (no language model)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import _arts_kit
from test_arts_quality import record, refusal, run, variant

from sentiprobe.generate.arts import GenerateConfig
from sentiprobe.generate.arts.clash import repetition_changed


def with_lexicon(tmp_path: Path, words: dict[str, str]) -> GenerateConfig:
    """The rule-ranked configuration with a small in-domain lexicon (each word seen twice with its label), as
    the training file gives one in real runs."""
    recs = {f"x{i}{k}": record(f"x{i}{k}", f"The dish was {w}.", [("dish", lab, [w])])
            for i, (w, lab) in enumerate(words.items()) for k in "ab"}
    p = tmp_path / "lexicon.json"
    p.write_text(json.dumps(recs), encoding="utf-8")
    return GenerateConfig(rank="rules", phrase_source="template", lexicon_files=(str(p),))


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def test_a_with_or_including_phrase_ties_its_opinion_to_the_host(tmp_path, kit):
    menu = ("the dinner menu offers a variety of great entrees, including fresh seafood and huge steaks, there's also "
            "a couple of non-meat alternatives.")
    place = ("I was on jury duty, rode my bike up Centre Street on my lunch break and came across this great little "
             "place with awesome chicken tacos and Hibiscus lemonade.")
    gen = run(tmp_path, kit, [
        ("m", menu, [("entrees", "positive", ["great"]), ("seafood", "positive", ["fresh"])]),
        ("p", place, [("chicken tacos", "positive", ["awesome"]), ("place", "positive", ["great"])]),
        ("f", "It looks and feels solid, with a flawless finish.",
         [("finish", "positive", ["flawless"]), ("looks", "positive", ["solid"])]),
        ("r", "The food is all-around good, with the rolls usually excellent and the sushi/sashimi not quite on the "
              "same level.", [("food", "positive", ["good"]), ("rolls", "positive", ["excellent"])]),
    ])
    assert variant(gen, "m_1_adv1") is None  # *great entrees, including stale seafood*
    assert "'including' phrase" in (refusal(gen, "m_1", "revtgt") or "")
    assert variant(gen, "p_1_adv2") is None  # *great little place with unimpressive chicken tacos*
    assert "'with' phrase" in (refusal(gen, "p_1", "revnon") or "")
    assert variant(gen, "f_0_adv2") is None  # *It looks and feels bad, with a flawless finish*
    assert variant(gen, "r_1_adv1") is None  # *all-around good, with the rolls usually terrible*


def test_a_with_phrase_that_is_the_opinions_argument_or_a_name_is_no_tie(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("v", "We were very impressed with the food and value.",
         [("food", "positive", ["impressed"]), ("value", "positive", ["impressed"])]),
        ("c", "They have a very good chicken with avocado and bad tuna as well.",
         [("chicken with avocado", "positive", ["good"]), ("tuna", "negative", ["bad"])]),
        # a price is weighed against what it buys: either way reads
        ("p", "Chinatown definitely has better quality with cheaper prices.",
         [("prices", "positive", ["cheaper"]), ("quality", "positive", ["better"])]),
    ], with_lexicon(tmp_path, {"cheaper": "positive"}))
    assert variant(gen, "v_0_adv1") is not None, refusal(gen, "v_0", "revtgt")
    assert variant(gen, "c_1_adv1") is not None, refusal(gen, "c_1", "revtgt")
    assert "phrase ties" not in (refusal(gen, "p_1", "revtgt") or "")


def test_a_coordinated_predicate_of_the_same_subject_keeps_its_sentiment(tmp_path, kit):
    text = ("The waitstaff is solicitous and friendly and always seems glad to see us, and the food is wonderful, "
            "if not stunningly creative.")
    gen = run(tmp_path, kit, [
        ("w", text, [("waitstaff", "positive", ["solicitous", "friendly"]), ("food", "positive", ["wonderful"])]),
        ("g", "It is super fast and has outstanding graphics.", [("graphics", "positive", ["outstanding"])]),
        ("p", "It's priced very reasonable but works very well right out of the box.",
         [("priced", "positive", ["reasonable"])]),
        ("a", "It's priced very reasonable and works very well right out of the box.",
         [("priced", "positive", ["reasonable"]), ("works", "positive", ["well"])]),
    ], with_lexicon(tmp_path, {"right": "positive"}))
    # never *is unconcerned and unfriendly and always seems glad to see us*: *glad* is the waitstaff's too, so it is
    # reversed with them (``test_arts_sametarget.py``)
    w = variant(gen, "w_0_adv1")
    assert w is not None and "glad" not in w.sentence, w.sentence if w else refusal(gen, "w_0", "revtgt")
    assert variant(gen, "w_1_adv2") is None
    # an opinion on the object of a coordinated verb is a claim of its own
    assert variant(gen, "g_0_adv1") is not None, refusal(gen, "g_0", "revtgt")
    # predicates contrasted by *but* may differ
    assert "coordinated predicate" not in (refusal(gen, "p_0", "revtgt") or "")
    # another aspect's opinion there is rule 5's (and -> but); *right out of the box* carries no sentiment
    assert "coordinated predicate" not in (refusal(gen, "a_0", "revtgt") or "")


def test_but_that_no_longer_contrasts_is_refused(tmp_path, kit):
    """Where *but* cannot become *and* (one side is no annotated aspect's clause, or one aspect's concession), the
    reversal stays refused (the repairable forms: ``test_arts_repair.py``)."""
    gen = run(tmp_path, kit, [
        ("g", "Glechik might be way too tiny for a restaurant by Russian standards, but it is cozy and the food is "
              "simply GREAT.", [("food", "positive", ["GREAT"])]),
        ("v", "good variety but nothing surprising.", [("variety", "positive", ["good"])]),
    ], with_lexicon(tmp_path, {"tiny": "negative", "cozy": "positive", "surprising": "positive"}))
    for aid in ("g_0", "v_0"):
        assert variant(gen, aid + "_adv1") is None, variant(gen, aid + "_adv1")
    assert "no longer fits" in (refusal(gen, "v_0", "revtgt") or "")


def test_a_but_against_a_negated_clause_with_no_polar_word_loses_its_contrast(tmp_path, kit):
    """*but I just couldn't justify it for the price* is said against praise: a negated verb reads negative, and a
    negation inserted after a booster (*definitely not*) reverses its side even where VADER misses it."""
    gen = run(tmp_path, kit, [
        ("a", "The soup was definitely good, but in the end I just couldn't justify it for the price.",
         [("soup", "positive", ["good"])]),
        # no negation and no polar word: nothing to contrast
        ("n", "The soup was good, but we left early.", [("soup", "positive", ["good"])]),
    ])
    # never *The soup was definitely not good, but in the end I just couldn't justify ...*: the *but* becomes *and*
    v = variant(gen, "a_0_adv1")
    assert v is not None and ", and in the end I just couldn't justify" in v.sentence, refusal(gen, "a_0", "revtgt")
    assert variant(gen, "n_0_adv1") is not None, refusal(gen, "n_0", "revtgt")


def test_an_elaboration_after_a_colon_or_dash_keeps_its_statements_polarity(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("a", "All are GREAT - poori, naan, paratha all FRESH.",
         [("poori", "positive", ["GREAT"]), ("naan", "positive", ["GREAT"]), ("paratha", "positive", ["FRESH"])]),
        ("d", "Desserts are almost incredible: my personal favorite is their Tart of the Day.",
         [("Desserts", "positive", ["incredible"]), ("Tart of the Day", "positive", ["favorite"])]),
        # a list between dashes is no elaboration
        ("l", "also... - excellent operating system -- size and weight for optimal mobility -- excellent durability "
              "of the battery",
         [("operating system", "positive", ["excellent"]), ("mobility", "positive", ["optimal"])]),
    ], with_lexicon(tmp_path, {"fresh": "positive", "stale": "negative", "old": "negative",
                                        "incredible": "positive"}))
    assert variant(gen, "a_2_adv1") is None  # *All are GREAT - poori, naan, paratha all OLD*
    assert "elaboration" in (refusal(gen, "a_2", "revtgt") or "")
    assert variant(gen, "a_1_adv2") is None
    assert variant(gen, "d_1_adv2") is None  # *Desserts are almost terrible: my personal favorite is ...*
    assert variant(gen, "l_0_adv1") is not None, refusal(gen, "l_0", "revtgt")  # (*for bad mobility* names no purpose)


def test_a_frame_that_sums_up_the_opinions_blocks_every_reversal(tmp_path, kit):
    bar = "This bar has it all - great drinks, cool atmosphere, excellent service and delicious food."
    meal = ("Speedy delivers, great food, decent prices, and friendly service combine to ensure an enjoyable "
            "repast.")
    gen = run(tmp_path, kit, [
        ("b", bar, [("drinks", "positive", ["great"]), ("atmosphere", "positive", ["cool"]),
                    ("service", "positive", ["excellent"]), ("food", "positive", ["delicious"])]),
        ("m", meal, [("food", "positive", ["great"]), ("service", "positive", ["friendly"]),
                     ("repast", "positive", ["enjoyable"])]),
    ])
    for i in range(4):
        assert variant(gen, f"b_{i}_adv1") is None and variant(gen, f"b_{i}_adv2") is None
    assert "has it all" in (refusal(gen, "b_3", "revtgt") or "")
    for i in range(3):
        assert variant(gen, f"m_{i}_adv1") is None and variant(gen, f"m_{i}_adv2") is None


def test_in_addition_to_adds_one_opinion_to_another(tmp_path, kit):
    text = "In addition to great hot dogs, DOTP has wonderful breakfast sandwiches."
    gen = run(tmp_path, kit, [("d", text, [("hot dogs", "positive", ["great"]),
                                           ("breakfast sandwiches", "positive", ["wonderful"])])])
    for i in range(2):
        assert variant(gen, f"d_{i}_adv1") is None and variant(gen, f"d_{i}_adv2") is None
    assert "in addition to" in (refusal(gen, "d_0", "revtgt") or "")


def test_edits_never_make_or_break_a_repetition(tmp_path, kit):
    text = ("I've eaten at all three locations and I always love, love the food, the service is always wonderful "
            "and the prices are really reasonable.")
    gen = run(tmp_path, kit, [("l", text, [("food", "positive", ["love"]), ("service", "positive", ["wonderful"]),
                                           ("prices", "positive", ["reasonable"])])])
    assert variant(gen, "l_0_adv1") is None  # *I always love, hate the food*
    assert repetition_changed("the staff was friendly, courteous and efficient",
                              "the staff was rude, rude and inefficient") is not None
    assert repetition_changed("a little small for me", "a little little for me") is not None
    assert repetition_changed("very very good", "very very bad") is None
    assert repetition_changed("the food has gotten better and better", "the food has gotten worse and worse") is None


def test_an_opinion_on_the_object_of_an_evaluating_verb_keeps_the_verbs_polarity(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("i", "I like iTunes, the apparent security, the Mini form factor, all the nice graphics stuff.",
         [("iTunes", "positive", ["like"]), ("security", "positive", ["apparent"]),
          ("graphics stuff", "positive", ["nice"])]),
        ("s", "Finally, I got sick of the bad service, obnoxious smirks, and snotty back talk.",
         [("service", "negative", ["bad"])]),
    ])
    assert variant(gen, "i_2_adv1") is None  # *I like ..., all the bad graphics stuff*
    assert "object of 'like'" in (refusal(gen, "i_2", "revtgt") or "")
    assert variant(gen, "s_0_adv1") is None  # *I got sick of the good service*


def test_an_evaluating_verb_reversed_clashes_with_a_praised_item_of_its_list(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("i", "I like the keyboard, the fast charger, all the nice extra stuff.",
         [("keyboard", "positive", ["like"]), ("extra stuff", "positive", ["nice"])]),
        # the target's own noun: *I don't love the friendly staff* still reads
        ("o", "I love the friendly staff.", [("staff", "positive", ["love"])]),
        # a with-phrase names which pizza: *Avoid their pizza with fresh garlic*
        ("w", "Try their pizza with fresh garlic.", [("pizza", "positive", ["Try"])]),
    ])
    # never *I dislike the keyboard, the fast charger, all the nice extra stuff*
    assert variant(gen, "i_0_adv1") is None, variant(gen, "i_0_adv1").sentence
    assert "evaluates a list" in (refusal(gen, "i_0", "revtgt") or ""), refusal(gen, "i_0", "revtgt")
    for aid in ("o_0", "w_0"):
        assert "evaluates a list" not in (refusal(gen, aid, "revtgt") or ""), refusal(gen, aid, "revtgt")


def test_a_general_aspect_and_several_kinds_that_elaborate_it_keep_agreeing_even_with_a_contrast(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("m", "The food is great, I love their dumplings, noodles and chicken.",
         [("food", "positive", ["great"]), ("dumplings", "positive", ["love"]), ("noodles", "positive", ["love"])]),
        # a single kind may stand out: *The food is great, but I don't love their dumplings*
        ("o", "The food is great, I love their dumplings.",
         [("food", "positive", ["great"]), ("dumplings", "positive", ["love"])]),
    ])
    for aid in ("m_0", "m_1"):  # never *The food is terrible, but I love their dumplings, noodles and chicken*
        for key, stage in (("_adv1", "revtgt"), ("_adv2", "revnon")):
            assert variant(gen, aid + key) is None, variant(gen, aid + key).sentence
            assert "kinds of it" in (refusal(gen, aid, stage) or ""), refusal(gen, aid, stage)
    assert "kinds of it" not in (refusal(gen, "o_1", "revtgt") or ""), refusal(gen, "o_1", "revtgt")


def test_a_general_aspect_and_a_kind_of_it_keep_agreeing_without_a_contrast(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("f", "The food is great, I love their dumplings, cold sesame noodles, chicken and shrimp dishs.",
         [("food", "positive", ["great"]), ("dumplings", "positive", ["love"])]),
        # with a contrast, and for a drink, the two may differ
        ("c", "The food is great, but I dislike their dumplings.",
         [("food", "positive", ["great"]), ("dumplings", "negative", ["dislike"])]),
        ("w", "Great food, great wine and an excellent host.",
         [("food", "positive", ["Great"]), ("wine", "positive", ["great"], 10)]),
        # an abstract attribute covers nothing (WordNet makes a price a kind of quality)
        ("q", "It is easy to use, good quality and great price.",
         [("quality", "positive", ["good"]), ("price", "positive", ["great"])]),
    ])
    # never *The food is great, I don't love their dumplings*: the two clauses are contrasted (``test_arts_repair``)
    for key in ("f_1_adv1", "f_0_adv2"):
        v = variant(gen, key)
        assert v is None or v.sentence.startswith("The food is great, but I "), v.sentence
    assert variant(gen, "c_1_adv1") is not None, refusal(gen, "c_1", "revtgt")
    assert variant(gen, "w_1_adv1") is not None, refusal(gen, "w_1", "revtgt")
    assert "covers" not in (refusal(gen, "q_1", "revtgt") or "")
