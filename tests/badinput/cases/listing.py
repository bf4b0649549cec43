"""``sentiprobe list``: an unknown listing is a usage error."""
from __future__ import annotations

from corpus import Case, nothing


def cases() -> list[Case]:
    return [Case("list-unknown", ("list", "everything"), nothing, 2, ("invalid choice",))]
