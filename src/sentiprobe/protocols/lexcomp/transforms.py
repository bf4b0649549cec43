"""Pure data transforms: the docs/protocols/lexcomp.md#ablations ablations and the control task.

They act on items (never on files) and return new items, so a probe trained on an ablated input differs
from the full model only by its input. The probe adapter uses them too (``ablations=true`` trains the
ablated variants beside the full model in one run).
"""
from __future__ import annotations

import dataclasses
import hashlib
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from ...core.types import Item

PLACEHOLDER = "something"
ABLATABLE = ("pair",)
"""Probe inputs the docs/protocols/lexcomp.md#ablations ablations apply to (NC Relations, AN Attributes)."""


def ablate(item: Item, mode: str) -> Item:
    """The item under an ablation (``none``, ``phrase``, ``context``, ``context+phrase``).

    - ``phrase``: tokens ``start..end`` become the single token ``something``; the span is that token and
      later tokens shift left;
    - ``context``: the sentence becomes the phrase alone, span ``0..end-start``;
    - ``context+phrase``: no sentence; the probe sees only the paraphrase (``meta["probe"]="paraphrase"``).
    Paraphrases are unchanged.
    """
    if mode == "none":
        return item
    if item.meta.get("probe") not in ABLATABLE:
        raise ValueError(f"ablation {mode!r} applies to span+paraphrase items only")
    s, e = item.meta["span"]
    toks = list(item.tokens or ())
    if mode == "phrase":
        toks, span, probe = toks[:s] + [PLACEHOLDER] + toks[e + 1:], [s, s], "pair"
    elif mode == "context":
        toks, span, probe = toks[s:e + 1], [0, e - s], "pair"
    elif mode == "context+phrase":
        toks = (item.text_pair or "").split(" ")
        span, probe = [0, len(toks) - 1], "paraphrase"
    else:
        raise ValueError(f"unknown ablation {mode!r}")
    meta: dict[str, Any] = {**item.meta, "span": span, "probe": probe, "ablation": mode}
    return dataclasses.replace(item, text=" ".join(toks), tokens=tuple(toks), meta=meta)


def phrase_type(item: Item) -> str:
    """The type a control label is tied to: the phrase (plus the target word for NC Literality)."""
    m = item.meta
    base = f"{m.get('first')} {m.get('last')}"
    return f"{base}|{str(m['target_word']).lower()}" if "target_word" in m else base


def control_labeller(train: Sequence[Item], labels: Sequence[str],
                     seed: str = "lexcomp-control") -> Callable[[Item], str]:
    """item -> control label (Hewitt & Liang 2019): a hash of the phrase type picks a label with the training
    label distribution; deterministic, identical across splits, runs and machines."""
    counts = Counter(it.label for it in train)
    total = sum(counts.values()) or 1
    cum, acc = [], 0.0
    for lab in labels:
        acc += counts.get(lab, 0) / total
        cum.append((acc, lab))

    def pick(item: Item) -> str:
        h = hashlib.sha256(f"{seed}|{phrase_type(item)}".encode()).digest()
        u = int.from_bytes(h[:8], "big") / 2 ** 64
        return next((lab for c, lab in cum if u < c), cum[-1][1])

    return pick
