"""The ARTS suites (aspect robustness; spec ``shared/specs/arts.md``).

Registers ``arts-laptop``, ``arts-rest`` and ``arts-mams`` into ``SUITES``. Modules:
``formats`` (records, id rules), ``load`` (file loaders), ``items`` (records -> Items),
``score`` (accuracy, ARS, subset accuracies), ``datastats`` (§5.3), ``report`` (HTML), ``suite``.
"""
from __future__ import annotations

from ..legacy import register_legacy
from .suite import ArtsLaptop, ArtsMams, ArtsRest, ArtsSuite

for _cls in (ArtsLaptop, ArtsRest, ArtsMams):
    register_legacy(_cls)

__all__ = ["ArtsLaptop", "ArtsMams", "ArtsRest", "ArtsSuite"]
