"""Targets the generator refused, as items a reviewer writes (``sentiprobe arts review --write-refused``).

The generator keeps a RevTgt variant only where a local edit reads well; it refuses the rest with a reason in its
report (``GENERATED.report.json``, ``skipped``). The ARTS authors' test sets reverse every polar target because
people post-edited the rules' output, and the review page closes the same loop: with ``--write-refused`` every
polar target refused under RevTgt becomes an item after the generated variants. Its working copy starts as the
source sentence with the reversed label, the page shows the refusal, and the reviewer writes the reversed sentence
(``e``) and accepts it, or rejects the target with a tag when no honest reversal exists. An item is never accepted
as the unchanged source. Accepted items go to the curated file as RevTgt variants whose provenance records that a
person wrote them and why the generator had refused; the audit export leaves them out (they are not the generator's
output, so they say nothing about it).

The report is read as untrusted input: a malformed one is a :class:`DataError` naming the file, the entry and the
field, and an entry naming a record the generated file does not hold means the report belongs to another file.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.errors import DataError
from .formats import FLIP, KIND_SUFFIX, ORIGINAL

if TYPE_CHECKING:
    from .review import Generated

POLAR = ("positive", "negative")
WRITTEN = "written"
"""The provenance field of a written item: ``{"refusal": the generator's reason}``."""


def refused_targets(report: Any, gen: Generated, path: str | Path) -> dict[str, str]:
    """``{source id: reason}`` of the polar targets of ``gen`` refused under RevTgt with no RevTgt variant in the
    file, in the report's order (the first reason of a target); ``report`` is the parsed generation report."""
    if not isinstance(report, dict) or not isinstance(report.get("skipped"), list):
        raise DataError("not a generation report: no 'skipped' list", path=path, field="skipped")
    out: dict[str, str] = {}
    for i, s in enumerate(report["skipped"]):
        if not isinstance(s, dict):
            raise DataError("a skipped entry is not an object", path=path, record=f"skipped[{i}]")
        for name in ("record", "stage", "reason"):
            if not isinstance(s.get(name), str):
                raise DataError(f"'{name}' is not a string", path=path, record=f"skipped[{i}]", field=name)
        if s["stage"] != "revtgt":
            continue
        rec = gen.records.get(s["record"])
        if rec is None or gen.kinds[s["record"]] != ORIGINAL:
            raise DataError(f"the report refuses {s['record']!r}, which the generated file {gen.path} does not hold "
                            "as a source: is the report another file's?", path=path, record=f"skipped[{i}]",
                            field="record")
        if rec["polarity"] in POLAR and s["record"] + KIND_SUFFIX["revtgt"] not in gen.records:
            out.setdefault(s["record"], s["reason"])
    return out


def read_report(path: str | Path) -> tuple[Any, str]:
    """The parsed report at ``path`` and the sha256 of its bytes (a DataError when it is missing or not JSON)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
        return json.loads(raw.decode("utf-8")), hashlib.sha256(raw).hexdigest()
    except FileNotFoundError:
        raise DataError("--write-refused reads the generation report beside the generated file, and there is none "
                        "(`sentiprobe arts generate` writes it as <out>.report.json)", path=path) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"not a generation report: {exc}", path=path) from None


def report_path(out_path: str | Path) -> Path:
    """Where ``sentiprobe arts generate --out OUT`` writes its report: ``OUT``'s stem + ``.report.json``."""
    p = Path(out_path)
    return p.with_name(p.stem + ".report.json")


def with_refused(gen: Generated, report: str | Path | None = None) -> Generated:
    """``gen`` with one item to write per refused polar target (see the module docstring) after its variants, read
    from ``report`` (default: the report beside the generated file); the fingerprint covers the report too, so a
    review state belongs to one choice of items."""
    path = Path(report) if report is not None else report_path(gen.path)
    report_doc, report_sha = read_report(path)
    refused = refused_targets(report_doc, gen, path)
    records = dict(gen.records)
    kinds = dict(gen.kinds)
    written: dict[str, str] = {}
    for src_id, reason in refused.items():
        src = gen.records[src_id]
        key = src_id + KIND_SUFFIX["revtgt"]
        records[key] = {"sentence": src["sentence"], "term": src["term"], "polarity": FLIP[src["polarity"]],
                        "id": src_id, "from": src["from"], "to": src["to"],
                        "provenance": {"strategy": "revtgt", WRITTEN: {"refusal": reason}}}
        kinds[key] = "revtgt"
        written[key] = reason
    sha = hashlib.sha256(f"{gen.sha256}:{report_sha}".encode()).hexdigest()
    return replace(gen, sha256=sha, records=records, variants=gen.variants + tuple(written), kinds=kinds,
                   written=written)
