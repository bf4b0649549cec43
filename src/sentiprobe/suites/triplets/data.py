"""Triplet data stage: one item per sentence, data files, statistics (docs/protocols/triplets.md#data) and the training
items.

Why statistics carry ``round_trip_triplets``: the gold of the evaluation is the decoded gold grid
(docs/protocols/triplets.md#decoding), so the number of JSON triplets that survive the round trip is part of what a
score means. The per-split figures the authors recorded in ``eda_stats.txt`` (sentences, target entries, opinion B-tags,
polarity counts) are recomputed and compared where the split exists.
"""
from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.errors import ConfigError, DataError, MissingDataError
from ...core.hashing import file_sha256
from ...core.types import Item
from ...protocols.triplets.grid import Entry
from ..sentivent.load import load_polar, read_splits
from ..spec import ScoreContext
from .load import NO_TRAIN, RECONSTRUCTED, read_gts, reconstruct_split

if TYPE_CHECKING:
    from ..base import Suite

SPLITS = ("train", "dev", "test")
EDA_FILE = "triplets/eda_stats.txt"
POLAR_FILE = "coarse/sentivent_implicit.csv"
SPLITS_FILE = "splits.json"
#: suite -> (dataset with empty sentences, dataset without)
SUITE_DATASETS = {
    "sentivent-triplet": ("sentivent-event-devproto", "sentivent-event-devproto-no-empty"),
    "sentivent-triplet-direct": ("sentivent-devproto", "sentivent-devproto-no-empty"),
    "absa-triplet-explicit": ("joinedsemeval", "joinedsemeval"),
}


def dataset(suite: Suite) -> str:
    full, no_empty = SUITE_DATASETS[suite.name]
    return full if suite.options.empty_sentences else no_empty


def data_files(suite: Suite) -> list[str]:
    """The test file of the suite's dataset (manifest path)."""
    return [f"{suite.family}/triplets/{dataset(suite)}/test.json"]


def load_dataset(suite: Suite, name: str, split: str) -> list[Item]:
    """Items of one shipped dataset split (MissingDataError when the file is absent)."""
    return read_gts(suite.path(f"triplets/{name}/{split}.json"), split, name)


def load_items(suite: Suite, split: str) -> list[Item]:
    """Items of ``split``; the train split of ``sentivent-triplet`` is the reconstruction (or ``train_file``)."""
    if split not in SPLITS:
        raise ConfigError(f"unknown split {split!r}; use one of {', '.join(SPLITS)}")
    name = dataset(suite)
    if split == "train":
        if suite.options.train_file is not None:
            return read_user_train(Path(suite.options.train_file))
        if name in NO_TRAIN:
            return reconstructed(suite, "train")
    return load_dataset(suite, name, split)


def read_user_train(path: Path) -> list[Item]:
    if not path.is_file():
        raise DataError("train file not found or not a file", path=path)
    return read_gts(path, "train", f"user file {path.name}")


def reconstructed(suite: Suite, split: str) -> list[Item]:
    """The docs/protocols/triplets.md#data fallback: task-A rows of ``split`` regrouped into GTS entries (memoised per
    suite)."""

    def build() -> list[Item]:
        polar = suite.cached("triplets:polar_rows",
                             lambda: load_polar(suite.path(POLAR_FILE), read_splits(suite.path(SPLITS_FILE))))
        rows = [it for it in polar if it.split == split]
        sentences = load_dataset(suite, "sentivent-devproto", split) if suite.options.empty_sentences else []
        return reconstruct_split(rows, sentences, split)

    return suite.cached(f"triplets:reconstructed:{split}", build)


def training(suite: Suite) -> tuple[list[Item], list[Item]]:
    """(train, selection items): train and dev (clean), or train+dev and the TEST split (paper-faithful)."""
    if suite.options.protocol == "paper-faithful":
        return load_items(suite, "train") + load_items(suite, "dev"), load_items(suite, "test")
    return load_items(suite, "train"), load_items(suite, "dev")


def protocol_label(suite: Suite) -> str:
    if suite.options.protocol == "paper-faithful":
        return ("paper-faithful: trained on train+dev, epochs early-stopped on the TEST set (optimistic; "
                "see docs/triplets.md)")
    return "clean: epoch selected on dev, test scored once"


def train_source(suite: Suite) -> dict[str, Any]:
    """Where the training items come from (recorded in score details and statistics)."""
    if suite.options.train_file is not None:
        p = Path(suite.options.train_file)
        return {"kind": "user file", "path": str(p), "sha256": file_sha256(p) if p.is_file() else None}
    if dataset(suite) in NO_TRAIN:
        return {"kind": RECONSTRUCTED, "label": RECONSTRUCTED,
                "from": f"{suite.family}/{POLAR_FILE} (train rows) + sentivent-devproto train sentences"}
    return {"kind": "shipped", "path": f"{suite.family}/triplets/{dataset(suite)}/train.json"}


def score_context(suite: Suite, trained: bool) -> ScoreContext:
    """Dataset, protocol and, when a model was trained here, where its training items came from."""
    provenance = {"dataset": dataset(suite), "protocol": protocol_label(suite),
                  "train_source": train_source(suite) if trained else None}
    return ScoreContext(suite.name, tuple(suite.labels), provenance)


def split_stats(items: list[Item]) -> dict[str, Any]:
    """Counts of one split: ours and the ``eda_stats.txt`` quantities."""
    entries = [Entry.from_json(e) for it in items for e in it.meta["entries"]]
    raw = sum(it.meta["raw_triplets"] for it in items)
    rt = sum(len(it.meta["gold"]) for it in items)
    pol = Counter(e.sentiment for e in entries)
    n = len(entries)
    return {"sentences": len(items), "tokens": sum(len(it.tokens or ()) for it in items), "raw_triplets": raw,
            "raw_unique_triplets": sum(it.meta["raw_unique_triplets"] for it in items),
            "round_trip_triplets": rt, "raw_triplets_surviving": sum(it.meta["raw_surviving"] for it in items),
            "gold_target_spans": sum(len(it.meta["gold_targets"]) for it in items),
            "gold_polar_spans": sum(len(it.meta["gold_polars"]) for it in items),
            "sentences_without_triplets": sum(not it.meta["gold"] for it in items),
            "eda": {"sentences_n": len(items), "target_n": n, "opinion_n": sum(len(e.polars) for e in entries),
                    **{f"{p}_n": pol[p] for p in ("positive", "neutral", "negative")},
                    **{f"{p}_pct": round(100 * pol[p] / n, 1) if n else 0.0
                       for p in ("positive", "neutral", "negative")}}}


_EDA_HEAD = re.compile(r"=+Split stats for (\S+?)=+")
_EDA_ROW = re.compile(r"^(train|dev|test): (\{.*\})\s*$")


def parse_eda(text: str) -> dict[str, dict[str, dict[str, Any]]]:
    """``{dataset: {split: stats}}`` of the authors' ``eda_stats.txt`` (dict literals, parsed safely)."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    current = None
    for line in text.splitlines():
        m = _EDA_HEAD.search(line)
        if m:
            current = m.group(1).lower()
            out[current] = {}
            continue
        m = _EDA_ROW.match(line)
        if m and current is not None:
            out[current][m.group(1)] = ast.literal_eval(m.group(2))
    return out


def statistics(suite: Suite) -> dict[str, Any]:
    """Per split: sentences, tokens, raw and round-trip triplets, and the comparison with ``eda_stats.txt``."""
    out: dict[str, Any] = {"suite": suite.name, "dataset": dataset(suite), "train_source": train_source(suite)}
    try:
        eda = parse_eda(suite.path(EDA_FILE).read_text(encoding="utf-8")).get(dataset(suite), {})
    except MissingDataError:
        eda = {}
    for split in SPLITS:
        try:
            its = load_items(suite, split)
        except MissingDataError as exc:
            out[split] = {"error": str(exc)}
            continue
        st = split_stats(its)
        if split == "train" and train_source(suite)["kind"] != "shipped":
            st["label"] = train_source(suite)["kind"]
        ref = eda.get(split)
        if ref is not None:
            keys = [k for k in ref if k in st["eda"]]
            st["eda_stats_txt"] = ref
            st["eda_stats_match"] = all(st["eda"][k] == ref[k] for k in keys
                                        if not (split == "train" and st.get("label")))
            if st.get("label"):
                st["eda_stats_match"] = {k: st["eda"][k] == ref[k] for k in keys}
        out[split] = st
    if dataset(suite) in NO_TRAIN and suite.options.train_file is None:
        out["reconstruction_gap"] = reconstruction_gap(suite)
    return out


def reconstruction_gap(suite: Suite) -> dict[str, Any]:
    """How far the reconstruction is from the shipped files: the same construction applied to dev and test."""
    gap: dict[str, Any] = {}
    for split in ("dev", "test"):
        try:
            shipped = {it.item_id: it for it in load_dataset(suite, dataset(suite), split)}
            rebuilt = {it.item_id: it for it in reconstructed(suite, split)}
        except MissingDataError as exc:
            gap[split] = {"error": str(exc)}
            continue
        g = {(k, *t) for k, it in shipped.items() for t in map(tuple, it.meta["gold"])}
        r = {(k, *t) for k, it in rebuilt.items() for t in map(tuple, it.meta["gold"])}
        gap[split] = {"shipped_triplets": len(g), "reconstructed_triplets": len(r), "common": len(g & r),
                      "shipped_sentences": len(shipped), "reconstructed_sentences": len(rebuilt)}
    return gap
