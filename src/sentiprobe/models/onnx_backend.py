"""ONNX Runtime backend for a frozen encoder: the same hidden layer as torch, faster on a few CPU cores.

Why: the main job's minilm-lr time is the encoder's forward pass. ONNX Runtime fuses attention and
layer-norm kernels and (``onnx-int8``) runs the matrix products with dynamically quantised int8
weights, on the CPU machines sentiprobe targets.

The graph is exported offline from the local checkpoint with torch's ONNX exporter (``dynamo=True``;
the TorchScript exporter mis-traces transformers' attention masks) and returns the token states of one
hidden layer (pooling stays in :class:`~sentiprobe.models.encoders.TextEncoder`), or of every hidden state
stacked (``layer=None``: the LexComp probes' frozen representation, ``models/probe_representations.py``).
Exported files live in ``<dir>/<key>.onnx`` where the key covers the weights' sha256, the layer, the
quantisation and the torch/onnx/onnxruntime versions, so an upgraded library re-exports instead of reusing a
stale graph.
Export takes ~20 s once per directory; every later run loads the file (no torch forward needed).

Extra ``onnx``: ``onnxruntime``, ``onnx`` and ``onnxscript`` from PyPI (imported lazily).
"""
from __future__ import annotations

import contextlib
import io
import logging
import os
import tempfile
import uuid
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import require
from ..core.hashing import stable_hash
from .assets import package_version

EXTRA = "onnx"
BACKENDS = ("torch", "onnx", "onnx-int8")
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
OPSET = 18
#: how ``onnx-int8`` quantises (part of the file key and of every fingerprint that uses it): dynamic int8
#: weights, one scale per output channel. Per-channel scales keep the pooled vectors at cosine >= 0.995 to
#: fp32 on 1,500 ARTS MAMS sentences (0.967 with one scale per tensor) at the same 2x speed.
INT8_RECIPE = {"method": "dynamic", "weight_type": "int8", "per_channel": True}


def quantization(backend: str) -> dict[str, Any] | None:
    """The quantisation recipe a backend uses (None: full precision)."""
    return dict(INT8_RECIPE) if backend == "onnx-int8" else None


def runtime_versions() -> dict[str, str | None]:
    """Versions of the libraries that set an exported graph's numbers (for keys and fingerprints)."""
    return {d: package_version(d) for d in ("torch", "onnx", "onnxscript", "onnxruntime")}


class OnnxEncoder:
    """One exported encoder layer run by ONNX Runtime.

    Args:
        model_dir: local checkpoint directory (safetensors + fast tokenizer).
        weights_id: identity of the weights (hashes), part of the export key.
        layer: hidden layer whose token states the graph returns (as ``TextEncoder.layer``); None: every hidden
            state, stacked ``(batch, layers, tokens, hidden)``.
        quantize: ``True`` for dynamic int8 weights (``onnx-int8``).
        export_dir: directory of exported graphs.
        threads: ONNX Runtime intra-op threads (``None``: its default, the physical cores).
    """

    def __init__(self, model_dir: Path, weights_id: dict[str, Any], layer: int | None, quantize: bool,
                 export_dir: Path, threads: int | None = None) -> None:
        self.model_dir, self.layer, self.quantize = Path(model_dir), layer, quantize
        self.export_dir = Path(export_dir)
        self.threads = threads
        # the fp32 graph is shared by both backends; the int8 file is derived from it
        self.key = stable_hash({"weights": weights_id, "layer": layer, "opset": OPSET,
                                "versions": runtime_versions()}, 24)
        self._session: Any = None
        self._inputs: list[str] = []

    @property
    def path(self) -> Path:
        if not self.quantize:
            return self.export_dir / f"{self.key}.onnx"
        return self.export_dir / f"{self.key}-int8-{stable_hash(INT8_RECIPE, 8)}.onnx"

    def _fp32_path(self) -> Path:
        return self.export_dir / f"{self.key}.onnx"

    def export(self) -> Path:
        """Export (and quantise) the graph unless the file exists; returns its path."""
        if self.path.is_file():
            return self.path
        require("onnxruntime", EXTRA, "the ONNX Runtime encoder backend")
        self.export_dir.mkdir(parents=True, exist_ok=True)
        fp32 = self._fp32_path()
        if not fp32.is_file():
            _export_layer(self.model_dir, self.layer, fp32)
        if self.quantize:
            # optional extra [onnx], heavy: imported only when used
            from onnxruntime.quantization import QuantType, quantize_dynamic

            tmp = self.path.with_name(f".{uuid.uuid4().hex}.tmp.onnx")
            # its "consider pre-processing" hint goes through logging.warning(), which also installs a stderr
            # handler on the root logger (logging.basicConfig) that would echo every later log record
            root = logging.getLogger()
            handlers = list(root.handlers)
            logging.disable(logging.WARNING)
            try:
                quantize_dynamic(str(fp32), str(tmp), weight_type=QuantType.QInt8,
                                 per_channel=bool(INT8_RECIPE["per_channel"]))
            finally:
                logging.disable(logging.NOTSET)
                root.handlers[:] = handlers
            os.replace(tmp, self.path)
        return self.path

    def session(self) -> Any:
        if self._session is None:
            ort = require("onnxruntime", EXTRA, "the ONNX Runtime encoder backend")
            path = self.export()
            so = ort.SessionOptions()
            if self.threads:
                so.intra_op_num_threads = int(self.threads)
            so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            # idle worker threads sleep instead of spinning: beside another process (the run's other lane, another
            # user) spinning burned 30% more CPU and took 35% longer; alone it is 3-5% slower
            # (docs/performance.md, "The main job")
            so.add_session_config_entry("session.intra_op.allow_spinning", "0")
            self._session = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
            self._inputs = [i.name for i in self._session.get_inputs()]
        return self._session

    def hidden(self, batch: dict[str, np.ndarray]) -> np.ndarray:
        """Token states ``(batch, tokens, hidden)`` float32 of the exported layer (``layer=None``: ``(batch,
        layers, tokens, hidden)``)."""
        sess = self.session()
        feed = {k: np.asarray(batch[k], dtype=np.int64) for k in self._inputs}
        return sess.run(None, feed)[0]


_EXPORT_TMP: list[Path] = []


def temporary_export_dir() -> Path:
    """One temporary export directory per process, for encoders used outside a run (no cache directory)."""
    if not _EXPORT_TMP:
        _EXPORT_TMP.append(Path(tempfile.mkdtemp(prefix="sentiprobe-onnx-")))
    return _EXPORT_TMP[0]


def _export_layer(model_dir: Path, layer: int | None, out: Path) -> None:
    """Export ``hidden_states[layer]`` (None: all of them, stacked on axis 1) of the checkpoint as an ONNX graph
    with dynamic batch and length."""
    torch = require("torch", EXTRA, "exporting the encoder to ONNX")
    tr = require("transformers", EXTRA, "exporting the encoder to ONNX")
    require("onnxscript", EXTRA, "exporting the encoder to ONNX")
    tok = tr.AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
    model = tr.AutoModel.from_pretrained(str(model_dir), local_files_only=True, use_safetensors=True,
                                         attn_implementation="eager").eval()

    class _Layer(torch.nn.Module):  # type: ignore[name-defined]  # torch is imported lazily in this function
        def __init__(self) -> None:
            super().__init__()
            self.m = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            out = self.m(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids,
                         output_hidden_states=True)
            return out.hidden_states[layer] if layer is not None else torch.stack(out.hidden_states, dim=1)

    ex = tok(["an example sentence to trace the graph", "short"], padding=True, return_tensors="pt")
    args = tuple(ex[k] if k in ex else torch.zeros_like(ex["input_ids"]) for k in INPUTS)
    tmp = out.with_name(f".{uuid.uuid4().hex}.tmp.onnx")

    quiet = logging.getLogger("torch.onnx")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # "torchvision is not installed" notices: not ours to act on
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        torch.onnx.export(_Layer(), args, str(tmp), input_names=list(INPUTS), output_names=["hidden"],
                          dynamic_axes={**{k: {0: "batch", 1: "tokens"} for k in INPUTS},
                                        "hidden": {0: "batch", 1 if layer is not None else 2: "tokens"}},
                          opset_version=OPSET, dynamo=True, external_data=False)
    quiet.setLevel(level)
    os.replace(tmp, out)
