"""The Embed -> Encode -> Predict probe (docs/protocols/lexcomp.md#probe) and its training protocol
(docs/protocols/lexcomp.md#training), in torch.

Embed (frozen, cached outside): per-layer word vectors; layer choice ``top`` (the top layer), ``all``
(learned scalar mix ``gamma * sum_k softmax(w)_k h^(k)``, w = 0 and gamma = 1 at start, no layer norm) or
``single`` (one fixed layer k: the per-layer curves). Encode (trained): ``none``, ``bilstm`` (one layer,
hidden d per direction, padding masked) or ``att`` (parameter-free dot-product self-attention over the
non-padding positions, ``u_i = [v_i ; sum_j a_ij v_j]``). Predict: end-point span vectors and the
probe input of docs/protocols/lexcomp.md#tasks (``span``, ``target``, ``pair``, ``paraphrase``) into a 300-unit ReLU MLP
with dropout 0.2 and 2 outputs, or a linear tagger per token (``tag``).

Training: Adagrad (lr 0.01, no weight decay), batch 10, every gradient clamped to [-5, 5], at most
``max_epochs`` epochs, early stopping with ``patience`` on the validation metric (accuracy, or strict span F1
with the configured decoding), best epoch restored. For the tagger only, ties of the F1 are broken by the
validation loss (a deviation: a tagger's strict F1 is 0 for its first epochs, and a flat 0 would stop training
at ``patience`` with an all-``O`` tagger). With the ``none`` encoder only the gathered positions
matter (the mix is linear per position), so examples are reduced to them once: a fast, exact shortcut.
"""
from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from . import tags as tagmod

ENCODERS = ("none", "bilstm", "att")
LAYER_MODES = ("top", "all", "single")
KINDS = ("span", "target", "pair", "paraphrase", "tag")


@dataclass(frozen=True)
class ProbeConfig:
    """Probe switches and the training protocol (defaults = docs/protocols/lexcomp.md#training)."""

    layers: str = "top"
    encoder: str = "none"
    hidden: int = 300
    dropout: float = 0.2
    lr: float = 0.01
    batch_size: int = 10
    clip: float = 5.0
    max_epochs: int = 500
    patience: int = 20
    decoding: str = "viterbi"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Example:
    """One probe input: sentence layers ``(L, T, d)``, gather positions, optional paraphrase/target layers."""

    sent: np.ndarray
    pos: list[int]
    para: np.ndarray | None = None
    target: np.ndarray | None = None
    y: Any = None


def reduce_for_none(ex: Example, kind: str) -> Example:
    """The none-encoder shortcut: keep only the positions the classifier reads."""
    if kind == "tag":
        return ex
    para = ex.para[:, [0, ex.para.shape[1] - 1]] if ex.para is not None else None
    return Example(ex.sent[:, ex.pos], list(range(len(ex.pos))), para, ex.target, ex.y)


def _net(kind: str, n_layers: int, d: int, encoder: str, n_out: int, cfg: ProbeConfig):
    import torch  # optional extra [hf/encoders], heavy: imported only when used
    from torch import nn  # optional extra [hf/encoders], heavy: imported only when used

    class Probe(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.mix_w = nn.Parameter(torch.zeros(n_layers)) if n_layers > 1 else None
            self.gamma = nn.Parameter(torch.ones(1)) if n_layers > 1 else None
            self.lstm = nn.LSTM(d, d, batch_first=True, bidirectional=True) if encoder == "bilstm" else None
            D = d if encoder == "none" else 2 * d
            in_dim = {"span": 2 * D, "target": D + d, "pair": 4 * D, "paraphrase": 2 * D, "tag": D}[kind]
            self.head: nn.Module
            if kind == "tag":
                self.head = nn.Linear(in_dim, n_out)
            else:
                self.head = nn.Sequential(nn.Linear(in_dim, cfg.hidden), nn.ReLU(), nn.Dropout(cfg.dropout),
                                          nn.Linear(cfg.hidden, n_out))

        def mix(self, x):  # (B, L, T, d) -> (B, T, d)
            if self.mix_w is None:
                return x[:, 0]
            return self.gamma * (torch.softmax(self.mix_w, 0)[None, :, None, None] * x).sum(1)

        def encode(self, v, mask):
            if encoder == "none":
                return v
            if encoder == "att":
                scores = v @ v.transpose(1, 2)
                scores = scores.masked_fill(~mask[:, None, :], float("-inf"))
                return torch.cat([v, torch.softmax(scores, -1) @ v], -1)
            lengths = mask.sum(1).cpu()
            packed = nn.utils.rnn.pack_padded_sequence(v, lengths, batch_first=True, enforce_sorted=False)
            out, _ = self.lstm(packed)
            out, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=v.shape[1])
            return out

        def forward(self, sent, mask, pos=None, para=None, pmask=None, target=None):
            u = self.encode(self.mix(sent), mask)
            if kind == "tag":
                return self.head(u)
            rows = torch.arange(u.shape[0])
            if kind == "paraphrase":
                x = [u[rows, pos[:, 0]], u[rows, pos[:, 1]]]
            else:
                x = [u[rows, pos[:, j]] for j in range(pos.shape[1])]
            if kind == "target":
                x.append(self.mix(target)[:, 0])
            if kind == "pair":
                up = self.encode(self.mix(para), pmask)
                last = pmask.sum(1) - 1
                x += [up[rows, 0], up[rows, last]]
            return self.head(torch.cat(x, -1))

    return Probe()


def _pad(arrs: Sequence[np.ndarray]):
    import torch  # optional extra [hf/encoders], heavy: imported only when used

    L, d = arrs[0].shape[0], arrs[0].shape[2]
    T = max(a.shape[1] for a in arrs)
    out = np.zeros((len(arrs), L, T, d), dtype=np.float32)
    mask = np.zeros((len(arrs), T), dtype=bool)
    for i, a in enumerate(arrs):
        out[i, :, : a.shape[1]] = a
        mask[i, : a.shape[1]] = True
    return torch.from_numpy(out), torch.from_numpy(mask)


def _batch(exs: Sequence[Example], kind: str) -> dict[str, Any]:
    import torch  # optional extra [hf/encoders], heavy: imported only when used

    sent, mask = _pad([e.sent for e in exs])
    b: dict[str, Any] = {"sent": sent, "mask": mask}
    if kind != "tag":
        b["pos"] = torch.tensor([e.pos for e in exs], dtype=torch.long)
    if kind == "pair":
        b["para"], b["pmask"] = _pad([e.para for e in exs if e.para is not None])
    if kind == "target":
        b["target"] = torch.from_numpy(np.stack([e.target for e in exs if e.target is not None]).astype(np.float32))
    return b


class ProbeTrainer:
    """Fits one probe on prepared examples and predicts with it (state as numpy arrays, no pickle)."""

    def __init__(self, kind: str, n_layers: int, d: int, n_out: int, cfg: ProbeConfig,
                 out_labels: Sequence[str]) -> None:
        self.kind, self.n_layers, self.d, self.n_out, self.cfg = kind, n_layers, d, n_out, cfg
        self.out_labels = list(out_labels)
        self.net = _net(kind, n_layers, d, cfg.encoder, n_out, cfg)
        self.log: dict[str, Any] = {}

    def _prep(self, exs: Sequence[Example]) -> list[Example]:
        return [reduce_for_none(e, self.kind) for e in exs] if self.cfg.encoder == "none" else list(exs)

    def _loss(self, logits, ys, mask):
        import torch  # optional extra [hf/encoders], heavy: imported only when used
        import torch.nn.functional as F  # optional extra [hf/encoders], heavy: imported only when used

        if self.kind != "tag":
            return F.cross_entropy(logits, torch.tensor(ys, dtype=torch.long))
        T = logits.shape[1]
        y = torch.tensor(np.stack([np.pad(np.asarray(v), (0, T - len(v)), constant_values=-100) for v in ys]))
        tok = F.cross_entropy(logits.reshape(-1, self.n_out), y.reshape(-1), ignore_index=-100, reduction="none")
        tok = tok.reshape(y.shape) * mask
        return (tok.sum(1) / mask.sum(1)).mean()

    def _metric(self, exs: Sequence[Example]) -> tuple[float, float]:
        """(validation metric, tie-breaker). Classifiers: (accuracy, 0): a tie is no improvement, as in the
        released AllenNLP trainer. Tagger: (strict span F1, minus the mean validation loss)."""
        logp = self._logits(exs)
        pred = self._decode(logp)
        if self.kind != "tag":
            return (float(np.mean([p == e.y for p, e in zip(pred, exs)])) if exs else 0.0), 0.0
        nll = -float(np.mean([r[np.arange(len(e.y)), e.y].mean() for r, e in zip(logp, exs)])) if exs else 0.0
        gold = [[self.out_labels[j] for j in e.y] for e in exs]
        got = [[self.out_labels[j] for j in p] for p in pred]
        return tagmod.f1_from_counts(tagmod.span_counts(gold, got, "strict")), -nll

    def fit(self, train: Sequence[Example], dev: Sequence[Example], seed: int = 0) -> ProbeTrainer:
        import torch  # optional extra [hf/encoders], heavy: imported only when used

        torch.manual_seed(seed)
        # the initial weights come from the seed, not from whatever drew from torch's generator earlier in the
        # process (another probe, another model of the run's worker): the same fit in any process
        self.net = _net(self.kind, self.n_layers, self.d, self.cfg.encoder, self.n_out, self.cfg)
        rng = np.random.default_rng(seed)
        train, dev = self._prep(train), self._prep(dev)
        params = [p for p in self.net.parameters() if p.requires_grad]
        opt = torch.optim.Adagrad(params, lr=self.cfg.lr)
        best: tuple[float, float] = (-1.0, float("-inf"))
        best_state, bad, epoch, best_epoch = None, 0, 0, 0
        history = []
        for epoch in range(1, self.cfg.max_epochs + 1):
            self.net.train()
            perm = rng.permutation(len(train))
            for i in range(0, len(perm), self.cfg.batch_size):
                exs = [train[j] for j in perm[i:i + self.cfg.batch_size]]
                b = _batch(exs, self.kind)
                logits = self.net(**b)
                loss = self._loss(logits, [e.y for e in exs], b["mask"].float())
                opt.zero_grad()
                loss.backward()
                for p in params:
                    if p.grad is not None:
                        p.grad.clamp_(-self.cfg.clip, self.cfg.clip)
                opt.step()
            score = self._metric(dev) if dev else (0.0, 0.0)
            history.append(round(score[0], 4))
            if score > best:
                best, best_state, bad, best_epoch = score, copy.deepcopy(self.net.state_dict()), 0, epoch
            else:
                bad += 1
                if bad >= self.cfg.patience:
                    break
        if best_state is not None:
            self.net.load_state_dict(best_state)
        self.log = {"epochs": epoch, "best_epoch": best_epoch, "best_dev": round(best[0], 4),
                    "dev_curve": history[-50:]}
        return self

    def _logits(self, exs: Sequence[Example]):
        import torch  # optional extra [hf/encoders], heavy: imported only when used

        self.net.eval()
        outs = []
        with torch.inference_mode():
            for i in range(0, len(exs), 64):
                part = exs[i:i + 64]
                b = _batch(part, self.kind)
                lg = torch.log_softmax(self.net(**b), -1).numpy()
                if self.kind == "tag":
                    outs += [lg[k, : e.sent.shape[1]] for k, e in enumerate(part)]
                else:
                    outs += list(lg)
        return outs

    def _predict_idx(self, exs: Sequence[Example]) -> list[Any]:
        return self._decode(self._logits(exs))

    def _decode(self, logp: Sequence[np.ndarray]) -> list[Any]:
        if self.kind != "tag":
            return [int(np.argmax(r)) for r in logp]
        if self.cfg.decoding == "argmax":
            return [list(np.argmax(r, 1)) for r in logp]
        return [[self.out_labels.index(t) for t in tagmod.viterbi(r, self.out_labels)] for r in logp]

    def predict(self, exs: Sequence[Example]) -> tuple[list[Any], list[np.ndarray]]:
        """(predicted indices, log-probabilities) for prepared-or-raw examples."""
        exs = self._prep(exs)
        return self._predict_idx(exs), self._logits(exs)

    # ---- state ------------------------------------------------------------------------------
    def state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        meta = {"kind": self.kind, "n_layers": self.n_layers, "d": self.d, "n_out": self.n_out,
                "cfg": self.cfg.to_dict(), "labels": self.out_labels, "log": self.log}
        return meta, {k: v.detach().cpu().numpy().copy() for k, v in self.net.state_dict().items()}

    @classmethod
    def from_state(cls, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> ProbeTrainer:
        import torch  # optional extra [hf/encoders], heavy: imported only when used

        t = cls(meta["kind"], int(meta["n_layers"]), int(meta["d"]), int(meta["n_out"]),
                ProbeConfig(**meta["cfg"]), meta["labels"])
        t.net.load_state_dict({k: torch.from_numpy(np.asarray(v)) for k, v in arrays.items()})
        t.log = meta.get("log", {})
        return t
