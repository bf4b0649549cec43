"""Data stage of the ``noncompsst`` and ``sst7`` suites: items per split, data files, training, statistics.

``sst7``: test = shipped ``sst7/test.tsv`` (1,975), dev = shipped ``sst7/validation.tsv``, train = rebuilt
from SST or a user file (see :mod:`.sst7`).

``noncompsst``: test = the 1,813 Study-2 stimuli (:mod:`.items`); train and dev are SST-7's (the same
items as ``sst7``, so a run of both suites fits each seed once and restores it from the cache for the
other). The loaded NonCompSST release is cached on the bound suite (:func:`release`) so that the score stage
reaches it through the suite rather than a module-level cache keyed on the data dir.

The two suites differ through their specs: each has its own ``data_files``, ``load_items`` and ``score_context``
stage here (never a test of the suite's name).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.errors import ConfigError, DataError, MissingDataError
from ...core.hashing import file_sha256
from ...core.types import Item
from ..base import default_statistics
from .items import cached_noncompsst, cached_train, sst7_split_items, stimulus_items
from .load import FILES, NonCompSST
from .ratings import read_score_table
from .score import NonCompContext
from .sst import SST_FILES
from .sst7 import SHIPPED, resolve_train_source, train_file_option

if TYPE_CHECKING:
    from ..base import Suite

#: what ``train_info`` may raise when the SST files (or a user training file) are absent or broken:
#: scoring predictions made elsewhere must not need them, so the score stage reports these instead.
TRAIN_INFO_ERRORS = (MissingDataError, DataError, ConfigError)


def release(suite: Suite) -> NonCompSST:
    """The loaded NonCompSST release of the suite's data dir (cached on the bound suite)."""
    return suite.cached("noncompsst:release", lambda: cached_noncompsst(suite.data_dir))


def _train_data_files(suite: Suite) -> list[str]:
    o = suite.options
    src = resolve_train_source(suite.data_dir, o.train_file, o.train_source, o.sst_dictionary)
    if src == "file":
        return [SHIPPED["train"]] if train_file_option(o.train_file) is None else []
    if src == "phrases":  # user-supplied dictionary / labels files are not data-dir files
        user = {"dictionary": o.sst_dictionary, "labels": o.sst_labels}
        return [SST_FILES[k] for k in ("dictionary", "labels", "split", "sostr", "stree") if not user.get(k)]
    return [SST_FILES["split"], SST_FILES["trees"].format(split="train"), SST_FILES["csv"].format(split="train")]


def sst7_data_files(suite: Suite) -> list[str]:
    """Manifest paths ``sst7`` needs (its test and dev files and the SST-7 training source)."""
    return [SHIPPED["test"], SHIPPED["dev"], FILES["study2"], FILES["stimuli"], FILES["flat"],
            *_train_data_files(suite)]


def data_files(suite: Suite) -> list[str]:
    """Manifest paths ``noncompsst`` needs (the release's files, SST-7 dev and the training source)."""
    return [FILES[k] for k in ("study1", "study2", "stimuli", "flat", "flags", "ranking")] + \
        [SHIPPED["dev"], *_train_data_files(suite)]


def sst7_items(suite: Suite, split: str) -> list[Item]:
    """Items of ``split`` of SST-7 (``sst7``'s every split, ``noncompsst``'s train and dev)."""
    o = suite.options
    return sst7_split_items(suite.data_dir, split, o.train_file, o.train_source, o.sst_dictionary, o.sst_labels)


def load_items(suite: Suite, split: str) -> list[Item]:
    """Items of ``split`` of ``noncompsst``: test = the stimuli; train and dev are SST-7's."""
    o = suite.options
    if split == "test":
        return stimulus_items(release(suite), lowercase=o.lowercase, tokenize=o.tokenize)
    return sst7_items(suite, split)


def training(suite: Suite) -> tuple[list[Item], list[Item]]:
    """SST-7 train and dev (the shipped validation.tsv, for model selection); noncompsst's stimuli never.

    Loaded through ``suite.items``, so the training items are built once per bound suite.
    """
    return suite.items("train"), suite.items("dev")


def train_info(suite: Suite, build: bool = True) -> dict[str, Any]:
    """Where SST-7 train comes from; with ``build``, also its size and the removals (builds it).

    A user training file is recorded with its path and sha256 (None when it cannot be read), so a run
    can be reproduced from its own record.
    """
    o = suite.options
    src = resolve_train_source(suite.data_dir, o.train_file, o.train_source, o.sst_dictionary)
    out: dict[str, Any] = {"source": src}
    for key, value in (("train_file", o.train_file), ("sst_dictionary", o.sst_dictionary),
                       ("sst_labels", o.sst_labels)):
        user = train_file_option(value)
        if user is not None:
            out[key] = str(user)
            out[f"{key}_sha256"] = file_sha256(user) if user.is_file() else None
    if not build:
        return out
    built = cached_train(suite.data_dir, o.train_file, o.train_source, o.sst_dictionary, o.sst_labels)
    out.update({"source": built.source, "n_train": len(built.items), "n_removed": len(built.removed),
                "n_unresolved": len(built.unresolved)})
    return out


def _train_provenance(suite: Suite, trained: bool) -> dict[str, Any]:
    try:
        train = train_info(suite, build=trained)
    except TRAIN_INFO_ERRORS as exc:
        train = {"error": str(exc)}
    return {"train": train}


def sst7_score_context(suite: Suite, trained: bool) -> NonCompContext:
    """The frozen context of ``sst7``'s score stage: the SST-7 training source (see :func:`score_context`)."""
    return NonCompContext(suite.name, tuple(suite.labels), _train_provenance(suite, trained))


def score_context(suite: Suite, trained: bool) -> NonCompContext:
    """The frozen context of ``noncompsst``'s score stage: the release's tables, the user's human score
    table read and checked against every stimulus, and the SST-7 training source (with its size and removals
    when a model was ``trained``; predictions made elsewhere need none of the SST files: a failure to read
    them is reported, not raised)."""
    provenance = _train_provenance(suite, trained)
    data = release(suite)
    human = None
    if suite.options.human_scores is not None:
        human = read_score_table(suite.options.human_scores, [s for p in data.phrases for s in p.stimuli])
        provenance["human_scores"] = user_file_record(suite.options.human_scores)
    return NonCompContext(suite.name, tuple(suite.labels), provenance, release=data, human_scores=human)


def statistics(suite: Suite) -> dict[str, Any]:
    """Items, groups and labels per split (``default_statistics``) and the SST-7 training source."""
    out = default_statistics(suite)
    try:
        out["train_source"] = train_info(suite)
    except TRAIN_INFO_ERRORS as exc:
        out["train_source"] = {"error": str(exc)}
    return out


def user_file_record(path: Path) -> dict[str, Any]:
    """``{"path", "sha256"}`` of a user-supplied file (recorded in score details)."""
    return {"path": str(path), "sha256": file_sha256(path) if path.is_file() else None}
