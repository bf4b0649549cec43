"""ARTS corrected mode: an unannotated side of *and* read through the review verb that carries its opinion
(:mod:`sentiprobe.generate.arts.sidereading`), with short made-up sentences of the forms blind judges marked."""
from __future__ import annotations

import pytest

import _arts_kit
from test_arts_clash import with_lexicon
from test_arts_quality import run, variant


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def test_a_comparing_verb_praises_its_clause_whatever_its_object(tmp_path, kit):
    # *old* is a complaint word of the laptop lexicon: read word by word, *beats my old laptop* was mixed and
    # the *and* before the reversed praise stayed
    text = "It beats my old laptop and the screen is great."
    gen = run(tmp_path, kit, [("b", text, [("screen", "positive", ["great"])])],
              with_lexicon(tmp_path, {"old": "negative"}))
    v = variant(gen, "b_0_adv1")
    assert v is not None and "old laptop but the screen is " in v.sentence, v
    assert "and_to_but" in [e.op for e in v.edits]



def test_and_opening_a_clause_the_parser_split_off_still_turns_to_but(tmp_path, kit):
    # the parser makes *and I'm a fan of ...* a sentence of its own: no *conj* joined the clauses and the *and*
    # stayed between *don't like the keyboard* and *a fan of*
    text = "I really like the keyboard and I'm a fan of the brand."
    gen = run(tmp_path, kit, [("f", text, [("keyboard", "positive", ["like"])])])
    v = variant(gen, "f_0_adv1")
    assert v is not None and v.sentence.endswith(" keyboard but I'm a fan of the brand."), v
