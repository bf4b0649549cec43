"""Secrets out of every text: an API key in any encoding a server may echo it in, and header values.

Written here rather than taken from a library: the scrubbers on PyPI (e.g. ``detect-secrets``) find secrets by
shape, while this must find one *known* key in a server's reply however it was transformed (case, separators,
JSON/URL/HTML escapes, fullwidth letters), and nothing else.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Sequence

REDACTED = "***"
"""What replaces a secret."""

# "Authorization: Bearer x", "api-key=x", '"x-api-key": "x"': keep the header name (and scheme), hide the value
_HEADER_VALUE = re.compile(
    r"(?i)\b((?:proxy-)?authorization|(?:x-)?api[-_]key)(\"?\s*[:=]\s*\"?)((?:bearer|basic|token)\s+)?"
    r"[^\s\"',;}\]]+")
# a bearer token anywhere else (a server that echoes only the header's value); a token has a digit, so
# prose such as "bearer instruments" in a model's reply is left alone
_BEARER = re.compile(r"(?i)\b(bearer\s+)(?=[A-Za-z._~+/-]*\d)[A-Za-z0-9._~+/-]{8,}=*")


# between a secret's characters: whitespace, dots, dashes, underscores and the invisible format characters
# (soft hyphen, zero-width and direction marks, word joiners, BOM), as themselves or as JSON / HTML escapes
_INVISIBLE = "\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff"
_SEPARATORS = (r"(?:[\s._\-\uff0d\uff0e\uff3f" + _INVISIBLE + r"]"
               r"|\\+u(?:00(?:20|2d|2e|5f|ad)|180e|200[b-f]|202[a-e]|206[0-4]|3000|feff|ff0d|ff0e|ff3f)"
               r"|%(?:20|2d|2e|5f)|&#0*(?:32|45|46|95|173|8203|8204|8205|8288|65279);"
               r"|&#x0*(?:20|2d|2e|5f|ad|200b|200c|200d|2060|feff);)*")
_MIN_FUZZY = 8  # shorter secrets are matched exactly only (a fuzzy short pattern would hit ordinary text)


def _char_forms(c: str) -> str:
    """One character of a secret in every encoding a reply may carry it in: itself (any case), its fullwidth
    form, a JSON ``\\uXXXX`` escape (also doubly escaped), a URL ``%XX`` escape and an HTML numeric entity."""
    forms = [re.escape(c)]
    for v in {c, c.lower(), c.upper()}:
        o = ord(v)
        forms += [rf"\\+u{o:04x}", rf"&#0*{o};", rf"&#x0*{o:x};"]
        if o < 0x80:
            forms.append(rf"%{o:02x}")
        if 0x21 <= o <= 0x7E:
            forms.append(re.escape(chr(o + 0xFEE0)))
    return "(?:" + "|".join(forms) + ")"


@functools.lru_cache(maxsize=64)
def _secret_pattern(secret: str) -> re.Pattern[str]:
    """The secret in any letter case, with whitespace, invisible format characters, dots, dashes or underscores
    between its characters, and each character possibly escaped (JSON ``\\u0073``, URL ``%73``, HTML ``&#115;``,
    fullwidth): ``sk-abc`` matches ``SK-ABC``, ``s k - a b c``, ``s_k_a_b_c``, ``\\u0073\\u006b-abc``."""
    chars = [c for c in secret if not c.isspace() and c not in "._-"]  # the key's own separators may change too
    return re.compile(_SEPARATORS.join(_char_forms(c) for c in chars), re.IGNORECASE)


def redact(text: str, secrets: Sequence[str]) -> str:
    """``text`` with each non-empty secret and every ``Authorization`` / ``api-key`` header value as ``***``.

    A secret is found in its normalised and encoded forms too (any letter case; spaces, zero-width and other
    invisible format characters, dots, dashes or underscores between its characters; characters written as
    JSON ``\\uXXXX`` escapes, URL escapes, HTML entities or fullwidth letters), so a server that echoes the key
    lower-cased, spelled out or escaped (to be decoded later, e.g. inside a JSON reply) cannot leak it. The
    header patterns catch keys the adapter was not told about (a proxy that adds its own header and echoes it).
    """
    for s in secrets:
        if s:
            text = text.replace(s, REDACTED)
            if len(s) >= _MIN_FUZZY:
                text = _secret_pattern(s).sub(REDACTED, text)
    text = _HEADER_VALUE.sub(lambda m: f"{m.group(1)}{m.group(2)}{m.group(3) or ''}{REDACTED}", text)
    return _BEARER.sub(lambda m: f"{m.group(1)}{REDACTED}", text)
