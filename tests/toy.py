"""A toy suite and toy models for runner/cache tests (no data files, no heavy dependencies)."""
from __future__ import annotations

import os
import time

import numpy as np

from sentiprobe.core.types import Item, Prediction
from sentiprobe.models.base import MODELS, ModelAdapter
from sentiprobe.stats.bootstrap import mean_metric
from sentiprobe.suites.base import SUITES, Suite, SuiteScore

WORDS = ["good", "bad", "fine", "awful", "great", "poor", "nice", "meh"]
POLARITY = {"good": "pos", "great": "pos", "nice": "pos", "fine": "pos", "bad": "neg", "awful": "neg",
            "poor": "neg", "meh": "neg"}


class ToySuite(Suite):
    name = "toy"
    family = "toy"
    labels = ("pos", "neg")
    input_kind = "text"
    description = "toy suite for tests"

    def data_files(self):
        return []

    def _load(self, split):
        n = {"train": 40, "dev": 10, "test": int(os.environ.get("TOY_N", "60"))}[split]
        rng = np.random.default_rng({"train": 1, "dev": 2, "test": 3}[split])
        out = []
        for i in range(n):
            w = WORDS[int(rng.integers(len(WORDS)))]
            out.append(Item(f"{split}-{i}", f"{split}-{i // 2}", split, f"{self.name}: the movie was {w} number {i}",
                            POLARITY[w]))
        return out

    def score(self, items, predictions, *, n_boot=1000, seed=0, missing="error", **options):
        by_id = self.check_predictions(items, predictions, missing=missing)
        correct = [float(by_id.get(it.item_id) is not None and by_id[it.item_id].label == it.label)
                   for it in items]
        return SuiteScore({"accuracy": mean_metric("accuracy", correct, n_boot=n_boot, seed=seed)})


class ToySuite2(ToySuite):
    name = "toy2"


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

    def fit(self, train, dev, labels, seed=0):
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

    def classify(self, items, labels):
        time.sleep(self.delay * len(items))
        self.calls += len(items)
        out = []
        for it in items:
            lab = next((self.table[w] for w in it.text.split() if w in self.table), labels[0])
            out.append(Prediction(it.item_id, lab, scores={lab: 1.0}))
        return out


def register() -> None:
    if "toy" not in SUITES:
        SUITES.register("toy", ToySuite, description="toy suite for tests")
        SUITES.register("toy2", ToySuite2, description="second toy suite for tests")
    if "slow-lexicon" not in MODELS:
        MODELS.register("slow-lexicon", SlowLexicon, description="toy learning model for tests",
                        params={"delay": "float, seconds per item", "fit_delay": "float", "batch_size": "int"})
