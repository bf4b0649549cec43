"""The SOUL predictions stage: read predictions made elsewhere (every format in :mod:`.predfile`)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ...core.types import Prediction
from .predfile import read_soul_predictions
from .prompts import soul_task

if TYPE_CHECKING:
    from ..base import Suite


def read_predictions(suite: Suite, path: Path, column: str | None) -> list[Prediction]:
    """Predictions from a sentiprobe dump, an id/label table or the reference code's output CSV.

    Labels are parsed by the suite's task (RC strict + lenient, JG docs/protocols/soul.md#label-extraction +
    justification).
    """
    return read_soul_predictions(path, soul_task(suite.name), column)
