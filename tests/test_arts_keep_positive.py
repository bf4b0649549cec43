"""RevTgt keep rate of positive targets without quality loss: the candidate choice's fallback when the first
candidates in rule order are all below the fluency floor, and review opposites of praise words WordNet pairs
off-sense. Sentences are short made-up ones of the failing form (the restaurant and laptop test files)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import _arts_kit

from sentiprobe.generate.arts import GenerateConfig
from sentiprobe.generate.arts.charedit import CharEdit
from sentiprobe.generate.arts.choice import Chooser
from sentiprobe.generate.arts.corrected import Site
from sentiprobe.generate.arts.inputs import read_input
from sentiprobe.generate.arts.pipeline import generate
from sentiprobe.generate.arts.site import Candidate, Sent


class FakeLM:
    """Whole-sentence scores of a fixed table (10 tokens each), recording which texts it was asked for."""

    def __init__(self, totals: dict[str, float]) -> None:
        self.totals = totals
        self.asked: list[str] = []

    def sentences(self, groups: dict[str, list[str]]) -> dict[str, tuple[float, int]]:
        out = {}
        for src, variants in groups.items():
            for t in (src, *variants):
                self.asked.append(t)
                out[t] = (self.totals[t], 10)
        return out


TEXT = "Great food, great drinks."


def swap(word: str, prio: int, detail: str = "review-lexicon opposite of 'great'") -> Candidate:
    return Candidate((CharEdit(12, 17, word, "great", "antonym", detail),), "antonym", detail, prio)


def choose(totals: dict[str, float], cands: list[Candidate]):
    lm = FakeLM({TEXT: -20.0, **totals})
    chooser = Chooser("lm", lm)
    sent = Sent(TEXT, None, [(0, 5), (6, 10), (10, 11), (12, 17), (18, 24), (24, 25)])  # type: ignore[arg-type]
    site = Site("opinion 'great'", "s_0", "reverse", (3, 4), cands, (0, len(TEXT)))
    chooser.prefetch([type("P", (), {"sent": sent, "sites": [site]})()])  # type: ignore[list-item]
    c, rec = chooser.choose(sent, site)
    return c, rec, lm


def test_the_next_candidates_are_scored_when_the_first_fall_below_the_floor():
    # *Great food, terrible drinks* and *poor drinks* break the list of praise; *bad drinks* reads plainly
    cands = [swap("terrible", 1), swap("poor", 2), swap("bad", 3),
             swap("small", 4, "WordNet indirect antonym via large.a.01:large")]
    totals = {"Great food, terrible drinks.": -34.0, "Great food, poor drinks.": -32.0,
              "Great food, bad drinks.": -24.0, "Great food, small drinks.": -21.0}
    c, rec, lm = choose(totals, cands)
    assert c is not None and c.edits[0].text == "bad"
    assert rec["chosen"] == "Great food, bad drinks." and "-4.00 nats" in rec["reason"]
    # an antonym through another word's cluster never gets the fallback's turn (*small drinks*)
    assert "Great food, small drinks." not in lm.asked
    rows = {r["text"]: r for r in rec["candidates"]}
    assert "fell below the fluency floor" in rows["Great food, bad drinks."]["note"]


def test_no_fallback_where_a_first_candidate_is_fluent_or_none_is():
    cands = [swap("terrible", 1), swap("poor", 2), swap("bad", 3)]
    c, rec, lm = choose({"Great food, terrible drinks.": -24.0, "Great food, poor drinks.": -32.0,
                         "Great food, bad drinks.": -21.0}, cands)
    assert c is not None and c.edits[0].text == "terrible"  # a kept choice never changes
    assert "Great food, bad drinks." not in lm.asked
    c, rec, lm = choose({"Great food, terrible drinks.": -34.0, "Great food, poor drinks.": -32.0,
                         "Great food, bad drinks.": -31.0}, cands)
    assert c is None and rec["reason"].startswith("no fluent candidate: the best changes the sentence's fluency "
                                                  "by -12.00 nats")


def test_a_candidate_above_its_own_floor_wins_over_a_better_one_below_its_floor():
    # a negation (floor -8) at -9 and a swap (floor -10) at -9.5: the swap is fluent enough, the negation not
    neg = Candidate((CharEdit(12, 12, "not ", "", "negation_added", "'not'"),), "negation_added", "'not'", 1)
    c, _, _ = choose({"Great food, not great drinks.": -29.0, "Great food, bad drinks.": -29.5},
                     [neg, swap("bad", 2)])
    assert c is not None and c.op == "antonym"


RULES = GenerateConfig(rank="rules", phrase_source="template", strategies=("revtgt",))


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def revtgt(tmp_path: Path, kit, text: str, aspects) -> dict[str, str]:
    src = tmp_path / "in.json"
    src.write_text(json.dumps({"s": _arts_kit.towe_record("s", text, aspects)}), encoding="utf-8")
    gen = generate(read_input(src), RULES, kit)
    return {v.key: v.sentence for v in gen.variants}


@pytest.mark.parametrize(("text", "term", "opinions", "want"), [
    ("The pasta was wonderful and imaginative.", "pasta", ["wonderful", "imaginative"],
     "The pasta was terrible and unimaginative."),  # WordNet: *uncreative*, neither polar nor in the vocabulary
    ("The staff is warm and hospitable.", "staff", ["warm", "hospitable"], "The staff is cold and inhospitable."),
    ("The staff is always informative.", "staff", ["informative"], "The staff is always uninformative."),
    ("They sell tasty tacos at dirt-cheap prices.", "prices", ["dirt-cheap"],
     "They sell tasty tacos at exorbitant prices."),
])
def test_praise_words_with_an_off_sense_or_missing_wordnet_opposite_are_reversed(tmp_path, kit, text, term, opinions,
                                                                                  want):
    assert revtgt(tmp_path, kit, text, [(term, "positive", opinions)]).get("s_0_adv1") == want
