"""The LexComp suites (Shwartz & Dagan 2019; docs/protocols/lexcomp.md, docs/lexcomp.md).

Six probing tasks over frozen representations: meaning shift (``lexcomp-vpc``, ``lexcomp-lvc``,
``lexcomp-nc-literality``), implicit meaning (``lexcomp-nc-relations``, ``lexcomp-an-attributes``) and
``lexcomp-phrase-type`` (BIO tagging). Items are token sequences (``input_kind="tokens"``); the probes
(``models/probes.py``) and the docs/protocols/lexcomp.md#majority-baselines majority baselines (``majority``,
``majority-first``, ``majority-last``, ``majority-word``) are models. Phrase Type accepts only models with the
``tokens`` capability (they read LexComp token items: a tag sequence per sentence); the classification suites accept
those and any classifier (a text model sees the sentence, without the span), except VPC/LVC without their
BNC sentences, which admit the majority baselines only (``data.refuse``: a text model would see the phrase
alone).
"""
from __future__ import annotations

from ..base import SUITES
from ..spec import NoOptions, SuiteSpec
from . import data, predictions, report, score
from .load import BINARY_LABELS, TAGS
from .options import BncOptions, ImplicitOptions

_DESCRIPTIONS = {
    "vpc": "LexComp VPC classification: is verb+particle a verb-particle construction (BNC; needs bnc_dir)",
    "lvc": "LexComp LVC classification: is verb+object a light-verb construction (BNC; needs bnc_dir)",
    "nc-literality": "LexComp NC literality: is a noun-compound constituent used literally",
    "nc-relations": "LexComp NC relations: does the paraphrase state the compound's implicit relation",
    "an-attributes": "LexComp AN attributes: is the attribute what the adjective conveys about the noun",
    "phrase-type": "LexComp phrase type: BIO tagging of multi-word expressions (span F1)",
}
_OPTIONS = {"vpc": BncOptions, "lvc": BncOptions, "nc-relations": ImplicitOptions, "an-attributes": ImplicitOptions}


def _spec(task: str) -> SuiteSpec:
    return SuiteSpec(name=f"lexcomp-{task}", family="lexcomp", version="1", description=_DESCRIPTIONS[task],
                     labels=TAGS if task == "phrase-type" else BINARY_LABELS[task], task="classify",
                     input_kind="tokens", load_items=data.load_items, data_files=data.data_files,
                     read_predictions=predictions.read_predictions, score=score.score,
                     render_section=report.render_section, options=_OPTIONS.get(task, NoOptions),
                     statistics=data.statistics, score_context=data.score_context,
                     headline=("span_f1",) if task == "phrase-type" else ("accuracy",),
                     accepts=frozenset({"tokens"}) if task == "phrase-type" else frozenset({"classify", "tokens"}),
                     refuse=data.refuse if task in ("vpc", "lvc") else None)


SPECS = {task: SUITES.register(_spec(task)) for task in _DESCRIPTIONS}

__all__ = ["SPECS"]
