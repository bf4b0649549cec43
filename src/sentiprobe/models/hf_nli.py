"""``hf-nli``: a local NLI cross-encoder applied zero-shot to SOUL RC (docs/protocols/soul.md#nli).

The review is the premise, the statement the hypothesis (the SOUL suites' ``text-pair`` input: ``text``,
``text_pair``). The model's three classes are mapped by their NAMES in ``config.id2label`` (never by
position, which differs between NLI checkpoints: ``cross-encoder/nli-roberta-base`` puts contradiction
first, MNLI heads of other families entailment first):

    entailment -> true, contradiction -> false, neutral -> not-given

Names are compared ignoring case, spaces, ``-`` and ``_``; common spellings (``entail``, ``entailed``,
``contradict``...) are accepted. A config whose labels cannot all be mapped (``LABEL_0``..., a two-way
``not_entailment`` head) or that lacks one of the three is refused with a :class:`ConfigError` naming
its labels; ``label_map`` maps unusual names explicitly (``'ENT:true,CON:false,NEU:not-given'``).
Probabilities are the softmax over the three classes, each reported under its SOUL label.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import ConfigError
from ..core.options import option
from ..core.types import Item, Prediction
from .assets import resolve_device
from .base import MODELS
from .hf import EXTRA, HFClassifier, HFOptions, _norm
from .utils import predictions_from_proba

#: normalised NLI class name -> SOUL label
NLI_NAMES = {"entailment": "true", "entail": "true", "entailed": "true", "entails": "true",
             "contradiction": "false", "contradict": "false", "contradicted": "false", "contradicts": "false",
             "neutral": "not-given"}
SOUL_LABELS = ("true", "false", "not-given")


def nli_targets(id2label: dict[int, str], label_map: dict[str, str | None] | None = None) -> list[str]:
    """The SOUL label of each model class (by class index), read from the class NAMES.

    Raises ConfigError naming the labels it cannot map, or when the three SOUL labels are not each
    covered exactly once.
    """
    names = [str(id2label[i]) for i in sorted(id2label)]
    explicit = {_norm(k): v for k, v in (label_map or {}).items()}
    out, unmapped = [], []
    for n in names:
        target = explicit.get(_norm(n), NLI_NAMES.get(_norm(n)))
        if target is None or target not in SOUL_LABELS:
            unmapped.append(n)
        else:
            out.append(target)
    if unmapped:
        raise ConfigError(f"hf-nli: cannot map the model's labels {unmapped} (all labels: {names}) to "
                          f"entailment / contradiction / neutral; an NLI cross-encoder names its classes in "
                          f"config.json id2label. Pass label_map, e.g. label_map='{names[0]}:true,...'")
    if sorted(out) != sorted(SOUL_LABELS):
        raise ConfigError(f"hf-nli: the model's labels {names} map to {out}; a three-way NLI model must have "
                          "exactly one entailment, one contradiction and one neutral class")
    return out


class HFNLI(HFClassifier):
    """Zero-shot SOUL RC with a local NLI cross-encoder (see the module docstring)."""

    name = "hf-nli"
    answer_mode = "classify"

    def __init__(self, path: str | None = None, label_map: dict[str, str | None] | None = None, batch_size: int = 32,
                 max_length: int = 512, device: str = "auto", threads: int | None = None,
                 allow_pickle: bool = False) -> None:
        super().__init__(path=path, label_map=label_map, batch_size=batch_size, max_length=max_length,
                         device=resolve_device(device, "Hugging Face models", EXTRA), threads=threads,
                         allow_pickle=allow_pickle)

    def config(self) -> dict[str, Any]:
        return {**super().config(), "recipe": "soul nli zero-shot (docs/protocols/soul.md#nli): premise=review, "
                                              "hypothesis=statement", "device": self.device, "dtype": "float32"}

    def _class_targets(self, labels: Sequence[str]) -> list[str | None]:
        if set(labels) != set(SOUL_LABELS):
            raise ConfigError(f"hf-nli answers true / false / not-given (SOUL RC); this suite's labels are "
                              f"{list(labels)}")
        return list(nli_targets(self._id2label(), self.label_map))

    def classify(self, items: Sequence[Item], labels: Sequence[str], input_kind: str) -> list[Prediction]:
        self._ensure_loaded()
        targets = self._class_targets(labels)
        if not items:
            return []
        if input_kind != "text-pair" or any(it.text_pair is None for it in items):
            raise ConfigError("hf-nli needs (premise, hypothesis) pairs: a text-pair suite whose items have a "
                              "text_pair (the SOUL statement)")
        return predictions_from_proba(items, self._proba(items, input_kind), targets, labels, self.name)


@dataclass(frozen=True)
class HFNLIOptions(HFOptions):
    """``--model-arg`` of ``hf-nli``."""

    path: str | None = option(None, "LOCAL NLI cross-encoder directory, required (e.g. a copy of "
                                    "cross-encoder/nli-roberta-base)")
    label_map: dict[str, str | None] | None = option(
        None, "model label names -> true / false / not-given when they are not spelt entailment / contradiction / "
              "neutral ('ENT:true,CON:false,NEU:not-given')")
    batch_size: int = option(32, "pairs per batch", lo=1)
    max_length: int = option(512, "truncation length (longest first)", lo=8, hi=100_000)
    device: str = option("auto", "auto (CUDA when present), cpu, cuda or cuda:N")


MODELS.register(
    "hf-nli", HFNLI, tags=("hf",), options=HFNLIOptions,
    description="zero-shot SOUL RC with a local NLI cross-encoder (review = premise, statement = hypothesis; "
                "entailment/contradiction/neutral -> true/false/not-given by label name)")
