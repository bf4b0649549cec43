"""Tests of the scikit-learn baselines (majority, tfidf-lr) and the adapter registry entries."""
from __future__ import annotations

import inspect
import json

import numpy as np
import pytest

from sentiprobe.core.errors import ConfigError
from sentiprobe.core.options import convert
from sentiprobe.core.types import Item
from sentiprobe.models import MODELS, create_model
from sentiprobe.models.base import InputKindError
from sentiprobe.models.utils import NotFittedError

LABELS = ("positive", "negative", "neutral")
POS = ["great", "excellent", "fantastic", "amazing", "good"]
NEG = ["awful", "terrible", "horrible", "bad", "poor"]
ASPECTS = ["screen", "battery", "keyboard", "price", "service", "speakers"]


def absa_items(n: int = 60, split: str = "train") -> list[Item]:
    """Two aspects per sentence with opposite opinions; the label follows the target's opinion."""
    out = []
    for i in range(n):
        a, b = ASPECTS[i % 6], ASPECTS[(i + 1) % 6]
        p, q = POS[i % 5], NEG[(i * 3) % 5]
        if i % 3 == 2:
            s = f"The {a} is ok and the {b} is {q}."
            target, lab = a, "neutral"
        else:
            s = f"The {a} is {p}, but the {b} is {q}."
            target, lab = (a, "positive") if i % 3 == 0 else (b, "negative")
        k = s.index(f" {target} ") + 1
        out.append(Item(item_id=f"{split}{i}", group_id=f"{split}{i}", split=split, text=s, label=lab,
                        aspect=target, span=(k, k + len(target))))
    return out


def pair_items(n: int = 40) -> list[Item]:
    out = []
    for i in range(n):
        a, w = ASPECTS[i % 6], POS[i % 5]
        review = f"I bought it last month. The {a} is {w}."
        if i % 2:
            stmt, lab = f"The {a} is {w}.", "positive"
        else:
            stmt, lab = f"The {ASPECTS[(i + 2) % 6]} is {w}.", "neutral"
        out.append(Item(item_id=f"p{i}", group_id=f"p{i}", split="train", text=review, text_pair=stmt, label=lab))
    return out


def test_majority_tie_break_state_and_scores():
    m = create_model("majority")
    items = [Item(f"i{k}", f"i{k}", "train", "x", label=lab) for k, lab in
             enumerate(["neutral", "negative", "negative", "neutral"])]
    with pytest.raises(NotFittedError):
        m.classify(items, LABELS, "text")
    assert m.get_state() is None
    m.fit(items, [], LABELS, input_kind="text")
    preds = m.classify(items[:2], LABELS, "text")
    assert [p.label for p in preds] == ["negative", "negative"]  # tie: label order decides
    assert sum(preds[0].scores.values()) == pytest.approx(1.0)
    m2 = create_model("majority")
    m2.load_state(m.get_state())
    assert m2.classify(items, LABELS, "text") == m.classify(items, LABELS, "text")
    assert m2.fingerprint == m.fingerprint
    with pytest.raises(InputKindError, match="fitted on 'text'"):
        m2.classify(items, LABELS, "text-pair")


def test_majority_rejects_unknown_labels():
    with pytest.raises(ConfigError, match="outside"):
        create_model("majority").fit([Item("a", "a", "train", "x", label="conflict")], [], LABELS,
                                     input_kind="text")


def _fit_tfidf(kind: str, items: list[Item], **kw):
    m = create_model("tfidf-lr", **kw)
    m.fit(items, [], LABELS, input_kind=kind, seed=0)
    return m


def test_tfidf_lr_aspect_state_round_trip_identical():
    train, test = absa_items(60), absa_items(24, "test")
    m = _fit_tfidf("text+aspect", train)
    preds = m.classify(test, LABELS, "text+aspect")
    assert all(p.label in LABELS for p in preds)
    for p in preds:
        assert sum(p.scores.values()) == pytest.approx(1.0)
    meta, arrays = m.get_state()
    json.dumps(meta)  # JSON-able meta
    assert all(isinstance(a, np.ndarray) and a.dtype.kind in "fiu" for a in arrays.values())
    # the state survives a JSON / npz round-trip (what the runner stores) and predicts identically
    meta2 = json.loads(json.dumps(meta))
    m2 = create_model("tfidf-lr")
    m2.load_state((meta2, {k: np.array(v) for k, v in arrays.items()}))
    assert m2.fitted_input_kind == "text+aspect"  # the state keeps the input kind it was fitted with
    assert m2.classify(test, LABELS, "text+aspect") == preds
    with pytest.raises(InputKindError):
        m2.classify(test, LABELS, "text")
    assert m2.fingerprint == m.fingerprint
    # the model reads the aspect: same sentence, different targets, different labels
    acc = np.mean([p.label == it.label for p, it in zip(preds, test)])
    assert acc >= 0.75


def test_tfidf_lr_fingerprint_tracks_fitted_state():
    m = create_model("tfidf-lr")
    before = m.fingerprint
    m.fit(absa_items(30), [], LABELS, input_kind="text+aspect")
    after = m.fingerprint
    m.fit(absa_items(60), [], LABELS, input_kind="text+aspect")
    assert len({before, after, m.fingerprint}) == 3


def test_tfidf_lr_text_and_pair_kinds():
    m = _fit_tfidf("text", absa_items(30), char="false")
    assert {p.label for p in m.classify(absa_items(6, "test"), LABELS, "text")} <= set(LABELS)
    pairs = pair_items()
    m = _fit_tfidf("text-pair", pairs)
    names = [blk.meta()["kind"] + ":" + src for src, blk in m.blocks]
    assert "word:pair" in names and "dict:rel" in names
    preds = m.classify(pairs, LABELS, "text-pair")
    assert np.mean([p.label == it.label for p, it in zip(preds, pairs)]) >= 0.9
    state = m.get_state()
    m2 = create_model("tfidf-lr")
    m2.load_state(state)
    assert m2.classify(pairs, LABELS, "text-pair") == preds


def test_tfidf_lr_auto_C_and_string_params():
    m = create_model("tfidf-lr", C="auto", class_weight="balanced", window="3", char="no", max_iter="500")
    m.fit(absa_items(40), absa_items(12, "dev"), LABELS, input_kind="text+aspect")
    assert m.head.C in (0.25, 1.0, 4.0, 16.0)
    for bad in ({"C": "abc"}, {"C": "-1"}, {"window": "2.5"}, {"char": "maybe"}, {"class_weight": "x"}):
        with pytest.raises(ConfigError):
            create_model("tfidf-lr", **bad)


def test_unfitted_and_label_mismatch_errors():
    with pytest.raises(NotFittedError):
        create_model("tfidf-lr").classify(absa_items(2), LABELS, "text+aspect")
    m = _fit_tfidf("text+aspect", absa_items(30))
    with pytest.raises(ConfigError, match="label set"):
        m.classify(absa_items(2), ("positive", "negative"), "text+aspect")


def test_registry_entries_document_every_param():
    for name in ("majority", "tfidf-lr", "minilm-lr", "minilm", "hf-classifier", "hf-finetune"):
        e = MODELS.entry(name)
        assert e.description
        target = e.factory.__init__ if inspect.isclass(e.factory) else e.factory
        sig = [p for p in inspect.signature(target).parameters if p not in ("self", "kwargs")]
        if name == "hf-classifier":
            from sentiprobe.models.hf import HFClassifier
            sig = [p for p in inspect.signature(HFClassifier.__init__).parameters if p != "self"]
        assert set(sig) <= set(e.params), (name, set(sig) - set(e.params))
    assert {"majority", "tfidf-lr", "minilm-lr"} <= set(MODELS.names(tag="default"))


def as_mapping(name, value):
    """A model argument of the mapping type (``label_map``), read by the option machinery."""
    return convert(value, dict[str, str | None] | None, name)


def test_as_mapping_forms():
    assert as_mapping("m", "POS:positive, NEG=negative,NEU:none") == {"POS": "positive", "NEG": "negative", "NEU": None}
    assert as_mapping("m", '{"a": "b"}') == {"a": "b"}
    with pytest.raises(ConfigError):
        as_mapping("m", "nonsense")
