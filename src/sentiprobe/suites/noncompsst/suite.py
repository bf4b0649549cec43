"""The ``noncompsst`` and ``sst7`` suites (spec ``noncompsst.md``).

``sst7``: 7-way sentiment of SST sentences; test = shipped ``sst7/test.tsv`` (1,975), dev =
shipped ``sst7/validation.tsv``, train = rebuilt from SST (see :mod:`.sst7`). Three seeds, as in
the paper; metrics are means over seeds of per-seed accuracy / macro-F1 (§6.3).

``noncompsst``: the 1,813 Study-2 stimuli; a learning model is trained on SST-7 train (the same
items as ``sst7``, so a run of both suites fits each seed once and restores it from the cache for
the other) and predicts every stimulus per seed; predictions are pooled per string, rated
(§5) and compared with the human ratings (§6).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...core.errors import PredictionError
from ...core.types import Item, Prediction
from ...stats.bootstrap import bootstrap_metric, mean_metric
from ...stats.classification import confusion, encode, prf_from_confusion
from ..legacy import Suite
from ..spec import SuiteScore
from .items import cached_noncompsst, cached_train, sst7_split_items, stimulus_items, text_options
from .load import FILES, LINES_PER_PHRASE
from .predictions import check_seeded, read_seeded
from .ratings import pool, write_ratings, write_scores
from .sst import SST_FILES
from .sst7 import LABELS7, SHIPPED, resolve_train_source, train_file_option


def _train_data_files(data_dir: Path, train_file, source) -> list[str]:
    src = resolve_train_source(data_dir, train_file, source)
    if src == "file":
        return [SHIPPED["train"]] if train_file_option(train_file) is None else []
    if src == "phrases":
        return [SST_FILES[k] for k in ("dictionary", "labels", "split", "sostr", "stree")]
    return [SST_FILES["split"], SST_FILES["trees"].format(split="train"), SST_FILES["csv"].format(split="train")]


class _SST7Train:
    """Shared constructor options: where the SST-7 training set comes from."""

    def _init_train(self, train_file: str | Path | None, train_source: str | None) -> None:
        self.train_file = train_file
        self.train_source = train_source

    def train_info(self, build: bool = True) -> dict[str, Any]:
        """Where SST-7 train comes from; with ``build``, also its size and the removals (builds it)."""
        src = resolve_train_source(self.data_dir, self.train_file, self.train_source)
        if not build:
            return {"source": src}
        built = cached_train(self.data_dir, self.train_file, self.train_source)
        return {"source": built.source, "n_train": len(built.items), "n_removed": len(built.removed),
                "n_unresolved": len(built.unresolved)}


class SST7Suite(_SST7Train, Suite):
    """7-way SST sentiment (the NonCompSST authors' SST-7), three seeds."""

    name = "sst7"
    family = "noncompsst"
    labels = LABELS7
    n_seeds = 3
    description = "SST-7: 7-class sentence sentiment (NonCompSST's training task), 3 seeds"

    def __init__(self, data_dir: str | Path | None = None, *, train_file: str | Path | None = None,
                 train_source: str | None = None) -> None:
        super().__init__(data_dir)
        self._init_train(train_file, train_source)

    def data_files(self) -> list[str]:
        return [SHIPPED["test"], SHIPPED["dev"], FILES["study2"], FILES["stimuli"], FILES["flat"],
                *_train_data_files(self.data_dir, self.train_file, self.train_source)]

    def _load(self, split: str) -> list[Item]:
        return sst7_split_items(self.data_dir, split, self.train_file, self.train_source)

    def read_predictions(self, path: str | Path, column: str | None = None) -> list[Prediction]:
        return read_seeded(path, self.items("test"), column=column, allow=("item_id", "id"))

    def check_predictions(self, items, predictions, *, missing="error", path=None) -> dict[str, Prediction]:
        seeded = check_seeded(items, predictions, self.labels, suite=self.name, missing=missing, path=path)
        first = seeded.labels[seeded.seeds[0]]
        return {iid: Prediction(iid, lab, parse_ok=lab is not None, meta={"seed": seeded.seeds[0]})
                for iid, lab in first.items()}

    def score(self, items: Sequence[Item], predictions: Sequence[Prediction], *, n_boot: int = 1000,
              seed: int = 0, missing: str = "error") -> SuiteScore:
        sd = check_seeded(items, predictions, self.labels, suite=self.name, missing=missing)
        gold = [it.label for it in items]
        enc = [encode(gold, [sd.labels[s][it.item_id] for it in items], self.labels) for s in sd.seeds]
        k = len(self.labels)

        def f1(t: np.ndarray, p: np.ndarray) -> float:
            cm = confusion(t, p, k)
            g = np.bincount(t, minlength=k)
            _, _, f = prf_from_confusion(cm, g)
            return float(f[(g > 0) | (cm.sum(axis=0) > 0)].mean())

        per_f1 = [f1(t, p) for t, p in enc]
        per_acc = [float(np.mean(t == p)) for t, p in enc]
        correct = np.mean([(t == p).astype(np.float64) for t, p in enc], axis=0)
        note = f"mean over {len(sd.seeds)} seed(s)"
        metrics = {
            "macro_f1": bootstrap_metric("macro_f1", lambda idx: float(np.mean([f1(t[idx], p[idx]) for t, p in enc])),
                                         len(items), n_boot=n_boot, seed=seed, note=note),
            "accuracy": mean_metric("accuracy", correct, n_boot=n_boot, seed=seed, note=note),
        }
        cm = sum(confusion(t, p, k) for t, p in enc)
        details = {"seeds": list(sd.seeds), "per_seed": {"macro_f1": [round(v, 6) for v in per_f1],
                                                          "accuracy": [round(v, 6) for v in per_acc]},
                   "confusion_summed_over_seeds": cm.tolist(), "missing": len(sd.missing),
                   "unparsed": len(sd.unparsed)}
        try:
            details["train"] = self.train_info(build="train" in self._cache)
        except Exception as exc:  # scoring predictions made elsewhere must not need the SST files
            details["train"] = {"error": str(exc)}
        return SuiteScore(metrics, details)

    def report_section(self, result: dict[str, Any]) -> str:
        from .report import sst7_section

        return sst7_section(result)


class NonCompSSTSuite(_SST7Train, Suite):
    """Non-compositionality of sentiment (Dankers and Lucas 2023): model vs human phrase ratings."""

    name = "noncompsst"
    family = "noncompsst"
    labels = LABELS7
    n_seeds = 3
    description = "NonCompSST: model vs human non-compositionality ratings of 259 SST phrases (trained on SST-7)"

    def __init__(self, data_dir: str | Path | None = None, *, lowercase: bool | str | None = None,
                 tokenize: bool | str | None = None, train_file: str | Path | None = None,
                 train_source: str | None = None) -> None:
        super().__init__(data_dir)
        self.lowercase, self.tokenize = text_options(lowercase, tokenize)
        self._init_train(train_file, train_source)

    @property
    def data(self):
        """The loaded release (:class:`~.load.NonCompSST`)."""
        return cached_noncompsst(self.data_dir)

    def data_files(self) -> list[str]:
        return [FILES[k] for k in ("study1", "study2", "stimuli", "flat", "flags", "ranking")] + \
            [SHIPPED["dev"], *_train_data_files(self.data_dir, self.train_file, self.train_source)]

    def _load(self, split: str) -> list[Item]:
        if split == "test":
            return stimulus_items(self.data, lowercase=self.lowercase, tokenize=self.tokenize)
        return sst7_split_items(self.data_dir, split, self.train_file, self.train_source)

    def train_items(self) -> list[Item]:
        """SST-7 train (the noncompsst stimuli are never trained on)."""
        return self.items("train")

    def dev_items(self) -> list[Item]:
        """SST-7 dev (the shipped validation.tsv), used for model selection."""
        return self.items("dev")

    # ---- predictions ------------------------------------------------------------------------
    def read_predictions(self, path: str | Path, column: str | None = None) -> list[Prediction]:
        """CSV/TSV/JSONL with ``line`` (0-based), ``text`` or ``item_id``, optional ``seed``, ``label`` 0..6."""
        return read_seeded(path, self.items("test"), column=column)

    def check_predictions(self, items, predictions, *, missing="error", path=None) -> dict[str, Prediction]:
        """Validate seeded predictions; returns the first seed's predictions by item id."""
        seeded = check_seeded(items, predictions, self.labels, suite=self.name, missing=missing, path=path)
        first = seeded.labels[seeded.seeds[0]]
        return {iid: Prediction(iid, lab, parse_ok=lab is not None, meta={"seed": seeded.seeds[0]})
                for iid, lab in first.items()}

    @classmethod
    def add_score_arguments(cls, parser) -> None:
        """``--ratings-out DIR`` (write the rating tables) and ``--human-scores FILE`` (full human table)."""
        have = getattr(parser, "_option_string_actions", {})
        group = parser.add_argument_group("NonCompSST (noncompsst)")
        if "--ratings-out" not in have:
            group.add_argument("--ratings-out", default=None, metavar="DIR",
                                help="noncompsst: write the pooled scores and the five rating tables (TSV) here")
        if "--human-scores" not in have:
            group.add_argument("--human-scores", default=None, metavar="FILE",
                                help="noncompsst: stimulus<TAB>score table of human mean ratings for all stimuli "
                                     "(enables the MAX/ALL/ALLABS/ALLCLEAN correlations)")

    def score(self, items: Sequence[Item], predictions: Sequence[Prediction], *, n_boot: int = 1000,
              seed: int = 0, missing: str = "error", ratings_out: str | Path | None = None,
              human_scores: str | Path | None = None) -> SuiteScore:
        from .ratings import read_score_table
        from .score import evaluate

        data = self.data
        sd = check_seeded(items, predictions, self.labels, suite=self.name, missing=missing)
        phrases, lines = self._covered(items, data)
        by_line = {it.meta["line"]: it.item_id for it in items}
        per_seed_lines = {s: [None if sd.labels[s][by_line[i]] is None else int(sd.labels[s][by_line[i]])
                              for i in lines] for s in sd.seeds}
        line_text = [data.lines[i] for i in lines]
        pooled = pool(line_text, per_seed_lines, skip_missing=(missing == "wrong"))
        naturals = {p.text: by_line[LINES_PER_PHRASE * p.index] for p in phrases}
        per_seed_nat = {s: {t: sd.labels[s][iid] for t, iid in naturals.items()} for s in sd.seeds}
        human = None
        if human_scores:
            human = read_score_table(human_scores, [s for p in phrases for s in p.stimuli])
        ev = evaluate(pooled.scores, data, per_seed=per_seed_nat, human_scores=human, phrases=phrases,
                      n_boot=n_boot, seed=seed)
        details = dict(ev.details)
        occurrences = Counter(line_text)
        dup = {s: pooled.counts[s] for s, c in occurrences.items() if c > 1}
        details.update({
            "seeds": list(sd.seeds),
            "pooling": {"duplicated_strings": dup, "n_distinct_stimuli": len(pooled.scores)},
            "missing": {"pairs": len(sd.missing), "unparsed": len(sd.unparsed),
                        "stimuli_with_skipped_predictions": len(pooled.skipped)},
            "limited": len(phrases) < len(data.phrases),
            "text_options": {"lowercase": self.lowercase, "tokenize": self.tokenize},
        })
        if sd.missing or sd.unparsed:
            n = len(sd.missing) + len(sd.unparsed)
            details["missing"]["note"] = (f"{n} (stimulus, seed) predictions missing or unparseable: left out of the "
                                          "pooled scores; counted as wrong in the per-seed F1")
        try:
            details["train"] = self.train_info(build="train" in self._cache)
        except Exception as exc:  # scoring predictions made elsewhere must not need the SST files
            details["train"] = {"error": str(exc)}
        if ratings_out:
            out = Path(ratings_out)
            written = [write_scores(pooled.scores, pooled.counts, out / "model_scores.tsv")]
            extra = {"human": ev.human_ratings}
            written += write_ratings(ev.model_ratings, out, "model", extra=extra)
            details["ratings_written"] = [str(p) for p in written]
        return SuiteScore(ev.metrics, details)

    def _covered(self, items: Sequence[Item], data) -> tuple[list, list[int]]:
        """Phrases whose 7 stimuli are all among ``items`` (all of them unless the run used --limit)."""
        have = {it.meta.get("line") for it in items}
        phrases = [p for p in data.phrases
                   if all(LINES_PER_PHRASE * p.index + j in have for j in range(LINES_PER_PHRASE))]
        if not phrases:
            raise PredictionError("no phrase has all 7 of its stimuli among the items (was --limit below 7?)",
                                  [it.item_id for it in items][:10])
        lines = [LINES_PER_PHRASE * p.index + j for p in phrases for j in range(LINES_PER_PHRASE)]
        return phrases, lines

    def report_section(self, result: dict[str, Any]) -> str:
        from .report import noncompsst_section

        return noncompsst_section(result)

    def stats(self) -> dict[str, Any]:
        out = super().stats()
        try:
            out["train_source"] = self.train_info()
        except Exception as exc:
            out["train_source"] = {"error": str(exc)}
        return out

