"""RevTgt reversals where a negation reads oddly and a plain opposite or a refusal reads better: an emphatic
opinion (*severely slow*, *purely amazing*, *silky smooth*), a litotes of a complaint (*not poor*), a negated
*have* whose object keeps its praise, a negated predicate before its examples (*such as*), and *neither ... nor*
before a *but* that then contrasts nothing. Short made-up sentences of the forms the test files gave."""
from __future__ import annotations

from pathlib import Path

import pytest

import _arts_kit

from sentiprobe.generate.arts import GenerateConfig

RULES = GenerateConfig(rank="rules", phrase_source="template", strategies=("revtgt",))


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def run(tmp_path: Path, kit, text: str, term: str, label: str, ops: list[str]):
    return _arts_kit.reverse_one(tmp_path, kit, RULES, text, term, label, ops)


def offered(v) -> list[str]:
    """The texts of the valid candidates the chooser weighed (the chosen one among them); none without a variant."""
    if v is None:
        return []
    return [row["text"] for ch in v.choices for row in ch.get("candidates", []) if row.get("valid")]


def test_an_emphatic_complaint_takes_the_plain_opposite(tmp_path, kit):
    v, why = run(tmp_path, kit, "The service was severely slow.", "service", "negative", ["slow"])
    assert v is not None, why
    assert v.sentence in ("The service was fast.", "The service was quick."), v.sentence


@pytest.mark.parametrize(("text", "term", "opinion"), [
    ("The apps are purely amazing.", "apps", "amazing"),
    ("The staff members are extremely friendly.", "staff members", "friendly"),
    ("This set up is silky smooth!", "set up", "smooth"),
])
def test_an_emphatic_praise_is_never_negated(tmp_path, kit, text, term, opinion):
    v, _ = run(tmp_path, kit, text, term, "positive", [opinion])
    assert not [t for t in offered(v) if " not " in t]


def test_a_negative_adjective_takes_its_opposite_not_a_litotes(tmp_path, kit):
    v, why = run(tmp_path, kit, "The battery life is poor.", "battery life", "negative", ["poor"])
    assert v is not None, why
    assert not [t for t in offered(v) if "not poor" in t]


def test_a_negated_have_never_keeps_the_praise_of_its_object(tmp_path, kit):
    text = "The place has a great variety of tasty, mouth watering pizza's."
    v, _ = run(tmp_path, kit, text, "pizza's", "positive", ["great", "tasty", "mouth watering"])
    assert not [t for t in offered(v) if "n't have" in t]


def test_a_predicate_before_its_examples_is_never_negated(tmp_path, kit):
    text = "The specials are tried-and-true recipes, such as the lamb stew."
    v, _ = run(tmp_path, kit, text, "specials", "positive", ["tried-and-true"])
    assert not [t for t in offered(v) if "not tried" in t]


def test_neither_nor_before_a_but_that_contrasts_nothing(tmp_path, kit):
    text = "The food is consistent and good but how it got its stars is beyond me."
    v, _ = run(tmp_path, kit, text, "food", "positive", ["consistent", "good"])
    assert not [t for t in offered(v) if "neither" in t and " but " in t]


def test_an_emphatic_praise_the_clause_goes_on_about_is_not_reversed(tmp_path, kit):
    text = "The waiters are extremely friendly and even replaced my drink when I dropped it."
    v, _ = run(tmp_path, kit, text, "waiters", "positive", ["friendly"])
    assert v is None, v.sentence


def test_an_emphatic_praise_before_a_clause_of_its_own_is_reversed(tmp_path, kit):
    text = "The staff is unbelievably friendly, and I dream about their curry."
    v, why = run(tmp_path, kit, text, "staff", "positive", ["friendly"])
    assert v is not None, why
