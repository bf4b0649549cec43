"""Human review of generated ARTS variants: decisions, undo, resume, edit re-validation, curated output and audit
export (the logic behind ``sentiprobe arts review``; the web page is :mod:`sentiprobe.run.arts_review_server`).

The generator's rules cannot see every meaning error (a reversed opinion its context still contradicts, a negated
hedge, a wrong-sense antonym), so a person reads each variant once, as the ARTS authors did. Everything here is a
pure function of the generated file and a :class:`ReviewState`, so the page is a thin view and every decision path
is unit-tested. The state is a JSON sidecar (``GENERATED.review.json``) rewritten atomically after every action:
closing the page (or the server) loses nothing.

A decision keeps the variant's *working copy* (its text, the target's offsets and its label, which the reviewer may
fix or edit before deciding). An edit is re-validated: the target term must still occur (its offsets are the
occurrence nearest to where the old span maps through a character diff) and so must every other aspect that
occurred before the edit; otherwise the edit is refused with a message and nothing changes.
"""
from __future__ import annotations

import copy
import csv
import difflib
import hashlib
import io
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError, DataError
from ...core.io import atomic_write_text
from .audit_key import KEY_SCHEMA_VERSION, key_path, sample_fingerprint
from .formats import LABELS, ORIGINAL, parse_key, split_example_id
from .load import load_enriched, read_json_object

SCHEMA_VERSION = 1
REASONS: tuple[str, ...] = ("context clash", "negation sense", "antonym sense", "AddDiff clause", "other")
"""Reject tags, in the order of the keys 1-5 (the error classes the blind audits found)."""
_PIECES = re.compile(r"\w+|\s+|[^\w\s]")


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def state_path(generated: str | Path) -> Path:
    """The sidecar beside the generated file: ``GENERATED.review.json``."""
    p = Path(generated)
    return p.with_name(p.stem + ".review.json")


@dataclass(frozen=True)
class Generated:
    """A generated enriched file: raw records by key (provenance kept) and the variant keys in file order, then the
    items a reviewer writes for refused targets (``written``: key -> the generator's refusal; :mod:`.writein`)."""

    path: str
    sha256: str
    records: dict[str, dict[str, Any]]
    variants: tuple[str, ...]
    kinds: dict[str, str]
    written: dict[str, str] = field(default_factory=dict)


def load_generated(path: str | Path) -> Generated:
    """Read and check a generated enriched file (typed errors from the ARTS loader); variants in file order."""
    path = Path(path)
    load_enriched(path, warnings_out=[])  # every record and id checked: a bad file is a DataError naming it
    raw = read_json_object(path)
    kinds = {k: parse_key(k)[1] for k in raw}
    variants = tuple(k for k in raw if kinds[k] != ORIGINAL)
    if not variants:
        raise DataError("no variants to review (only originals)", path=path)
    return Generated(str(path), hashlib.sha256(path.read_bytes()).hexdigest(), raw, variants, kinds)


# ---- the working copy of a variant and its checks ------------------------------------------------------

def _prov(rec: dict[str, Any]) -> dict[str, Any]:
    """A record's provenance (``{}`` when it has none: the bare released format)."""
    p = rec.get("provenance")
    return p if isinstance(p, dict) else {}


def working_copy(gen: Generated, key: str) -> dict[str, Any]:
    """A variant's reviewable fields as generated: text, target offsets, label, and the other aspects' spans."""
    rec = gen.records[key]
    return {"sentence": rec["sentence"], "from": rec["from"], "to": rec["to"], "polarity": rec["polarity"],
            "aspects": _aspect_spans(gen, key, rec["sentence"])}


def _others(gen: Generated, key: str) -> list[dict[str, Any]]:
    """The other aspects of the variant's sentence (sources sharing its sentence id) and AddDiff's appended ones,
    with their labels in the variant (the generator's ``provenance.labels`` when present)."""
    rec = gen.records[key]
    src_id = rec["id"]
    sent_id = split_example_id(src_id)[0]
    prov = _prov(rec)
    labels: dict[str, Any] = prov["labels"] if isinstance(prov.get("labels"), dict) else {}
    out = []
    for k, r in gen.records.items():
        if gen.kinds[k] == ORIGINAL and k != src_id and split_example_id(k)[0] == sent_id:
            out.append({"id": k, "term": r["term"], "label": labels.get(k, r["polarity"]), "near": r["from"],
                        "appended": False})
    for a in prov.get("appended") or []:
        if isinstance(a, dict) and isinstance(a.get("term"), str):
            out.append({"id": f"appended:{a['term']}", "term": a["term"], "label": a.get("label", ""),
                        "near": len(rec["sentence"]), "appended": True})
    return out


def _locate(term: str, text: str, near: int) -> tuple[int, int] | None:
    """The occurrence of ``term`` in ``text`` nearest to ``near`` (a whole-word one when there is any)."""
    hits = [m.start() for m in re.finditer(re.escape(term), text)]
    whole = [h for h in hits if (h == 0 or not text[h - 1].isalnum())
             and (h + len(term) == len(text) or not text[h + len(term)].isalnum())]
    pool = whole or hits
    if not pool:
        return None
    best = min(pool, key=lambda h: (abs(h - near), h))
    return best, best + len(term)


def map_offset(old: str, new: str, pos: int) -> int:
    """Where character offset ``pos`` of ``old`` lands in ``new`` (through a character diff; an offset inside a
    replaced or deleted stretch lands at the start of its replacement)."""
    for op, i1, i2, j1, _j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if i1 <= pos < i2:
            return j1 + (pos - i1) if op == "equal" else j1
    return len(new)


def _aspect_spans(gen: Generated, key: str, text: str) -> dict[str, list[int]]:
    """Spans of the other aspects in the variant's text (those that occur in it)."""
    rec = gen.records[key]
    src = gen.records[rec["id"]]["sentence"]
    out = {}
    for o in _others(gen, key):
        near = o["near"] if o["appended"] else map_offset(src, text, o["near"])
        span = _locate(o["term"], text, near)
        if span is not None:
            out[o["id"]] = list(span)
    return out


def revalidate(gen: Generated, key: str, wc: dict[str, Any], new_text: str) -> dict[str, Any]:
    """The working copy after editing its text to ``new_text``, or a :class:`ConfigError` whose message says why
    the edit is refused (empty text, the target term or another aspect no longer occurs)."""
    if not isinstance(new_text, str) or not new_text.strip():
        raise ConfigError("the edited text is empty")
    new_text = new_text.strip("\r\n")
    if "\n" in new_text or "\r" in new_text:
        raise ConfigError("the edited text must stay one line (a sentence)")
    term = gen.records[key]["term"]
    old = wc["sentence"]
    span = _locate(term, new_text, map_offset(old, new_text, wc["from"]))
    if span is None:
        raise ConfigError(f"the target term {term!r} no longer occurs in the edited text")
    aspects = {}
    terms = {o["id"]: o["term"] for o in _others(gen, key)}
    for aid, (a, _b) in wc["aspects"].items():
        sp = _locate(terms[aid], new_text, map_offset(old, new_text, a))
        if sp is None:
            raise ConfigError(f"the aspect {terms[aid]!r} ({aid}) no longer occurs in the edited text")
        aspects[aid] = list(sp)
    return {**wc, "sentence": new_text, "from": span[0], "to": span[1], "aspects": aspects}


# ---- the review state ---------------------------------------------------------------------------------

@dataclass
class ReviewState:
    """Decisions, working copies, position and undo history of one review (the JSON sidecar)."""

    generated: str
    generated_sha256: str
    position: int = 0
    drafts: dict[str, dict[str, Any]] = field(default_factory=dict)
    decisions: dict[str, dict[str, Any]] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps({"schema_version": SCHEMA_VERSION, "generated": self.generated,
                           "generated_sha256": self.generated_sha256, "position": self.position,
                           "drafts": self.drafts, "decisions": self.decisions, "history": self.history},
                          indent=1, ensure_ascii=False) + "\n"


def new_state(gen: Generated) -> ReviewState:
    return ReviewState(gen.path, gen.sha256)


def load_state(gen: Generated, path: str | Path) -> ReviewState:
    """The saved state of ``gen``'s review, or a new one when there is no sidecar; a sidecar of another file
    (or of this file before it changed) is refused."""
    path = Path(path)
    if not path.exists():
        return new_state(gen)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"not a review state file: {exc}", path=path) from None
    if not isinstance(doc, dict) or doc.get("schema_version") != SCHEMA_VERSION:
        raise DataError(f"not a review state file (schema_version {SCHEMA_VERSION})", path=path)
    if doc.get("generated_sha256") != gen.sha256:
        raise ConfigError(f"{path} belongs to another version of {gen.path} (its sha256 differs): move it away "
                          "to start a new review")
    st = ReviewState(gen.path, gen.sha256, int(doc.get("position", 0)), dict(doc.get("drafts") or {}),
                     dict(doc.get("decisions") or {}), list(doc.get("history") or []))
    st.position = min(max(st.position, 0), len(gen.variants) - 1)
    return st


def save_state(state: ReviewState, path: str | Path) -> None:
    atomic_write_text(path, state.to_json())


def current(gen: Generated, st: ReviewState) -> dict[str, Any]:
    """The working copy of the variant at the current position (its draft, else as generated)."""
    key = gen.variants[st.position]
    return copy.deepcopy(st.drafts.get(key) or working_copy(gen, key))


def _record(st: ReviewState, key: str) -> None:
    st.history.append({"key": key, "position": st.position, "draft": copy.deepcopy(st.drafts.get(key)),
                       "decision": copy.deepcopy(st.decisions.get(key))})


def _advance(gen: Generated, st: ReviewState) -> None:
    """To the next undecided variant after the current one (wrapping), else the next one."""
    n = len(gen.variants)
    for step in range(1, n + 1):
        i = (st.position + step) % n
        if gen.variants[i] not in st.decisions:
            st.position = i
            return
    st.position = min(st.position + 1, n - 1)


def apply(gen: Generated, st: ReviewState, action: str, *, reviewer: str = "", reason: str | None = None,
          label: str | None = None, text: str | None = None, at: str | None = None) -> None:
    """Apply one action to the state (in place): ``accept``, ``reject`` (with a ``reason`` of :data:`REASONS`),
    ``label`` (a label, or the next in :data:`LABELS` when ``None``), ``edit`` (``text``; re-validated), ``undo``,
    ``next``, ``prev``. A label fix or an edit of a decided variant makes it undecided again. Refusals are
    :class:`ConfigError` and leave the state unchanged."""
    key = gen.variants[st.position]
    if action in ("next", "prev"):
        st.position = (st.position + (1 if action == "next" else -1)) % len(gen.variants)
        return
    if action == "undo":
        if not st.history:
            raise ConfigError("nothing to undo")
        h = st.history.pop()
        for name, box in (("draft", st.drafts), ("decision", st.decisions)):
            if h[name] is None:
                box.pop(h["key"], None)
            else:
                box[h["key"]] = h[name]
        st.position = gen.variants.index(h["key"])
        return
    wc = current(gen, st)
    if action == "label":
        if label is None:
            label = LABELS[(LABELS.index(wc["polarity"]) + 1) % len(LABELS)]
        if label not in LABELS:
            raise ConfigError(f"label {label!r} is not one of {list(LABELS)}")
        _record(st, key)
        st.drafts[key] = {**wc, "polarity": label}
        st.decisions.pop(key, None)  # a changed variant is undecided again (undo restores the decision)
        return
    if action == "edit":
        new = revalidate(gen, key, wc, text if text is not None else "")
        _record(st, key)
        st.drafts[key] = new
        st.decisions.pop(key, None)
        return
    if action in ("accept", "reject"):
        if action == "reject" and reason not in REASONS:
            raise ConfigError(f"reject needs a reason, one of {list(REASONS)}")
        rec = gen.records[key]
        if action == "accept" and key in gen.written and wc["sentence"] == rec["sentence"]:
            raise ConfigError("the generator refused this target: write its reversal first (e edits the text), or "
                              "reject it (r) when no honest reversal exists")
        _record(st, key)
        st.decisions[key] = {"decision": action, "reason": reason if action == "reject" else None,
                             "reviewer": reviewer, "at": at or now_iso(), **wc,
                             "label_fixed": wc["polarity"] != rec["polarity"],
                             "edited": wc["sentence"] != rec["sentence"]}
        _advance(gen, st)
        return
    raise ConfigError(f"unknown action {action!r}")


# ---- what the page shows ------------------------------------------------------------------------------

def word_diff(a: str, b: str) -> list[list[str]]:
    """``[[op, text], ...]`` with op ``=`` (kept), ``-`` (deleted from ``a``) or ``+`` (inserted in ``b``)."""
    x, y = _PIECES.findall(a), _PIECES.findall(b)
    out: list[list[str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, x, y, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(["=", "".join(x[i1:i2])])
            continue
        if i2 > i1:
            out.append(["-", "".join(x[i1:i2])])
        if j2 > j1:
            out.append(["+", "".join(y[j1:j2])])
    return out


def notes_of(rec: dict[str, Any]) -> list[str]:
    """The generator's notes and verdicts for a variant: edits, the choice's reasons, notes, verifier verdicts."""
    prov = rec.get("provenance")
    if not isinstance(prov, dict):
        return []
    out = []
    for e in prov.get("edits") or []:
        if isinstance(e, dict):
            out.append(f"edit {e.get('op', '?')}: {e.get('before', '')!r} -> {e.get('text', '')!r}"
                       + (f" ({e['detail']})" if e.get("detail") else ""))
    for c in prov.get("choice") or []:
        if isinstance(c, dict) and c.get("reason"):
            out.append(f"choice at {c.get('site', '?')}: {c['reason']}")
    out += [f"note: {n}" for n in prov.get("notes") or [] if isinstance(n, str)]
    for name in ("verifier", "verdict", "verdicts", "checks", "fluency", "review"):
        if name in prov:
            said = json.dumps(prov[name], ensure_ascii=False, sort_keys=True)
            out.append(_verdict_note(prov[name]) or f"{name}: {said}")
    return out


def _verdict_note(v: Any) -> str | None:
    """A generation verifier's verdict (``provenance.verifier`` of ``arts generate --verifier``) in words."""
    if not isinstance(v, dict) or not isinstance(v.get("verifier"), str) or "condition_holds" not in v:
        return None
    if v.get("error"):
        return f"verifier {v['verifier']}: no usable verdict ({v['error']})"
    def said(x: Any) -> str:
        return "yes" if x is True else "no" if x is False else "?"

    return (f"verifier {v['verifier']}: fluent {said(v.get('fluent'))}, target reads "
            f"{v.get('target_sentiment')}, condition holds {said(v.get('condition_holds'))}"
            + (f" -- {v['notes']}" if v.get("notes") else ""))


def view(gen: Generated, st: ReviewState) -> dict[str, Any]:
    """Everything the page shows for the current variant (plain data; the page sets it as text, never HTML)."""
    key = gen.variants[st.position]
    rec = gen.records[key]
    src = gen.records[rec["id"]]
    wc = current(gen, st)
    prov = _prov(rec)
    others = [{"id": o["id"], "term": o["term"], "label": o["label"], "appended": o["appended"],
               "present": o["id"] in wc["aspects"]} for o in _others(gen, key)]
    return {"key": key, "position": st.position, "total": len(gen.variants), "reviewed": len(st.decisions),
            "strategy": prov.get("strategy") or gen.kinds[key], "source": src["sentence"],
            "source_label": src["polarity"], "generated_sentence": rec["sentence"], "generated_label": rec["polarity"],
            "sentence": wc["sentence"], "term": rec["term"], "from": wc["from"], "to": wc["to"],
            "label": wc["polarity"], "diff": word_diff(src["sentence"], wc["sentence"]), "others": others,
            "notes": notes_of(rec), "decision": st.decisions.get(key), "drafted": key in st.drafts,
            "refusal": gen.written.get(key), "to_write": len(gen.written),
            "can_undo": bool(st.history), "reasons": list(REASONS), "labels": list(LABELS)}


# ---- outputs ------------------------------------------------------------------------------------------

def curated(gen: Generated, st: ReviewState) -> dict[str, dict[str, Any]]:
    """The curated file's records: every accepted variant (with its fixes and edits) and its source, in the
    generator's format (sorted keys), each variant's provenance recording who reviewed it, when, and what changed."""
    out: dict[str, dict[str, Any]] = {}
    for key in gen.variants:
        d = st.decisions.get(key)
        if d is None or d["decision"] != "accept":
            continue
        rec = copy.deepcopy(gen.records[key])
        src_id = rec["id"]
        out[src_id] = copy.deepcopy(gen.records[src_id])
        rec.update(sentence=d["sentence"], polarity=d["polarity"], **{"from": d["from"], "to": d["to"]})
        prov = _prov(rec)
        review = {"decision": "accept", "reviewer": d["reviewer"], "at": d["at"], "label_fixed": d["label_fixed"],
                  "edited": d["edited"], "aspects": d["aspects"]}
        if d["label_fixed"]:
            review["generated_label"] = gen.records[key]["polarity"]
        if d["edited"] and key not in gen.written:
            review["generated_sentence"] = gen.records[key]["sentence"]
        rec["provenance"] = {**prov, "review": review}
        out[key] = rec
    return {k: out[k] for k in sorted(out)}


def write_curated(gen: Generated, st: ReviewState, path: str | Path) -> int:
    """Write :func:`curated` (refusing to overwrite the generated file); the number of accepted variants."""
    if Path(path).resolve() == Path(gen.path).resolve():
        raise ConfigError(f"--out {path} is the generated file itself")
    recs = curated(gen, st)
    atomic_write_text(path, json.dumps(recs, indent=4, ensure_ascii=True) + "\n")
    return sum(1 for k in recs if gen.kinds[k] != ORIGINAL)


def export_audit(gen: Generated, st: ReviewState, path: str | Path) -> int:
    """The decisions as a filled-in ``arts audit-sample`` sheet and its answer key (``PATH.key.json``), so
    ``sentiprobe arts audit-score PATH`` scores the generator from the review. Each decided variant is one row
    showing its text as generated: an accept with the text unchanged is fluent, an edit or a reject is not (the
    text was not usable as written); the label is the one the reviewer settled on (a fixed label counts as a
    wrong label); the notes column carries the reject tag, the reviewer and the time. Items written for refused
    targets are left out: they are the reviewer's sentences, not the generator's."""
    if Path(path).resolve() == Path(gen.path).resolve():
        raise ConfigError(f"--export-audit {path} is the generated file itself")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(("sample_id", "term", "sentence", "fluent", "label", "notes"))
    key_doc: dict[str, Any] = {"schema_version": KEY_SCHEMA_VERSION, "sample_id": "", "generated": gen.path,
                               "source": "sentiprobe arts review", "items": {}}
    n = 0
    for key in gen.variants:
        d = st.decisions.get(key)
        if d is None or key in gen.written:
            continue
        n += 1
        rec = gen.records[key]
        fluent = "yes" if d["decision"] == "accept" and not d["edited"] else "no"
        note = f"{d['decision']}" + (f": {d['reason']}" if d.get("reason") else "") + (
            "; edited" if d["edited"] else "") + f"; {d['reviewer']} {d['at']}"
        w.writerow((n, rec["term"], rec["sentence"], fluent, d["polarity"], note))
        prov = _prov(rec)
        key_doc["items"][str(n)] = {"key": key, "strategy": prov.get("strategy") or gen.kinds[key],
                                    "label": rec["polarity"], "term": rec["term"], "sentence": rec["sentence"],
                                    "source_sentence": gen.records[rec["id"]]["sentence"]}
    key_doc["sample_id"] = sample_fingerprint([(n, it["term"].strip(), it["sentence"].strip())
                                               for n, it in key_doc["items"].items()])
    atomic_write_text(path, buf.getvalue())
    atomic_write_text(key_path(path), json.dumps(key_doc, indent=1, ensure_ascii=False) + "\n")
    return n
