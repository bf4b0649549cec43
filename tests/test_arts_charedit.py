"""Offset bookkeeping of the corrected mode's character edits: a target span keeps its text through any edits
around it (insertions at its start, at its end, edits before and after, several per sentence), an edit inside it
is detected instead of giving a wrong span, and an edit that cannot keep the span is a counted refusal."""
from __future__ import annotations

import json

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import _arts_kit

from sentiprobe.generate.arts import GenerateConfig
from sentiprobe.generate.arts.charedit import CharEdit, apply, map_span, shift, touches
from sentiprobe.generate.arts.inputs import read_input
from sentiprobe.generate.arts.pipeline import generate


@st.composite
def edited(draw):
    """A source text, a non-empty span of it and 0-4 edits placed mostly at or near the span's ends."""
    text = draw(st.text(alphabet="abcde ", min_size=2, max_size=30))
    s = draw(st.integers(0, len(text) - 1))
    e = draw(st.integers(s + 1, len(text)))
    points = st.one_of(st.sampled_from(sorted({0, s, e, len(text), max(0, s - 1), min(len(text), e + 1),
                                                 min(e, s + 1)})), st.integers(0, len(text)))
    edits = []
    for _ in range(draw(st.integers(0, 4))):
        a = draw(points)
        b = draw(st.one_of(st.just(a), st.integers(a, min(len(text), a + 4))))  # insertion, deletion, replacement
        new = draw(st.text(alphabet="XYZ ", max_size=6))
        assume(a != b or new)
        edits.append(CharEdit(a, b, new, text[a:b], "op", "detail"))
    try:
        out = apply(text, edits)
    except ValueError:  # overlapping edits are never applied together
        assume(False)
    return text, (s, e), edits, out


@settings(max_examples=600, deadline=None)
@given(edited())
def test_a_span_keeps_its_text_unless_an_edit_changes_it(case):
    text, (s, e), edits, out = case
    span = map_span(s, e, edits)
    if any(touches((s, e), x) for x in edits):
        assert span is None
        return
    assert span is not None
    a, b = span
    assert out[a:b] == text[s:e]
    # the characters before the span are the edited prefix: every edit at or before the span's start lands there
    before = [x for x in edits if x.end <= s]
    assert a == s + sum(len(x.text) - (x.end - x.start) for x in set(before))


def test_an_insertion_at_the_span_start_moves_the_span_and_one_at_its_end_does_not():
    text = "which performed admirably"
    ins = CharEdit(6, 6, "never ", "", "negation_added", "")
    after = CharEdit(15, 15, " well", "", "degree_adverb", "")
    out = apply(text, [ins, after])
    assert out == "which never performed well admirably"
    assert map_span(6, 15, [ins, after]) == (12, 21) and out[12:21] == "performed"
    assert shift(6, [ins]) == 6 and shift(6, [ins], after_insertions=True) == 12
    assert map_span(6, 15, [CharEdit(8, 8, "X", "", "op", "")]) is None  # inside the term
    assert map_span(6, 15, [CharEdit(6, 10, "", "perf", "op", "")]) is None  # over its start


def test_negation_inserted_at_the_target_verb_is_realised(tmp_path):
    """The laptop record 959:1_0: RevTgt inserts ``never`` exactly at the start of the target ``performed``."""
    text = ('My last laptop was a 17" ASUS gaming machine, which performed admirably, but having since built my '
            "own desktop, I found myself wanting something smaller.")
    rec = {"sentence": text, "term_list": {"959:1_0": {
        "id": "959:1_0", "polarity": "positive", "term": "performed", "from": 52, "to": 61,
        "opinion_words": ["admirably"], "opinion_position": [[62, 71]]}}}
    src = tmp_path / "in.json"
    src.write_text(json.dumps({"959:1": rec}), encoding="utf-8")
    gen = generate(read_input(src), GenerateConfig(rank="rules", strategies=("revtgt",)), _arts_kit.kit())
    v = next(v for v in gen.variants if v.key == "959:1_0_adv1")
    assert v.sentence[v.start:v.end] == "performed" and "never performed" in v.sentence
