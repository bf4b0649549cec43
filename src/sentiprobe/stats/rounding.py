"""The rounding rule lives in :mod:`sentiprobe.core.rounding` (the report's formatting helpers in
:mod:`sentiprobe.render` use it too, and may import only core); re-exported here for the statistics code."""
from __future__ import annotations

from ..core.rounding import Number, exact, percent, round_half_up, round_half_up_int

__all__ = ["Number", "exact", "percent", "round_half_up", "round_half_up_int"]
