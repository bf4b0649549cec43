"""The soul suites (see ../shared/specs/soul.md and docs/soul.md).

- ``soul-rc``: review comprehension (true / false / not-given);
- ``soul-jg``: justification generation (label + justification).
"""
from __future__ import annotations

from ..base import SUITES
from .suite import SoulJG, SoulRC, SoulSuite

__all__ = ["SoulJG", "SoulRC", "SoulSuite"]

for _cls in (SoulRC, SoulJG):
    if _cls.name not in SUITES:
        SUITES.register(_cls.name, _cls, description=_cls.description)
