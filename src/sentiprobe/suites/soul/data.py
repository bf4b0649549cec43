"""SOUL data stages: items per split, the training data of learning models, dataset statistics.

The official dev and test CSVs are in the manifest (``soul/dev.csv``, ``soul/test.csv``). The official train
split is unpublished: a user who has it passes it as the ``train_file`` option (or puts it at
``<data-dir>/soul/train.csv``), and it is verified by its git blob id unless ``train_verify`` is off. Without
it, learning models train on dev as a labelled stand-in and select on nothing (:func:`training`), which is
recorded in every result (:func:`train_source`).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.errors import ChecksumError, DataError, MissingDataError
from ...core.types import Item
from ..spec import ScoreContext
from .load import EXPECTED, TRAIN_STAND_IN, load_split, load_train_file, split_stats

if TYPE_CHECKING:
    from ..base import Suite

SPLITS = ("dev", "test")


def data_files(suite: Suite) -> list[str]:
    """The manifest files of the SOUL suites (dev is needed too: it is the training stand-in)."""
    return ["soul/dev.csv", "soul/test.csv"]


def train_path(suite: Suite) -> Path | None:
    """The training file in force: the ``train_file`` option, else ``<data-dir>/soul/train.csv`` when present."""
    if suite.options.train_file is not None:
        return Path(suite.options.train_file).expanduser()
    placed = Path(suite.data_dir) / "soul" / "train.csv"  # placed in the data dir by the user
    return placed if placed.is_file() else None


def load_items(suite: Suite, split: str) -> list[Item]:
    """Items of ``dev`` / ``test`` (official counts checked) or of the user's training file ([] without one).

    The training file may not share a review with the test split (DataError). Its provenance (path, git
    blob id, sha256, verification, counts) comes with it (:func:`train_file`) for the results.
    """
    if split in SPLITS:
        return load_split(suite.path(f"{split}.csv"), split)
    if split != "train":
        raise DataError(f"unknown SOUL split {split!r}")
    loaded = train_file(suite)
    return loaded[0] if loaded is not None else []


def train_file(suite: Suite) -> tuple[list[Item], dict[str, Any]] | None:
    """The user's training items and their provenance (read once per bound suite); None without a file."""
    path = train_path(suite)
    if path is None:
        return None

    def build() -> tuple[list[Item], dict[str, Any]]:
        items, info = load_train_file(path, verify=suite.options.train_verify)
        overlap = sorted({i.group_id for i in items} & {i.group_id for i in suite.items("test")})
        if overlap:
            raise DataError(f"the training file shares {len(overlap)} review(s) with the test split "
                            f"(first: {overlap[:3]})", path=path)
        return items, info

    return suite.cached(f"soul:train:{path}", build)


def training(suite: Suite) -> tuple[list[Item], list[Item]]:
    """(train, dev) of learning models: the training file and dev when there is one, else (dev, []).

    Dev stands in for the unpublished train split; it is then not also offered as a selection set (no
    model selects on its own training data).
    """
    if train_path(suite) is not None:
        return suite.items("train"), suite.items("dev")
    return suite.items("dev"), []


def train_source(suite: Suite, trained: bool = False) -> dict[str, Any]:
    """Where the training data came from, for the results details.

    The training file's provenance (path, git blob id, sha256, verification, counts) is reported when a model
    was ``trained`` on it (the file is read then, if it was not already); scoring alone does not read it.
    """
    path = train_path(suite)
    if path is None:
        return {"train_source": TRAIN_STAND_IN, "dev_source": "none (dev is the training stand-in)"}
    loaded = train_file(suite) if trained else None
    if loaded is not None:
        return {**loaded[1], "dev_source": "dev"}
    return {"train_source": f"file {path} (not read: no model was trained on it here)", "train_file": str(path),
            "dev_source": "dev"}


def score_context(suite: Suite, trained: bool) -> ScoreContext:
    """The score stage's context: where the training data came from (see :func:`train_source`)."""
    return ScoreContext(suite.name, tuple(suite.labels), train_source(suite, trained))


def statistics(suite: Suite) -> dict[str, Any]:
    """Reviews, statements, labels and quirks per split, next to the paper's Table 1 counts.

    A split whose file is missing (or a training file that fails its checks) is reported, not fatal.
    """
    out: dict[str, Any] = {}
    for split in ("train", "dev", "test"):
        try:
            its = suite.items(split)
        except (MissingDataError, ChecksumError, DataError) as exc:
            out[split] = {"error": str(exc)}
            continue
        if split == "train" and not its:
            out[split] = {"available": False,
                          "note": "the official train split is unpublished (see soul/PROVENANCE.md); learning "
                                  "models train on dev as a stand-in; set the suite option train_file "
                                  "(env SENTIPROBE_SOUL_TRAIN_FILE) to the official train.csv to use it"}
            continue
        s = split_stats(its)
        out[split] = {"available": True, **s, "items": s["statements"], "groups": s["reviews"]}
    out["expected"] = {k: {"reviews": v.reviews, "statements": v.statements,
                           "labels": {"true": v.true, "false": v.false, "not-given": v.not_given}}
                       for k, v in EXPECTED.items()}
    path = train_path(suite)
    out["train_source"] = TRAIN_STAND_IN if path is None else f"file {path}"
    return out
