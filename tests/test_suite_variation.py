"""Suites vary through their specs, and the predict stage returns how a model was asked (no shared dict)."""
from __future__ import annotations

import re
from pathlib import Path

from sentiprobe.suites import SUITES, get_suite
from sentiprobe.suites.spec import Predicted

SRC = Path(__file__).resolve().parents[1] / "src" / "sentiprobe"


def test_no_suite_tests_its_own_name_and_no_memo_channel():
    bad = []
    for sub in ("suites", "run"):
        for p in (SRC / sub).rglob("*.py"):
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
                if re.search(r"suite\.name ==|\.memo\b", line):
                    bad.append(f"{p.relative_to(SRC)}:{n}: {line.strip()}")
    assert bad == []


def test_predicted_is_frozen_and_copies_the_record():
    record = {"structured": "off"}
    got = Predicted([], record)
    record["structured"] = "json"
    assert got.asked == {"structured": "off"} and got.predictions == ()


class _Generator:
    """A predictor whose model only generates: the classification suites ask it through their prompts."""

    capabilities = frozenset({"generate"})
    name = "fake-generator"

    def __init__(self) -> None:
        self.model = self

    def generate(self, prompts, **kw):
        return ["positive" for _ in prompts]

    def call(self, method, payloads, **kw):
        return self.generate(payloads, **kw)


def test_predict_stage_returns_the_record_of_how_the_model_was_asked(tmp_path):
    suite = get_suite("arts-laptop")
    assert SUITES.get("arts-laptop").prompting is not None and SUITES.get("arts-laptop").predict is None
    items = suite.items("test")[:3]
    got = suite.predict_stage(_Generator(), items)
    assert isinstance(got, Predicted) and len(got.predictions) == 3
    assert got.asked is not None and "template" in got.asked and "structured" in got.asked
    # and a copy of the suite made for the next model sees nothing of it
    assert not hasattr(suite.shared(), "memo")
