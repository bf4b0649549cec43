"""Dataset statistics of an original ABSA test set (docs/protocols/arts.md#dataset-statistics, the paper's Table 6).

Every statistic is per example (target), computed from a per-sentence file (``test_sent.json``):

- ``aspects_per_sent``: mean number of aspects in the example's sentence, the target included;
- ``opp_nontgt_ge1``: share of examples with at least one non-target whose label *differs*;
- ``opp_nontgt_all``: share of examples with at least one non-target, all of them different;
- ``opp_nontgt_per_sent``: mean number of differing non-targets.

Word and vocabulary statistics are not computed (the paper's tokeniser is unknown). Variant
statistics (RevTgt / RevNon / AddDiff relabelling) are not computed either.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from .formats import LABELS, SentenceRecord
from .score import format_percent, round_half_up


def _share(count: int, total: int) -> dict[str, Any]:
    fr = Fraction(count, total) if total else None
    return {"count": count, "total": total, "share": float(fr) if fr is not None else None,
            "percent": format_percent(fr)}


def _mean(total: int, n: int) -> dict[str, Any]:
    fr = Fraction(total, n) if n else None
    return {"sum": total, "n": n, "value": float(fr) if fr is not None else None,
            "rounded": f"{round_half_up(fr):.2f}" if fr is not None else None}


def original_test_stats(sentences: Mapping[str, SentenceRecord]) -> dict[str, Any]:
    """docs/protocols/arts.md#dataset-statistics statistics of the original examples of a per-sentence file (exact
    counts included)."""
    n = aspects = ge1 = all_diff = n_diff = 0
    labels: Counter[str] = Counter()
    for s in sentences.values():
        tl = [t.polarity for t in s.terms]
        k = len(tl)
        for lab in tl:
            d = sum(1 for other in tl if other != lab)  # the target itself never differs from itself
            n += 1
            aspects += k
            n_diff += d
            ge1 += d >= 1
            all_diff += k > 1 and d == k - 1
            labels[lab] += 1
    pos, neg = labels.get("positive", 0), labels.get("negative", 0)
    return {
        "n_examples": n, "n_sentences": len(sentences),
        "aspects_per_sent": _mean(aspects, n),
        "opp_nontgt_ge1": _share(ge1, n),
        "opp_nontgt_all": _share(all_diff, n),
        "opp_nontgt_per_sent": _mean(n_diff, n),
        "no_differing_nontgt": _share(n - ge1, n),
        "labels": {lab: labels.get(lab, 0) for lab in LABELS},
        "pos_neg_ratio": float(Fraction(pos, neg)) if neg else None,
        "definitions": "per example (target); 'opposite' means a different label (neutral counts); "
                       "docs/protocols/arts.md#dataset-statistics",
    }
