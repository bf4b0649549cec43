"""VPC/LVC sentence extraction from a user's licensed BNC XML Edition (docs/protocols/lexcomp.md#vpc, PROVENANCE.md).

The released VPC/LVC files hold BNC ids only (``B/BN/BNN.xml/291`` = file ``Texts/B/BN/BNN.xml``, sentence
``<s n="291">``). Given the BNC directory, :func:`extract` rebuilds the examples in the protocol's extracted
format: the sentence lower-cased and ASCII-folded, ``start``/``end`` the first contiguous lemma match of
``span_text``.

Deviation, documented in docs/lexcomp.md: tokens and lemmas are the BNC's own ``<w>``/``<c>`` elements
and their ``hw`` (head word) attributes, not a spaCy re-tokenization: the BNC is already tokenized and
lemmatized, and spaCy's ``en`` model of 2019 is not available offline. Ids whose file or sentence is
missing, or whose span is not found, are not silently dropped as in the original script: they are
counted per reason and listed (first few) in the returned report.
"""
from __future__ import annotations

import unicodedata
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError


def ascii_fold(text: str) -> str:
    """Lower-case and strip accents (a stand-in for ``unidecode`` on the BNC's Latin text)."""
    norm = unicodedata.normalize("NFKD", text)
    return "".join(c for c in norm if not unicodedata.combining(c)).encode("ascii", "ignore").decode().lower()


def bnc_file(root: Path, bnc_id: str) -> Path:
    """Path of the XML file of an id; accepts ``root`` = the edition dir or its ``Texts/`` dir."""
    rel = bnc_id.rsplit("/", 1)[0]
    for base in (root / "Texts", root / "download" / "Texts", root):
        p = base / rel
        if p.is_file():
            return p
    return root / "Texts" / rel


def _sentences(path: Path, wanted: set[str]) -> dict[str, list[tuple[str, str]]]:
    """``{n: [(token, lemma), ...]}`` of the wanted ``<s n=...>`` elements of one BNC XML file."""
    out: dict[str, list[tuple[str, str]]] = {}
    for _, el in ET.iterparse(path, events=("end",)):
        if el.tag != "s":
            continue
        n = el.get("n")
        if n in wanted:
            toks = []
            for w in el.iter():
                if w.tag in ("w", "c") and (w.text or "").strip():
                    tok = ascii_fold(w.text.strip()).replace(" ", "_")
                    if not tok:
                        continue
                    lemma = ascii_fold(w.get("hw") or tok).replace(" ", "_")
                    toks.append((tok, lemma))
            out[n] = toks
        el.clear()
    return out


def find_span(lemmas: list[str], tokens: list[str], span: list[str]) -> tuple[int, int] | None:
    """First contiguous match of ``span`` (lemmas) in the sentence's lemmas (or its tokens)."""
    k = len(span)
    for i in range(len(lemmas) - k + 1):
        if all(span[j] in (lemmas[i + j], tokens[i + j]) for j in range(k)):
            return i, i + k - 1
    return None


def extract(root: Path, records: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Extracted examples for id records (from :func:`~.load.read_bnc_ids`), and a report of what failed.

    Raises ConfigError when ``root`` is not a directory or when no id at all could be resolved (the
    directory is then almost certainly not a BNC XML Edition).
    """
    if not root.is_dir():
        raise ConfigError(f"bnc_dir {str(root)!r} is not a directory (expected the BNC XML Edition, with Texts/)")
    by_file: dict[Path, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by_file[bnc_file(root, r["bnc_id"])].append(r)
    out: list[Any] = []
    failed: dict[str, list[Any]] = {"missing_file": [], "missing_sentence": [], "span_not_found": []}
    for path, recs in by_file.items():
        if not path.is_file():
            failed["missing_file"] += [r["bnc_id"] for r in recs]
            continue
        try:
            sents = _sentences(path, {r["bnc_id"].rsplit("/", 1)[1] for r in recs})
        except ET.ParseError as exc:
            raise ConfigError(f"{path}: not valid BNC XML ({exc})") from None
        for r in recs:
            toks = sents.get(r["bnc_id"].rsplit("/", 1)[1])
            if not toks:
                failed["missing_sentence"].append(r["bnc_id"])
                continue
            words, lemmas = [t for t, _ in toks], [lem for _, lem in toks]
            hit = find_span(lemmas, words, ascii_fold(r["span_text"]).split())
            if hit is None:
                failed["span_not_found"].append(r["bnc_id"])
                continue
            out.append({**r, "tokens": words, "span": hit})
    report = {"ids": len(records), "extracted": len(out),
              "dropped": {k: len(v) for k, v in failed.items()},
              "dropped_examples": {k: v[:5] for k, v in failed.items() if v}}
    if records and not out:
        raise ConfigError(f"bnc_dir {str(root)!r}: none of {len(records)} BNC ids could be resolved "
                          f"({report['dropped']}); is it the BNC XML Edition (Texts/A/A0/A00.xml ...)?")
    return out, report
