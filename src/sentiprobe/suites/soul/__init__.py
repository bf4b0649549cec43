"""The soul suites (see ../shared/specs/soul.md and docs/soul.md).

- ``soul-rc``: review comprehension (true / false / not-given);
- ``soul-jg``: justification generation (label + justification).
"""
from __future__ import annotations

from ..legacy import register_legacy
from .suite import SoulJG, SoulRC, SoulSuite

__all__ = ["SoulJG", "SoulRC", "SoulSuite"]

for _cls in (SoulRC, SoulJG):
    register_legacy(_cls)
