"""The ``arts-custom`` suite: a generated or user-supplied enriched file, run and scored like the released sets.

The file has the released format (docs/protocols/arts.md#enriched-sets; the output of ``sentiprobe arts generate``):
originals under their example id, variants under ``<id>_adv1`` / ``_adv2`` / ``_adv3`` (``_adv4`` accepted)
and the generated recipes ``_revnon_adddiff`` / ``_adddiff_k<k>``. Loading, items, scoring (accuracy, ARS,
per-strategy subset accuracies) and the report section are the released suites' own stages (``data.py``
and ``score.py`` call the helpers here for ``arts-custom``); only the source of the test file differs.
The file is a user file: its path is the ``path`` option and its sha256 is recorded in the score details
(and by the run, through ``user_file=True``).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.errors import ConfigError, DataError
from ...core.hashing import file_sha256
from ...core.io import read_user_text
from ...core.types import Item
from ..spec import ScoreContext, option
from . import load
from .formats import DataWarning, summarise
from .items import enriched_items, flat_items

if TYPE_CHECKING:
    from ..base import Suite


@dataclass(frozen=True)
class CustomOptions:
    """Options of ``arts-custom``."""

    path: Path | None = option(None, "enriched ARTS JSON to run and score (e.g. the output of `sentiprobe arts "
                                     "generate`); its sha256 is recorded", env="SENTIPROBE_ARTS_CUSTOM_PATH",
                               user_file=True)
    train_domain: str = option("none", "train/dev split a learning model is fitted on: the shipped SemEval/MAMS "
                                       "flat files of this domain (none: only non-learning models)",
                               choices=("none", "laptop", "rest", "mams"))


def _path(suite: Suite) -> Path:
    p = suite.options.path
    if p is None:
        raise ConfigError("suite 'arts-custom' needs its file: --suite-arg path=FILE (an enriched ARTS JSON)")
    return Path(p)


UNSET = "arts/(arts-custom: pass --suite-arg path=FILE)"
"""Placeholder data file while no path is set: never present, so a bare ``sentiprobe run`` skips the suite."""


def data_files(suite: Suite) -> list[str]:
    """The user's file (absolute, so the run records its sha256 like a data file), or :data:`UNSET`."""
    p = suite.options.path
    return [str(Path(p).resolve())] if p is not None else [UNSET]


def load_items(suite: Suite, split: str) -> list[Item]:
    """Test items of the user's enriched file; train/dev from the shipped domain files (``train_domain``)."""
    return loaded(suite, split)[0]


def loaded(suite: Suite, split: str) -> tuple[list[Item], list[DataWarning]]:
    """Items of ``split`` and the warnings of the user's file (loaded once per bound suite and split, under the
    key every ARTS suite uses, ``arts:<split>``)."""
    return suite.cached(f"arts:{split}", lambda: _load(suite, split))


def _load(suite: Suite, split: str) -> tuple[list[Item], list[DataWarning]]:
    if split in ("train", "dev"):
        dom = suite.options.train_domain
        if dom == "none":
            return [], []
        warns_td: list[DataWarning] = []
        flat = load.load_flat(suite.path(f"src_data/{dom}/{split}.json"), warnings_out=warns_td)
        return flat_items(flat, split, warns_td), []
    if split != "test":
        return [], []
    path = _path(suite)
    read_user_text(path, "enriched ARTS file")  # missing, directory, binary, encoding: typed errors
    warns: list[DataWarning] = []
    recs = load.load_enriched(path, warnings_out=warns)
    if not recs:
        raise DataError("the enriched ARTS file holds no records (expected originals under their example ids and "
                        "variants under <id>_adv1/_adv2/_adv3)", path=path)
    summarise(warns, f"{suite.name} test")
    return enriched_items(recs, warns), warns


def file_record(suite: Suite) -> dict[str, Any]:
    path = _path(suite)
    return {"path": str(path), "sha256": file_sha256(path) if path.is_file() else None}


def statistics(suite: Suite) -> dict[str, Any]:
    its = suite.items("test")
    return {"suite": suite.name, "input_file": file_record(suite),
            "test": {"items": len(its), "groups": len({i.group_id for i in its}),
                     "kinds": dict(Counter(i.kind for i in its)), "labels": dict(Counter(str(i.label) for i in its))},
            "data_warnings": [w.to_dict() for w in loaded(suite, "test")[1]]}


def score_context(suite: Suite, trained: bool) -> ScoreContext:
    """What scoring reports beyond the items: the user's file (path and sha256)."""
    return ScoreContext(suite.name, tuple(suite.labels), {"input_file": file_record(suite)})
