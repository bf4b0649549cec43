"""The SENTiVENT coarse-task suites: ``sentivent-polar`` (task A) and ``sentivent-clause`` (task B).

- ``sentivent-polar``: one item per gold polar expression; the model sees the ``polex+targets`` window
  (polar span and its targets made contiguous) and answers positive / neutral / negative.
- ``sentivent-clause``: one item per clause; the model sees ``clause_text`` and answers
  positive / neutral / negative / none (labels re-derived from ``polarity_all`` and verified).

Both use the document-level split of the files, verified against ``splits.json``. With lexicon
features on (default ``lexicon="auto"``: the reduced ``lexecon`` setting when the three shipped lexicon
files are present), every item carries ``meta["features"]``: a dict feature name -> float with the same
keys for every item (spec section 7; combo columns scaled on train + dev). The ``*-lex`` model adapters
(:mod:`sentiprobe.models.lexicon`) append them to their features.

Scores: accuracy, macro / per-label precision, recall and F1 with bootstrap CIs over items, the
confusion matrix and supports (spec section 8).
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from ...core.errors import ConfigError, MissingDataError
from ...core.types import Item, Prediction
from ...stats.metrics_common import classification_report
from ..legacy import Suite
from ..spec import SuiteScore
from . import lexicon as lx
from .load import (CLAUSE_FILE, CLAUSE_LABELS, POLAR_FILE, POLAR_LABELS, SPLITS, SPLITS_FILE, load_clauses,
                   load_polar, read_splits)
from .predictions import read_sentivent_predictions


class SentiventSuite(Suite):
    """Common machinery of the two coarse SENTiVENT suites (see the module docstring)."""

    family = "sentivent"
    input_kind = "text"
    data_file: ClassVar[str]
    input_field: ClassVar[str]

    def __init__(self, data_dir: str | Path | None = None, lexicon: str | bool | None = "auto",
                 extra_lexicons: Sequence[lx.Lexicon] = (), lexicon_strict: bool = True) -> None:
        super().__init__(data_dir)
        if lexicon is True:
            lexicon = "lexecon"
        elif lexicon in (False, None):
            lexicon = "nolex"
        if lexicon != "auto" and lexicon not in lx.SETTINGS:
            raise ConfigError(f"unknown lexicon setting {lexicon!r}; use auto or one of {', '.join(lx.SETTINGS)}")
        self.lexicon_setting = lexicon
        self.extra_lexicons = tuple(extra_lexicons)
        self.lexicon_strict = lexicon_strict
        self.lexicon_info: dict[str, Any] = {}
        self._all: list[Item] | None = None

    # ---- data --------------------------------------------------------------------------------
    def _lexicon_paths(self) -> list[str]:
        return [f"{self.family}/{rel}" for rel, _ in lx.SHIPPED.values()]

    def data_files(self) -> list[str]:
        """The task file and splits.json; plus the shipped lexicons that are present when features are on."""
        files = [f"{self.family}/{self.data_file}", f"{self.family}/{SPLITS_FILE}"]
        if self.lexicon_setting != "nolex":
            files += [p for p in self._lexicon_paths() if (Path(self.data_dir) / p).exists()]
        return files

    def _read(self, path: Path, splits: dict[str, str]) -> list[Item]:  # pragma: no cover - abstract
        raise NotImplementedError

    def all_items(self) -> list[Item]:
        """Items of every split in file order (with lexicon features when enabled)."""
        if self._all is None:
            splits = read_splits(self.path(SPLITS_FILE))
            items = self._read(self.path(self.data_file), splits)
            self._all = self._attach_features(items)
        return self._all

    def _load(self, split: str) -> list[Item]:
        if split not in SPLITS:
            raise ConfigError(f"unknown split {split!r}; use one of {', '.join(SPLITS)}")
        return [it for it in self.all_items() if it.split == split]

    def _shipped_lexicons(self) -> list[lx.Lexicon]:
        return [lx.read_lexicon_tsv(self.path(rel), name, kind=kind, strict=self.lexicon_strict)
                for name, (rel, kind) in lx.SHIPPED.items()]

    def _attach_features(self, items: list[Item]) -> list[Item]:
        setting = self.lexicon_setting
        if setting == "auto":
            try:
                shipped = self._shipped_lexicons()
                setting = "lexecon"
            except MissingDataError as exc:
                self.lexicon_info = {"setting": "nolex", "label": lx.setting_label("nolex"),
                                     "reason": f"lexicon files not found ({exc}); items carry no features"}
                return items
        else:
            shipped = self._shipped_lexicons() if setting != "nolex" else []
        lexicons = lx.setting_lexicons(setting, shipped, self.extra_lexicons)
        if not lexicons:
            self.lexicon_info = {"setting": "nolex", "label": lx.setting_label("nolex")}
            return items
        feat = lx.LexiconFeaturizer(lexicons, setting)
        rows = feat.fit_transform([it.text for it in items], [it.split in ("train", "dev") for it in items])
        self.lexicon_info = feat.describe()
        self.lexicon_info["features"] = list(rows[0]) if rows else []
        return [dataclasses.replace(it, meta={**it.meta, "features": f, "feature_setting": setting})
                for it, f in zip(items, rows)]

    # ---- predictions ---------------------------------------------------------------------------
    def read_predictions(self, path: str | Path, column: str | None = None) -> list[Prediction]:
        """``item_id,label`` files, the published ``id,text,labels,pred`` CSVs (gold column verified) and the
        error-analysis lists (every test error listed; the other test items were predicted correctly)."""
        return read_sentivent_predictions(path, self.items("test"), column=column)

    def score(self, items: Sequence[Item], predictions: Sequence[Prediction], *, n_boot: int = 1000,
              seed: int = 0, missing: str = "error") -> SuiteScore:
        by_id = self.check_predictions(items, predictions, missing=missing)
        y_true = [it.label for it in items]
        y_pred = [by_id[it.item_id].label if it.item_id in by_id else None for it in items]
        rep = classification_report(y_true, y_pred, self.labels, n_boot=n_boot, seed=seed)
        n_missing = sum(it.item_id not in by_id for it in items)
        n_unparsed = sum(1 for it in items if it.item_id in by_id and by_id[it.item_id].label is None)
        details = rep.details()
        details.update({
            "n_items": len(items), "n_missing_predictions": n_missing, "n_unparsed_predictions": n_unparsed,
            "missing_policy": missing, "input": self.input_field, "splits": sorted({it.split for it in items}),
            "bootstrap": {"n_boot": n_boot, "seed": seed, "unit": "item", "method": "percentile"},
            "macro_average_over": "labels occurring in the gold labels or the predictions",
            "lexicon": {k: v for k, v in self.lexicon_info.items() if k in ("setting", "label", "reason")},
        })
        return SuiteScore(rep.metrics, details)

    # ---- report and stats ------------------------------------------------------------------------
    def report_section(self, result: dict[str, Any]) -> str:
        from .report import render_section

        return render_section(self.name, result)

    def stats(self) -> dict[str, Any]:
        out = super().stats()
        items = self.all_items()
        docs: dict[str, set[str]] = {s: set() for s in SPLITS}
        toks: dict[str, list[int]] = {s: [] for s in SPLITS}
        for it in items:
            docs[it.split].add(it.meta["doc"])
            toks[it.split].append(len(it.text.split()))
        for s in SPLITS:
            if isinstance(out.get(s), dict) and "error" not in out[s]:
                out[s]["documents"] = len(docs[s])
                out[s]["mean_input_tokens"] = round(sum(toks[s]) / len(toks[s]), 2) if toks[s] else None
        out["file"] = f"{self.family}/{self.data_file}"
        out["rows"] = len(items)
        out["splits_json"] = "verified: every row's split agrees with splits.json (by document id)"
        out["note"] = ("counts over the shipped, pre-processed experiment file; the paper's Table 1 counts raw "
                       "annotations and differs")
        info = self.lexicon_info
        out["lexicon"] = {"setting": info.get("setting"), "label": info.get("label"), "reason": info.get("reason"),
                          "n_features": len(info.get("features", [])),
                          "lexicons": [{k: x[k] for k in ("name", "kind", "entries", "notes")}
                                       for x in info.get("lexicons", [])],
                          "not_available": info.get("not_available", {})}
        out.update(self._extra_stats(items))
        return out

    def _extra_stats(self, items: list[Item]) -> dict[str, Any]:
        return {}


class SentiventPolarSuite(SentiventSuite):
    """SENTiVENT task A: polarity of gold polar expressions (input: polar span + targets window)."""

    name = "sentivent-polar"
    labels = POLAR_LABELS
    description = "SENTiVENT implicit economic sentiment, task A: polarity of gold polar expressions"
    data_file = POLAR_FILE
    input_field = "polex+targets"

    def _read(self, path: Path, splits: dict[str, str]) -> list[Item]:
        return load_polar(path, splits)

    def _extra_stats(self, items: list[Item]) -> dict[str, Any]:
        n_t = Counter(len(it.meta["target_spans"]) for it in items)
        return {"expressions_by_number_of_targets": {str(k): n_t[k] for k in sorted(n_t)},
                "window_equals_polar_span": sum(it.meta["window_span"] == it.meta["polex_span"] for it in items)}


class SentiventClauseSuite(SentiventSuite):
    """SENTiVENT task B: clause polarity (none when no polar expression falls in the clause)."""

    name = "sentivent-clause"
    labels = CLAUSE_LABELS
    description = "SENTiVENT implicit economic sentiment, task B: clause polarity (incl. none)"
    data_file = CLAUSE_FILE
    input_field = "clause_text"

    def _read(self, path: Path, splits: dict[str, str]) -> list[Item]:
        return load_clauses(path, splits)

    def _extra_stats(self, items: list[Item]) -> dict[str, Any]:
        votes = Counter(v for it in items for v in it.meta["polarity_all"])
        return {"labelling_rule": "verified: every label equals the rule applied to polarity_all "
                                  f"({len(items)} of {len(items)})",
                "polarity_all_votes": dict(votes),
                "clauses_by_annotator_code": dict(Counter(it.meta["annotator"] for it in items)),
                "clauses_with_leading_space": sum(it.text.startswith(" ") for it in items)}
