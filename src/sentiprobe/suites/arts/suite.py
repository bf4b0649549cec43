"""The ARTS suites: ``arts-laptop``, ``arts-rest`` and ``arts-mams`` (spec ``arts.md``).

Test items are the original SemEval/MAMS test examples plus their RevTgt, RevNon and AddDiff
variants; train/dev items come from the flat split files. Scoring reports accuracy on the
originals, the Aspect Robustness Score (ARS) and per-strategy subset accuracies (see ``score.py``).
"""
from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from ...core.errors import ConfigError, DataError
from ...core.types import Item, Prediction
from ..legacy import Suite
from ..spec import SuiteScore
from . import load
from .datastats import original_test_stats
from .formats import LABELS, DataWarning, normalise_key, summarise
from .items import enriched_items, flat_items, results_items
from .report import report_section as _report_section
from .score import MISSING_POLICIES, score_items


class ArtsSuite(Suite):
    """Base class of the three ARTS suites; subclasses set ``name`` and ``domain``."""

    family: ClassVar[str] = "arts"
    labels: ClassVar[tuple[str, ...]] = LABELS
    task: ClassVar[str] = "classify"
    input_kind: ClassVar[str] = "text+aspect"
    domain: ClassVar[str]
    """Folder name under ``src_data/`` (``laptop``, ``rest``, ``mams``)."""

    def __init__(self, data_dir: str | Path | None = None) -> None:
        super().__init__(data_dir)
        self._warnings: dict[str, list[DataWarning]] = {}

    # ---- data ------------------------------------------------------------------------------------
    def data_files(self) -> list[str]:
        return [f"arts/arts_testset/{self.domain}_test_enriched.json"]

    def _load(self, split: str) -> list[Item]:
        warns: list[DataWarning] = []
        if split in ("train", "dev"):
            recs = load.load_flat(self.path(f"src_data/{self.domain}/{split}.json"), warnings_out=warns)
            items = flat_items(recs, split, warns)
        elif split == "test":
            items = self._load_test(warns)
        else:
            return []
        self._warnings[split] = warns
        summarise(warns, f"{self.name} {split}")
        return items

    def _load_test(self, warns: list[DataWarning]) -> list[Item]:
        recs = load.load_enriched(self.path(f"arts_testset/{self.domain}_test_enriched.json"), warnings_out=warns)
        return enriched_items(recs, warns)

    def data_warnings(self, split: str = "test") -> list[DataWarning]:
        """Tolerated irregularities (§6) met while loading ``split``."""
        self.items(split)
        return list(self._warnings.get(split, []))

    # ---- predictions -------------------------------------------------------------------------------
    def read_predictions(self, path: str | Path, column: str | None = None) -> list[Prediction]:
        """Read a published results CSV (``column`` picks the model) or an ``item_id,label`` CSV/JSONL.

        In both, ``_adv4`` ids map to ``_adv3``. For a results CSV, its sentence, term and gold label
        must agree with the suite's test items (DataError naming the first disagreeing rows). When a
        results CSV has several model columns, ``column`` is required (ConfigError listing them).
        """
        path = Path(path)
        if not path.exists():
            raise DataError("predictions file not found", path=path)
        if path.suffix not in (".jsonl", ".json") and _is_results_csv(path):
            return self._read_results(path, column)
        from ..predictions_io import read_label_file

        return [replace(p, item_id=normalise_key(p.item_id)) if p.item_id.endswith("_adv4") else p
                for p in read_label_file(path, column=column)]

    def _read_results(self, path: Path, column: str | None) -> list[Prediction]:
        table = load.load_results_csv(path, log=False)  # its irregularities are the test items' own
        if column is None:
            if len(table.models) != 1:
                raise ConfigError(f"{path} is a results table with the model columns {list(table.models)}; "
                                  "choose one with --column")
            column = table.models[0]
        if column not in table.models:
            raise ConfigError(f"no model column {column!r} in {path}; available: {list(table.models)}")
        by_id = {it.item_id: it for it in self.items("test")}
        bad: list[tuple[str, str]] = []
        for r in table.rows:
            it = by_id.get(r.item_key)
            if it is None:
                continue  # unknown ids are reported by check_predictions
            for field, mine, theirs in (("sentence", r.sentence, it.text), ("term", r.term, it.aspect),
                                        ("gold_label", r.gold, it.label)):
                if mine != theirs:
                    bad.append((r.id, field))
        if bad:
            shown = ", ".join(f"{i} ({f})" for i, f in bad[:10])
            raise DataError(f"{len(bad)} value(s) disagree with the {self.name} test items; first: {shown}",
                            path=path, record=bad[0][0], field=bad[0][1])
        j = table.models.index(column)
        src = {"source": str(path), "column": column}
        return [Prediction(r.item_key, r.predictions[j], raw=r.predictions[j], parse_ok=r.predictions[j] is not None,
                           meta=src) for r in table.rows]

    # ---- scoring -----------------------------------------------------------------------------------
    def score(self, items: Sequence[Item], predictions: Sequence[Prediction], *, n_boot: int = 1000,
              seed: int = 0, missing: str = "error") -> SuiteScore:
        """Accuracy on originals, ARS and per-strategy subset accuracies (spec §5.1-5.2).

        ``missing``: ``error`` (default; any missing prediction raises), ``wrong`` (missing
        predictions count as wrong, reported) or ``variants-wrong`` (the spec's rule: a missing
        source raises, a missing variant counts as wrong).
        """
        if missing not in MISSING_POLICIES:
            raise ConfigError(f"missing must be one of {list(MISSING_POLICIES)}, not {missing!r}")
        by_id = self.check_predictions(items, predictions, missing="wrong")
        return score_items(items, by_id, n_boot=n_boot, seed=seed, missing=missing, suite=self.name)

    # ---- report and statistics ---------------------------------------------------------------------
    def report_section(self, result: dict[str, Any]) -> str:
        return _report_section(result, title=f"ARTS: {self.name}")

    def stats(self) -> dict[str, Any]:
        """Item counts per split and kind, label counts, §5.3 statistics and data warnings."""
        out: dict[str, Any] = {"suite": self.name}
        warnings: list[dict[str, str]] = []
        for split in ("train", "dev", "test"):
            try:
                its = self.items(split)
            except Exception as exc:  # a missing optional split is reported, not fatal
                out[split] = {"error": str(exc)}
                continue
            kinds = Counter(it.kind for it in its)
            by_kind: dict[str, Counter] = {}
            for it in its:
                by_kind.setdefault(it.kind, Counter())[str(it.label)] += 1
            out[split] = {"items": len(its), "groups": len({i.group_id for i in its}),
                          "labels": _ordered(Counter(str(i.label) for i in its)), "kinds": dict(kinds),
                          "labels_by_kind": {k: _ordered(c) for k, c in by_kind.items()}}
            warnings += [w.to_dict() for w in self._warnings.get(split, [])]
        sent_warns: list[DataWarning] = []
        try:
            sents = load.load_sent(self.path(f"src_data/{self.domain}/test_sent.json"), towe=False,
                                   warnings_out=sent_warns)
            out["dataset_statistics"] = {"original_test": original_test_stats(sents)}
        except Exception as exc:
            out["dataset_statistics"] = {"error": str(exc)}
        out["data_warnings"] = warnings + [w.to_dict() for w in sent_warns]
        return out


def _ordered(c: Counter) -> dict[str, int]:
    return {lab: c[lab] for lab in (*LABELS, *sorted(set(c) - set(LABELS))) if c.get(lab)}


def _is_results_csv(path: Path) -> bool:
    """Whether the file's header has the published results' fixed columns (§2.7)."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            header = next(csv.reader(f), [])
    except (UnicodeDecodeError, csv.Error):
        return False
    return all(c in header for c in load.RESULTS_FIXED_COLUMNS)


class ArtsLaptop(ArtsSuite):
    """ARTS laptop: SemEval-2014 laptop test set + RevTgt/RevNon/AddDiff variants (1877 items)."""

    name = "arts-laptop"
    domain = "laptop"
    description = "ARTS aspect robustness, SemEval-2014 laptop (accuracy, ARS, per-strategy accuracies)"


class ArtsRest(ArtsSuite):
    """ARTS restaurant: SemEval-2014 restaurant test set + variants (3530 items)."""

    name = "arts-rest"
    domain = "rest"
    description = "ARTS aspect robustness, SemEval-2014 restaurant (accuracy, ARS, per-strategy accuracies)"


class ArtsMams(ArtsSuite):
    """ARTS MAMS: MAMS test set + variants, rebuilt from the published results CSV (3863 items)."""

    name = "arts-mams"
    domain = "mams"
    description = "ARTS aspect robustness, MAMS (accuracy, ARS, per-strategy accuracies)"

    def data_files(self) -> list[str]:
        return ["arts/output/mams_results.csv", "arts/src_data/mams/test.json"]

    def _load_test(self, warns: list[DataWarning]) -> list[Item]:
        table_warns: list[DataWarning] = []
        table = load.load_results_csv(self.path("output/mams_results.csv"), warnings_out=table_warns)
        originals = load.load_flat(self.path("src_data/mams/test.json"), warnings_out=table_warns)
        warns.extend(table_warns)
        return results_items(table, originals, warnings_out=warns, extra_warnings=table_warns)
