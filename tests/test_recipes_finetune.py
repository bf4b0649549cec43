"""hf-finetune recipes: the NonCompSST reference recipe (docs/protocols/noncompsst.md#training-recipe), phrase-level
SST-7 training from a user dictionary.txt (docs/protocols/noncompsst.md#sst7-train), and the SENTiVENT lexicon-augmented
head (docs/protocols/sentivent.md#lexicon-settings). Tiny random BERTs built here; CPU, one thread."""
from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from recipes_tiny import tiny_bert

from sentiprobe import api
from sentiprobe.core.errors import ConfigError, DataError
from sentiprobe.core.types import Item
from sentiprobe.models import MODELS, create_model
from sentiprobe.models.hf_finetune import lr_factor
from sentiprobe.suites import get_suite
from sentiprobe.suites.noncompsst.sst7 import build_sst7_phrases, resolve_train_source

torch.set_num_threads(1)
WORDS = ["the", "film", "was", "great", "awful", "fine", "dull", "bright", "and", "a", "plot", "acting", "is"]
LABELS = ("positive", "negative", "neutral")


def sents(n: int, split: str = "train", features: bool = False) -> list[Item]:
    out = []
    for i in range(n):
        w, lab = (("great", "positive"), ("awful", "negative"), ("fine", "neutral"))[i % 3]
        f = {"lm_polarity-seqnorm": (1.0, -1.0, 0.0)[i % 3], "lm_modal-seqnorm": 0.5,
             "ntusd_market_sentiment-seqsum": 0.1 * i} if features else None
        out.append(Item(f"{split}{i}", f"{split}{i}", split, f"the film was {w} and {WORDS[i % len(WORDS)]}",
                        lab, features=f))
    return out


@pytest.fixture(scope="module")
def bert(tmp_path_factory):
    return tiny_bert(tmp_path_factory.mktemp("bert") / "m", [" ".join(WORDS)], {0: "a", 1: "b"}, hidden=16)


# ---- NonCompSST recipe -----------------------------------------------------------------------------
def test_noncompsst_recipe_presets_and_explicit_arguments_win(bert):
    m = create_model("hf-finetune", path=str(bert), recipe="noncompsst", device="cpu")
    c = m.config()
    assert (c["head"], c["lr"], c["batch_size"], c["epochs"], c["schedule"], c["warmup_ratio"], c["select"]) == (
        "noncompsst", 5e-6, 32, 5, "cosine", 0.1, "dev_accuracy")
    assert c["device"] == "cpu" and c["dtype"] == "float32" and c["optimizer"] == "AdamW"
    paper = create_model("hf-finetune", path=str(bert), recipe="noncompsst", warmup_ratio="0.2", epochs="2")
    assert paper.config()["warmup_ratio"] == 0.2 and paper.config()["epochs"] == 2
    plain = create_model("hf-finetune", path=str(bert)).config()
    assert (plain["head"], plain["schedule"], plain["select"], plain["lr"]) == ("auto", "linear", "last", 5e-5)
    params = MODELS.entry("hf-finetune").params
    assert {"recipe", "head", "schedule", "select", "lexicon_features", "warmup_ratio"} <= set(params)
    with pytest.raises(ConfigError, match="recipe"):
        create_model("hf-finetune", path=str(bert), recipe="sst")


def test_cosine_schedule_matches_transformers():
    model = torch.nn.Linear(1, 1)
    opt = torch.optim.SGD(model.parameters(), lr=1.0)
    ref = transformers.get_cosine_schedule_with_warmup(opt, num_warmup_steps=3, num_training_steps=20)
    expected = []
    for _ in range(20):
        expected.append(opt.param_groups[0]["lr"])
        opt.step()
        ref.step()
    # transformers' warm-up starts at 0 (step/warm); ours at the first step's value ((step+1)/warm), then equal
    assert [lr_factor(s, 20, 3, "cosine") for s in range(3, 20)] == pytest.approx(expected[3:])
    assert lr_factor(0, 20, 3, "cosine") == pytest.approx(1 / 3) and lr_factor(5, 20, 0, "constant") == 1.0


def test_noncompsst_head_selection_on_dev_accuracy_and_state(bert, tmp_path):
    labels7 = tuple(str(i) for i in range(7))
    tr = [Item(f"t{i}", f"t{i}", "train", f"the film was {WORDS[i % 12]} {WORDS[(i * 5) % 12]}", str(i % 7))
          for i in range(28)]
    dv = [Item(f"d{i}", f"d{i}", "dev", f"the plot was {WORDS[(i * 7) % 12]}", str((i * 3) % 7)) for i in range(14)]
    m = create_model("hf-finetune", path=str(bert), recipe="noncompsst", epochs=6, lr=3e-3, batch_size=8,
                     device="cpu", output_dir=str(tmp_path))
    m.fit(tr, dv, labels7, input_kind="text", seed=1)
    heads = [type(x).__name__ for x in m._model.head]
    assert heads == ["Linear", "Dropout", "ReLU", "Linear"] and m._model.head[0].out_features == 100
    assert m._model.head[1].p == 0.1 and m._model.head[3].out_features == 7
    meta, _ = m.get_state()
    accs = [h["dev_accuracy"] for h in meta["history"]]
    best = next(i for i, a in enumerate(accs) if a == max(accs)) + 1  # first strictly best epoch
    assert meta["selection"] == {"rule": "dev_accuracy", "epoch": best}
    preds = m.classify(dv, labels7, "text")
    assert np.mean([p.label == it.label for p, it in zip(preds, dv)]) == pytest.approx(max(accs), abs=1e-6)
    ck = tmp_path.glob("ft-*/head.safetensors")
    assert len(list(ck)) == 1
    again = create_model("hf-finetune", path=str(bert), recipe="noncompsst", epochs=6, lr=3e-3, batch_size=8,
                         device="cpu")
    again.load_state(m.get_state())
    assert [p.scores for p in again.classify(dv, labels7, "text")] == [p.scores for p in preds]
    # no dev items: selection falls back to the last epoch, and says so
    m.fit(tr, [], labels7, input_kind="text", seed=1)
    assert m.get_state()[0]["selection"] == {"rule": "last (no dev items for dev_accuracy)", "epoch": 6}


# ---- phrase-level SST-7 from a user dictionary ----------------------------------------------------
def write_treebank(root):
    """A 3-sentence SST folder (no dictionary inside) plus user dictionary / labels files beside it."""
    t = root / "sst" / "stanfordSentimentTreebank"
    t.mkdir(parents=True)
    sents = [["The", "actor", "shines"], ["A", "dull", "(", "film", ")"], ["Just", "fine"]]
    parents = [[4, 4, 5, 5, 0], [6, 6, 7, 7, 8, 9, 8, 9, 0], [3, 3, 0]]
    (t / "SOStr.txt").write_text("".join("|".join(s) + "\n" for s in sents))
    (t / "STree.txt").write_text("".join("|".join(map(str, p)) + "\n" for p in parents))
    (t / "datasetSplit.txt").write_text("sentence_index,splitset_label\n1,1\n2,1\n3,2\n")
    phrases = ["The", "actor", "shines", "The actor", "The actor shines", "A", "dull", "(", "film", ")",
               "A dull", "( film )", "A dull ( film )", "Just", "fine", "Just fine"]
    (root / "dictionary.txt").write_text("".join(f"{p}|{i}\n" for i, p in enumerate(phrases)))
    vals = [0.5, 0.6, 0.9, 0.55, 0.95, 0.5, 0.1, 0.5, 0.5, 0.5, 0.2, 0.45, 0.05, 0.5, 0.7, 0.75]
    body = "".join(f"{i}|{v}\n" for i, v in enumerate(vals))
    (root / "labels.txt").write_text("phrase ids|sentiment values\n" + body)
    return root


def test_phrase_level_train_from_user_files_on_a_hand_made_treebank(tmp_path):
    root = write_treebank(tmp_path)
    built = build_sst7_phrases(root / "sst", ["the actor"], dictionary=root / "dictionary.txt",
                               labels=root / "labels.txt")
    assert built.source == "sst-phrases" and built.removed == (("sst7-train-s1", "the actor"),)
    assert {it.text: it.label for it in built.items} == {
        "A dull -LRB- film -RRB-": "0", "A dull": "1", "-LRB- film -RRB-": "3", "A": "3", "dull": "0",
        "-LRB-": "3", "film": "3", "-RRB-": "3"}
    assert resolve_train_source(tmp_path / "empty", None, None, root / "dictionary.txt") == "phrases"
    assert resolve_train_source(tmp_path / "empty", None, None) == "sentences"
    with pytest.raises(DataError, match="sst_dictionary"):
        build_sst7_phrases(root / "sst", None, dictionary=root / "missing.txt")


def _hand_made_dictionary(data_dir, path, n_sentences=40):
    """dictionary.txt for the words of the first training sentences of the shipped treebank."""
    t = data_dir / "sst" / "stanfordSentimentTreebank"
    split = dict(line.split(",") for line in (t / "datasetSplit.txt").read_text().splitlines()[1:])
    lines = (t / "SOStr.txt").read_text(encoding="utf-8").splitlines()
    words: list[str] = []
    for i, line in enumerate(lines[:400], 1):
        if split.get(str(i)) == "1" and n_sentences > 0:
            n_sentences -= 1
            words.extend(w for w in line.split("|") if w not in words)
    path.write_text("".join(f"{w}|{k}\n" for k, w in enumerate(words)), encoding="utf-8")
    return words


@pytest.mark.realdata
def test_sst7_trains_the_noncompsst_recipe_on_phrase_level_data(data_dir, tmp_path):
    words = _hand_made_dictionary(data_dir, tmp_path / "dictionary.txt")
    opts = {"sst_dictionary": str(tmp_path / "dictionary.txt")}
    s = get_suite("sst7", data_dir, opts)
    train, dev = s.training()
    assert {it.meta["source"] for it in train} == {"sst-phrases"} and 0 < len(train) <= len(words)
    assert s.data_files() and not any("dictionary" in f for f in s.data_files())
    bert = tiny_bert(tmp_path / "b", [it.text for it in train + dev[:300]], {0: "x"}, hidden=16)
    doc = api.run(["sst7"], ["hf-finetune"], out=tmp_path / "run", data_dir=str(data_dir), limit=30, n_boot=20,
                  progress=False, seed=1, suite_options={"sst7": opts},
                  model_args={"path": str(bert), "recipe": "noncompsst", "epochs": "2", "lr": "1e-3",
                              "max_length": "32", "device": "cpu", "output_dir": str(tmp_path / "ft")}
                  )["runs"]["hf-finetune"]
    assert not doc.get("errors"), doc.get("errors")
    e = doc["suites"]["sst7"]
    assert [f["n_train"] for f in e["fit"]] == [len(train)] * 3 and len(e["model_fingerprints"]) == 3
    info = e["suite"]["options"]
    assert info["sst_dictionary"] == str(tmp_path / "dictionary.txt")
    pred_file = tmp_path / "run" / "hf-finetune" / "predictions" / "sst7.jsonl"
    preds = [json.loads(x) for x in pred_file.read_text().splitlines()]
    assert sorted({p["seed"] for p in preds}) == [1, 2, 3]  # the reference's seeds with --seed 1


# ---- SENTiVENT lexicon-augmented head -------------------------------------------------------------
def test_lexicon_features_enter_the_head(bert, tmp_path):
    tr, dv = sents(12, features=True), sents(6, "dev", features=True)
    m = create_model("hf-finetune", path=str(bert), lexicon_features="pol", epochs=2, batch_size=4, lr=1e-3,
                     device="cpu", output_dir=str(tmp_path))
    assert m.config()["head"] == "sentivent" and m.config()["lexicon_features"] == "pol"
    m.fit(tr, dv, LABELS, input_kind="text", seed=0)
    assert m.lex_columns == ["lm_polarity-seqnorm", "ntusd_market_sentiment-seqsum"]  # group pol, suite order
    dense = m._model.head[1]
    assert dense.in_features == dense.out_features == 16 + 2
    assert m._model.head[0].p == m._model.encoder.config.hidden_dropout_prob
    p0 = m.classify(dv, LABELS, "text")
    flipped = [Item(it.item_id, it.group_id, it.split, it.text, it.label,
                    features={**it.features, "lm_polarity-seqnorm": 50.0}) for it in dv]
    assert [p.scores for p in m.classify(flipped, LABELS, "text")] != [p.scores for p in p0]
    assert m.request(dv[0], LABELS, "text")["features"] == [1.0, 0.0]
    assert any(f.name == "head.safetensors" for f in m.checkpoint.iterdir())
    again = create_model("hf-finetune", path=str(bert), lexicon_features="pol", epochs=2, batch_size=4, lr=1e-3,
                         device="cpu")
    again.load_state(m.get_state())
    assert [p.scores for p in again.classify(dv, LABELS, "text")] == [p.scores for p in p0]
    with pytest.raises(ConfigError, match="no lexicon features"):
        m.classify(sents(2, "test"), LABELS, "text")
    with pytest.raises(ConfigError, match="carry no lexicon features"):
        m.fit(sents(6), [], LABELS, input_kind="text")
    with pytest.raises(ConfigError, match="sentivent head"):
        create_model("hf-finetune", path=str(bert), lexicon_features="all", head="noncompsst")


@pytest.mark.realdata
def test_sentivent_polar_with_lexicon_augmented_finetuning(data_dir, tmp_path):
    s = get_suite("sentivent-polar", data_dir)
    train, _ = s.training()
    bert = tiny_bert(tmp_path / "b", [it.text for it in train[:400]], {0: "x"}, hidden=16)
    doc = api.run(["sentivent-polar"], ["hf-finetune"], out=tmp_path / "run", data_dir=str(data_dir), limit=20,
                  n_boot=20, progress=False,
                  model_args={"path": str(bert), "lexicon_features": "posnegneupol", "epochs": "1",
                              "batch_size": "128", "max_length": "24", "device": "cpu",
                              "output_dir": str(tmp_path / "ft")})["runs"]["hf-finetune"]
    assert not doc.get("errors"), doc.get("errors")
    e = doc["suites"]["sentivent-polar"]
    assert e["fit"][0]["fitted"] and e["n_items"] == 20
