"""SENTiVENT data stage: items per split (with lexicon features), data files, dataset statistics.

Both suites read one pre-processed file of the coarse tasks and use its document-level split, verified
against ``splits.json``. The file is read once per bound suite (cached with the lexicon setting): the
lexicon-feature scalers are fitted on train + dev rows, so every split's features depend on the whole
file. With lexicon features on, every item carries :attr:`Item.features` (feature name -> float, the same
keys in the same order for every item; docs/protocols/sentivent.md#lexicon-features) and ``meta["feature_setting"]``;
the ``*-lex`` model adapters read ``Item.features``. What the setting contains (lexicons, scalers, what is not
available) is loaded with the items (see :func:`lexicon_info`).
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.errors import ConfigError, MissingDataError
from ...core.types import Item
from ..base import default_statistics
from ..spec import ScoreContext
from . import lexicon as lx
from .load import CLAUSE_FILE, POLAR_FILE, SPLITS, SPLITS_FILE, load_clauses, load_polar, read_splits

if TYPE_CHECKING:
    from ..base import Suite


@dataclass(frozen=True)
class Task:
    """What distinguishes the two suites: their file, what the model sees, the reader, extra statistics."""

    data_file: str
    input_field: str
    read: Callable[[Path, dict[str, str]], list[Item]]
    extra_stats: Callable[[list[Item]], dict[str, Any]]


def _polar_stats(items: list[Item]) -> dict[str, Any]:
    n_t = Counter(len(it.meta["target_spans"]) for it in items)
    return {"expressions_by_number_of_targets": {str(k): n_t[k] for k in sorted(n_t)},
            "window_equals_polar_span": sum(it.meta["window_span"] == it.meta["polex_span"] for it in items)}


def _clause_stats(items: list[Item]) -> dict[str, Any]:
    votes = Counter(v for it in items for v in it.meta["polarity_all"])
    return {"labelling_rule": "verified: every label equals the rule applied to polarity_all "
                              f"({len(items)} of {len(items)})",
            "polarity_all_votes": dict(votes),
            "clauses_by_annotator_code": dict(Counter(it.meta["annotator"] for it in items)),
            "clauses_with_leading_space": sum(it.text.startswith(" ") for it in items)}


TASKS = {
    "sentivent-polar": Task(POLAR_FILE, "polex+targets", load_polar, _polar_stats),
    "sentivent-clause": Task(CLAUSE_FILE, "clause_text", load_clauses, _clause_stats),
}


def task(suite: Suite) -> Task:
    return TASKS[suite.name]


def data_files(suite: Suite) -> list[str]:
    """The task file and splits.json; plus the shipped lexicons that are present when features are on."""
    files = [f"{suite.family}/{task(suite).data_file}", f"{suite.family}/{SPLITS_FILE}"]
    if suite.options.lexicon != "nolex":
        files += [p for p in (f"{suite.family}/{rel}" for rel, _ in lx.SHIPPED.values())
                  if (Path(suite.data_dir) / p).exists()]
    return files


def load_items(suite: Suite, split: str) -> list[Item]:
    """Items of ``split`` (train, dev or test), in file order."""
    if split not in SPLITS:
        raise ConfigError(f"unknown split {split!r}; use one of {', '.join(SPLITS)}")
    return [it for it in all_items(suite) if it.split == split]


def all_items(suite: Suite) -> list[Item]:
    """Items of every split in file order (with lexicon features when enabled), read once per suite."""
    return _loaded(suite)[0]


def _loaded(suite: Suite) -> tuple[list[Item], dict[str, Any]]:
    """Every item and the lexicon setting in force (read once per bound suite)."""

    def build() -> tuple[list[Item], dict[str, Any]]:
        splits = read_splits(suite.path(SPLITS_FILE))
        items = task(suite).read(suite.path(task(suite).data_file), splits)
        return _features_for_options(suite, items)

    return suite.cached("sentivent:items", build)


def score_context(suite: Suite, trained: bool) -> ScoreContext:
    """What scoring reports beyond the items: the model's input field and the lexicon setting in force."""
    info = lexicon_info(suite)
    return ScoreContext(suite.name, tuple(suite.labels), {
        "input": task(suite).input_field,
        "lexicon": {k: v for k, v in info.items() if k in ("setting", "label", "reason")}})


def lexicon_info(suite: Suite) -> dict[str, Any]:
    """The lexicon setting in force: ``setting``, ``label``, ``reason`` (auto without files), ``lexicons``,
    ``scalers``, ``not_available`` and the ``features`` column names (loads the items if needed)."""
    return _loaded(suite)[1]


def shipped_lexicons(suite: Suite) -> list[lx.Lexicon]:
    """The three shipped lexicons (MissingDataError when a file is absent)."""
    return [lx.read_lexicon_tsv(suite.path(rel), name, kind=kind, strict=suite.options.lexicon_strict)
            for name, (rel, kind) in lx.SHIPPED.items()]


def _features_for_options(suite: Suite, items: list[Item]) -> tuple[list[Item], dict[str, Any]]:
    setting = suite.options.lexicon
    if setting == "auto":
        try:
            shipped = shipped_lexicons(suite)
        except MissingDataError as exc:
            return items, {"setting": "nolex", "label": lx.setting_label("nolex"),
                           "reason": f"lexicon files not found ({exc}); items carry no features"}
        setting = "lexecon"
    else:
        shipped = shipped_lexicons(suite) if setting != "nolex" else []
    return attach_lexicon_features(items, setting, shipped)


def attach_lexicon_features(items: Sequence[Item], setting: str, shipped: Sequence[lx.Lexicon],
                            extra: Sequence[lx.Lexicon] = ()) -> tuple[list[Item], dict[str, Any]]:
    """``(items with Item.features, lexicon info)`` for a setting (Python API; the suites call it too).

    ``extra`` lexicons (:class:`~.lexicon.Lexicon` objects, e.g. licensed copies of SentiEcon, MSOL,
    SentiWordNet 3 and LIWC read with :func:`~.lexicon.read_lexicon_tsv`) join the shipped ones by kind;
    ``lexall`` needs them. The scalers are fitted on the train and dev items only.
    """
    lexicons = lx.setting_lexicons(setting, shipped, extra)
    if not lexicons:
        return list(items), {"setting": "nolex", "label": lx.setting_label("nolex")}
    feat = lx.LexiconFeaturizer(lexicons, setting)
    rows = feat.fit_transform([it.text for it in items], [it.split in ("train", "dev") for it in items])
    info = feat.describe()
    info["features"] = list(rows[0]) if rows else []
    return [dataclasses.replace(it, features=f, meta={**it.meta, "feature_setting": setting})
            for it, f in zip(items, rows)], info


def statistics(suite: Suite) -> dict[str, Any]:
    """Counts per split (documents, mean input length), file facts, the lexicon setting, per-task extras."""
    out = default_statistics(suite)
    items = all_items(suite)
    docs: dict[str, set[str]] = {s: set() for s in SPLITS}
    toks: dict[str, list[int]] = {s: [] for s in SPLITS}
    for it in items:
        docs[it.split].add(it.meta["doc"])
        toks[it.split].append(len(it.text.split()))
    for s in SPLITS:
        if isinstance(out.get(s), dict) and "error" not in out[s]:
            out[s]["documents"] = len(docs[s])
            out[s]["mean_input_tokens"] = round(sum(toks[s]) / len(toks[s]), 2) if toks[s] else None
    out["file"] = f"{suite.family}/{task(suite).data_file}"
    out["rows"] = len(items)
    out["splits_json"] = "verified: every row's split agrees with splits.json (by document id)"
    out["note"] = ("counts over the shipped, pre-processed experiment file; the paper's Table 1 counts raw "
                   "annotations and differs")
    info = lexicon_info(suite)
    out["lexicon"] = {"setting": info.get("setting"), "label": info.get("label"), "reason": info.get("reason"),
                      "n_features": len(info.get("features", [])),
                      "lexicons": [{k: x[k] for k in ("name", "kind", "entries", "notes")}
                                   for x in info.get("lexicons", [])],
                      "not_available": info.get("not_available", {})}
    out.update(task(suite).extra_stats(items))
    return out
