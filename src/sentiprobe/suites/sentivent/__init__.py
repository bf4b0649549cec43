"""The SENTiVENT suites (see ../shared/specs/sentivent.md): implicit economic sentiment in company news.

Registered suites:

- ``sentivent-polar`` (task A): polarity of gold polar expressions, positive / neutral / negative;
- ``sentivent-clause`` (task B): clause polarity, positive / neutral / negative / none.

Submodules: ``load`` (validated readers, split rule), ``lexicon`` (lexicon features, spec section 7),
``suite`` (the suites), ``predictions`` (published prediction layouts), ``analysis`` (error lists and
search winners), ``report`` (HTML section).
"""
from __future__ import annotations

from ..base import SUITES
from .suite import SentiventClauseSuite, SentiventPolarSuite, SentiventSuite

SUITES.register("sentivent-polar", SentiventPolarSuite, description=SentiventPolarSuite.description,
                params={"lexicon": "auto|nolex|lexecon|lexecon+vader|lexall, default auto: lexicon features in "
                                   "item.meta['features'] (auto = lexecon when the lexicon files are present)"})
SUITES.register("sentivent-clause", SentiventClauseSuite, description=SentiventClauseSuite.description,
                params={"lexicon": "auto|nolex|lexecon|lexecon+vader|lexall, default auto (as sentivent-polar)"})

__all__ = ["SentiventSuite", "SentiventPolarSuite", "SentiventClauseSuite"]
