"""RevTgt reversals a post-editor writes where the opinion word's own opposite reads oddly in place
(:mod:`sentiprobe.generate.arts.lexical`): a softened or boosted complaint drops its degree words, a wish for more
of a quality becomes *couldn't be more*, *to die for* becomes a plain verdict. Short made-up sentences of the forms
the restaurant test file refused."""
from __future__ import annotations

from pathlib import Path

import pytest

import _arts_kit

from sentiprobe.generate.arts import GenerateConfig
from sentiprobe.generate.arts.polarity import Polarity, phrase_reading

RULES = GenerateConfig(rank="rules", phrase_source="template", strategies=("revtgt",))


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def run(tmp_path: Path, kit, text: str, term: str, label: str, ops: list[str]):
    return _arts_kit.reverse_one(tmp_path, kit, RULES, text, term, label, ops)


@pytest.mark.parametrize(("text", "opinion", "want"), [
    ("The service was a bit slow.", "slow", {"The service was fast.", "The service was quick."}),
    ("The room was a bit noisy.", "noisy", {"The room was quiet."}),
    ("Somewhat disappointing wine list.", "disappointing", {"Impressive wine list."}),
    ("The service was dreadfully slow.", "slow", {"The service was fast.", "The service was quick."}),
])
def test_a_softened_or_boosted_complaint_takes_the_plain_opposite(tmp_path, kit, text, opinion, want):
    term = "wine list" if "wine" in text else text.split()[1]
    v, why = run(tmp_path, kit, text, term, "negative", [opinion])
    assert v is not None, why
    assert v.sentence in want


def test_the_plain_opposite_takes_only_a_reviewers_word(tmp_path, kit):
    # WordNet's *little* for *big* read oddly without its softener (*the smoothies are little*)
    v, _ = run(tmp_path, kit, "The smoothies are a little big for me.", "smoothies", "negative", ["big"])
    assert v is None or "are little" not in v.sentence


def test_no_plain_opposite_under_a_list_of_complaints_or_before_a_result_clause(tmp_path, kit):
    v, _ = run(tmp_path, kit, "CONS: Price is a bit ridiculous.", "Price", "negative", ["ridiculous"])
    assert v is None or "is reasonable" not in v.sentence
    text = "The waiter was so incredibly rude that we left."
    v, _ = run(tmp_path, kit, text, "waiter", "negative", ["rude"])
    assert v is None or ("was polite that" not in v.sentence and "was friendly that" not in v.sentence)


def test_a_wish_for_more_of_a_quality_becomes_could_not_be_more(tmp_path, kit):
    v, why = run(tmp_path, kit, "The staff should be a bit more friendly.", "staff", "negative", ["friendly"])
    assert v is not None, why
    assert v.sentence == "The staff couldn't be more friendly."


def test_to_die_for_becomes_a_plain_verdict_but_not_after_an_advice(tmp_path, kit):
    v, why = run(tmp_path, kit, "The cheesecake was to die for!", "cheesecake", "positive", ["die for"])
    assert v is not None, why
    assert v.sentence in ("The cheesecake was nothing special!", "The cheesecake was a letdown!")
    v, _ = run(tmp_path, kit, "Try the cheesecake, it is to die for.", "cheesecake", "positive", ["die for"])
    assert v is None


def test_the_phrase_reading_of_wishes_and_idioms():
    lex = Polarity()
    assert lex.phrase(phrase_reading("should be a bit more friendly")) < 0
    assert lex.phrase(phrase_reading("couldn't be more friendly")) > 0
    assert lex.phrase(phrase_reading("could be better")) < 0
    assert lex.phrase(phrase_reading("to die for")) > 0
    assert phrase_reading("it should be over soon") == "it should be over soon"  # *over* is no comparative


@pytest.mark.parametrize(("text", "term"), [
    ("The delivery was a bit slow, but I'm willing to overlook it.", "delivery"),
    ("The hostess was incredibly rude and rushed us out.", "hostess"),
])
def test_no_plain_opposite_where_the_sentence_goes_on_about_the_complaint(tmp_path, kit, text, term):
    opinion = "slow" if "slow" in text else "rude"
    v, _ = run(tmp_path, kit, text, term, "negative", [opinion])
    assert v is None or not any(w in v.sentence for w in ("was fast", "was quick", "was polite", "was friendly"))


def test_no_wish_reversal_beside_a_contrast(tmp_path, kit):
    v, _ = run(tmp_path, kit, "The decor is great, but the service could be better.", "service", "negative",
               ["better"])
    assert v is None or "couldn't be better" not in v.sentence


def test_a_noun_of_merit_takes_its_opposite(tmp_path, kit):
    v, why = run(tmp_path, kit, "The main draw of this diner is the price.", "price", "positive", ["draw"])
    assert v is not None, why
    assert v.sentence == "The main drawback of this diner is the price."


def test_a_noun_of_fault_keeps_no_opposite(tmp_path, kit):
    text = "There is a downside if you order in -- the delivery guys are rude."
    v, _ = run(tmp_path, kit, text, "delivery guys", "negative", ["downside"])
    assert v is None or "upside" not in v.sentence


def test_an_adjective_read_as_a_compound_noun_between_an_adjective_and_its_noun_gets_its_opposite(tmp_path, kit):
    text = "Wonderful menu, warm inviting ambiance, great service!"
    v, why = run(tmp_path, kit, text, "ambiance", "positive", ["warm", "inviting"])
    assert v is not None, why
    assert v.sentence == "Wonderful menu, cold uninviting ambiance, great service!"


def test_a_softener_read_as_an_adjective_is_never_negated(tmp_path, kit):
    # the tagger reads *little* as an adjective (*a little bland* as a noun phrase): *was not a little bland*
    v, _ = run(tmp_path, kit, "The soup was a little bland.", "soup", "negative", ["bland"])
    assert v is None or "not a little" not in v.sentence, v.sentence
