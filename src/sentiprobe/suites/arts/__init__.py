"""The ARTS suites (aspect robustness; spec ``shared/specs/arts.md``).

Registers ``arts-laptop``, ``arts-rest`` and ``arts-mams`` into ``SUITES``. Modules:
``formats`` (records, id rules), ``load`` (file loaders), ``items`` (records -> Items),
``score`` (accuracy, ARS, subset accuracies), ``datastats`` (§5.3), ``report`` (HTML), ``suite``.
"""
from __future__ import annotations

from ..base import SUITES
from .suite import ArtsLaptop, ArtsMams, ArtsRest, ArtsSuite

for _cls in (ArtsLaptop, ArtsRest, ArtsMams):
    SUITES.register(_cls.name, _cls, description=_cls.description,
                    params={"data_dir": "path, default: resolved data dir: where arts/ lives"})

__all__ = ["ArtsLaptop", "ArtsMams", "ArtsRest", "ArtsSuite"]
