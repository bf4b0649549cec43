"""Validity audit of generated variants: automatic checks, a human-judgement sample, and its scoring.

Automatic checks (per variant, counted per strategy, with the failing examples):

- ``label_rule``: RevTgt flipped a polar target's label (neutral stays neutral); RevNon/AddDiff kept it;
- ``target_opinion_changed`` (RevTgt): an edit touched one of the target's opinion spans (or negated the
  copula governing it);
- ``non_targets_reversed`` (RevNon): every non-target with its own opinions was flipped (same label) or
  intensified (different label) — or the original rules skip it (shared opinion, neutral-neutral);
- ``appended_new_aspect`` (AddDiff): no appended term is an aspect of the sentence (case-insensitive);
- ``appended_opposite`` (AddDiff): appended aspects carry a label different from a polar target's;
- ``antonym_keeps_pos``: an antonym gets the replaced word's PTB tag when the variant is parsed;
- ``no_double_negation``: no ``not not`` / ``not hasn't`` / ``never no`` patterns were produced;
- ``parses``: the variant's dependency parse has no more roots than its source's (a cheap fluency proxy);
- ``term_offsets``: ``sentence[from:to] == term``;
- ``surface_identical`` (RevTgt/RevNon): no character-diff hunk made only of spaces or punctuation (the
  faithful mode's detokenisation changes ``$12`` to ``$ 12``; the corrected mode edits character offsets).

``audit_sample`` writes a blind, seeded, strategy-stratified CSV for people to judge (blank ``fluent`` and
``label`` columns; the answer key beside it); ``audit_score`` turns the filled-in sheet into fluency, label
validity and both, per strategy, with Wilson intervals (:mod:`sentiprobe.stats.proportion`).
"""
from __future__ import annotations

import csv
import difflib
import io
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError, DataError
from ...core.io import atomic_write_text, read_user_text
from ...stats.level import alpha_of
from ...stats.proportion import wilson_interval
from ...suites.arts.audit_key import KEY_SCHEMA_VERSION, key_path, sample_fingerprint
from ...suites.arts.formats import FLIP, ORIGINAL
from ...suites.arts.load import load_enriched
from .charedit import NEGATION_OPS
from .inputs import parse_json
from .text import tokenize

MAX_FAILURES = 5
_DOUBLE_NEG = re.compile(r"\b(not|never|no)\s+(not|never|no|\w+n't)\b|n't\s+(not|never)\b", re.IGNORECASE)
CHECKS = ("label_rule", "target_opinion_changed", "non_targets_reversed", "appended_new_aspect", "appended_opposite",
          "antonym_keeps_pos", "no_double_negation", "parses", "term_offsets", "surface_identical")
_PUNCT_SPACE = re.compile(r"^[\s\W_]*$")
_PIECES = re.compile(r"\w+|\s+|[^\w\s]")


def surface_damage(source: str, variant: str) -> list[tuple[str, str]]:
    """Character-diff hunks between source and variant made only of spaces or punctuation (``$12`` -> ``$ 12``,
    ``rushed - we`` -> ``rushed-we``): damage outside the edits, which the corrected mode never makes."""
    a_toks, b_toks = _PIECES.findall(source), _PIECES.findall(variant)
    ops = difflib.SequenceMatcher(None, a_toks, b_toks, autojunk=False).get_opcodes()
    out = []
    for k, (op, i1, i2, j1, j2) in enumerate(ops):
        if op == "equal":
            continue
        a, b = "".join(a_toks[i1:i2]), "".join(b_toks[j1:j2])
        if not (_PUNCT_SPACE.match(a) and _PUNCT_SPACE.match(b)):
            continue
        # a hunk touching a word edit belongs to that edit (*went* -> *didn't go* splits off the apostrophe)
        near = [ops[x] for x in (k - 1, k + 1) if 0 <= x < len(ops) and ops[x][0] != "equal"]
        if any(not _PUNCT_SPACE.match("".join(a_toks[n[1]:n[2]]) + "".join(b_toks[n[3]:n[4]])) for n in near):
            continue
        out.append((a, b))
    return out


class _Tally:
    def __init__(self) -> None:
        self.data: dict[str, dict[str, dict[str, Any]]] = {}

    def add(self, strategy: str, check: str, ok: bool, example: dict[str, Any]) -> None:
        d = self.data.setdefault(strategy, {}).setdefault(check, {"checked": 0, "failed": 0, "failures": []})
        d["checked"] += 1
        if not ok:
            d["failed"] += 1
            if len(d["failures"]) < MAX_FAILURES:
                d["failures"].append(example)


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def audit(gen, parse: bool = True) -> dict[str, Any]:
    """Automatic checks over a :class:`~.pipeline.Generated` (see the module docstring)."""
    tally = _Tally()
    preps = {pa.aspect.id: (p, pa) for p in gen.prepared for pa in p.aspects}
    parsed: dict[str, Any] = {}
    kit_parser = getattr(gen, "parser", None)
    if parse and kit_parser is not None:
        toks = [tuple(tokenize(v.sentence)) for v in gen.variants]
        for v, pr in zip(gen.variants, kit_parser.parse_many(toks)):
            parsed[v.key] = pr
    for v in gen.variants:
        p, pa = preps[v.source_id]
        src_label = pa.aspect.polarity
        ex = {"key": v.key, "source": p.sentence.text, "variant": v.sentence}
        base = v.kind.split("_")[0] if v.kind.startswith("adddiff") else v.kind
        want = FLIP[src_label] if v.kind == "revtgt" else src_label
        tally.add(v.kind, "label_rule", v.polarity == want, ex)
        tally.add(v.kind, "term_offsets", v.sentence[v.start:v.end] == v.term, ex)
        tally.add(v.kind, "no_double_negation", not _DOUBLE_NEG.search(v.sentence), ex)
        chars = any(getattr(e, "unit", "token") == "char" for e in v.edits)
        if v.kind == "revtgt":
            spans = pa.aspect.opinions if chars else pa.opinions
            ok = any(_overlaps((e.start, e.end), op) for e in v.edits for op in spans) or any(
                e.op in NEGATION_OPS for e in v.edits)
            tally.add(v.kind, "target_opinion_changed", ok, ex)
        if v.kind == "revnon" and not chars:  # corrected RevNon may leave a non-target it cannot edit validly
            tally.add(v.kind, "non_targets_reversed", _non_targets_ok(p, pa, v), ex)
        if v.kind in ("revtgt", "revnon"):
            tally.add(v.kind, "surface_identical", not surface_damage(p.sentence.text, v.sentence), ex)
        if base == "adddiff" or v.kind == "revnon_adddiff":
            terms = {o.aspect.term.lower() for o in p.aspects}
            tally.add(v.kind, "appended_new_aspect", all(a["term"].lower() not in terms for a in v.appended), ex)
            if src_label != "neutral":
                tally.add(v.kind, "appended_opposite", all(a["label"] != src_label for a in v.appended), ex)
        pr = parsed.get(v.key)
        if pr is not None:
            roots = sum(d == "ROOT" for d in pr.deps)
            tally.add(v.kind, "parses", roots <= max(1, sum(d == "ROOT" for d in p.parse.deps)), ex)
            for e in v.edits:
                if chars or e.op != "antonym" or e.start >= len(p.parse.tags):
                    continue
                hits = [i for i, t in enumerate(pr.tokens) if t == e.text]
                if hits:
                    i = min(hits, key=lambda j: abs(j - e.start))
                    tally.add(v.kind, "antonym_keeps_pos", pr.tags[i] == p.parse.tags[e.start],
                              {**ex, "word": e.before, "antonym": e.text, "tag_before": p.parse.tags[e.start],
                               "tag_after": pr.tags[i]})
    skipped = Counter(s.reason if not s.reason.startswith("offsets") else "offsets do not match the term"
                      for s in gen.skipped if s.stage == "input")
    return {"checks": {k: {c: tally.data[k][c] for c in CHECKS if c in tally.data[k]} for k in sorted(tally.data)},
            "input_records_skipped": dict(skipped.most_common()),
            "summary": {k: {c: f"{d['checked'] - d['failed']}/{d['checked']}" for c, d in checks.items()}
                        for k, checks in sorted(tally.data.items())}}


def _non_targets_ok(p, pa, v) -> bool:
    for o in p.aspects:
        if o is pa or not o.opinions or set(o.opinions) & set(pa.opinions):
            continue
        if o.aspect.polarity == pa.aspect.polarity == "neutral":
            continue
        touched = any(_overlaps((e.start, e.end), op) or e.start == op[0] for e in v.edits for op in o.opinions)
        if not touched:
            return False
    return True


# ---- human judgement -------------------------------------------------------------------------------

SAMPLE_COLUMNS = ("sample_id", "term", "sentence", "fluent", "label", "notes")
_LABEL_ALIASES = {"positive": "positive", "pos": "positive", "p": "positive", "+": "positive",
                  "negative": "negative", "neg": "negative", "n": "negative", "-": "negative",
                  "neutral": "neutral", "neu": "neutral", "0": "neutral", "o": "neutral"}


def audit_sample(enriched: str | Path, out: str | Path, *, per_strategy: int = 50, seed: int = 0) -> dict[str, int]:
    """A blind sample to judge: ``per_strategy`` variants of each strategy (seeded), shuffled together, each
    shown as its sentence and target term only (no label, no source, no strategy). The answer key (strategy,
    key, variant label, source sentence) goes to ``<out>.key.json``; :func:`audit_score` joins them."""
    if isinstance(per_strategy, bool) or not isinstance(per_strategy, int) or per_strategy < 1:
        raise ConfigError(f"--per-strategy must be a positive integer, not {per_strategy!r}")
    if Path(out).resolve() == Path(enriched).resolve():
        raise ConfigError(f"--out {out} is the generated file itself")
    recs = load_enriched(enriched, warnings_out=[])
    by_kind: dict[str, list] = {}
    for e in recs.values():
        if e.kind != ORIGINAL:
            by_kind.setdefault(e.kind, []).append(e)
    rng = random.Random(f"{seed}:audit")
    picked = []
    counts = {}
    for kind in sorted(by_kind):
        pool = sorted(by_kind[kind], key=lambda e: e.item_key)
        pick = rng.sample(pool, min(per_strategy, len(pool)))
        counts[kind] = len(pick)
        picked += pick
    rng.shuffle(picked)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(SAMPLE_COLUMNS)
    key: dict[str, Any] = {"schema_version": KEY_SCHEMA_VERSION, "sample_id": "", "generated": str(enriched),
                           "seed": seed, "per_strategy": per_strategy, "items": {}}
    for n, e in enumerate(picked, 1):
        w.writerow([n, e.term, e.sentence, "", "", ""])
        key["items"][str(n)] = {"key": e.key, "strategy": e.kind, "label": e.polarity, "term": e.term,
                                "sentence": e.sentence, "source_sentence": recs[e.source_id].sentence}
    key["sample_id"] = sample_fingerprint([(n, it["term"].strip(), it["sentence"].strip())
                                           for n, it in key["items"].items()])
    atomic_write_text(out, buf.getvalue())
    atomic_write_text(key_path(out), json.dumps(key, indent=1, ensure_ascii=False) + "\n")
    return counts


_YES = {"1", "y", "yes", "true", "ok", "fluent"}
_NO = {"0", "n", "no", "false", "not fluent", "disfluent"}


def _rate(k: int, n: int, alpha: float) -> dict[str, Any]:
    """A rate with the Wilson interval of :mod:`sentiprobe.stats.proportion` (statsmodels' ``method="wilson"``)."""
    lo, hi = wilson_interval(k, n, alpha)
    return {"yes": k, "n": n, "rate": k / n if n else None, "ci_low": lo, "ci_high": hi}


def audit_score(path: str | Path, *, key: str | Path | None = None, confidence: float) -> dict[str, Any]:
    """Fluency, label validity (the judge's label equals the variant's) and both, per strategy and overall,
    with Wilson intervals at ``confidence``, from a filled-in :func:`audit_sample` sheet."""
    alpha = alpha_of(confidence)  # ConfigError before any work
    text = read_user_text(path, "audit judgements")
    try:
        rows = list(csv.DictReader(io.StringIO(text, newline="")))
    except csv.Error as exc:
        raise DataError(f"invalid CSV: {exc}", path=path) from None
    if not rows or any(c not in rows[0] for c in ("sample_id", "fluent", "label")):
        raise DataError("expected the columns 'sample_id', 'fluent' and 'label' (from `sentiprobe arts audit-sample`)",
                        path=path)
    kpath = Path(key) if key is not None else key_path(path)
    kdoc = parse_json(kpath, "audit answer key")
    items = kdoc.get("items") if isinstance(kdoc, dict) else None
    if isinstance(kdoc, dict) and kdoc.get("schema_version") == 1 and isinstance(items, dict):
        raise DataError("an answer key written before keys named their sample cannot be matched to its sheet: "
                        "draw the sample again (`sentiprobe arts audit-sample` with the same file, --per-strategy "
                        "and --seed gives the same sheet) and copy the judgements over", path=kpath)
    if not isinstance(items, dict) or kdoc.get("schema_version") != KEY_SCHEMA_VERSION \
            or not isinstance(kdoc.get("sample_id"), str):
        raise DataError(f"not an audit answer key (schema_version {KEY_SCHEMA_VERSION} with 'sample_id' and "
                        "'items')", path=kpath)
    _check_sheet_matches_key(rows, items, kdoc["sample_id"], path, kpath)
    tally: dict[str, dict[str, list[int]]] = {}
    unjudged: Counter = Counter()
    for i, r in enumerate(rows, 2):
        sid = (r.get("sample_id") or "").strip()
        item = items[sid]
        s = item["strategy"]
        t = tally.setdefault(s, {m: [0, 0] for m in ("fluent", "label", "valid")})
        f = (r.get("fluent") or "").strip().lower()
        lab = (r.get("label") or "").strip().lower()
        if f and f not in _YES | _NO:
            raise DataError(f"fluency judgement {r.get('fluent')!r} is not yes/no (or 1/0)", path=path,
                            record=f"line {i}", field="fluent")
        if lab and lab not in _LABEL_ALIASES:
            raise DataError(f"label {r.get('label')!r} is not positive/negative/neutral", path=path,
                            record=f"line {i}", field="label")
        if not f and not lab:
            unjudged[s] += 1
            continue
        if f:
            t["fluent"][0] += f in _YES
            t["fluent"][1] += 1
        if lab:
            ok = _LABEL_ALIASES[lab] == item.get("label")
            t["label"][0] += ok
            t["label"][1] += 1
            if f:
                t["valid"][0] += ok and f in _YES
                t["valid"][1] += 1
    out: dict[str, Any] = {"file": str(path), "key": str(kpath), "confidence": float(confidence), "ci_method": "wilson",
                           "strategies": {}}
    total = {m: [0, 0] for m in ("fluent", "label", "valid")}
    for s, t in sorted(tally.items()):
        out["strategies"][s] = {m: _rate(t[m][0], t[m][1], alpha) for m in t} | {"unjudged": unjudged.get(s, 0)}
        for m in t:
            total[m][0] += t[m][0]
            total[m][1] += t[m][1]
    out["overall"] = {m: _rate(total[m][0], total[m][1], alpha) for m in total} | {"unjudged": sum(unjudged.values())}
    return out


def _check_sheet_matches_key(rows: list[dict[str, Any]], items: dict[str, Any], sample_id: str, path: str | Path,
                             kpath: Path) -> None:
    """The sheet is the key's sample: each of its items exactly once, with the term and sentence the key
    recorded (a key of another sample, or a duplicated or missing row, would give wrong rates)."""
    seen: dict[str, int] = {}
    for i, r in enumerate(rows, 2):
        sid = (r.get("sample_id") or "").strip()
        if sid in seen:
            raise DataError(f"sample_id {sid!r} appears twice (lines {seen[sid]} and {i}): each item is judged once",
                            path=path, record=f"line {i}", field="sample_id")
        seen[sid] = i
        item = items.get(sid)
        if not isinstance(item, dict) or not isinstance(item.get("strategy"), str):
            raise DataError(f"sample_id {sid!r} is not in the answer key {kpath} (sample {sample_id})", path=path,
                            record=f"line {i}", field="sample_id")
        for col in ("term", "sentence"):
            if (r.get(col) or "").strip() != str(item.get(col, "")).strip():
                raise DataError(f"the {col} of item {sid!r} is not the answer key's: {kpath} belongs to another "
                                f"sample (its sample id is {sample_id}); pass the sheet's own key with --key",
                                path=path, record=f"line {i}", field=col)
    lacking = [k for k in items if k not in seen]
    if lacking:
        raise DataError(f"the sheet lacks {len(lacking)} of the answer key's {len(items)} items (first: "
                        f"{', '.join(repr(k) for k in lacking[:5])}); keep every row, leave unjudged ones empty",
                        path=path)
    got = sample_fingerprint([((r.get("sample_id") or "").strip(), (r.get("term") or "").strip(),
                               (r.get("sentence") or "").strip()) for r in rows])
    want = sample_fingerprint([(k, str(v.get("term", "")).strip(), str(v.get("sentence", "")).strip())
                               for k, v in items.items()])
    if got != want:  # unreachable after the checks above unless the key was edited by hand
        raise DataError(f"the sheet is sample {got}, the answer key {kpath} is sample {sample_id}", path=path)
