"""hf-nli: zero-shot SOUL RC with a local NLI cross-encoder (docs/protocols/soul.md#nli), on tiny random BERTs."""
from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from recipes_tiny import tiny_bert

from sentiprobe import api
from sentiprobe.core.errors import ConfigError
from sentiprobe.core.types import Item
from sentiprobe.models import MODELS, create_model
from sentiprobe.models.hf_nli import nli_targets

LABELS = ("true", "false", "not-given")
WORDS = ["the", "pizza", "was", "cold", "hot", "staff", "were", "kind", "music", "loud", "we", "sat", "outside"]
torch.set_num_threads(1)


def items(n=6):
    return [Item(f"i{k}", f"r{k}", "test", f"the pizza was {('cold', 'hot')[k % 2]} we sat outside", "true",
                 text_pair=("the pizza was hot", "staff were kind", "music loud")[k % 3]) for k in range(n)]


@pytest.mark.parametrize("order", [("contradiction", "entailment", "neutral"),
                                   ("ENTAILMENT", "Neutral", "CONTRADICTION")])
def test_labels_are_read_by_name_not_position(tmp_path, order):
    d = tiny_bert(tmp_path / "nli", [" ".join(WORDS)], dict(enumerate(order)))
    m = create_model("hf-nli", path=str(d), device="cpu")
    its = items()
    preds = m.classify(its, LABELS, "text-pair")
    p = m._proba(its, "text-pair")  # softmax in the model's own class order
    col = {n.lower(): j for j, n in enumerate(order)}
    for pr, row in zip(preds, p):
        assert pr.scores["true"] == pytest.approx(row[col["entailment"]])
        assert pr.scores["false"] == pytest.approx(row[col["contradiction"]])
        assert pr.scores["not-given"] == pytest.approx(row[col["neutral"]])
        assert pr.label == max(LABELS, key=lambda lab: pr.scores[lab])
    assert m.config()["device"] == "cpu" and "premise=review" in m.config()["recipe"]


def test_unmappable_configs_are_refused_naming_the_labels(tmp_path):
    d = tiny_bert(tmp_path / "anon", [" ".join(WORDS)], {0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"})
    m = create_model("hf-nli", path=str(d), device="cpu")
    with pytest.raises(ConfigError, match=r"LABEL_0.*LABEL_1.*LABEL_2"):
        m.classify(items(), LABELS, "text-pair")
    ok = create_model("hf-nli", path=str(d), device="cpu", label_map="LABEL_0:false,LABEL_1:true,LABEL_2:not-given")
    assert len(ok.classify(items(2), LABELS, "text-pair")) == 2
    with pytest.raises(ConfigError, match="not_entailment"):
        nli_targets({0: "entailment", 1: "not_entailment"})
    with pytest.raises(ConfigError, match="exactly one"):
        nli_targets({0: "entailment", 1: "entails", 2: "neutral"})
    with pytest.raises(ConfigError, match="true / false / not-given"):
        ok.classify(items(1), ("positive", "negative"), "text-pair")
    assert "label_map" in MODELS.entry("hf-nli").params


@pytest.mark.realdata
def test_hf_nli_scores_soul_rc(tmp_path, data_dir):
    d = tiny_bert(tmp_path / "nli", [" ".join(WORDS)], {0: "contradiction", 1: "entailment", 2: "neutral"})
    doc = api.run(["soul-rc"], ["hf-nli"], out=tmp_path / "run", data_dir=str(data_dir), limit=8, n_boot=20,
                  progress=False, model_args={"path": str(d), "device": "cpu", "max_length": "64"})["runs"]["hf-nli"]
    e = doc["suites"]["soul-rc"]
    assert not doc.get("errors") and e["n_items"] == 8 and e["fit"][0] == {"fitted": False}
    pred_file = tmp_path / "run" / "hf-nli" / "predictions" / "soul-rc.jsonl"
    preds = [json.loads(x) for x in pred_file.read_text().splitlines()]
    assert {p["meta"]["mode"] for p in preds} == {"classify"}
    assert all(np.isclose(sum(p["scores"].values()), 1.0) for p in preds)
