"""The verifier's step of generation: ask it about every variant, record its verdicts, refuse what it rejects.

Each variant's verdict goes to ``provenance.verifier`` (when provenance is written) and the report gets a
``verifier`` section: the verifier's identity and prompt hash, the policy, how many variants were verified (how
many verdicts came from the cache, how many were asked), accepted, flagged (the verdict rejects them) and refused
by reason, and the cost. The policy is the verifier's: ``refuse`` (a rejected variant is left out and counted in
``skipped_by_reason`` under its strategy, e.g. ``verifier: target reads negative, expected positive``) or
``record`` (verdicts are recorded, nothing is refused). The packaged 135M model's answers were measured not to
separate good variants from broken ones (docs/arts-generate.md#verifier), so ``local`` records; ``endpoint``,
a model the user chose, refuses.
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .inputs import Skip
from .verifier import Query, VerdictCache, Verifier, query_for, verify_cached

POLICIES = ("refuse", "record")


def policy_of(verifier: Verifier) -> tuple[str, float]:
    """``(policy, min_margin)`` of a verifier: its own ``policy`` / ``min_margin`` attributes, else refuse on any
    rejecting answer."""
    policy = getattr(verifier, "policy", "refuse")
    return (policy if policy in POLICIES else "refuse"), float(getattr(verifier, "min_margin", 0.0))


def apply_verifier(verifier: Verifier, variants: Sequence[Any], records: dict[str, dict[str, Any]],
                   preps: Sequence[Any], cache_dir: Path | None, provenance: bool
                   ) -> tuple[list[Any], list[Skip], dict[str, Any]]:
    """Verify ``variants`` (in their order); returns the variants kept, the refusals and the report section.
    ``records`` is updated in place: each kept variant's provenance gets its verdict, refused ones are removed."""
    terms = {pa.aspect.id: pa.aspect.term for p in preps for pa in p.aspects}
    labels = {pa.aspect.id: pa.aspect.polarity for p in preps for pa in p.aspects}
    queries: list[Query] = [query_for(v, records[v.source_id]["sentence"], terms, labels) for v in variants]
    cache = VerdictCache(Path(cache_dir) / "verifier.sqlite") if cache_dir is not None else None
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        verdicts, cached = verify_cached(verifier, queries, cache)
    finally:
        if cache is not None:
            cache.close()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    policy, margin = policy_of(verifier)
    kept: list[Any] = []
    refused: list[Skip] = []
    flagged: Counter[str] = Counter()
    by_strategy: dict[str, Counter[str]] = {}
    for v, q, verdict in zip(variants, queries, verdicts):
        problems = verdict.problems(q, margin)
        tally = by_strategy.setdefault(v.kind, Counter())
        tally["verified"] += 1
        if problems:
            flagged[problems[0]] += 1
            tally["flagged"] += 1
        if problems and policy == "refuse":
            refused.append(Skip(v.source_id, problems[0], v.kind))
            records.pop(v.key, None)
            tally["refused"] += 1
            continue
        tally["accepted"] += 1
        kept.append(v)
        if provenance and isinstance(records[v.key].get("provenance"), dict):
            records[v.key]["provenance"]["verifier"] = verdict.to_dict()
    n = len(variants)
    info = {**verifier.describe(), "policy": policy,
            "note": ("verdicts recorded, not acted on: the packaged model's answers were measured at chance level "
                     "(docs/arts-generate.md#verifier)" if policy == "record" else
                     "a variant whose verdict rejects it is refused"),
            "min_margin": margin if policy == "refuse" else None,
            "verified": n, "from_cache": cached, "asked": n - cached, "accepted": len(kept),
            "flagged": sum(flagged.values()),
            "refused": len(refused), "flagged_by_reason": dict(flagged.most_common()),
            "by_strategy": {k: dict(sorted(c.items())) for k, c in sorted(by_strategy.items())},
            "wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
            "cpu_s_per_variant": round(cpu / n, 4) if n else None}
    return kept, refused, info
