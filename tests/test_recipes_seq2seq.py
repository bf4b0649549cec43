"""hf-seq2seq: the SOUL text-to-text recipe (docs/protocols/soul.md#text-to-text, #training-recipe, #jg-fine-tuning) on
a tiny random T5 built here."""
from __future__ import annotations

import csv
import json
import logging

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("tokenizers")

from recipes_tiny import tiny_t5

from sentiprobe import api
from sentiprobe.core.errors import ConfigError
from sentiprobe.core.types import Item
from sentiprobe.models import MODELS, create_model
from sentiprobe.models.base import ModelAdapter
from sentiprobe.models.hf_seq2seq import JG_TARGET_TEMPLATE, SOURCE_TEMPLATE, source_text, target_text
from sentiprobe.suites.soul.predict import GenerationOptions, predict_items
from sentiprobe.suites.soul.prompts import JG_TARGET, SEQ2SEQ_SOURCE

LABELS = ("true", "false", "not-given")
torch.set_num_threads(1)


def soul_items(n: int, split: str = "train") -> list[Item]:
    facts = [("the pizza was cold", "the pizza was hot", "false"), ("the staff were kind", "staff were kind", "true"),
             ("we sat outside", "the music was loud", "not-given")]
    out = []
    for i in range(n):
        review, statement, label = facts[i % 3]
        out.append(Item(f"{split}{i}", f"r{i // 3}", split, f"{review} and number {i}", label, text_pair=statement,
                        meta={"justification": f"the review says {review}"}))
    return out


@pytest.fixture(scope="module")
def t5(tmp_path_factory):
    texts = [source_text(it) for it in soul_items(9)] + [target_text(it, "jg") for it in soul_items(9)]
    return tiny_t5(tmp_path_factory.mktemp("t5") / "m", texts)


def test_a_tokenizer_that_returns_token_type_ids(tmp_path):
    """transformers refused them: "model_kwargs are not used by the model: ['token_type_ids']" (a crash)."""
    import transformers

    texts = [source_text(it) for it in soul_items(6)] + [target_text(it, "rc") for it in soul_items(6)]
    d = tiny_t5(tmp_path / "m", texts)
    conf = d / "tokenizer_config.json"
    conf.write_text(json.dumps({**json.loads(conf.read_text()),
                                "model_input_names": ["input_ids", "token_type_ids", "attention_mask"]}))
    assert "token_type_ids" in transformers.AutoTokenizer.from_pretrained(str(d))(["a review"])
    m = create_model("hf-seq2seq", path=str(d), epochs="1", batch_size="4")
    out = m.generate([source_text(it) for it in soul_items(3, "test")], max_tokens=4)
    assert len(out) == 3 and all(isinstance(t, str) for t in out)
    m.fit(soul_items(6), [], LABELS, input_kind="text-pair", seed=0)  # the training forward pass too
    assert len(m.generate([source_text(soul_items(1, "test")[0])], max_tokens=4)) == 1


def test_templates_are_the_suites_and_the_specs():
    assert SOURCE_TEMPLATE == SEQ2SEQ_SOURCE.text == "Review:\n{review}\n\nStatement:\n{statement}"
    assert JG_TARGET_TEMPLATE == JG_TARGET.text == "Label:\n{label}\nJustification:\n{justification}"
    it = soul_items(1)[0]
    assert source_text(it) == "Review:\nthe pizza was cold and number 0\n\nStatement:\nthe pizza was hot"
    assert target_text(it, "rc") == "false"
    assert target_text(it, "jg") == "Label:\nfalse\nJustification:\nthe review says the pizza was cold"
    with pytest.raises(ConfigError, match="justification"):
        target_text(Item("x", "x", "train", "r", "true", text_pair="s"), "jg")


def test_fit_learns_the_targets_and_state_round_trips(t5, tmp_path):
    items = soul_items(6)
    kw = dict(path=str(t5), epochs=40, lr=3e-3, batch_size=3, max_length=32, max_new_tokens=12, device="cpu")
    m = create_model("hf-seq2seq", **kw, output_dir=str(tmp_path / "ck"))
    before = m.generate([source_text(it) for it in items])
    m.fit(items, [], LABELS, input_kind="text-pair", seed=0)
    after = m.generate([source_text(it) for it in items])
    assert after == [it.label for it in items] != before
    meta, arrays = m.get_state()
    assert arrays == {} and meta["task"] == "rc" and len(meta["history"]) == 40
    assert meta["history"][-1]["train_loss"] < meta["history"][0]["train_loss"]
    assert list((tmp_path / "ck").glob("s2s-*/model.safetensors"))
    m2 = create_model("hf-seq2seq", **kw)
    m2.load_state((meta, arrays))
    assert m2.generate([source_text(it) for it in items]) == after and m2.fingerprint == m.fingerprint
    with pytest.raises(ConfigError, match="task"):
        create_model("hf-seq2seq", path=str(t5), task="jg", device="cpu").load_state((meta, arrays))
    w = next((tmp_path / "ck").glob("s2s-*/model.safetensors"))
    w.write_bytes(w.read_bytes()[:-4] + b"\0\0\0\0")
    with pytest.raises(ConfigError, match="changed since fitting"):
        create_model("hf-seq2seq", path=str(t5), device="cpu").load_state((meta, arrays))


def test_jg_target_is_learnt_and_seeded(t5, tmp_path):
    items = soul_items(3)
    kw = dict(path=str(t5), task="jg", epochs=150, lr=5e-3, batch_size=3, max_length=32, max_new_tokens=16,
              device="cpu", output_dir=str(tmp_path))
    m = create_model("hf-seq2seq", **kw)
    m.fit(items, [], LABELS, input_kind="text-pair", seed=1)
    out = m.generate([source_text(it) for it in items])
    # the target's structure (docs/protocols/soul.md#jg-target, as T5 tokenisation reads it) and each item's label are
    # learnt
    assert all(o.startswith(f"label: {it.label} justification: ") for o, it in zip(out, items)), out
    again = create_model("hf-seq2seq", **kw)
    again.fit(items, [], LABELS, input_kind="text-pair", seed=1)
    assert again.get_state()[0]["weights_sha256"] == m.get_state()[0]["weights_sha256"]


def test_right_truncation_is_counted_and_logged(t5, tmp_path, caplog):
    long = Item("l", "l", "train", " ".join(["pizza"] * 50), "true", text_pair="the staff were kind")
    m = create_model("hf-seq2seq", path=str(t5), epochs=1, max_length=16, device="cpu", output_dir=str(tmp_path))
    with caplog.at_level(logging.WARNING, logger="sentiprobe"):
        m.fit([long, *soul_items(2)], [], LABELS, input_kind="text-pair")
    assert m.get_state()[0]["truncated"] == {"sources": 1, "targets": 0}
    assert "truncated from the right" in caplog.text
    # right truncation: the source keeps its start (the review), loses the statement
    enc = m._encode([source_text(long)])["input_ids"][0].tolist()
    assert len(enc) == 16 and m._tok.decode(enc[:2]) == "review: pizza"


def test_target_pads_are_ignored_by_the_loss(t5):
    m = create_model("hf-seq2seq", path=str(t5), device="cpu", task="jg")
    m._load(m.path)
    y = m._target_ids(["true", target_text(soul_items(1)[0], "jg")])
    short = y[0].tolist()
    assert short[:2] == [m._tok.convert_tokens_to_ids("true"), m._tok.eos_token_id]
    assert set(short[2:]) == {-100} and -100 not in y[1].tolist() and m._tok.pad_token_id not in y.tolist()[0]


def test_config_records_the_recipe_and_device(t5):
    m = create_model("hf-seq2seq", path=str(t5), device="auto")
    c = m.config()
    assert c["device"] == ("cuda" if torch.cuda.is_available() else "cpu") and c["dtype"] == "float32"
    assert (c["optimizer"], c["schedule"], c["selection"], c["decoding"]) == (
        "AdamW", "constant, no warm-up", "last epoch", "greedy")
    assert (c["lr"], c["batch_size"], c["epochs"], c["max_length"]) == (1e-4, 8, 8, 512)
    params = MODELS.entry("hf-seq2seq").params
    assert {"task", "lr", "batch_size", "epochs", "seed", "device", "dtype"} <= set(params)
    with pytest.raises(ConfigError, match="temperature"):
        m.generate(["x"], temperature=0.7)
    with pytest.raises(ConfigError, match="task"):
        create_model("hf-seq2seq", path=str(t5), task="nli")


class _FakeT2T(ModelAdapter):
    """Replies fixed strings like a fine-tuned T5 (no torch): exercises the SOUL predict stage's parsing."""

    name = "fake-t2t"
    capabilities = frozenset({"generate"})
    answer_mode = "generate"
    text_to_text = True
    max_new_tokens = 512

    def __init__(self, replies, task="rc"):
        self.replies, self.task, self.prompts, self.kw = list(replies), task, [], {}

    def generate(self, prompts, **kw):
        self.prompts.extend(prompts)
        self.kw = kw
        return [self.replies[i % len(self.replies)] for i in range(len(prompts))]


class _Direct:
    def __init__(self, model):
        self.model = model

    def generate(self, prompts, **kw):
        return self.model.generate(prompts, **kw)


def test_predict_stage_uses_the_source_string_and_spec_4_3():
    items = soul_items(4, "test")
    m = _FakeT2T(["untrue", "The statement is false.", "not given", "maybe"])
    preds = predict_items(_Direct(m), items, "rc", GenerationOptions(prompt_style="chat", max_tokens=256))
    assert m.prompts[0] == source_text(items[0])  # seq2seq source, whatever prompt_style says
    assert m.kw == {"max_tokens": 512, "temperature": 0.0}
    assert [p.label for p in preds] == ["true", "false", "not-given", None]  # 4.3 quirks reproduced
    assert [p.raw for p in preds] == m.replies and preds[3].parse_ok is False
    assert preds[0].meta["label_rule"] == "extract (the answer extraction of docs/soul.md)"
    jg = _FakeT2T(["Label: true Justification: they said so", "false because"], task="jg")
    out = predict_items(_Direct(jg), items[:2], "jg", GenerationOptions())
    assert [(p.label, p.text) for p in out] == [("true", "they said so"), ("false", "false because")]
    with pytest.raises(ConfigError, match="task=jg"):
        predict_items(_Direct(_FakeT2T(["true"], task="rc")), items, "jg", GenerationOptions())


def _rows(path, n):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))[:n]


@pytest.mark.realdata
def test_soul_rc_and_jg_run_end_to_end(data_dir, tmp_path):
    """soul-rc trains on dev (the stand-in), soul-jg on a user train_file; both are scored."""
    dev = _rows(data_dir / "soul" / "dev.csv", 1481)
    texts = [f"{r['review_text']} {r['statement']} {r['justification']}" for r in dev[:200]]
    t5 = tiny_t5(tmp_path / "t5", texts, d_model=16, vocab_size=1500)
    train = tmp_path / "train.csv"
    with open(train, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(dev[0]))
        w.writeheader()
        w.writerows(dev[:24])
    args = {"path": str(t5), "epochs": "1", "batch_size": "64", "max_length": "48", "max_new_tokens": "6",
            "device": "cpu", "threads": "1"}
    doc = api.run(["soul-rc"], ["hf-seq2seq"], out=tmp_path / "rc", data_dir=str(data_dir), limit=6, n_boot=20,
                  limit_mode="first", progress=False, model_args=args)["runs"]["hf-seq2seq"]
    e = doc["suites"]["soul-rc"]
    assert e["fit"][0]["fitted"] and e["fit"][0]["n_train"] == 1481 and "accuracy" in e["metrics"]
    pred_file = tmp_path / "rc" / "hf-seq2seq" / "predictions" / "soul-rc.jsonl"
    preds = [json.loads(x) for x in pred_file.read_text().splitlines()]
    assert len(preds) == 6 and all(p["raw"] is not None and p["meta"]["prompt"].startswith("Review:\n")
                                   for p in preds)
    doc = api.run(["soul-jg"], ["hf-seq2seq"], out=tmp_path / "jg", data_dir=str(data_dir), limit=4, n_boot=20,
                  limit_mode="first", progress=False, model_args={**args, "task": "jg", "max_new_tokens": "10"},
                  suite_options={"soul-jg": {"train_file": str(train), "train_verify": "0", "bertscore": "0"}}
                  )["runs"]["hf-seq2seq"]
    assert not doc.get("errors"), doc.get("errors")
    e = doc["suites"]["soul-jg"]
    assert e["fit"][0]["n_train"] == 24 and e["n_items"] == 4
    bad = api.run(["soul-jg"], ["hf-seq2seq"], out=tmp_path / "bad", data_dir=str(data_dir), limit=2, n_boot=20,
                  progress=False, model_args=args,
                  suite_options={"soul-jg": {"train_file": str(train), "train_verify": "0", "bertscore": "0"}}
                  )["runs"]["hf-seq2seq"]
    assert "task=jg" in bad["errors"]["soul-jg"]["message"]

