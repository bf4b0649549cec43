"""ARTS test generation for any aspect-sentiment dataset, offline (issue 9; docs/protocols/arts.md#generation,
#offline-resources, #fidelity).

Modules: ``inputs`` (TOWE JSON, SemEval-2014 XML, JSONL), ``text`` (Treebank tokens, detokenisation,
offsets, lexicons), ``resources`` (WordNet 3.0 via nltk, spaCy), ``edits`` (the docs/protocols/arts.md#reverse-opinion
primitive, exaggeration, conjunction rule), ``strategies`` (RevTgt, RevNon), ``adddiff`` (AddDiff, AddDiff(k),
phrase pools), ``opinion`` (opinion-span finder for data without spans), ``pipeline`` (config, one batched
parse, output), ``audit`` (automatic checks, human sample, Wilson-scored judgements), ``fidelity``
(comparison with a released set).

Exports are named so that they never shadow a submodule (``automatic_audit``, ``fidelity_report``).
The linguistic back-ends are the ``generate`` extra (``pip install sentiprobe[generate]``); importing
this package does not load them.
"""
from __future__ import annotations

from .audit import audit as automatic_audit
from .audit import audit_sample, audit_score
from .fidelity import compare as fidelity_report
from .pipeline import (
                       DEFAULT_STRATEGIES,
                       MODES,
                       STRATEGY_CHOICES,
                       GenerateConfig,
                       Generated,
                       Toolkit,
                       generate,
                       generate_file,
                       report_path,
)

__all__ = ["DEFAULT_STRATEGIES", "MODES", "STRATEGY_CHOICES", "GenerateConfig", "Generated", "Toolkit",
           "audit_sample", "audit_score", "automatic_audit", "fidelity_report", "generate", "generate_file",
           "report_path"]
