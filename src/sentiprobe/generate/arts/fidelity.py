"""Fidelity of a generated enriched set to a released one (docs/protocols/arts.md#fidelity).

Compared per strategy, key by key, over the source examples present in both files:

- **selection agreement**: share of common sources where "has a variant of this strategy" agrees,
  with the precision/recall of the generated selection;
- **exact match**: of the sources with a variant in both, share with the same sentence (whitespace
  trimmed), also case-folded and token-normalised (re-tokenised, lower-cased);
- **label agreement**;
- **token-edit agreement** (RevTgt/RevNon): the same *source* tokens changed (token diff against the
  source), even when the replacement differs; plus the mean Jaccard of the changed-token sets;
- **character similarity**: mean ``difflib`` ratio;
- **mismatch causes**: each non-exact pair is put in one bucket by the token diff between the generated
  and the released sentence (detokenisation/case only, conjunction, degree-adverb choice, negation
  form, a single-word choice, different edit locus, or a longer rewrite — usually the human
  post-editing of docs/protocols/arts.md#post-editing);
- AddDiff structure: prefix (the punctuation-stripped source), connector and ``k`` histograms;
- **algorithmic exact match** (RevTgt/RevNon): exact match over the released variants whose edit is one of
  the docs/protocols/arts.md#generation operations (:func:`explainable`); the others approximate the human post-editing
  of docs/protocols/arts.md#post-editing.
"""
from __future__ import annotations

import difflib
import re
from collections import Counter
from pathlib import Path
from typing import Any

from ...core.io import read_user_text
from ...suites.arts.formats import ORIGINAL, EnrichedExample
from ...suites.arts.load import load_enriched
from .text import DEGREE_ADVERBS, tokenize

_NEG = frozenset({"not", "n't", "no", "never", "do", "does", "did", "don't", "doesn't", "didn't", "cannot", "can"})
MAX_EXAMPLES = 15


def _load(path: str | Path) -> dict[str, EnrichedExample]:
    read_user_text(path, "enriched ARTS file")  # missing, directory, binary, encoding: typed errors
    return load_enriched(path, warnings_out=[])


def _toks(s: str) -> list[str]:
    return [t.lower() for t in tokenize(s)]


def changed_tokens(source: str, variant: str) -> frozenset[int]:
    """Indices of source tokens that a variant replaced or deleted (insertions attach to the next token)."""
    a, b = _toks(source), _toks(variant)
    out: set[int] = set()
    for op, i1, i2, _j1, _j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op in ("replace", "delete"):
            out.update(range(i1, i2))
        elif op == "insert":
            out.add(min(i1, len(a) - 1) if a else 0)
    return frozenset(out)


_CUE_TOKENS = frozenset({"not", "n't", "no", "never", "none", "nothing", "nobody", "hardly", "barely", "scarcely",
                         "neither", "nowhere", "do", "does", "did", "yet", "one"})


def _chunk_explainable(a: list[str], b: list[str]) -> bool:
    """Is one diff chunk (source tokens -> reference tokens) a docs/protocols/arts.md#generation operation?"""
    adv = set(DEGREE_ADVERBS)
    if not a:
        return b in (["not"],) or (len(b) == 1 and b[0] in adv) or b == ["but"]
    if not b:
        return set(a) <= _CUE_TOKENS
    if a == ["and"] and b == ["but"]:
        return True
    if len(a) == 1 and len(b) == 1:
        return True  # a one-word swap: an antonym (not verified here)
    if len(a) == 1 and len(b) == 2 and ((b[1] == a[0] and (b[0] == "not" or b[0] in adv)) or b == [a[0], "not"]):
        return True
    return set(a) - set(b) <= _CUE_TOKENS and not (set(b) - set(a))


def explainable(source: str, reference: str) -> bool:
    """Whether a released variant differs from its source only by docs/protocols/arts.md#generation operations
    (antonym-like one-word swaps, ``not`` inserted, negation removed, ``and``->``but``, degree adverbs). The rest
    approximates the human post-editing of docs/protocols/arts.md#post-editing (do-support, rewrites, typo fixes), which
    no generator reproduces."""
    a, b = _toks(source), _toks(reference)
    return all(_chunk_explainable(a[i1:i2], b[j1:j2]) for op, i1, i2, j1, j2 in
               difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op != "equal")


def mismatch_cause(source: str, gen: str, ref: str) -> str:
    """One bucket for a non-exact pair (see the module docstring)."""
    if gen.strip().lower() == ref.strip().lower():
        return "case_only"
    g, r = _toks(gen), _toks(ref)
    if g == r:
        return "detokenisation"
    chunks = [(g[i1:i2], r[j1:j2]) for op, i1, i2, j1, j2 in
              difflib.SequenceMatcher(None, g, r, autojunk=False).get_opcodes() if op != "equal"]
    words = {w for a, b in chunks for w in a + b}
    if words <= {"and", "but", ",", ";"}:
        return "conjunction"
    if words <= set(DEGREE_ADVERBS):
        return "degree_adverb_choice"
    if words & _NEG and all(len(a) + len(b) <= 4 for a, b in chunks):
        return "negation_form"
    if changed_tokens(source, gen) != changed_tokens(source, ref):
        return "different_locus" if all(len(a) <= 2 and len(b) <= 2 for a, b in chunks) else "rewrite"
    if all(len(a) == 1 and len(b) == 1 for a, b in chunks):
        return "word_choice"
    return "rewrite"


_ByKind = dict[str, dict[str, EnrichedExample]]


def _split(records: dict[str, EnrichedExample]) -> tuple[dict[str, EnrichedExample], _ByKind]:
    orig = {k: e for k, e in records.items() if e.kind == ORIGINAL}
    by_kind: dict[str, dict[str, EnrichedExample]] = {}
    for e in records.values():
        if e.kind != ORIGINAL:
            by_kind.setdefault(e.kind, {})[e.source_id] = e
    return orig, by_kind


def _frac(n: int, d: int) -> float | None:
    return n / d if d else None


def compare(generated: str | Path, reference: str | Path) -> dict[str, Any]:
    """The fidelity document: ``metrics`` (fractions) and ``details`` per strategy."""
    gen_o, gen_v = _split(_load(generated))
    ref_o, ref_v = _split(_load(reference))
    common = sorted(set(gen_o) & set(ref_o))
    metrics: dict[str, float | None] = {}
    details: dict[str, Any] = {"sources_generated": len(gen_o), "sources_reference": len(ref_o),
                               "sources_common": len(common), "strategies": {}}
    for kind in ("revtgt", "revnon", "adddiff"):
        g, r = gen_v.get(kind, {}), ref_v.get(kind, {})
        gs, rs = {s for s in common if s in g}, {s for s in common if s in r}
        agree = sum((s in gs) == (s in rs) for s in common)
        both = sorted(gs & rs)
        exact = [s for s in both if g[s].sentence.strip() == r[s].sentence.strip()]
        folded = sum(g[s].sentence.strip().lower() == r[s].sentence.strip().lower() for s in both)
        normed = sum(_toks(g[s].sentence) == _toks(r[s].sentence) for s in both)
        labels = sum(g[s].polarity == r[s].polarity for s in both)
        sim = [difflib.SequenceMatcher(None, g[s].sentence, r[s].sentence, autojunk=False).ratio() for s in both]
        d: dict[str, Any] = {
            "sources_with_variant": {"generated": len(gs), "reference": len(rs), "both": len(both)},
            "selection": {"agreement": _frac(agree, len(common)), "precision": _frac(len(both), len(gs)),
                          "recall": _frac(len(both), len(rs)),
                          "only_generated": sorted(gs - rs)[:MAX_EXAMPLES],
                          "only_reference": sorted(rs - gs)[:MAX_EXAMPLES]},
            "exact_match": _frac(len(exact), len(both)), "exact_match_casefold": _frac(folded, len(both)),
            "exact_match_token_normalised": _frac(normed, len(both)), "label_agreement": _frac(labels, len(both)),
            "char_similarity": sum(sim) / len(sim) if sim else None}
        causes: Counter = Counter()
        examples: dict[str, list] = {}
        for s in both:
            if s in exact:
                continue
            src = gen_o[s].sentence
            cause = mismatch_cause(src, g[s].sentence, r[s].sentence) if kind != "adddiff" else _adddiff_cause(
                src, g[s].sentence, r[s].sentence)
            causes[cause] += 1
            if len(examples.setdefault(cause, [])) < 3:
                examples[cause].append({"id": s, "source": src, "generated": g[s].sentence,
                                        "reference": r[s].sentence})
        d["mismatch_causes"] = dict(causes.most_common())
        d["mismatch_examples"] = examples
        if kind in ("revtgt", "revnon"):
            algo = [s for s in both if explainable(gen_o[s].sentence, r[s].sentence)]
            d["reference_explainable"] = len(algo)
            d["reference_human_edited"] = len(both) - len(algo)
            d["exact_match_algorithmic"] = _frac(sum(s in exact for s in algo), len(algo))
            metrics[f"exact_match_algorithmic_{kind}"] = d["exact_match_algorithmic"]
            same = [changed_tokens(gen_o[s].sentence, g[s].sentence)
                    == changed_tokens(gen_o[s].sentence, r[s].sentence) for s in both]
            jac = [_jaccard(changed_tokens(gen_o[s].sentence, g[s].sentence),
                            changed_tokens(gen_o[s].sentence, r[s].sentence)) for s in both]
            d["token_edit_agreement"] = _frac(sum(same), len(same))
            d["token_edit_jaccard"] = sum(jac) / len(jac) if jac else None
            metrics[f"token_edit_agreement_{kind}"] = d["token_edit_agreement"]
        else:
            d["structure"] = {"generated": _adddiff_structure(gen_o, g), "reference": _adddiff_structure(ref_o, r)}
        metrics[f"selection_agreement_{kind}"] = d["selection"]["agreement"]
        metrics[f"exact_match_{kind}"] = d["exact_match"]
        details["strategies"][kind] = d
    return {"generated": str(generated), "reference": str(reference), "metrics": metrics, "details": details}


def _jaccard(a: frozenset, b: frozenset) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


_CONNECT = re.compile(r"^(?P<body>.*?)(?P<conn>, but |; |\. )(?P<tail>.*)$")


def _adddiff_parts(source: str, variant: str) -> tuple[str, str] | None:
    body = source.rstrip().rstrip(".?!").rstrip()
    if not variant.startswith(body):
        return None
    rest = variant[len(body):]
    for conn in (", but ", "; ", ". "):
        if rest.startswith(conn):
            return conn.strip() or conn, rest[len(conn):]
    return None


def _adddiff_cause(source: str, gen: str, ref: str) -> str:
    pr = _adddiff_parts(source, ref)
    if pr is None:
        return "reference_prefix_edited"
    pg = _adddiff_parts(source, gen)
    if pg is None or pg[0] != pr[0]:
        return "connector"
    return "sampled_content"


def _adddiff_structure(orig: dict[str, EnrichedExample], variants: dict[str, EnrichedExample]) -> dict[str, Any]:
    conn: Counter = Counter()
    ks: Counter = Counter()
    prefix = final_dot = 0
    for s, v in variants.items():
        if s not in orig:
            continue
        parts = _adddiff_parts(orig[s].sentence, v.sentence)
        final_dot += v.sentence.rstrip().endswith(".")
        if parts is None:
            conn["other"] += 1
            continue
        prefix += 1
        conn[parts[0]] += 1
        tail = parts[1]
        ks[str(1 + tail.count(", ") + tail.count(" and "))] += 1
    n = len(variants)
    return {"n": n, "prefix_is_source": _frac(prefix, n), "final_period": _frac(final_dot, n),
            "connectors": dict(conn.most_common()), "k_histogram": dict(sorted(ks.items()))}
