"""AddDiff's appended clauses must read with the sentence: no clause about an aspect the sentence already
evaluates (``battery`` / ``battery life``), no second contrast after a concession, a colon list or a question,
and one polarity for all clauses of a variant. Sentences from the shipped laptop and restaurant test files."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from sentiprobe.generate.arts.adddiff import PoolEntry, add_diff
from sentiprobe.generate.arts.fit import sentence_lemmas, unfit_source
from sentiprobe.generate.arts.inputs import Aspect, Sentence
from sentiprobe.generate.arts.resources import Parse
from sentiprobe.generate.arts.strategies import Prepared, prepare_aspects
from sentiprobe.generate.arts.text import tokenize


def _prep(text: str, term: str, polarity: str, nouns: tuple[str, ...] = ()) -> Prepared:
    a = text.index(term)
    s = Sentence("s1", text, (Aspect("s1_0", term, polarity, a, a + len(term)),))
    toks = tuple(tokenize(text))
    upos = tuple("NOUN" if w.lower() in nouns else "X" for w in toks)
    parse = Parse(toks, ("NN",) * len(toks), upos, tuple(range(len(toks))), ("",) * len(toks))
    return Prepared(s, toks, parse, prepare_aspects(s, toks))


def _entry(text: str, term: str, label: str) -> PoolEntry:
    return PoolEntry(text, term, label, "train#1", "clause")


def _draw(prep: Prepared, pools: dict, k: int | None, seed: int):
    a = prep.aspects[0].aspect
    return add_diff(random.Random(seed), prep, a.id, prep.sentence.text, a.start, a.end, pools, k=k, faithful=False)


def test_a_clause_about_an_aspect_the_sentence_evaluates_is_redrawn():
    prep = _prep("It's so nice that the battery last so long and that this machine has the snow lion!", "battery",
                 "positive", nouns=("battery", "machine", "lion"))
    pools = {"positive": [_entry("the battery life is too short", "battery life", "negative"),
                          _entry("the keyboard is awful", "keyboard", "negative")]}
    for seed in range(20):
        v, why = _draw(prep, pools, 1, seed)
        assert v is not None and [e["term"] for e in v.appended] == ["keyboard"], (seed, why)


def test_a_clause_about_a_noun_of_the_sentence_is_redrawn():
    text = "Speedy delivers, great food, decent prices, and friendly service combine to ensure an enjoyable repast."
    prep = _prep(text, "repast", "positive", nouns=("delivers", "food", "prices", "service", "repast"))
    assert {"service", "food", "price"} <= sentence_lemmas(prep)
    pools = {"positive": [_entry("we had the worst customer service experience", "customer service", "negative"),
                          _entry("the music is too loud", "music", "negative")]}
    for seed in range(20):
        v, _ = _draw(prep, pools, 1, seed)
        assert v is not None and v.appended[0]["term"] == "music"


@pytest.mark.parametrize("text", [
    "Though please note that sometimes it crashes, and the sound quality isnt superb.",
    "While the smoothies are a little big for me, the fresh juices are the best I have ever had!",
    "Not only did they have amazing, sandwiches, soup, pizza etc, but their homemade sorbets are out of this world!",
    "However, I can refute that OSX is \"FAST\".",
    "Here are the things that made me confident with my purchase: Build Quality - Seriously, you can't beat a "
    "unibody construction.",
    "Did I mention that the coffee is OUTSTANDING?",
])
def test_a_source_that_cannot_take_a_contrast_clause_is_refused_with_a_reason(text):
    assert unfit_source(text)
    term = "sound quality" if "sound" in text else text.split()[3].strip(",")
    prep = _prep(text, term, "positive")
    v, why = _draw(prep, {"positive": [_entry("the keyboard is awful", "keyboard", "negative")]}, 1, 0)
    assert v is None and why == unfit_source(text)


@pytest.mark.parametrize("text", [
    "Startup times are incredibly long: over two minutes.",
    "The Apple engineers have not yet discovered the delete key.",
    "Food was decent, but not great.",
    "We waited while the kitchen closed.",
])
def test_plain_sentences_still_take_a_clause(text):
    assert unfit_source(text) is None


def test_a_neutral_target_gets_clauses_of_one_polarity():
    prep = _prep("Great beer selection too, something like 50 beers.", "beers", "neutral", nouns=("beer", "selection"))
    pos = [_entry(f"the {w} was good", w, "positive") for w in ("soup", "bread", "tea")]
    neg = [_entry(f"the {w} is very limited", w, "negative") for w in ("menu", "space", "patio")]
    seen: Counter = Counter()
    for seed in range(30):
        v, _ = _draw(prep, {"neutral": pos + neg}, 3, seed)
        assert v is not None
        labels = {e["label"] for e in v.appended}
        assert len(labels) == 1, v.sentence
        seen.update(labels)
    assert set(seen) == {"positive", "negative"}  # both pools still serve neutral targets
