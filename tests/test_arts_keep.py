"""RevTgt reversals the corrected generator refused although a correct one exists: restaurant opinion words with
no (or an off-sense) WordNet opposite, participles whose base form hides their review opposite, and *below
average* (each form from the SemEval restaurant test file, with made-up sentences).

The corrected mode runs with ``rank="rules"`` (no language model)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import _arts_kit

from sentiprobe.generate.arts import GenerateConfig
from sentiprobe.generate.arts.inputs import read_input
from sentiprobe.generate.arts.opposites import _participle_entry
from sentiprobe.generate.arts.pipeline import generate

RULES = GenerateConfig(rank="rules", phrase_source="template", strategies=("revtgt",))


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def revtgt(tmp_path: Path, kit, text: str, aspects) -> str | None:
    path = tmp_path / "in.json"
    path.write_text(json.dumps({"s1": _arts_kit.towe_record("s1", text, aspects)}), encoding="utf-8")
    gen = generate(read_input(path), RULES, kit)
    return next((v.sentence for v in gen.variants if v.key == "s1_0_adv1"), None)


@pytest.mark.parametrize(("text", "aspect", "ops", "label", "want"), [
    # each was refused: no antonym and no negation site (or only an off-sense, non-polar antonym)
    ("Our waiter was so rude and disinterested.", "waiter", ["rude", "disinterested"], "negative", "attentive"),
    ("We bought slices from a harried staff.", "staff", ["harried"], "negative", "relaxed staff"),
    ("All the sweets are homemade.", "sweets", ["homemade"], "positive", "store-bought"),
    ("The lunch menu is inexpensive.", "lunch menu", ["inexpensive"], "positive", "is expensive"),
])
def test_restaurant_opinion_words_take_their_review_opposite(tmp_path, kit, text, aspect, ops, label, want):
    out = revtgt(tmp_path, kit, text, [(aspect, label, ops)])
    assert out is not None and want in out, out


def test_substandard_is_not_reversed_to_standard(tmp_path, kit):
    # was refused: antonym 'standard' does not flip the polarity
    out = revtgt(tmp_path, kit, "This place uses substandard meats.", [("meats", "negative", ["substandard"])])
    assert out == "This place uses excellent meats."


def test_below_average_turns_at_its_preposition(tmp_path, kit):
    # was refused: the span 'below average' holds a hedge (and *average* has only off-sense antonyms)
    out = revtgt(tmp_path, kit, "The pasta was well below average.", [("pasta", "negative", ["below average"])])
    assert out == "The pasta was well above average."


def test_a_manner_adverb_of_priced_takes_its_opposite(tmp_path, kit):
    # was refused for the whole span: 'reasonably priced' holds a hedge, its negation is unclear
    out = revtgt(tmp_path, kit, "The sushi is reasonably priced and fresh.",
                 [("sushi", "positive", ["reasonably priced", "fresh"])])
    assert out == "The sushi is unreasonably priced and stale."


def test_a_participle_keeps_its_own_review_entry():
    assert _participle_entry("overpriced", "VBD", "overprice")
    assert _participle_entry("impressed", "VBN", "impress")
    assert not _participle_entry("refreshing", "VBG", "refresh")  # an adjective's opposite (*stale drink*)
    assert not _participle_entry("loved", "VBD", "love")  # the base's own entry wins (*love* -> *hate*)
    assert not _participle_entry("overpriced", "JJ", "overpriced")  # an adjective already looks itself up


def test_a_manner_adverb_of_a_verb_takes_its_review_opposite(tmp_path, kit):
    # was refused: 'brusquely' is an adverb the lexicon does not know, and it had no opposite
    out = revtgt(tmp_path, kit, "The waiter brusquely told us to leave.", [("waiter", "negative", ["brusquely"])])
    assert out == "The waiter politely told us to leave."


def test_below_average_against_its_label_is_not_turned(tmp_path, kit):
    # the gold label argues with the surface (the price): *below average* would not read positive
    out = revtgt(tmp_path, kit, "Slightly above average wines start at $ 70.",
                 [("wines", "negative", ["above average"])])
    assert out is None or "below average" not in out, out


def test_a_recommended_participle_never_takes_a_negated_entry(tmp_path, kit):
    out = revtgt(tmp_path, kit, "Highly recommended is the Spider Roll.",
                 [("Spider Roll", "positive", ["recommended"])])
    assert out is None or "not recommended" not in out, out
