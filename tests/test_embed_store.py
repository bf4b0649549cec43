"""The embedding store: npz shards keyed by encoder fingerprint + input; each distinct input encoded once."""
from __future__ import annotations

import numpy as np
import pytest

from sentiprobe.core.types import Item
from sentiprobe.models.embed_store import COMPACT_SHARDS, EmbeddingStore, encoder_fingerprint, input_key


def test_put_get_and_persist(tmp_path):
    st = EmbeddingStore(tmp_path)
    keys = [input_key("a"), input_key("b", "pair")]
    vecs = np.arange(6, dtype=np.float32).reshape(2, 3)
    st.put_many("fp", keys, vecs)
    assert set(st.get_many("fp", keys)) == set(keys)
    st.flush()
    again = EmbeddingStore(tmp_path)  # another process: reads the shards
    got = again.get_many("fp", [*keys, input_key("c")])
    np.testing.assert_array_equal(np.stack([got[k] for k in keys]), vecs)
    assert again.get_many("other-fp", keys) == {}
    assert not list(tmp_path.rglob("*.pkl")) and list(tmp_path.rglob("*.npz"))


def test_keys_distinguish_pairs_and_fingerprints_distinguish_settings():
    assert input_key("a", "b") != input_key("a b") != input_key("a")
    assert input_key("a", "b") != input_key("b", "a")
    assert encoder_fingerprint({"layer": -2}) != encoder_fingerprint({"layer": -1})


def test_a_truncated_shard_is_moved_aside_and_re_encoded(tmp_path):
    st = EmbeddingStore(tmp_path)
    st.put_many("fp", [input_key("a")], np.ones((1, 2)))
    st.flush()
    shard = next((tmp_path / "fp").glob("*.npz"))
    shard.write_bytes(shard.read_bytes()[:20])
    fresh = EmbeddingStore(tmp_path)
    assert fresh.get_many("fp", [input_key("a")]) == {}
    assert shard.with_suffix(".bad").exists()


def test_many_shards_are_compacted(tmp_path):
    st = EmbeddingStore(tmp_path)
    for i in range(COMPACT_SHARDS + 2):
        st.put_many("fp", [input_key(str(i))], np.full((1, 2), i, dtype=np.float32))
        st.flush()
    reader = EmbeddingStore(tmp_path)
    got = reader.get_many("fp", [input_key(str(i)) for i in range(COMPACT_SHARDS + 2)])
    assert len(got) == COMPACT_SHARDS + 2 and len(list((tmp_path / "fp").glob("*.npz"))) == 1


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError):
        EmbeddingStore(None).put_many("fp", ["a", "b"], np.ones((3, 2)))


# ---- through the encoder (torch MiniLM, a few short sentences) ----------------------------------
torch_needed = pytest.mark.skipif(__import__("importlib").util.find_spec("torch") is None, reason="needs torch")


@torch_needed
def test_encoder_encodes_each_distinct_text_once_and_shares_through_disk(tmp_path, monkeypatch):
    from sentiprobe.models.encoders import TextEncoder

    calls: list[int] = []
    orig = TextEncoder._encode_pooled

    def counting(self, texts, pairs):
        calls.append(len(texts))
        return orig(self, texts, pairs)

    monkeypatch.setattr(TextEncoder, "_encode_pooled", counting)
    texts = ["The screen is great.", "ok", "The screen is great.", "Bad battery.", "ok"]
    enc = TextEncoder(None, layer=-2, threads=2)
    enc.set_store(EmbeddingStore(tmp_path))
    v = enc.encode(texts)
    assert calls == [3] and v.shape == (5, 384)
    np.testing.assert_array_equal(v[0], v[2])
    bare = orig(enc, texts, None)  # today's path: every input encoded
    np.testing.assert_allclose(v, bare, atol=1e-5)
    enc.store.flush()
    other = TextEncoder(None, layer=-2, threads=2)  # e.g. another suite or a later run
    other.set_store(EmbeddingStore(tmp_path))
    np.testing.assert_array_equal(other.encode(texts[::-1]), v[::-1])
    assert calls == [3]
    deeper = TextEncoder(None, layer=-1, threads=2)  # another layer: another fingerprint
    deeper.set_store(EmbeddingStore(tmp_path))
    assert deeper.store_fingerprint() != enc.store_fingerprint()


@torch_needed
def test_soul_pairs_encode_each_review_once_with_todays_features(monkeypatch):
    """SOUL: many statements about one review. The review is encoded once; the [u, v, |u-v|, u*v]
    features equal those of encoding every item's review again (today's per-item path)."""
    from sentiprobe.models import create_model
    from sentiprobe.models.encoders import TextEncoder

    reviews = ["I stayed two nights. The room was clean but the staff was rude. " * 3, "Great food, slow service."]
    items = [Item(f"i{k}", f"r{k % 2}", "test", reviews[k % 2], text_pair=f"statement number {k}") for k in range(8)]
    m = create_model("minilm-lr", backend="torch", threads="2")
    seen: list[str] = []
    orig = TextEncoder._encode_pooled

    def recording(self, texts, pairs):
        seen.extend(texts)
        return orig(self, texts, pairs)

    monkeypatch.setattr(TextEncoder, "_encode_pooled", recording)
    X = m._raw_features(items, "text-pair")
    assert sum(t in reviews for t in seen) == 2  # each review once, not once per statement
    u = orig(m.encoder, [it.text for it in items], None)
    v = orig(m.encoder, [it.text_pair for it in items], None)
    np.testing.assert_allclose(X, np.hstack([u, v, np.abs(u - v), u * v]), atol=1e-4)
