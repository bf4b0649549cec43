"""The SENTiVENT suites (see ../shared/specs/sentivent.md): implicit economic sentiment in company news.

Registered suites:

- ``sentivent-polar`` (task A): polarity of gold polar expressions, positive / neutral / negative;
- ``sentivent-clause`` (task B): clause polarity, positive / neutral / negative / none.

Submodules: ``load`` (validated readers, split rule), ``lexicon`` (lexicon features, spec section 7),
``suite`` (the suites), ``predictions`` (published prediction layouts), ``analysis`` (error lists and
search winners), ``report`` (HTML section).
"""
from __future__ import annotations

from ..legacy import register_legacy
from .suite import SentiventClauseSuite, SentiventPolarSuite, SentiventSuite

register_legacy(SentiventPolarSuite)
register_legacy(SentiventClauseSuite)

__all__ = ["SentiventSuite", "SentiventPolarSuite", "SentiventClauseSuite"]
