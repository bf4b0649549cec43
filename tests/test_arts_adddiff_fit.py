"""AddDiff's appended clause must fit the sentence as one statement: not about what the sentence already evaluates
under another name (the same price, the whole of an evaluated part, a total failure after praise), not after a
sentence that evaluates nothing (a requirement, a recommended action), and drawn from clauses that stand alone
(no condition, counterfactual, reader address or first-person story). Short made-up sentences of the audited forms.
"""
from __future__ import annotations

import random

import pytest

import _arts_kit

from sentiprobe.generate.arts.adddiff import PoolEntry, add_diff
from sentiprobe.generate.arts.fit import unfit_source
from sentiprobe.generate.arts.polarity import Polarity
from sentiprobe.generate.arts.strategies import Prepared


_prep = _arts_kit.flat_prep
_entry = _arts_kit.pool_entry



@pytest.fixture(scope="module")
def wordnet(tmp_path_factory):
    from sentiprobe.generate.arts.resources import _wordnet_reader, prepare_wordnet

    return _wordnet_reader(str(prepare_wordnet(tmp_path_factory.mktemp("wn"))))


def _appended(prep: Prepared, pool: list[PoolEntry], wn=None, seeds: int = 20) -> set[str]:
    extra = {"wn": wn} if wn is not None else {}
    a = prep.aspects[0].aspect
    pools = {"positive": [e for e in pool if e.label == "negative"],
             "negative": [e for e in pool if e.label == "positive"]}
    out = set()
    for seed in range(seeds):
        v, why = add_diff(random.Random(seed), prep, a.id, prep.sentence.text, a.start, a.end, pools, k=1,
                          faithful=False, **extra)
        assert v is not None, why
        out |= {e["term"] for e in v.appended}
    return out


MUSIC = _entry("the music is too loud", "music", "negative")


def test_a_price_clause_is_not_appended_to_a_sentence_that_evaluates_price():
    prep = _prep("The service is great and the prices are really reasonable.", [("service", "positive")])
    assert _appended(prep, [_entry("the pizza is overpriced", "pizza", "negative"), MUSIC]) == {"music"}
    # a sentence that says nothing of price takes it
    prep = _prep("The service is great.", [("service", "positive")])
    assert "pizza" in _appended(prep, [_entry("the pizza is overpriced", "pizza", "negative"), MUSIC])


def test_a_clause_about_the_whole_is_not_appended_to_an_evaluated_part(wordnet):
    prep = _prep("For an appetizer, their calamari is a winner.", [("calamari", "positive")])
    assert _appended(prep, [_entry("we got the subpar food", "food", "negative"), MUSIC], wordnet) == {"music"}
    prep = _prep("The waiters are friendly.", [("waiters", "positive")])
    assert _appended(prep, [_entry("the service was horrendous", "service", "negative"), MUSIC]) == {"music"}
    # and the other way round: a part after the whole
    prep = _prep("Great food and a nice bar.", [("food", "positive")])
    assert _appended(prep, [_entry("the fish was dry", "fish", "negative"), MUSIC], wordnet) == {"music"}
    # two parts are two things: calamari and the pizza
    prep = _prep("For an appetizer, their calamari is a winner.", [("calamari", "positive")])
    assert "pizza" in _appended(prep, [_entry("the pizza was soggy", "pizza", "negative"), MUSIC], wordnet)


def test_everything_and_total_failure_do_not_follow_praise():
    prep = _prep("The keyboard is awful.", [("keyboard", "negative")])
    pool = [_entry("everything is so easy to use", "everything", "positive"),
            _entry("the screen is bright", "screen", "positive")]
    assert _appended(prep, pool) == {"screen"}
    prep = _prep("Hardware performance is impressive for a computer this small.",
                 [("Hardware performance", "positive")])
    pool = [_entry("THE MOTHERBOARD IS DEAD", "MOTHERBOARD", "negative"),
            _entry("the charger stopped working", "charger", "negative"), MUSIC]
    assert _appended(prep, pool) == {"music"}
    # a corrupt kernel is a dead system (*it works perfectly, but the kernal is missing, or corrupt*)
    prep = _prep("The screen is great.", [("screen", "positive")])
    assert _appended(prep, [_entry("the kernal is missing, or corrupt", "kernal", "negative"), MUSIC]) == {"music"}


def test_clash_names_its_reason():
    from sentiprobe.generate.arts.fit import clash

    prep = _prep("The screen is great.", [("screen", "positive")])
    labels = {"s1_0": "positive"}
    assert clash(_entry("THE MOTHERBOARD IS DEAD", "MOTHERBOARD", "negative"), prep, labels, prep.sentence.text) \
        == "failure"
    assert clash(MUSIC, prep, labels, prep.sentence.text) is None
    # a failing peripheral after a praised screen is another aspect, not a contradiction
    assert clash(_entry("the charger stopped working", "charger", "negative"), prep, labels, prep.sentence.text) \
        is None


@pytest.mark.parametrize("text", [
    "It was important that it was powerful enough to do all of his tasks.",
    "The edges are sharp, so i recommend getting a case to protect it.",
    "During busy hours, I recommend that you make a reservation.",
])
def test_a_sentence_that_evaluates_nothing_takes_no_contrast(text):
    assert "requirement or recommendation" in (unfit_source(text) or "")


@pytest.mark.parametrize("text", [
    "I'd recommend getting an appetizer, but it was definitely worth the wait.",
    "I highly recommend this place.",
    "It's exactly what I wanted and it works great.",
])
def test_an_evaluating_sentence_with_a_recommendation_still_takes_one(text):
    assert unfit_source(text) is None


def test_mined_clauses_that_do_not_stand_alone_are_left_out(tmp_path):
    pool = [("a", "As we were sitting eating the subpar food, the manager yelled at a waiter.",
             [("food", "negative", ["subpar"])]),
            ("b", "I would not have been so disappointed with the portions if the food was good.",
             [("portions", "negative", ["disappointed"])]),
            ("c", "Buy it if you are in the market for a stylish computer.", [("computer", "positive", ["stylish"])]),
            ("d", "The screen keeps saying I have a bad internet connection.",
             [("internet connection", "negative", ["bad"])]),
            ("e", "You will pay a lot for the awful decor.", [("decor", "negative", ["awful"])]),
            ("i", "I was ready for a change and tired of the old system.", [("old system", "negative", ["tired"])]),
            ("j", "The room is dull and cozy.", [("room", "negative", ["dull"])]),
            ("k", "2.The wireless card is awful.", [("wireless card", "negative", ["awful"])]),
            ("f", "The keyboard is great.", [("keyboard", "positive", ["great"])]),
            ("g", "I love the trackpad.", [("trackpad", "positive", ["love"])]),
            ("h", "We had a great glass of wine.", [("glass of wine", "positive", ["great"])]),
            ("l", "i really like the bright screen.", [("screen", "positive", ["like"])])]
    entries, rejected = _arts_kit.mined_clauses(tmp_path, pool)
    assert sorted(e.text for e in entries) == ["I love the trackpad", "I really like the bright screen",
                                               "the keyboard is great", "we had a great glass of wine"], (
        entries, rejected)
    reasons = " ".join(rejected)
    for part in ("condition or circumstance", "counterfactual", "addresses the reader", "first-person",
                 "small and intimate", "list number"):
        assert part in reasons, rejected


def test_a_clause_cut_inside_a_coordination_is_left_out_and_one_ending_in_and_is_trimmed(tmp_path):
    """Misparsed coordinations give broken clauses (*the food is terrible and overall*, *tasty and portion sizes are
    appropriate*); a conjunction at the very end is trimmed with the edge, so its clause stays."""
    pool = [("a", "The food is terrible and overall, I would have to say avoid it.",
             [("food", "negative", ["terrible"])]),
            ("b", "The soup is tasty and portion sizes are appropriate.",
             [("portion sizes", "positive", ["appropriate"])]),
            ("c", "The owner is very friendly and the rooms are clean.", [("owner", "positive", ["friendly"]),
                                                                      ("rooms", "positive", ["clean"])])]
    entries, rejected = _arts_kit.mined_clauses(tmp_path, pool)
    texts = {e.text for e in entries}
    assert "the owner is very friendly" in texts and not any("overall" in t or "tasty and" in t for t in texts), (
        entries, rejected)
    assert any("coordination cut off" in r for r in rejected), rejected


def test_a_short_plain_clause_gets_a_lower_fluency_floor():
    """The mean per token of a short clause is low because its first tokens have no context."""
    from sentiprobe.generate.arts.clauses import CLAUSE_MIN_FLUENCY, clause_floor

    assert clause_floor("the service was terrible") == CLAUSE_MIN_FLUENCY - 4 * 0.375
    assert clause_floor("the bartender on my most recent visit was so incredibly rude") == CLAUSE_MIN_FLUENCY


def test_a_verdict_on_the_whole_visit_does_not_follow_an_evaluated_part():
    # (the gnocchi was the best I ever had, but we had a terrible meal: the verdict covers the gnocchi)
    prep = _prep("The gnocchi was the best I ever had.", [("gnocchi", "positive")])
    verdicts = [_entry("we had a terrible meal", "meal", "negative"),
                _entry("the entire dining experience was awful", "dining experience", "negative"),
                _entry("the place is dreadful", "place", "negative")]
    assert _appended(prep, [*verdicts, MUSIC]) == {"music"}
    # what the place is like as a room is an aspect of its own
    assert "place" in _appended(prep, [_entry("the place is small and cramped", "place", "negative"), MUSIC])


def test_one_clause_after_a_verdict_on_the_whole_visit():
    # (Way too much money for such a terrible meal, but the place is sleek, the gnocchi the best and the service
    # excellent: one concession reads, a pile of praise contradicts the verdict)
    prep = _prep("Way too much money for such a terrible meal.", [("meal", "negative")])
    pool = [_entry(f"the {w} was great", w, "positive") for w in ("music", "view", "bar", "terrace", "wine")]
    for seed in range(20):
        v, why = add_diff(random.Random(seed), prep, "s1_0", prep.sentence.text, prep.aspects[0].aspect.start,
                          prep.aspects[0].aspect.end, {"negative": pool}, k=None, faithful=False)
        assert v is not None and len(v.appended) == 1, (seed, why, v and v.sentence)


def test_one_clause_after_an_overall_verdict():
    # (Highly recommended ... the bar looks nice; the sushi was bland, the dish was small and the fish too salty)
    pool = [_entry(f"the {w} was bad", w, "negative") for w in ("music", "view", "terrace", "wine", "coffee")]
    for text in ("Highly recommended, the bar looks nice.", "We will definitely be back for the bar."):
        prep = _prep(text, [("bar", "positive")])
        for seed in range(20):
            v, why = add_diff(random.Random(seed), prep, "s1_0", text, prep.aspects[0].aspect.start,
                              prep.aspects[0].aspect.end, {"positive": pool}, k=None, faithful=False)
            assert v is not None and len(v.appended) == 1, (seed, why, v and v.sentence)
    # without a verdict the draw still takes up to three
    prep = _prep("The bar looks nice.", [("bar", "positive")])
    sizes = {len(add_diff(random.Random(seed), prep, "s1_0", prep.sentence.text, 4, 7, {"positive": pool}, k=None,
                          faithful=False)[0].appended) for seed in range(20)}
    assert sizes == {1, 2}


def test_the_bill_is_price_and_taste_is_part_of_the_food():
    # (Good value, but the bill was outrageous; pleasantly surprised at the taste, but the food was boring)
    prep = _prep("Good service and good value.", [("service", "positive")])
    assert _appended(prep, [_entry("the bill was outrageous", "bill", "negative"), MUSIC]) == {"music"}
    prep = _prep("I was pleasantly surprised at the taste.", [("taste", "positive")])
    assert _appended(prep, [_entry("the food was boring", "food", "negative"), MUSIC]) == {"music"}
    # a dish is another thing than the taste of what the sentence praises
    assert "pizza" in _appended(prep, [_entry("the pizza was soggy", "pizza", "negative"), MUSIC])


def test_a_dish_wordnet_does_not_know_is_food_by_its_taste():
    # (really great food, but the korma was bland; the lamb tasted awesome, but the food was horrible)
    prep = _prep("We really enjoy the food here.", [("food", "positive")])
    assert _appended(prep, [_entry("the korma was bland", "korma", "negative"), MUSIC]) == {"music"}
    from sentiprobe.generate.arts.inputs import Aspect, Sentence
    from sentiprobe.generate.arts.strategies import prepare_aspects

    text = "We ordered the lamb which tasted awesome."
    flat = _prep(text, [("lamb", "positive")])
    a, o = text.index("lamb"), text.index("tasted awesome")
    s = Sentence("s1", text, (Aspect("s1_0", "lamb", "positive", a, a + 4, ((o, o + len("tasted awesome")),)),))
    prep = Prepared(s, flat.tokens, flat.parse, prepare_aspects(s, flat.tokens))
    assert _appended(prep, [_entry("the food was horrible", "food", "negative"), MUSIC]) == {"music"}
    # a dish after a dish is another thing
    assert "korma" in _appended(prep, [_entry("the korma was bland", "korma", "negative"), MUSIC])


def test_a_clause_that_reads_negative_only_through_an_in_domain_verb_is_left_out(tmp_path):
    # (The space is traditional in feel, but the menu changed: no reader hears a complaint in it)
    pool = [("a", "The menu changed.", [("menu", "negative", ["changed"])]),
            ("b", "The portions were small.", [("portions", "negative", ["small"])]),
            ("c", "Their customer service was lacking.", [("customer service", "negative", ["lacking"])])]
    lexicon = Polarity({"changed": -1, "small": -1, "lacking": -1})
    entries, rejected = _arts_kit.mined_clauses(tmp_path, pool, lexicon)
    assert [e.text for e in entries] == ["the portions were small", "their customer service was lacking"], \
        (entries, rejected)


def test_a_dish_named_by_what_it_is_made_of_is_part_of_the_food(wordnet):
    # (I recommend the chicken milanese, but the food was horrible)
    prep = _prep("I recommend the chicken milanese.", [("chicken milanese", "positive")])
    assert _appended(prep, [_entry("the food was horrible", "food", "negative"), MUSIC], wordnet) == {"music"}
    # a place named by its food is the place
    prep = _prep("The pizza place is lovely.", [("pizza place", "positive")])
    assert "food" in _appended(prep, [_entry("the food was horrible", "food", "negative"), MUSIC], wordnet)


def test_a_keeper_and_a_great_experience_are_overall_verdicts():
    from sentiprobe.generate.arts.fit import OVERALL

    assert OVERALL.search("Good job guys, this place is a keeper!")
    assert OVERALL.search("We had a great experience, from the wine to the dessert menu.")
    assert not OVERALL.search("The experience of ordering was quick.")


def test_a_present_taste_of_the_reviewers_party_is_left_out(tmp_path):
    # (The pasta was phenomenal and our son loves pizza: his taste, not the restaurant's pizza)
    pool = [("a", "Our son loves pizza.", [("pizza", "positive", ["loves"])]),
            ("b", "My husband doesn't like vegetables.", [("vegetables", "negative", ["doesn't like"])]),
            ("c", "My wife loved the fish.", [("fish", "positive", ["loved"])])]
    entries, rejected = _arts_kit.mined_clauses(tmp_path, pool)
    assert [e.text for e in entries] == ["my wife loved the fish"], (entries, rejected)


def test_a_whole_after_a_verdict_on_the_visit_is_not_appended():
    # (It was such a fantastic dining experience, but the staff was so horrible to us)
    prep = _prep("It was such a fantastic dining experience.", [("dining experience", "positive")])
    whole = [_entry("the staff was horrible", "staff", "negative"), _entry("the food was bland", "food", "negative")]
    assert _appended(prep, [*whole, MUSIC]) == {"music"}
    # a part reads as a concession
    assert "bruschetta" in _appended(prep, [_entry("the bruschetta was soggy", "bruschetta", "negative"), MUSIC])


def test_a_mined_clause_that_names_a_place_or_a_product_is_left_out(tmp_path):
    entries, rejected = _arts_kit.mined_clauses(tmp_path, [
        ("a", "Each bite of food at Kai was delicious.", [("food", "positive", ["delicious"])]),
        ("b", "The layout of the MacBook is horrible.", [("layout", "negative", ["horrible"])]),
        ("c", "The view of NYC is so beautiful.", [("view", "positive", ["beautiful"])]),
        ("d", "The Windows 7 software is horrible.", [("Windows 7 software", "negative", ["horrible"])]),
        ("e", "Our SUPER HAPPY waiter was the entertainment.", [("waiter", "positive", ["HAPPY"])]),
        ("f", "The DJ on Saturday nights has great taste.", [("DJ", "positive", ["great"])])])
    kept = sorted(e.text for e in entries)
    assert not any(w in " ".join(kept) for w in ("Kai", "MacBook", "NYC")), (kept, rejected)
    # a name inside the aspect, shouted words and a day stay
    assert "the Windows 7 software is horrible" in kept and any("SUPER HAPPY" in k for k in kept) and any(
        "Saturday" in k for k in kept), (kept, rejected)
    assert sum(n for why, n in rejected.items() if why.startswith("names a place")) == 3, rejected
