"""AddDiff's joint (corrected mode): *but* only after an opposite last evaluation, *and* otherwise; no additive
clause (*even ...*, *... too*) after a contrast; no clause that an exclusive evaluation (*the only positive thing*)
contradicts; no clause appended inside an open parenthesis. Short made-up sentences of the audited forms."""
from __future__ import annotations

import random

import _arts_kit

from sentiprobe.generate.arts.adddiff import add_diff, exclusive
from sentiprobe.generate.arts.fit import unfit_source
from sentiprobe.generate.arts.polarity import Polarity
from sentiprobe.generate.arts.strategies import Prepared


_prep = _arts_kit.flat_prep
_entry = _arts_kit.pool_entry


def _draw(prep: Prepared, pools: dict, seed: int = 0, target: int = 0, lexicon=None):
    a = prep.aspects[target].aspect
    return add_diff(random.Random(seed), prep, a.id, prep.sentence.text, a.start, a.end, pools, k=1,
                    faithful=False, lexicon=lexicon)


NEG = [_entry("the warranty company is horrible", "warranty company", "negative")]
POS = [_entry("the keyboard is great", "keyboard", "positive")]


def test_but_only_after_an_opposite_last_evaluation():
    pools = {"positive": NEG, "negative": POS, "neutral": NEG}
    v, _ = _draw(_prep("The screen is bright.", [("screen", "positive")]), pools)
    assert v is not None and v.sentence == "The screen is bright, but the warranty company is horrible."
    # the last evaluated aspect (the battery) is negative like the clause: "but" would contrast nothing
    v, _ = _draw(_prep("The screen is bright and the battery is weak.", [("screen", "positive"),
                                                                       ("battery", "negative")]), pools)
    assert v is not None and v.sentence == ("The screen is bright and the battery is weak, and the warranty company "
                                            "is horrible.")
    # a neutral target in a sentence that evaluates nothing
    v, _ = _draw(_prep("No HDMI port.", [("HDMI port", "neutral")]), pools)
    assert v is not None and v.sentence == "No HDMI port, and the warranty company is horrible."


def test_a_sentence_without_a_polar_aspect_is_read_by_the_lexicon():
    pools = {"neutral": NEG}
    v, _ = _draw(_prep("We went there for brunch and I was so impressed.", [("brunch", "neutral")]), pools,
                 lexicon=Polarity())
    assert v is not None and v.sentence.endswith("so impressed, but the warranty company is horrible.")


def test_an_additive_clause_is_not_appended_after_a_contrast():
    pools = {"negative": [_entry("even the wine was good", "wine", "positive"),
                          _entry("their coffee is quite good too", "coffee", "positive"),
                          _entry("the dessert was lovely", "dessert", "positive")]}
    prep = _prep("My chicken was dried out.", [("chicken", "negative")])
    for seed in range(20):
        v, why = _draw(prep, pools, seed)
        assert v is not None and v.sentence == "My chicken was dried out, but the dessert was lovely.", (seed, why)
    # after a clause of the same polarity the additive fits: "and ... too"
    prep = _prep("My chicken was dried out but the salad was fresh.", [("chicken", "negative"), ("salad", "positive")])
    texts = {_draw(prep, pools, seed)[0].sentence for seed in range(20)}
    assert "My chicken was dried out but the salad was fresh, and their coffee is quite good too." in texts


def test_an_exclusive_evaluation_is_not_contradicted():
    text = "The appetizer came with foie gras, but that's about the only positive thing I can say about the meal."
    assert exclusive(text)[0] == 1 and exclusive("My only complaint is the noise.")[0] == -1
    pools = {"neutral": [_entry("the food is great", "food", "positive"), *NEG]}
    for seed in range(10):
        v, _ = _draw(_prep(text, [("appetizer", "neutral")]), pools, seed)
        assert v is not None and v.appended[0]["label"] == "negative", v.sentence
    v, why = _draw(_prep("The screen is great; my only complaint is the noise.", [("screen", "positive")]),
                   {"positive": NEG})
    assert v is None and "exclusive evaluation" in (why or "")


def test_no_clause_is_appended_inside_an_open_parenthesis():
    assert unfit_source("The chip seems underpowered (to me.")
    assert unfit_source("( The sashimi is cut a little thinly.") is None
    assert unfit_source("The chip seems underpowered (to me).") is None


def test_mined_clauses_with_an_additive_are_left_out(tmp_path):
    pool = [("a", "Even the wine was good.", [("wine", "positive", ["good"])]),
            ("b", "Their coffee is quite good too.", [("coffee", "positive", ["good"])]),
            ("c", "The dessert was lovely.", [("dessert", "positive", ["lovely"])])]
    entries, rejected = _arts_kit.mined_clauses(tmp_path, pool)
    assert [e.text for e in entries] == ["the dessert was lovely"], entries
    assert sum(n for why, n in rejected.items() if "additive" in why) == 2


def test_a_scalar_even_inside_a_clause_is_an_additive(tmp_path):
    # (But I do not like the OS; color is even cool: the *even* adds praise to praise the sentence never gave)
    from sentiprobe.generate.arts.adddiff import ADDITIVE

    assert ADDITIVE.search("color is even cool")
    # a comparative or a negated *even* compares with the past or the expected and stays
    assert not ADDITIVE.search("the portions were even smaller than before")
    assert ADDITIVE.search("the fried calamari was even better")  # better than what the sentence never praised
    assert not ADDITIVE.search("the warranty isn't even worth it")
    pool = [("a", "Color is even cool.", [("Color", "positive", ["cool"])]),
            ("b", "The dessert was lovely.", [("dessert", "positive", ["lovely"])])]
    entries, rejected = _arts_kit.mined_clauses(tmp_path, pool)
    assert [e.text for e in entries] == ["the dessert was lovely"], entries
    assert sum(n for why, n in rejected.items() if "additive" in why) == 1
    # a template clause with it is not the first after a contrast
    pools = {"negative": [_entry("color is even cool", "color", "positive")]}
    v, _ = _draw(_prep("But I do not like the OS.", [("OS", "negative")]), pools)
    assert v is None, v.sentence


def test_an_opposite_evaluation_inside_the_targets_statement_does_not_license_and():
    # the negative evaluation sits in a relative clause or a comparison that praises the target: the sentence reads
    # positive, so a negative clause takes "but" (not "and", which joins it to the praise)
    pools = {"positive": [_entry("the fan is loud", "fan", "negative")]}
    prep = _prep("I chose the plan, which covers spills that the old one did not cover.",
                 [("plan", "positive"), ("old one", "negative")])
    v, _ = _draw(prep, pools)
    assert v is not None and v.sentence.endswith("did not cover, but the fan is loud."), v.sentence
    prep = _prep("Coffee is a better deal than the stale sandwiches.", [("Coffee", "positive"),
                                                                       ("sandwiches", "negative")])
    v, _ = _draw(prep, pools)
    assert v is not None and v.sentence.endswith("sandwiches, but the fan is loud."), v.sentence
    # an overt turn to the negative, or two coordinated statements: "and" continues the last one
    for text in ("The screen is bright but the battery is weak.", "The screen is bright and the battery is weak."):
        prep = _prep(text, [("screen", "positive"), ("battery", "negative")])
        v, _ = _draw(prep, pools)
        assert v is not None and v.sentence.endswith("weak, and the fan is loud."), v.sentence


def test_a_mined_clause_loses_its_narrative_sequel(tmp_path):
    # (Premium price for the OS, but then the charger stopped working: "then" needs an earlier event of its own
    # sentence; the clause reads alone without it)

    pool = [("a", "Then the hard drive failed.", [("hard drive", "negative", ["failed"])]),
            ("b", "Finally Windows crashed badly.", [("Windows", "negative", ["crashed badly"])]),
            ("c", "The dessert was lovely.", [("dessert", "positive", ["lovely"])])]
    entries, rejected = _arts_kit.mined_clauses(tmp_path, pool)
    assert [e.text for e in entries] == ["the hard drive failed", "Windows crashed badly", "the dessert was lovely"], \
        (entries, rejected)


def test_a_turn_after_the_last_aspect_is_what_the_sentence_says_last():
    # (Food was decent, but not great; the manager is incompetent: the sentence already turned to the negative, so
    # "and" continues it; a positive clause contrasts it)
    prep = _prep("Food was decent, but not great.", [("Food", "positive")])
    v, _ = _draw(prep, {"positive": [_entry("the fan is loud", "fan", "negative")]}, lexicon=Polarity())
    assert v is not None and v.sentence == "Food was decent, but not great, and the fan is loud.", v.sentence
    prep = _prep("The location is awkward but it is a hidden treasure.", [("location", "negative")])
    v, _ = _draw(prep, {"negative": POS}, lexicon=Polarity())
    assert v is not None and v.sentence.endswith("treasure, and the keyboard is great."), v.sentence
    # no turn after the last aspect: its label stands
    prep = _prep("Food was decent, but the service was not great.", [("Food", "positive"), ("service", "negative")])
    v, _ = _draw(prep, {"negative": POS}, lexicon=Polarity(), target=1)
    assert v is not None and v.sentence.endswith("not great; still, the keyboard is great."), v.sentence


def test_a_question_with_an_exclamation_takes_no_clause():
    assert unfit_source("How can they survive serving mediocre food at such prices?!")
    assert unfit_source("Who would pay that?..")
    assert unfit_source("The food is great!") is None


def test_an_exclusive_clause_goes_alone_and_only_as_a_contrast():
    # (air has higher resolution but the fonts are small, and THE WARRANTY COMPANY IS HORRIBLE and the only downfall
    # is the battery: "the only downfall" after other flaws contradicts itself)
    only = _entry("the only downfall is the fan", "fan", "negative")
    pools = {"positive": [only, _entry("the hinge is loose", "hinge", "negative")]}
    prep = _prep("The screen is sharp but the fonts are small.", [("screen", "positive"), ("fonts", "negative")])
    for seed in range(20):
        v, why = _draw(prep, pools, seed)
        assert v is not None and "only" not in v.sentence, (seed, why, v and v.sentence)
    seen = set()
    for seed in range(20):
        a = prep.aspects[0].aspect
        v, _ = add_diff(random.Random(seed), _prep("The screen is sharp.", [("screen", "positive")]), a.id,
                        "The screen is sharp.", a.start, a.end, pools, k=None, faithful=False)
        assert v is not None and ("only" not in v.sentence or len(v.appended) == 1), v.sentence
        seen.add(v.sentence)
    assert "The screen is sharp, but the only downfall is the fan." in seen


def test_a_clause_after_an_exclusive_evaluation_says_what_it_implies():
    # (..., but that's about the only positive thing I can say about the meal; the hostess is rude: the rest of the
    # meal is implied negative, and "and" continues it, not "still")
    text = "The appetizer came with foie gras, but that's about the only positive thing I can say about the meal."
    v, _ = _draw(_prep(text, [("appetizer", "neutral")]), {"neutral": NEG}, lexicon=Polarity())
    assert v is not None and v.sentence.endswith("the meal, and the warranty company is horrible."), v.sentence


def test_a_turn_the_lexicon_cannot_read_still_turns():
    # (The food was good, but I couldn't justify it for the price; still, the service was subpar: the "but" already
    # turned against the food, so the complaint continues it)
    prep = _prep("The food was good, but I couldn't justify it for the price.", [("food", "positive")])
    v, _ = _draw(prep, {"positive": [_entry("the fan is loud", "fan", "negative")]}, lexicon=Polarity())
    assert v is not None and v.sentence.endswith("for the price, and the fan is loud."), v.sentence
