"""Inflection for the corrected generator's edits (``lemminflect``: offline word lists, no model download).

Used where an edit changes a verb's form (*didn't like* -> *liked*, *works* -> *doesn't work*) or an
antonym must take the replaced word's form (*better* -> *worse*, *loved* -> *hated*). Without the
package (it is part of the ``generate`` extra) a small regular-inflection fallback is used.
"""
from __future__ import annotations

from functools import lru_cache

_UPOS_OF_TAG = {"J": "ADJ", "V": "VERB", "N": "NOUN", "R": "ADV"}


@lru_cache(maxsize=1)
def _lemminflect():
    try:
        import lemminflect  # optional extra [generate], heavy: imported only when used
    except ModuleNotFoundError:
        return None
    return lemminflect


@lru_cache(maxsize=65536)
def lemma(word: str, upos: str | None = None) -> str:
    """The lemma of ``word`` (lower-cased), for ``upos`` when given, else the first of VERB/ADJ/NOUN/ADV."""
    w = word.lower()
    li = _lemminflect()
    if li is None:
        return w
    for up in ([upos] if upos else ["VERB", "ADJ", "NOUN", "ADV"]):
        got = li.getLemma(w, upos=up)
        if got and got[0] != w:
            return got[0]
    return w


@lru_cache(maxsize=65536)
def inflect(base: str, tag: str) -> str:
    """``base`` in the form of PTB ``tag`` (``like``/VBZ -> ``likes``, ``bad``/JJR -> ``worse``), else ``base``."""
    li = _lemminflect()
    if li is not None:
        got = li.getInflection(base, tag=tag)
        if got:
            return got[0]
        return base
    if tag == "VBZ":
        return base + ("es" if base.endswith(("s", "sh", "ch", "x", "o")) else "s")
    if tag in ("VBD", "VBN"):
        return base + ("d" if base.endswith("e") else "ed")
    if tag == "NNS":
        return base + "s"
    return base


def base_form(word: str, tag: str) -> str:
    """The uninflected form of ``word`` given its PTB tag (``loved``/VBD -> ``love``)."""
    return lemma(word, _UPOS_OF_TAG.get(tag[:1]))
