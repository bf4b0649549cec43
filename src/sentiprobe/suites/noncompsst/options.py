"""Typed options of the ``sst7`` and ``noncompsst`` suites.

Everything that used to come from env variables read inside this package (which the run record did not
see) is an option here: the CLI maps the ``env=`` variables to defaults (``cli/suite_args``), the effective
values are recorded in ``results.json`` through ``Suite.describe()``. Nothing in this package reads env
variables.

Both suites share the SST-7 training options (so a run of both fits each seed once); ``noncompsst`` adds
the stimulus text options (docs/protocols/noncompsst.md#model-input) and the optional full human score table
(docs/protocols/noncompsst.md#computable).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..spec import option
from .sst7 import TRAIN_SOURCES

TRAIN_FILE_ENV = "SENTIPROBE_SST7_TRAIN_FILE"
TRAIN_SOURCE_ENV = "SENTIPROBE_SST7_TRAIN_SOURCE"
LOWERCASE_ENV = "SENTIPROBE_NONCOMPSST_LOWERCASE"
TOKENIZE_ENV = "SENTIPROBE_NONCOMPSST_TOKENIZE"
DICTIONARY_ENV = "SENTIPROBE_SST_DICTIONARY"
LABELS_ENV = "SENTIPROBE_SST_LABELS"


@dataclass(frozen=True)
class SST7Options:
    """Where the SST-7 training set comes from (see :mod:`.sst7`)."""

    train_file: Path | None = option(
        None, "SST-7 training file (text<TAB>label, labels 0..6) used as it is; its sha256 is recorded",
        env=TRAIN_FILE_ENV, user_file=True)
    train_source: str = option(
        "auto", "SST-7 training source: auto (file > upstream train.tsv > phrases > sentences) or a forced one",
        choices=TRAIN_SOURCES, env=TRAIN_SOURCE_ENV)
    sst_dictionary: Path | None = option(
        None, "SST dictionary.txt (phrase|id, unpublished here): enables the phrase-level SST-7 train of the "
              "paper (Dankers & Lucas 2023; docs/noncompsst.md); its sha256 is recorded", env=DICTIONARY_ENV,
        user_file=True)
    sst_labels: Path | None = option(
        None, "SST sentiment_labels.txt to pair with sst_dictionary (default: the shipped one); its sha256 is "
              "recorded", env=LABELS_ENV, user_file=True)


@dataclass(frozen=True)
class NonCompSSTOptions(SST7Options):
    """SST-7 training options plus the stimulus text (docs/protocols/noncompsst.md#model-input) and an optional full
    human table (docs/protocols/noncompsst.md#computable)."""

    lowercase: bool = option(True, "lower-case the stimulus text a model sees (as the reference)",
                             env=LOWERCASE_ENV)
    tokenize: bool = option(True, "PTB-tokenise the stimulus text a model sees (as the reference's stanza)",
                            env=TOKENIZE_ENV)
    human_scores: Path | None = option(
        None, "stimulus<TAB>score table of human mean ratings for all stimuli (enables the MAX/ALL/ALLABS/"
              "ALLCLEAN correlations); its sha256 is recorded", user_file=True)
