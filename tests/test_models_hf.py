"""Tests of hf-classifier and hf-finetune on a tiny random BERT built in tmp_path (no hub access)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from sentiprobe.core.errors import ConfigError
from sentiprobe.core.types import Item
from sentiprobe.models import create_model
from sentiprobe.models.base import InputKindError
from sentiprobe.models.hf import resolve_label_map

LABELS = ("positive", "negative", "neutral")
WORDS = [
    "the", "screen", "battery", "keyboard", "price", "is", "great", "awful", "ok", "good", "bad", "fine",
    "and", "but", "it", "works", "statement", "review", "true", "false", ".", ","
]


def build_tiny(root: Path, id2label: dict[int, str], seed: int = 0) -> Path:
    """A 2-layer random BERT classifier with a word-level vocab, saved as safetensors."""
    root.mkdir(parents=True, exist_ok=True)
    vocab = root / "vocab.txt"
    vocab.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS]) + "\n")
    tok = transformers.BertTokenizerFast.from_pretrained(str(root))
    torch.manual_seed(seed)
    cfg = transformers.BertConfig(vocab_size=5 + len(WORDS), hidden_size=32, num_hidden_layers=2,
                                  num_attention_heads=2, intermediate_size=37, max_position_embeddings=64,
                                  id2label=id2label, label2id={v: k for k, v in id2label.items()})
    model = transformers.BertForSequenceClassification(cfg)
    d = root / "model"
    model.save_pretrained(str(d))
    tok.save_pretrained(str(d))
    vocab.unlink()
    return d


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return build_tiny(tmp_path_factory.mktemp("tiny"), {0: "Positive", 1: "NEGATIVE", 2: "neutral"})


@pytest.fixture(scope="module")
def tiny_anon(tmp_path_factory) -> Path:
    return build_tiny(tmp_path_factory.mktemp("anon"), {0: "LABEL_0", 1: "LABEL_1"}, seed=1)


def absa(n: int, split: str = "train") -> list[Item]:
    out = []
    for i in range(n):
        a = ("screen", "battery", "keyboard")[i % 3]
        w, lab = (("great", "positive"), ("awful", "negative"), ("ok", "neutral"))[i % 3 if i % 4 else (i + 1) % 3]
        s = f"the {a} is {w} but the price is bad"
        out.append(Item(f"{split}{i}", f"{split}{i}", split, s, label=lab, aspect=a, span=(4, 4 + len(a))))
    return out


def test_classify_probabilities_and_label_names(tiny):
    m = create_model("hf-classifier", path=str(tiny), batch_size="4", max_length="32")
    assert list(tiny.glob("*.safetensors")) and not list(tiny.glob("*.bin"))
    for kind in ("text+aspect", "text", "text-pair"):
        its = absa(7) if kind != "text-pair" else [Item(f"p{i}", f"p{i}", "test", "the review", text_pair="it works")
                                                    for i in range(3)]
        preds = m.classify(its, LABELS, kind)
        assert [p.item_id for p in preds] == [it.item_id for it in its]
        for p in preds:
            assert p.label in LABELS and set(p.scores) == set(LABELS)
            assert sum(p.scores.values()) == pytest.approx(1.0)
            assert p.label == max(p.scores, key=p.scores.get)
    # batching and sorting do not change results
    one = create_model("hf-classifier", path=str(tiny), batch_size=1)
    a, b = m.classify(absa(7), LABELS, "text+aspect"), one.classify(absa(7), LABELS, "text+aspect")
    for x, y in zip(a, b):
        assert x.label == y.label and x.scores == pytest.approx(y.scores, abs=1e-5)
    assert "weights_sha256" in m.config()["checkpoint"]


def test_label_map(tiny_anon):
    m = create_model("hf-classifier", path=str(tiny_anon))
    with pytest.raises(ConfigError, match="label_map"):
        m.classify(absa(2), LABELS, "text+aspect")
    m = create_model("hf-classifier", path=str(tiny_anon), label_map="LABEL_0:negative,label_1:positive")
    preds = m.classify(absa(5), LABELS, "text+aspect")
    assert all(p.label in ("negative", "positive") and p.scores["neutral"] == 0.0 for p in preds)
    assert all(sum(p.scores.values()) == pytest.approx(1.0) for p in preds)
    with pytest.raises(ConfigError, match="does not cover"):
        create_model("hf-classifier", path=str(tiny_anon),
                     label_map={"LABEL_0": "negative"}).classify(absa(1), LABELS, "text+aspect")
    with pytest.raises(ConfigError, match="not a suite label"):
        create_model("hf-classifier", path=str(tiny_anon),
                     label_map="0:bad,1:positive").classify(absa(1), LABELS, "text+aspect")
    # many-to-one and dropped classes
    nli = {0: "entailment", 1: "neutral", 2: "contradiction"}
    assert resolve_label_map(nli, ("true", "false", "not-given"),
                             {"entailment": "true", "neutral": "not given", "contradiction": None}) == \
        ["true", "not-given", None]


@pytest.fixture(scope="module")
def tiny_abbrev(tmp_path_factory) -> Path:
    return build_tiny(tmp_path_factory.mktemp("abbrev"), {0: "NEG", 1: "NEU", 2: "POS"}, seed=2)


def test_abbreviated_labels_map_by_meaning_not_position(tiny_abbrev):
    m = create_model("hf-classifier", path=str(tiny_abbrev), max_length="32")
    mapping = m.label_mapping(LABELS)  # LABELS is positive, negative, neutral: a positional map would be wrong
    assert mapping["to_suite"] == {"NEG": "negative", "NEU": "neutral", "POS": "positive"}
    assert mapping["never_predicted"] == [] and mapping["by"] == "label names"
    items = absa(6)
    preds = m.classify(items, LABELS, "text+aspect")
    raw = m._proba(items, "text+aspect")  # columns in the model's class order: NEG, NEU, POS
    for p, row in zip(preds, raw):
        assert p.scores["negative"] == pytest.approx(row[0]) and p.scores["positive"] == pytest.approx(row[2])
    for names in ({0: "neg", 1: "neu", 2: "pos"}, {0: "Negative", 1: "NEUTRAL", 2: "positive"}):
        assert resolve_label_map(names, LABELS, None) == ["negative", "neutral", "positive"]
    nli = {0: "CONTRADICTION", 1: "entailment", 2: "Neutral"}
    assert resolve_label_map(nli, ("true", "false", "not-given"), None) == ["false", "true", "not-given"]


def test_meaningless_labels_are_refused_before_any_inference_with_a_non_positional_hint(tiny_anon, monkeypatch):
    from sentiprobe.models.hf import HFClassifier

    def no_weights(self, *a, **k):
        raise AssertionError("the weights were loaded before the labels were checked")

    monkeypatch.setattr(HFClassifier, "_load_from", no_weights)
    m = create_model("hf-classifier", path=str(tiny_anon))
    for call in (lambda: m.label_mapping(LABELS), lambda: m.classify(absa(2), LABELS, "text+aspect")):
        with pytest.raises(ConfigError) as err:
            call()
        msg = str(err.value)
        assert "['LABEL_0', 'LABEL_1']" in msg and "say nothing about what a class means" in msg
        assert "label_map=LABEL_0:<positive|negative|neutral|none>,LABEL_1:<positive|negative|neutral|none>" in msg
        assert "LABEL_0:positive" not in msg  # never a guessed assignment


def test_a_suite_label_no_model_label_maps_to_is_recorded_and_reported(tmp_path, data_dir):
    from sentiprobe import api
    from sentiprobe.report.html import render_report

    d = build_tiny(tmp_path / "binary", {0: "negative", 1: "positive"}, seed=3)
    doc = api.run(["arts-laptop"], ["hf-classifier"], model_args={"path": str(d), "max_length": "32"},
                  out=tmp_path / "r", data_dir=str(data_dir), limit=6, n_boot=0, progress=False)
    entry = doc["runs"]["hf-classifier"]["suites"]["arts-laptop"]
    assert entry["label_mapping"]["never_predicted"] == ["neutral"]
    html = render_report(doc["runs"]["hf-classifier"])
    assert "no model label maps to the suite label(s) neutral" in html
    bad = build_tiny(tmp_path / "anon", {0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"}, seed=4)
    failed = api.run(["arts-laptop"], ["hf-classifier"], model_args={"path": str(bad)}, out=tmp_path / "r2",
                     data_dir=str(data_dir), limit=6, n_boot=0, progress=False)["runs"]["hf-classifier"]
    err = failed["errors"]["arts-laptop"]
    assert err["type"] == "ConfigError" and "label_map=LABEL_0:<" in err["message"]
    assert failed["suites"] == {}


def test_missing_dir_and_pickle_checkpoints(tmp_path, tiny):
    with pytest.raises(ConfigError, match="only local directories"):
        create_model("hf-classifier", path="bert-base-uncased")
    with pytest.raises(ConfigError, match="required"):
        create_model("hf-classifier")
    pk = tmp_path / "pk"
    pk.mkdir()
    for f in tiny.iterdir():
        if f.suffix != ".safetensors":
            (pk / f.name).write_bytes(f.read_bytes())
    (pk / "pytorch_model.bin").write_bytes(b"not really a pickle")
    with pytest.raises(ConfigError, match="allow_pickle"):
        create_model("hf-classifier", path=str(pk))
    create_model("hf-classifier", path=str(pk), allow_pickle="true")  # accepted (not loaded here)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ConfigError, match="no model weights"):
        create_model("hf-classifier", path=str(empty))
    bare = tmp_path / "bare"
    config = transformers.BertConfig(vocab_size=30, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                                     intermediate_size=37)
    transformers.BertModel(config).save_pretrained(str(bare))
    for f in tiny.iterdir():
        if f.name.startswith(("tokenizer", "vocab", "special")):
            (bare / f.name).write_bytes(f.read_bytes())
    with pytest.raises(ConfigError, match="not a fine-tuned sequence classifier"):
        create_model("hf-classifier", path=str(bare)).classify(absa(1), LABELS, "text+aspect")
    for bad in ({"batch_size": "0"}, {"max_length": "x"}, {"device": "warp"}):
        with pytest.raises(ConfigError):
            create_model("hf-classifier", path=str(tiny), **bad)


def test_finetune_changes_model_and_reloads(tmp_path, tiny_anon):
    train, test = absa(30), absa(9, "test")
    kw = dict(path=str(tiny_anon), lr="5e-3", batch_size="8", max_length="32", output_dir=str(tmp_path / "ft"),
              threads="2")
    base = create_model("hf-finetune", epochs="0", **kw)
    base.fit(train, [], LABELS, input_kind="text+aspect", seed=3)
    tuned = create_model("hf-finetune", epochs="1", **kw)
    fp_unfitted = tuned.fingerprint
    tuned.fit(train, absa(6, "dev"), LABELS, input_kind="text+aspect", seed=3)
    p0, p1 = base.classify(test, LABELS, "text+aspect"), tuned.classify(test, LABELS, "text+aspect")
    assert all(p.label in LABELS and sum(p.scores.values()) == pytest.approx(1.0) for p in p1)
    assert not np.allclose([list(p.scores.values()) for p in p0], [list(p.scores.values()) for p in p1])
    assert len({fp_unfitted, base.fingerprint, tuned.fingerprint}) == 3
    meta, arrays = tuned.get_state()
    assert arrays == {} and meta["history"][0]["epoch"] == 1 and "dev_accuracy" in meta["history"][0]
    ckpt = Path(meta["checkpoint"])
    assert ckpt.parent == tmp_path / "ft" and list(ckpt.glob("*.safetensors"))
    assert not [f for f in ckpt.rglob("*") if f.suffix in (".bin", ".pt", ".pkl", ".pth")]
    again = create_model("hf-finetune", epochs=1, **kw)
    again.load_state((meta, {}))
    assert again.fitted_input_kind == meta["input_kind"] == "text+aspect"
    assert again.classify(test, LABELS, "text+aspect") == p1
    with pytest.raises(InputKindError, match="text\\+aspect"):
        again.classify(test, LABELS, "text")
    assert again.fingerprint == tuned.fingerprint
    with pytest.raises(ConfigError, match="changed"):
        again.load_state((dict(meta, weights_sha256="0" * 64), {}))


def test_finetune_checkpoints_go_to_the_workdir_unless_output_dir(tmp_path, tiny_anon):
    kw = {"path": str(tiny_anon), "epochs": "0", "batch_size": "8", "max_length": "32", "threads": "2"}
    m = create_model("hf-finetune", **kw)
    m.set_workdir(tmp_path / "wd")
    m.fit(absa(6), [], LABELS, input_kind="text", seed=0)
    assert Path(m.get_state()[0]["checkpoint"]).parent == tmp_path / "wd"
    explicit = create_model("hf-finetune", output_dir=str(tmp_path / "mine"), **kw)
    explicit.set_workdir(tmp_path / "wd")
    explicit.fit(absa(6), [], LABELS, input_kind="text", seed=0)
    assert Path(explicit.get_state()[0]["checkpoint"]).parent == tmp_path / "mine"
    with pytest.raises(ConfigError):
        create_model("hf-finetune", path=str(tiny_anon), epochs="one")
