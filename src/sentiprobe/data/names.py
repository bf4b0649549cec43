"""Map user-facing names (a data family, or a suite name) to data families.

The data layer imports nothing from ``sentiprobe.suites``; callers that know the suites (the CLI) pass a
``{suite name: family}`` mapping so that ``arts-laptop`` resolves to ``arts``.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..core.errors import UnknownNameError
from .manifest import Manifest, load_manifest


def resolve_families(names: str | Iterable[str] | None, suite_families: Mapping[str, str] | None = None,
                     manifest: Manifest | None = None) -> list[str] | None:
    """Families for ``names`` (``None`` -> ``None``, meaning all).

    Each name is a family of the manifest or, when ``suite_families`` is given, a suite name mapped to its
    family. Unknown names raise UnknownNameError with did-you-mean over families and suites.
    """
    if names is None:
        return None
    if isinstance(names, str):
        names = [names]
    m = manifest or load_manifest()
    suites = dict(suite_families or {})
    out: list[str] = []
    for n in names:
        fam = n if n in m.families else suites.get(n)
        if fam is None or fam not in m.families:
            raise UnknownNameError("data family or suite", n, list(m.families) + list(suites))
        if fam not in out:
            out.append(fam)
    return out
