"""Re-export of the classification engine under its former module name.

SOUL, SENTiVENT and the tests import ``classification_report`` from here. The implementation is
:mod:`sentiprobe.stats.classification` (one engine; this module used to hold a second one), and the
bootstrap draws are :mod:`sentiprobe.stats.resampling`'s.
"""
from __future__ import annotations

from .classification import (ClassificationReport, cell_codes, classification_report, label_key,
                             scores_from_counts)
from .resampling import CI_METHOD, cell_count_draws as bootstrap_counts

__all__ = ["CI_METHOD", "ClassificationReport", "bootstrap_counts", "cell_codes", "classification_report",
           "label_key", "scores_from_counts"]
