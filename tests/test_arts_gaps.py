"""RevTgt opposites of review opinions that fell through the antonym path (:mod:`sentiprobe.generate.arts.gaps`
and :data:`sentiprobe.generate.arts.polarity.COMPLAINT_OPPOSITES`): a comparative misread as an adverb or a noun, a
noun of a quality, an interjection of taste, *lacking* with its object, a phrasal complaint, a softened *obscure*.
Short sentences of the forms the laptop and restaurant test files refused."""
from __future__ import annotations

from pathlib import Path

import pytest

import _arts_kit

from sentiprobe.generate.arts import GenerateConfig
from sentiprobe.generate.arts.gaps import _comparative_opposites

RULES = GenerateConfig(rank="rules", phrase_source="template", strategies=("revtgt",))


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def run(tmp_path: Path, kit, text: str, term: str, label: str, ops: list[str]):
    return _arts_kit.reverse_one(tmp_path, kit, RULES, text, term, label, ops)


def test_a_misread_comparative_takes_the_comparative_of_its_review_opposite(tmp_path, kit):
    v, why = run(tmp_path, kit, "So much faster and sleeker looking.", "looking", "positive", ["faster", "sleeker"])
    assert v is not None, why
    assert v.sentence == "So much slower and clunkier looking."


def test_a_long_opposite_takes_no_synthetic_comparative():
    assert _comparative_opposites("easier") == ["harder"]  # never *difficulter*
    assert _comparative_opposites("fast") == []  # not a comparative
    assert _comparative_opposites("longer") == []  # *lasts longer*, never *lasts shorter*


def test_a_noun_of_a_quality_takes_the_noun_of_its_opposite(tmp_path, kit):
    text = "I complained to the manager, but the intensity of rudeness from them just went up."
    v, why = run(tmp_path, kit, text, "manager", "negative", ["rudeness"])
    assert v is not None, why
    assert "the intensity of politeness from them" in v.sentence


def test_an_interjection_of_taste_takes_its_opposite_only_with_the_label(tmp_path, kit):
    gen = _arts_kit.generate_towe(tmp_path, kit, [("s", "I recommend the gnocchi -- yum!", [
        ("gnocchi", "positive", ["recommend", "yum"])])], RULES)
    v = _arts_kit.variant(gen, "s_0_adv1")
    assert v is not None, _arts_kit.refusal(gen, "s_0")
    assert v.sentence == "I don't recommend the gnocchi -- yuck!"
    v, _ = run(tmp_path, kit, "The gnocchi -- yum!", "gnocchi", "negative", ["yum"])
    assert v is None or "yuck" not in v.sentence


def test_lacking_with_its_object_becomes_full_of_and_a_bare_lacking_does_not(tmp_path, kit):
    v, why = run(tmp_path, kit, "The guac is fresh, yet lacking flavor.", "flavor", "negative", ["lacking"])
    assert v is not None, why
    assert "full of flavor" in v.sentence
    v, _ = run(tmp_path, kit, "However, the service was dramatically lacking.", "service", "negative", ["lacking"])
    assert v is None or "full of" not in v.sentence


def test_a_phrasal_complaint_is_replaced_as_a_whole(tmp_path, kit):
    v, why = run(tmp_path, kit, "The sangria was watered down.", "sangria", "negative", ["watered down"])
    assert v is not None, why
    assert v.sentence == "The sangria was strong."


def test_a_softened_obscure_takes_its_plain_opposite(tmp_path, kit):
    text = "The on/off switch is a bit obscure in the rear corner."
    v, why = run(tmp_path, kit, text, "on/off switch", "negative", ["obscure"])
    assert v is not None, why
    assert v.sentence == "The on/off switch is accessible in the rear corner."


def test_fall_short_on_becomes_deliver_on(tmp_path, kit):
    text = "The dessert fell short on taste."
    v, why = run(tmp_path, kit, text, "taste", "negative", ["short"])
    assert v is not None, why
    assert v.sentence == "The dessert delivered on taste."


def test_a_softened_thinly_takes_generously(tmp_path, kit):
    v, why = run(tmp_path, kit, "The sashimi is cut a little thinly.", "sashimi", "negative", ["thinly"])
    assert v is not None, why
    assert v.sentence == "The sashimi is cut generously."


def test_manner_adverbs_of_delivery_take_their_review_opposites_in_a_pair(tmp_path, kit):
    v, why = run(tmp_path, kit, "Shipped very quickly and safely.", "Shipped", "positive", ["quickly", "safely"])
    assert v is not None, why
    assert v.sentence == "Shipped very slowly and carelessly."


def test_no_opposite_manner_inside_the_infinitive_of_a_judging_adjective(tmp_path, kit):
    text = "The restaurant is rather small but we were lucky to get a table quickly."
    v, _ = run(tmp_path, kit, text, "table", "positive", ["quickly"])
    assert v is None or "table slowly" not in v.sentence


def test_the_perfect_noun_of_a_purpose_becomes_the_wrong_one(tmp_path, kit):
    v, why = run(tmp_path, kit, "It is the perfect size to carry to class.", "size", "positive", ["perfect"])
    assert v is not None, why
    assert v.sentence == "It is the wrong size to carry to class."
    v, why = run(tmp_path, kit, "This is the perfect laptop for students.", "laptop", "positive", ["perfect"])
    assert v is not None, why
    assert v.sentence == "This is the wrong laptop for students."
    for text in ("It provides the perfect Iberian ending.", "It is a perfect place to relax."):
        term = "ending" if "ending" in text else "place"
        v, _ = run(tmp_path, kit, text, term, "positive", ["perfect"])
        assert v is None or "wrong" not in v.sentence


def test_a_predicative_perfect_for_becomes_unsuitable_for_but_not_as_a_result(tmp_path, kit):
    v, why = run(tmp_path, kit, "The configuration is perfect for my needs.", "configuration", "positive", ["perfect"])
    assert v is not None, why
    assert v.sentence == "The configuration is unsuitable for my needs."
    text = "It has a long battery life, making it perfect for the classroom."
    v, _ = run(tmp_path, kit, text, "battery life", "positive", ["perfect"])
    assert v is None or "unsuitable" not in v.sentence
