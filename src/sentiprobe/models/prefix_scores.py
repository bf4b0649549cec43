"""Whole-sentence log-likelihoods of a source and its edited variants, sharing the source's forward pass.

A causal language model's log-probability of token *i* depends only on tokens *0..i*. A variant made by editing
a sentence keeps the source's tokens up to its first edited token, so its log-likelihood is the source's
per-token log-probabilities up to there plus a forward pass over the rest, run on the source's key/value cache
(``past_key_values``) cut at that point. The common prefix is measured on the two token sequences as tokenised,
never assumed from character offsets: a variant whose tokenisation differs earlier (or from the first token, a
sentence-initial edit) simply shares less, down to a full forward pass. The variant's first new token is predicted
from the source's hidden state at the last shared position (the same token after the same prefix), so only the
tokens after it run again. The result equals a full forward pass of the variant up to float rounding
(``tests/test_arts_prefix_scores.py``).

Batching: sources run in right-padded batches; the variants of those sources run together in batches whose rows
have different cached prefixes, each row's cache copied into a zero-padded block and masked (the attention mask
covers the padded cache positions and the padded new tokens; ``position_ids`` continue each row's own prefix).
Rows are ordered by the caller's deterministic order, so the same inputs always form the same batches.

Used by :meth:`sentiprobe.models.fluency_lm.FluencyLM.sentences` (ARTS generation's fluency judgement).
"""
from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

MAX_TOKENS = 768
"""New tokens (rows x padded width) per forward pass of the variants: large enough to amortise reading the weights,
small enough for the attention blocks of a batch to stay in cache."""


def _target_logprobs(model: Any, hidden: Any, targets: Any) -> Any:
    """log p(target | its prefix) in float64, from the hidden states that predict the targets (the vocabulary
    projection in slices of :data:`MAX_TOKENS` positions, so a batch of long sentences never holds all its logits)."""
    import torch

    parts = []
    for i in range(0, len(targets), MAX_TOKENS):
        logits = model.lm_head(hidden[i:i + MAX_TOKENS]).float()
        tgt = targets[i:i + MAX_TOKENS]
        parts.append((logits.gather(1, tgt.unsqueeze(1)).squeeze(1) - torch.logsumexp(logits, dim=-1)).double())
    return torch.cat(parts) if parts else hidden.new_zeros(0, dtype=torch.float64)


def _cache(pairs: list[tuple[Any, Any]]) -> Any:
    from transformers import DynamicCache

    if hasattr(DynamicCache, "from_legacy_cache"):  # transformers 4.x
        return DynamicCache.from_legacy_cache(tuple(pairs))
    return DynamicCache(ddp_cache_data=pairs)


def _sources(model: Any, rows: Sequence[Sequence[int]], pad: int) -> tuple[list[Any], Any, list[tuple[Any, Any]]]:
    """Per-token log-probabilities (float64, one per predicted token) of each row, the batch's last hidden states
    and its key/value cache."""
    import torch

    width = max(len(x) for x in rows)
    inp = torch.full((len(rows), width), pad, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for r, x in enumerate(rows):
        inp[r, :len(x)] = torch.tensor(list(x))
        mask[r, :len(x)] = 1
    out = model.model(input_ids=inp, attention_mask=mask, use_cache=True)
    real = mask[:, 1:].bool()
    lp = _target_logprobs(model, out.last_hidden_state[:, :-1][real], inp[:, 1:][real])
    per_row = list(torch.split(lp, [len(x) - 1 for x in rows]))
    cache = out.cache if getattr(out, "cache", None) is not None else out.past_key_values
    return per_row, out.last_hidden_state, [(t[0], t[1]) for t in cache]


def _suffixes(model: Any, items: list[tuple[int, int, list[int]]], kv: list[tuple[Any, Any]], pad: int) -> list[Any]:
    """Sum of log-probabilities of each item's new tokens: ``(source row, kept prefix, tokens from the kept prefix
    on)``; the first ``kept`` positions come from the source row's cache."""
    import torch

    keep_max = max(k for _, k, _ in items)
    width = max(len(t) - 1 for _, _, t in items)
    n = len(items)
    inp = torch.full((n, width), pad, dtype=torch.long)
    mask = torch.zeros((n, keep_max + width), dtype=torch.long)
    pos = torch.zeros((n, width), dtype=torch.long)
    for r, (_, k, toks) in enumerate(items):
        inp[r, :len(toks) - 1] = torch.tensor(toks[:-1])
        mask[r, :k] = 1
        mask[r, keep_max:keep_max + len(toks) - 1] = 1
        pos[r] = torch.arange(k, k + width)
    past = None
    if keep_max:
        pairs = []
        for keys, values in kv:
            pk = keys.new_zeros((n, keys.shape[1], keep_max, keys.shape[3]))
            pv = values.new_zeros((n, values.shape[1], keep_max, values.shape[3]))
            for r, (row, k, _) in enumerate(items):
                pk[r, :, :k] = keys[row, :, :k]
                pv[r, :, :k] = values[row, :, :k]
            pairs.append((pk, pv))
        past = _cache(pairs)
    name = "cache" if "cache" in inspect.signature(model.model.forward).parameters else "past_key_values"
    out = model.model(input_ids=inp, attention_mask=mask, position_ids=pos, use_cache=False, **{name: past})
    real = mask[:, keep_max:].bool()
    targets = torch.full((n, width), pad, dtype=torch.long)
    for r, (_, _, toks) in enumerate(items):
        targets[r, :len(toks) - 1] = torch.tensor(toks[1:])
    lp = _target_logprobs(model, out.last_hidden_state[real], targets[real])
    return list(torch.zeros(n, dtype=torch.float64).index_add_(0, real.nonzero()[:, 0], lp))


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def prefix_scores(model: Any, sources: Sequence[Sequence[int]], variants: Sequence[Sequence[Sequence[int]]],
                  pad: int, *, max_tokens: int = MAX_TOKENS) -> tuple[list[float], list[list[float]]]:
    """Total log-probability (natural log, every token after the first predicted) of each source and of each of
    its variants, for one batch of sources (token ids, each starting with the document separator)."""
    import torch

    with torch.inference_mode():
        per_row, hidden, kv = _sources(model, sources, pad)
        totals = [float(lp.sum()) for lp in per_row]
        out: list[list[float]] = [[0.0] * len(v) for v in variants]
        firsts: list[tuple[int, int, int]] = []  # (source row, variant index, common prefix)
        items: list[tuple[int, int, int, list[int]]] = []  # (source row, variant index, kept prefix, new tokens)
        for r, (src, vs) in enumerate(zip(sources, variants)):
            for j, ids in enumerate(vs):
                p = common_prefix(src, ids)
                if p >= len(ids):  # the variant is a prefix of the source: nothing new to run
                    out[r][j] = float(per_row[r][:len(ids) - 1].sum())
                    continue
                # its first new token is predicted by the source's own last shared position, already run
                firsts.append((r, j, p))
                if len(ids) - p >= 2:
                    items.append((r, j, p, list(ids[p:])))
        if firsts:
            at = hidden[torch.tensor([r for r, _, _ in firsts]), torch.tensor([p - 1 for _, _, p in firsts])]
            first = _target_logprobs(model, at, torch.tensor([variants[r][j][p] for r, j, p in firsts]))
            for (r, j, p), lp in zip(firsts, first):
                out[r][j] = float(per_row[r][:p - 1].sum() + lp)
        items.sort(key=lambda it: (len(it[3]), it[2], it[0], it[1]))
        start = 0
        while start < len(items):
            stop = start + 1
            while stop < len(items) and (stop - start + 1) * (len(items[stop][3]) - 1) <= max_tokens:
                stop += 1
            batch = items[start:stop]
            sums = _suffixes(model, [(r, k, t) for r, _, k, t in batch], kv, pad)
            for (r, j, _, _), x in zip(batch, sums):
                out[r][j] += float(x)
            start = stop
    return totals, out
