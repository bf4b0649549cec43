"""scikit-learn tf-idf blocks against the earlier own implementation (``tests/tfidf_reference.py``).

The own code claimed to follow scikit-learn's defaults; these tests prove the replacement gives the
same vocabulary, idf and matrix values on the shipped ARTS and SOUL training text (and on tricky
strings), and that the exported state (JSON vocabulary + idf array) restores identical features.
"""
from __future__ import annotations

import numpy as np
import pytest
from tfidf_reference import ReferenceTfidfBlock

from sentiprobe.core.types import Item
from sentiprobe.models import create_model
from sentiprobe.models.text_features import TfidfBlock, context_features, relation_features
from sentiprobe.suites import get_suite

TRICKY = ["", "   ", "Don't   STOP!!", "a", "x y", "Straße İstanbul ǅ naïve", "tab\tsep\nnew line",
          "emoji 😀😀 ok", "hyphen-ated words, e.g. ‘quoted’", "1,000.5 $ 20%", "ok ok ok ok ok"]


def _same(new: TfidfBlock, ref: ReferenceTfidfBlock, docs) -> None:
    assert new.vocab == ref.vocab
    np.testing.assert_allclose(new.idf, ref.idf, rtol=0, atol=1e-12)
    a, b = new.transform(docs).toarray(), ref.transform(docs).toarray()
    assert a.shape == b.shape
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)


@pytest.fixture(scope="module")
def laptop(data_dir):
    train, _ = get_suite("arts-laptop", str(data_dir)).training()
    return train


@pytest.mark.parametrize("kind,ngram,min_df", [("word", (1, 2), 1), ("char", (2, 5), 2), ("char", (2, 5), 1)])
def test_text_blocks_equal_the_own_implementation(laptop, kind, ngram, min_df):
    docs = [it.text for it in laptop] + TRICKY
    new = TfidfBlock(kind, ngram, min_df=min_df).fit(docs)
    ref = ReferenceTfidfBlock(kind, ngram, min_df=min_df).fit(docs)
    _same(new, ref, docs[:300] + TRICKY + ["unseen wordz here"])


@pytest.mark.parametrize("weight,decay", [(2.0, 0.4), (1.0, 0.0)])
def test_dict_blocks_equal_the_own_implementation(laptop, weight, decay):
    docs = [context_features(it, 6, decay) for it in laptop]
    new = TfidfBlock("dict", weight=weight).fit(docs)
    ref = ReferenceTfidfBlock("dict", weight=weight).fit(docs)
    _same(new, ref, [*docs[:400], {}, {"c:never-seen": 3.0}, {"c:the": 2.5, "c:is": 0.2}])


def test_pair_relation_block_equals_the_own_implementation():
    items = [Item(f"i{k}", f"g{k}", "train", t, text_pair=p) for k, (t, p) in
             enumerate([("the food was good", "food good"), ("bad service", "the service"), ("x", "")] * 5)]
    docs = [relation_features(it) for it in items]
    _same(TfidfBlock("dict").fit(docs), ReferenceTfidfBlock("dict").fit(docs), docs)


@pytest.mark.parametrize("kind", ["word", "char", "dict"])
def test_state_round_trip_gives_identical_features(laptop, kind):
    docs = ([context_features(it) for it in laptop[:500]] if kind == "dict" else [it.text for it in laptop[:500]])
    blk = TfidfBlock(kind, (1, 2) if kind == "word" else (2, 5), min_df=2 if kind == "char" else 1).fit(docs)
    back = TfidfBlock.from_state(blk.meta(), blk.idf.copy())
    np.testing.assert_array_equal(back.transform(docs).toarray(), blk.transform(docs).toarray())


def test_state_with_a_wrong_idf_length_is_refused():
    blk = TfidfBlock("word").fit(["a b", "b c"])
    with pytest.raises(ValueError):
        TfidfBlock.from_state(blk.meta(), blk.idf[:-1])


def test_tfidf_lr_is_seed_invariant(laptop):
    labels = ("positive", "negative", "neutral")
    states = []
    for seed in (0, 1):
        m = create_model("tfidf-lr")
        m.fit(laptop[:400], [], labels, input_kind="text+aspect", seed=seed)
        states.append(m.state_hash())
    assert type(m).seed_invariant and states[0] == states[1]
