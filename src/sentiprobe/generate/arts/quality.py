"""Set-up of the corrected mode's quality machinery (issue 23): lexicon, chooser, phrase pool, plans.

:func:`make_quality` builds the :class:`~.corrected.Quality` (VADER plus the in-domain opinion lexicon of the
``lexicon_files`` or the pool, WordNet with every antonym, the language model when ``rank="lm"``);
:func:`phrase_pool` makes AddDiff's pool (mined clauses or adjective templates, filtered for fluency);
:func:`plan_all` plans every RevTgt/RevNon variant and scores all candidate windows in one batched pass.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .adddiff import PoolEntry, clause_cap, phrase_pool_for, pools_by_label
from .clauses import adjective_templates, fluent_subset, mine_clauses
from .corrected import Chooser, Plan, Quality, plan_rev_non, plan_rev_tgt
from .inputs import read_input
from .polarity import Polarity, domain_lexicon
from .sense import AspectOpinions
from .strategies import Prepared, revnon_eligible


class _Quality(Quality):
    """:class:`~.corrected.Quality` with what the report records about it."""

    info: dict[str, Any]

    def describe(self) -> dict[str, Any]:
        return self.info


def make_quality(cfg, kit, vocab: frozenset[str], pool_preps: Sequence[Prepared]) -> _Quality:
    pairs: list[tuple[str, str]] = []
    lex_sources = []
    for f in cfg.lexicon_files:
        for s in read_input(f, "towe").sentences:
            pairs += [(s.text[a:b], asp.polarity) for asp in s.aspects for a, b in asp.opinions]
        lex_sources.append(str(f))
    if not cfg.lexicon_files and pool_preps:
        pairs += [(p.sentence.text[a:b], pa.aspect.polarity) for p in pool_preps for pa in p.aspects
                  for a, b in pa.aspect.opinions]
        if pairs:
            lex_sources.append(f"{cfg.pool_file} (pool)")
    domain = domain_lexicon(pairs)
    lm = kit.fluency(cfg.lm_dtype) if cfg.rank == "lm" else None
    q = _Quality(Polarity(domain), kit.antonyms(first_only=False), vocab, Chooser(cfg.rank, lm))
    if not cfg.lexicon_files and pool_preps:  # the training pool only: never the file being generated
        q.aspect_opinions = AspectOpinions.from_prepared(pool_preps)
    lex = f"VADER {len(q.lexicon.vader.lexicon)} words + {len(domain)} in-domain opinion words"
    q.info = {"rank": cfg.rank, "lexicon": lex + (f" from {', '.join(lex_sources)}" if lex_sources else ""),
              "fluency_model": lm.describe() if lm is not None else None}
    return q


def phrase_pool(cfg, q: _Quality, preps: Sequence[Prepared], pool_preps: Sequence[Prepared]
                ) -> tuple[list[PoolEntry], dict[str, Any]]:
    """AddDiff's pool in the corrected mode: mined clauses (``clauses``) or adjective templates, fluent ones."""
    wants = [s for s in cfg.strategies if s in ("adddiff", "adddiff_k", "revnon_adddiff")]
    if not wants:
        return [], {}
    src = cfg.phrases
    if src == "aspectset":
        return phrase_pool_for(cfg, list(preps), list(pool_preps), None), {}
    if src == "clauses":
        entries, rejected = mine_clauses(pool_preps, Path(cfg.pool_file or "").name, q.lexicon)
    elif src == "mined":
        entries, rejected = adjective_templates(pool_preps, Path(cfg.pool_file or "").name, q.lexicon)
    else:
        entries, rejected = adjective_templates(preps, "input", q.lexicon)
    lm = q.chooser.lm if q.chooser.rank == "lm" else None
    # enough fluent entries for every target that draws from each pool (k <= 3 each, entries re-used)
    targets = [pa.aspect.polarity for p in preps for pa in p.aspects]
    need = {"positive": targets.count("negative") + targets.count("neutral") // 2,
            "negative": targets.count("positive") + targets.count("neutral") // 2}
    # and enough that no clause need serve more than its capped share (up to 3 clauses per variant)
    cap = clause_cap(len(targets))
    kept: list[PoolEntry] = []
    stats: dict[str, Any] = {}
    for lab in ("positive", "negative"):
        part = [e for e in entries if e.label == lab]
        want = max(60, need[lab] // 3, -(-3 * need[lab] // cap))
        got, st = fluent_subset(part, lm, want, f"{cfg.seed}:pool:{lab}")
        kept += got
        stats[lab] = {"candidates": len(part), **st}
    pools = pools_by_label(kept)
    return kept, {"phrase_pool_detail": {"source": src, "rejected": dict(rejected.most_common()), "fluency": stats,
                                         "sizes": {k: len(v) for k, v in pools.items()}}}


def plan_all(q: _Quality, cfg, preps: Sequence[Prepared]) -> dict[tuple[str, str], Plan]:
    """Plans of every RevTgt/RevNon variant the strategies need, with every candidate window scored."""
    plans: dict[tuple[str, str], Plan] = {}
    tgt = "revtgt" in cfg.strategies
    non = "revnon" in cfg.strategies or "revnon_adddiff" in cfg.strategies
    for p in preps:
        for pa in p.aspects:
            if tgt:
                plans[(pa.aspect.id, "revtgt")] = plan_rev_tgt(q, p, pa)
            if non and revnon_eligible(p, pa):
                plans[(pa.aspect.id, "revnon")] = plan_rev_non(q, p, pa)
    q.chooser.prefetch(list(plans.values()))
    return plans
