"""Options of the SENTiVENT suites (recorded in ``results.json``; they change the items' features).

They were constructor keywords of the old suite classes. ``lexicon`` picks the lexicon-feature setting
attached to every item (docs/protocols/sentivent.md#lexicon-features); ``lexicon_strict`` decides whether a malformed
line of a shipped lexicon file is an error or is skipped and recorded in the lexicon's notes. Neither has an env-var
default: they are set with ``--suite-arg`` or ``get_suite(..., lexicon=...)`` only.

Lexicons other than the shipped ones (the licensed SentiEcon, MSOL, SentiWordNet 3, LIWC that ``lexall``
needs) are Python objects, not options: pass them to :func:`.data.attach_lexicon_features`.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..spec import option
from .lexicon import SETTINGS

LEXICON_CHOICES = ("auto", *SETTINGS)


@dataclass(frozen=True)
class SentiventOptions:
    """Options of ``sentivent-polar`` and ``sentivent-clause``."""

    lexicon: str = option("auto", "lexicon-feature setting: auto (lexecon when the shipped lexicon files are "
                          "present, else nolex), nolex, lexecon (reduced economic set), lexecon+vader "
                          "(adds VADER; not a paper setting) or lexall (needs licensed lexicons)",
                          choices=LEXICON_CHOICES)
    lexicon_strict: bool = option(True, "a malformed line of a shipped lexicon file is an error (false: skip it "
                                  "and record it in the lexicon's notes)")
