"""Moved to :mod:`sentiprobe.render.svg` (the leaf package that suites' report stages may import); re-exported
here for callers of the old path."""
from __future__ import annotations

from ..render.svg import ci_bars, heatmap, profile, scatter

__all__ = ["ci_bars", "heatmap", "profile", "scatter"]
