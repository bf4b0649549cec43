"""The Hugging Face fine-tuning path end to end on every classification suite family's real data.

A tiny randomly initialised BERT (built here, no hub access) is fine-tuned for one epoch on each
suite's train split through the runner; the test checks the run's bookkeeping, not quality.
"""
from __future__ import annotations

import json

import pytest

transformers = pytest.importorskip("transformers")

from sentiprobe import api
from sentiprobe.suites import get_suite


def _tiny_bert(path, texts, num_labels):
    words = sorted({w for t in texts for w in t.lower().split()})[:3000]
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words]
    path.mkdir(parents=True)
    (path / "vocab.txt").write_text("\n".join(vocab) + "\n")
    tok = transformers.BertTokenizerFast(vocab_file=str(path / "vocab.txt"), do_lower_case=True)
    cfg = transformers.BertConfig(vocab_size=len(vocab), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                                  intermediate_size=32, max_position_embeddings=64, num_labels=num_labels)
    transformers.BertForSequenceClassification(cfg).save_pretrained(str(path))
    tok.save_pretrained(str(path))
    return path


@pytest.mark.slow
@pytest.mark.realdata
@pytest.mark.parametrize("suite", ["arts-laptop", "sentivent-polar", "sentivent-clause", "soul-rc"])
def test_hf_finetune_runs_on_suite(suite, data_dir, tmp_path):
    s = get_suite(suite, data_dir)
    train = s.train_items()
    model = _tiny_bert(tmp_path / "tiny", [it.text for it in train[:500]], len(s.labels))
    doc = api.run([suite], ["hf-finetune"], out=tmp_path / "run", data_dir=str(data_dir), limit=40, n_boot=50,
                  limit_mode="first", progress=False, model_args={"path": str(model), "epochs": "1", "batch_size": "64",
                                              "max_length": "32", "output_dir": str(tmp_path / "ft")}
                  )["runs"]["hf-finetune"]
    e = doc["suites"][suite]
    assert e["fit"][0]["fitted"] and e["fit"][0]["n_train"] == len(train)
    assert e["n_items"] == 40 and e["cache"]["computed"] > 0
    pfile = tmp_path / "run" / "hf-finetune" / "predictions" / f"{suite}.jsonl"
    preds = [json.loads(x) for x in pfile.read_text().splitlines()]
    assert len(preds) == 40 and {p["label"] for p in preds} <= set(s.labels)
    assert all(abs(sum(p["scores"].values()) - 1) < 1e-4 for p in preds)
