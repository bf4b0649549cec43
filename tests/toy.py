"""A toy suite and toy models for runner/cache tests (no data files, no heavy dependencies)."""
from __future__ import annotations

import os
import time

import numpy as np

from sentiprobe.core.types import Item, Prediction
from sentiprobe.models.base import MODELS, ModelAdapter
from sentiprobe.suites import SUITES, SuiteScore, SuiteSpec

WORDS = ["good", "bad", "fine", "awful", "great", "poor", "nice", "meh"]
POLARITY = {"good": "pos", "great": "pos", "nice": "pos", "fine": "pos", "bad": "neg", "awful": "neg",
            "poor": "neg", "meh": "neg"}


def _load(suite, split):
    n = {"train": 40, "dev": 10, "test": int(os.environ.get("TOY_N", "60"))}[split]
    rng = np.random.default_rng({"train": 1, "dev": 2, "test": 3}[split])
    out = []
    for i in range(n):
        w = WORDS[int(rng.integers(len(WORDS)))]
        out.append(Item(f"{split}-{i}", f"{split}-{i // 2}", split, f"{suite.name}: the movie was {w} number {i}",
                        POLARITY[w]))
    return out


def _score(items, predictions, options, context, config):
    by_id = context.check(items, predictions, config)
    from sentiprobe.stats.unit_builders import classification_units
    from sentiprobe.stats.units import UnitScores

    y_pred = [by_id[i.item_id].label if i.item_id in by_id else None for i in items]
    per_unit = classification_units([it.label for it in items], y_pred, context.labels)
    return SuiteScore({}, units=UnitScores("item", len(items), len(items), {
        "accuracy": per_unit["accuracy"], "macro_f1": per_unit["macro_f1"]}, compared=("macro_f1", "accuracy")))


def _read(suite, path, column):
    from sentiprobe.suites.predictions_io import read_label_file

    return read_label_file(path, column=column)


def toy_spec(name: str) -> SuiteSpec:
    return SuiteSpec(name=name, family="toy", version="1", description="toy suite for tests", labels=("pos", "neg"),
                     task="classify", input_kind="text", load_items=_load, data_files=lambda s: [],
                     read_predictions=_read, score=_score, render_section=lambda name, entry: "")


class SlowLexicon(ModelAdapter):
    """Learns a word->label table; sleeps to make runs killable at any point."""

    name = "slow-lexicon"
    learns = True
    capabilities = frozenset({"classify"})

    def __init__(self, delay: str | float = 0.0, fit_delay: str | float = 0.0, batch_size: str | int = 5):
        self.delay = float(delay)
        self.fit_delay = float(fit_delay)
        self.batch_size = int(batch_size)
        self.table: dict[str, str] = {}
        self.calls = 0

    def config(self):
        return {"batch_size": self.batch_size}

    def fit(self, train, dev, labels, *, input_kind, seed=0):
        time.sleep(self.fit_delay)
        for it in train:
            for w in it.text.split():
                if w in POLARITY:
                    self.table[w] = it.label

    def get_state(self):
        keys = sorted(self.table)
        return {"words": keys, "labels": [self.table[k] for k in keys]}, {"dummy": np.arange(3)}

    def load_state(self, state):
        meta, _ = state
        self.table = dict(zip(meta["words"], meta["labels"]))

    def classify(self, items, labels, input_kind):
        time.sleep(self.delay * len(items))
        self.calls += len(items)
        out = []
        for it in items:
            lab = next((self.table[w] for w in it.text.split() if w in self.table), labels[0])
            out.append(Prediction(it.item_id, lab, scores={lab: 1.0}))
        return out


def register() -> None:
    if "toy" not in SUITES:
        SUITES.register(toy_spec("toy"))
        SUITES.register(toy_spec("toy2"))
    if "slow-lexicon" not in MODELS:
        MODELS.register("slow-lexicon", SlowLexicon, description="toy learning model for tests",
                        params={"delay": "float, seconds per item", "fit_delay": "float", "batch_size": "int"})
