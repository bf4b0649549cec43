"""Grid builder, decoder, BIO reading and the lenient parser on tiny hand-made cases (docs/protocols/triplets.md#grid,
#model, #decoding)."""
from __future__ import annotations

import numpy as np
import pytest

from sentiprobe.protocols.triplets.grid import (EMPTY, IGNORE, NEG, NEU, P, POS, T, Entry, build_grid, decode,
                                             read_bio, round_trip)
from sentiprobe.suites.triplets.parse import EntryError, align_text, read_span, read_triplet, reply_triplets


def test_bio_reading_rule():
    assert read_bio(list("BIIOB")) == [(0, 2), (4, 4)]
    assert read_bio(list("BBI")) == [(0, 0), (1, 2)]        # B closes the open span
    assert read_bio(list("OIIBI")) == [(3, 4)]               # I without an open span is ignored
    assert read_bio(list("BOI")) == [(0, 0)]                 # O closes; the later I continues nothing
    assert read_bio([]) == []


def test_gold_grid_cells():
    # "The battery life is great": target [1,2], polar [4,4], positive
    g = build_grid(5, [Entry(((1, 2),), ((4, 4),), "positive")])
    assert g[1, 1] == g[1, 2] == g[2, 2] == T
    assert g[4, 4] == P
    assert g[1, 4] == g[2, 4] == POS
    assert g[0, 0] == EMPTY and g[0, 3] == EMPTY
    assert g[4, 1] == IGNORE and g[2, 1] == IGNORE          # lower triangle
    d = decode(g)
    assert d.targets == [(1, 2)] and d.polars == [(4, 4)]
    assert d.triplets == [(1, 2, 4, 4, "positive")]


def test_polar_before_target_uses_min_max_cell():
    g = build_grid(4, [Entry(((3, 3),), ((0, 1),), "negative")])
    assert g[0, 3] == g[1, 3] == NEG
    assert decode(g).triplets == [(3, 3, 0, 1, "negative")]


def test_later_writes_overwrite_and_word_both_target_and_polar():
    # the second entry's polar span covers the first entry's target word: its diagonal becomes P
    g = build_grid(4, [Entry(((0, 0),), ((2, 2),), "positive"), Entry(((3, 3),), ((0, 0),), "negative")])
    assert g[0, 0] == P
    # a word both target and polar in one entry: its diagonal cell becomes the polarity tag
    g2 = build_grid(2, [Entry(((0, 0),), ((0, 1),), "neutral")])
    assert g2[0, 0] == NEU


def test_adjacent_spans_merge_and_round_trip_loses_them():
    e = [Entry(((0, 0),), ((2, 2),), "positive"), Entry(((1, 1),), ((2, 2),), "positive")]
    d = round_trip(3, e)
    assert d.targets == [(0, 1)]
    assert d.triplets == [(0, 1, 2, 2, "positive")]


def test_vote_majority_and_tie_order():
    g = np.full((4, 4), IGNORE)
    g[np.triu_indices(4)] = EMPTY
    g[0, 0] = g[1, 1] = T
    g[3, 3] = P
    g[0, 3], g[1, 3] = NEG, NEG
    assert decode(g).triplets == [(0, 1, 3, 3, "negative")]
    g[0, 3], g[1, 3] = NEG, NEU                              # tie Neu/Neg -> Neu
    assert decode(g).triplets == [(0, 1, 3, 3, "neutral")]
    g[0, 3], g[1, 3] = POS, NEG                              # tie Pos/Neg -> Pos
    assert decode(g).triplets == [(0, 1, 3, 3, "positive")]
    g[0, 3] = g[1, 3] = EMPTY                                 # no polarity -> not linked
    assert decode(g).triplets == []


def test_reference_quirk_counts_ignored_cell_as_positive():
    g = build_grid(3, [Entry(((2, 2),), ((0, 0),), "negative")])
    assert decode(g, reference_quirk=True).triplets == decode(g).triplets == [(2, 2, 0, 0, "negative")]
    # an ignored (-1) cell inside a span pair (a non-first sub-word piece in the reference's grids)
    g = np.full((3, 3), IGNORE)
    g[np.triu_indices(3)] = EMPTY
    g[0, 0] = T
    g[1, 1] = g[2, 2] = P
    g[0, 1], g[0, 2] = IGNORE, NEG
    assert decode(g).triplets == [(0, 0, 1, 2, "negative")]
    assert decode(g, reference_quirk=True).triplets == [(0, 0, 1, 2, "positive")]   # tie Pos/Neg -> Pos


def test_truncation_clips_spans():
    g = build_grid(3, [Entry(((1, 4),), ((0, 0),), "positive"), Entry(((5, 5),), ((0, 0),), "negative")])
    assert decode(g).triplets == [(1, 2, 0, 0, "positive")]


def test_parser_shapes_and_failures():
    toks = ["The", "battery", "life", "is", "great"]
    assert read_triplet([1, 2, 4, 4, "POS"], toks) == (1, 2, 4, 4, "positive")
    assert read_triplet({"target": "Battery  life", "opinion": "great", "sentiment": "neg"}, toks) == \
        (1, 2, 4, 4, "negative")
    assert read_triplet([[1, 2], 4, "neutral"], toks) == (1, 2, 4, 4, "neutral")
    for bad, reason in [([1, 2, 4, 9, "positive"], "out of range"), ([1, 2, 2, 4, "positive"], "overlap"),
                        ([1, 2, 4, 4, "happy"], "unknown polarity"), ({"target": "screen", "polar": "great",
                                                                      "polarity": "positive"}, "not in the sentence"),
                        ([3, 1, 4, 4, "positive"], "ends before"), ("x", "is not an object")]:
        with pytest.raises(EntryError, match=reason):
            read_triplet(bad, toks)


def test_align_text_prefers_occurrence_near_the_other_span():
    toks = ["good", "food", ",", "good", "service", ",", "bad", "price"]
    assert align_text("good", toks) == (0, 0)
    assert align_text("good", toks, near=4) == (3, 3)
    assert read_span("bad price", toks) == (6, 7)


def test_reply_parser_is_lenient_and_counts():
    toks = ["The", "battery", "life", "is", "great"]
    reply = 'Sure!\n```json\n[{"target": "battery life", "polar": "great", "polarity": "positive"}, ' \
            '{"target": "keyboard", "polar": "great", "polarity": "positive"}]\n```'
    trip, fails, n = reply_triplets(reply, toks, "s1")
    assert trip == [(1, 2, 4, 4, "positive")] and n == 2 and len(fails) == 1
    assert "s1 triplet 1" in fails[0]["record"]
    trip, fails, n = reply_triplets("I cannot answer", toks, "s2")
    assert trip == [] and n == 1 and fails[0]["record"] == "s2"
    assert reply_triplets("[]", toks, "s3") == ([], [], 0)
