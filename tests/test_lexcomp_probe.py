"""LexComp probes: network shapes and switches on tiny fixtures (random static vectors), state round trip,
the embedding cache, and real-data runs (GloVe probe beats majority on NC Literality; CLI/API end to end)."""
from __future__ import annotations

import itertools
import json
import os
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
torch.set_num_threads(1)

from sentiprobe.core.types import Item
from sentiprobe.models import create_model
from sentiprobe.models import embed_store as embed_cache
from sentiprobe.models import probe_representations as representations
from sentiprobe.suites.lexcomp.load import TAGS

WORDS = ["red", "blue", "cat", "dog", "big", "small", "runs", "sits", "the", "a"]


def _items(kind: str, n: int, split: str, seed: int = 0) -> list[Item]:
    """Synthetic items whose label is decided by the word at the span start (learnable from vectors)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        toks = [WORDS[j] for j in rng.integers(0, len(WORDS), 6)]
        lab = "True" if toks[2] in ("red", "blue", "cat", "dog", "big") else "False"
        meta = {"probe": kind, "first": toks[2], "last": toks[3], "control": "True" if i % 2 else "False"}
        pair = None
        if kind == "tag":
            seq = ["B-N", "I", "O", "O", "O", "O"] if lab == "True" else ["O"] * 6
            out.append(Item(f"{split}{i}", f"{split}{i}", split, " ".join(toks), " ".join(seq), tokens=tuple(toks),
                            meta={"probe": "tag"}))
            continue
        if kind == "target":
            meta.update(target=2, target_word=toks[2], span=[2, 3])
        else:
            meta["span"] = [2, 3]
        if kind == "pair":
            pair = "the cat sits"
        out.append(Item(f"{split}{i}", f"{split}{i}", split, " ".join(toks), lab, text_pair=pair, tokens=tuple(toks),
                        meta=meta))
    return out


@pytest.mark.parametrize("kind", ["span", "target", "pair", "tag"])
@pytest.mark.parametrize("encoder", ["none", "bilstm", "att"])
def test_probe_kinds_and_encoders_learn_and_round_trip(kind, encoder):
    labels = list(TAGS) if kind == "tag" else ["False", "True"]
    train, dev, test = _items(kind, 80, "train", 0), _items(kind, 30, "dev", 1), _items(kind, 30, "test", 2)
    m = create_model("lexcomp-probe", repr="random", dim=8, encoder=encoder, max_epochs=8, patience=8,
                     control=kind != "tag", ablations=kind == "pair")
    m.fit(train, dev, labels, input_kind="tokens", seed=0)
    preds = m.classify(test, labels, "tokens")
    if kind == "tag":
        assert all(len(p.label.split()) == 6 for p in preds)
    else:
        acc = np.mean([p.label == it.label for p, it in zip(preds, test)])
        assert acc >= 0.8, acc
        assert set(preds[0].meta["extra"]) >= {"control"}
        assert preds[0].meta["probe_config"]["encoder"] == encoder
    m2 = create_model("lexcomp-probe", repr="random", dim=8, encoder=encoder, max_epochs=8, patience=8,
                      control=kind != "tag", ablations=kind == "pair")
    m2.load_state(m.get_state())
    assert [p.label for p in m2.classify(test, labels, "tokens")] == [p.label for p in preds]


def test_a_fit_does_not_depend_on_what_drew_from_torch_before():
    """The initial weights come from the fit's seed: the same probe in a fresh process, after another model of a
    run's worker, or after another probe, is the same (the main job's results do not depend on its lane plan)."""
    train, dev = _items("span", 40, "train", 0), _items("span", 20, "dev", 1)

    def fitted(draws: int):
        torch.rand(draws)  # another user of torch's generator earlier in the process
        m = create_model("lexcomp-probe", repr="random", dim=8, max_epochs=3, patience=3)
        m.fit(train, dev, ["False", "True"], input_kind="tokens", seed=7)
        return m.get_state()[1]

    a, b = fitted(1), fitted(1000)
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


class _Layers:
    """A fake 3-layer contextual representation (counts calls) for the scalar mix and the cache."""

    contextual = True
    n_layers = 3

    def __init__(self):
        self.calls = 0
        self.static = representations.StaticVectors("random", 8)

    def identity(self):
        return {"kind": "fake3"}

    def layers(self, sentences):
        self.calls += len(sentences)
        out = []
        for s in sentences:
            base = self.static.layers([s])[0][0]
            out.append(np.stack([base * (k + 1) for k in range(3)]))
        return out


def test_embedding_cache_cold_warm_and_top_from_all(tmp_path):
    rep = _Layers()
    c = embed_cache.EmbeddingCache(rep, tmp_path, "all")
    a = c.get([["the", "cat"], ["a", "dog"], ["the", "cat"]])
    assert rep.calls == 2 and a[0].shape == (3, 2, 8) and a[0].dtype == np.float32
    embed_cache.clear_memory()  # a fresh process: the vectors come from disk
    c2 = embed_cache.EmbeddingCache(rep, tmp_path, "all")
    c2.get([["the", "cat"]])
    assert rep.calls == 2 and c2.hits == 1
    top = embed_cache.EmbeddingCache(rep, tmp_path, "top").get([["a", "dog"]])[0]
    assert rep.calls == 2 and top.shape == (1, 2, 8) and np.allclose(top[0], a[1][2])
    # store_all: a Top run stores every layer, so a later All run embeds nothing
    other = tmp_path / "other"
    t = embed_cache.EmbeddingCache(rep, other, "top", store_all=True).get([["big", "cat"]])[0]
    assert rep.calls == 3 and t.shape == (1, 2, 8)
    embed_cache.clear_memory()
    full = embed_cache.EmbeddingCache(rep, other, "all").get([["big", "cat"]])[0]
    assert rep.calls == 3 and full.shape == (3, 2, 8)


def test_scalar_mix_all_layers_and_layer_curve(monkeypatch):
    rep = _Layers()
    monkeypatch.setattr(representations, "make", lambda *a, **k: rep)
    m = create_model("lexcomp-probe", repr="minilm", layers="all", max_epochs=3, patience=3, layer_curve=True)
    m.fit(_items("span", 60, "train"), _items("span", 20, "dev", 1), ["False", "True"], input_kind="tokens")
    assert m.heads["main"].n_layers == 3 and sorted(m.heads) == ["layer:0", "layer:1", "layer:2", "main"]
    assert m.heads["main"].net.mix_w is not None
    preds = m.classify(_items("span", 10, "test", 2), ["False", "True"], "tokens")
    assert set(preds[0].meta["extra"]) == {"layer:0", "layer:1", "layer:2"}


@pytest.mark.realdata
def test_glove_probe_beats_majority_on_nc_literality_end_to_end(data_dir, tmp_path):
    """One small real probe run through the API (``sentiprobe run --suite lexcomp-nc-literality``)."""
    from sentiprobe import api

    args = {"max_epochs": "4", "patience": "2", "threads": "1"}
    r = api.run(["lexcomp-nc-literality"], ["probe-glove"], model_args=args, out=tmp_path / "run",
                data_dir=str(data_dir), progress=False, n_boot=100)["runs"]["probe-glove"]
    e = r["suites"]["lexcomp-nc-literality"]
    acc = e["metrics"]["accuracy"]["value"]
    best = max(v for k, v in e["details"]["baselines"].items() if k.startswith("majority_"))
    assert acc > best, (acc, e["details"]["baselines"])
    assert e["details"]["probe"]["repr"] == "glove" and e["details"]["probe"]["encoder"] == "none"
    saved = json.loads((tmp_path / "run" / "probe-glove" / "results.json").read_text())
    assert saved["suites"]["lexcomp-nc-literality"]["metrics"]["accuracy"]["value"] == acc
    from sentiprobe.suites import get_suite

    suite = get_suite("lexcomp-nc-literality", data_dir)
    again = suite.read_predictions(tmp_path / "run" / "probe-glove" / "predictions" / "lexcomp-nc-literality.jsonl")
    rescored = suite.score(suite.items("test"), again, n_boot=0)
    assert rescored.metrics["accuracy"].value == acc and rescored.details["probe"]["repr"] == "glove"
    html = (tmp_path / "run" / "probe-glove" / "report.html").read_text()
    assert "Probe vs majority baselines" in html
    # the embedding cache lives beside the run cache (the test's SENTIPROBE_CACHE_DIR)
    emb = Path(os.environ["SENTIPROBE_CACHE_DIR"]) / "lexcomp-embeddings"
    assert len(list(emb.rglob("*.npy"))) > 1000


def test_bilstm_tagger_learns_context_dependent_spans():
    """B-N I at the start of a sentence depends on the third word: only a contextual encoder can learn it."""
    from sentiprobe.protocols.lexcomp import tags

    train, dev, test = _items("tag", 200, "train", 0), _items("tag", 50, "dev", 1), _items("tag", 50, "test", 2)
    m = create_model("lexcomp-probe", repr="random", dim=8, encoder="bilstm", max_epochs=30, patience=10, lr=0.2)
    m.fit(train, dev, list(TAGS), input_kind="tokens")
    preds = m.classify(test, list(TAGS), "tokens")
    c = tags.span_counts([it.label.split() for it in test], [p.label.split() for p in preds])
    assert tags.f1_from_counts(c) > 0.5
    assert all(not (a == "O" and b == "I") for p in preds for a, b in itertools.pairwise(p.label.split()))
