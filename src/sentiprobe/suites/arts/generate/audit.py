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
- ``term_offsets``: ``sentence[from:to] == term``.

``audit_sample`` writes a stratified CSV for people to judge (blank ``valid``/``fluent`` columns);
``audit_score`` turns the filled-in CSV into a validity rate per strategy with a Wilson interval (scipy).
"""
from __future__ import annotations

import csv
import io
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

from ....core.errors import DataError
from ..formats import FLIP, ORIGINAL

MAX_FAILURES = 5
_DOUBLE_NEG = re.compile(r"\b(not|never|no)\s+(not|never|no|\w+n't)\b|n't\s+(not|never)\b", re.IGNORECASE)
CHECKS = ("label_rule", "target_opinion_changed", "non_targets_reversed", "appended_new_aspect", "appended_opposite",
          "antonym_keeps_pos", "no_double_negation", "parses", "term_offsets")


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
    from .text import tokenize

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
        if v.kind == "revtgt":
            ok = any(_overlaps((e.start, e.end), op) for e in v.edits for op in pa.opinions) or any(
                e.op == "copula_negated" for e in v.edits)
            tally.add(v.kind, "target_opinion_changed", ok, ex)
        if v.kind == "revnon":
            tally.add(v.kind, "non_targets_reversed", _non_targets_ok(p, pa, v), ex)
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
                if e.op != "antonym" or e.start >= len(p.parse.tags):
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

SAMPLE_COLUMNS = ("sample_id", "strategy", "key", "term", "source_label", "variant_label", "source_sentence",
                  "variant_sentence", "edits", "valid", "fluent", "notes")


def audit_sample(enriched: str | Path, out: str | Path, *, per_strategy: int = 50, seed: int = 0) -> dict[str, int]:
    """Write a stratified random sample (``per_strategy`` variants of each kind) as a CSV to fill in."""
    from ....core.io import atomic_write_text
    from ..load import load_enriched

    from ....core.io import read_user_text

    raw_text = read_user_text(enriched, "enriched ARTS file")
    recs = load_enriched(enriched, warnings_out=[])
    raw = json.loads(raw_text)
    by_kind: dict[str, list] = {}
    for e in recs.values():
        if e.kind != ORIGINAL:
            by_kind.setdefault(e.kind, []).append(e)
    rng = random.Random(f"{seed}:audit")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(SAMPLE_COLUMNS)
    counts = {}
    n = 0
    for kind in sorted(by_kind):
        pool = sorted(by_kind[kind], key=lambda e: e.item_key)
        pick = sorted(rng.sample(pool, min(per_strategy, len(pool))), key=lambda e: e.item_key)
        counts[kind] = len(pick)
        for e in pick:
            n += 1
            src = recs[e.source_id]
            prov = raw.get(e.key, {}).get("provenance", {})
            edits = "; ".join(f"{x['op']}: {x['before']!r} -> {x['text']!r}" for x in prov.get("edits", []))
            if prov.get("appended"):
                edits = "; ".join([edits] * bool(edits) + [f"append: {a['text']!r} ({a['label']})"
                                                            for a in prov["appended"]])
            w.writerow([n, kind, e.key, e.term, src.polarity, e.polarity, src.sentence, e.sentence, edits, "", "", ""])
    atomic_write_text(out, buf.getvalue())
    return counts


_YES = {"1", "y", "yes", "true", "valid", "ok"}
_NO = {"0", "n", "no", "false", "invalid"}


def wilson(k: int, n: int, alpha: float = 0.05) -> tuple[float | None, float | None]:
    """Wilson score interval (scipy's ``binomtest(...).proportion_ci(method="wilson")``)."""
    if n == 0:
        return None, None
    from scipy.stats import binomtest

    ci = binomtest(k, n).proportion_ci(confidence_level=1 - alpha, method="wilson")
    return float(ci.low), float(ci.high)


def audit_score(path: str | Path, *, column: str = "valid", alpha: float = 0.05) -> dict[str, Any]:
    """Validity rate per strategy (yes / judged) with a Wilson interval, from a filled-in sample CSV."""
    from ....core.io import read_user_text

    text = read_user_text(path, "audit judgements")
    try:
        rows = list(csv.DictReader(io.StringIO(text, newline="")))
    except csv.Error as exc:
        raise DataError(f"invalid CSV: {exc}", path=path) from None
    if not rows or "strategy" not in rows[0] or column not in rows[0]:
        raise DataError(f"expected the columns 'strategy' and {column!r} (from `sentiprobe arts audit-sample`)",
                        path=path)
    tally: dict[str, list[int]] = {}
    unjudged: Counter = Counter()
    for i, r in enumerate(rows, 2):
        v = (r.get(column) or "").strip().lower()
        s = r.get("strategy") or ""
        if not v:
            unjudged[s] += 1
            continue
        if v not in _YES | _NO:
            raise DataError(f"judgement {r.get(column)!r} is not yes/no (or 1/0)", path=path, record=f"line {i}",
                            field=column)
        tally.setdefault(s, [0, 0])
        tally[s][0] += v in _YES
        tally[s][1] += 1
    out: dict[str, Any] = {"file": str(path), "column": column, "confidence": 1 - alpha, "strategies": {}}
    for s, (k, n) in sorted(tally.items()):
        lo, hi = wilson(k, n, alpha)
        out["strategies"][s] = {"valid": k, "judged": n, "rate": k / n if n else None, "ci_low": lo, "ci_high": hi,
                                "unjudged": unjudged.get(s, 0)}
    k_all = sum(k for k, _ in tally.values())
    n_all = sum(n for _, n in tally.values())
    lo, hi = wilson(k_all, n_all, alpha)
    out["overall"] = {"valid": k_all, "judged": n_all, "rate": k_all / n_all if n_all else None, "ci_low": lo,
                      "ci_high": hi, "unjudged": sum(unjudged.values())}
    return out
