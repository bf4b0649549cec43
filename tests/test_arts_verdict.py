"""A reversal that the sentence's own verdict on the whole review still contradicts
(:mod:`sentiprobe.generate.arts.verdict`): made-up sentences of the forms blind readers rejected.

The corrected mode runs with ``rank="rules"`` (no language model)."""
from __future__ import annotations

from pathlib import Path

import pytest

import _arts_kit

from sentiprobe.generate.arts import GenerateConfig
from sentiprobe.generate.arts.charedit import CharEdit
from sentiprobe.generate.arts.verdict import verdict_clash

RULES = GenerateConfig(rank="rules", phrase_source="template", strategies=("revtgt", "revnon"))


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def run(tmp_path: Path, kit, sents):
    return _arts_kit.generate_towe(tmp_path, kit, sents, RULES)


def variant(gen, key: str):
    return next((v for v in gen.variants if v.key == key), None)


def refusal(gen, aid: str, stage: str = "revtgt") -> str | None:
    return next((s.reason for s in gen.skipped if s.record == aid and s.stage == stage), None)


def test_a_complaint_beside_an_unchanged_verdict_of_praise_is_refused(tmp_path, kit):
    sents = [("e", "Had a great experience here... the waiter was friendly.", [("waiter", "positive", ["friendly"])]),
             ("b", "It definitely beats my old laptop and the screen was great.", [("screen", "positive", ["great"])]),
             ("h", "It does all I need, has a long battery life and I couldn't be happier.",
              [("battery life", "positive", ["long"])]),
             ("k", "Cozy room, great soup, friendly staff keep us coming back!", [("soup", "positive", ["great"])])]
    gen = run(tmp_path, kit, sents)
    for sid, _, _ in sents:
        v = variant(gen, f"{sid}_0_adv1")
        if sid in "bh" and v is not None:  # the and/but repair may turn it into a contrast, which reads right
            assert " but " in v.sentence, v.sentence
            continue
        assert v is None, v.sentence
        assert "verdict" in (refusal(gen, f"{sid}_0") or ""), (sid, refusal(gen, f"{sid}_0"))


def test_praise_beside_an_unchanged_verdict_of_complaint_is_refused(tmp_path, kit):
    gen = run(tmp_path, kit, [("n", "Don't ever bother, the soup was bland.", [("soup", "negative", ["bland"])])])
    assert variant(gen, "n_0_adv1") is None, variant(gen, "n_0_adv1").sentence
    assert "verdict" in (refusal(gen, "n_0") or ""), refusal(gen, "n_0")


def test_a_complaint_about_what_an_imperative_recommends_is_refused(tmp_path, kit):
    sents = [("o", "Also get the onion rings -- best we ever had.", [("onion rings", "positive", ["best"])]),
             ("s", "Sit back in one of those comfortable chairs.", [("chairs", "positive", ["comfortable"])])]
    gen = run(tmp_path, kit, sents)
    for sid, _, _ in sents:
        assert variant(gen, f"{sid}_0_adv1") is None, variant(gen, f"{sid}_0_adv1").sentence
        assert "imperative" in (refusal(gen, f"{sid}_0") or ""), refusal(gen, f"{sid}_0")


def test_a_contrast_or_a_concession_licenses_the_disagreement():
    # *Great place, but the staff was rude*: a contrast between verdict and complaint
    src = "Had a great experience, but the staff was nice."
    a = src.index("nice")
    e = CharEdit(a, a + 4, "rude", "nice", "antonym", "")
    assert verdict_clash(src, src.replace("nice", "rude"), [e], [e], []) is None
    # *Don't bother - the drinks were good, but the people made it the worst*: a concession the sentence takes back
    src = "Don't ever bother - the drinks were awful, but the people made it the worst night."
    a = src.index("awful")
    e = CharEdit(a, a + 5, "good", "awful", "antonym", "")
    assert verdict_clash(src, src.replace("awful", "good"), [e], [], [e]) is None
    # without the turn back, the same praise clashes
    src = "Don't ever bother - the drinks were awful."
    e = CharEdit(src.index("awful"), src.index("awful") + 5, "good", "awful", "antonym", "")
    assert verdict_clash(src, src.replace("awful", "good"), [e], [], [e]) is not None
    # an edited verdict is no longer the verdict that was
    src = "Had a great experience... the staff was nice."
    edits = [CharEdit(src.index("great"), src.index("great") + 5, "terrible", "great", "antonym", ""),
             CharEdit(src.index("nice"), src.index("nice") + 4, "rude", "nice", "antonym", "")]
    assert verdict_clash(src, src.replace("great", "terrible").replace("nice", "rude"), edits, edits, []) is None
