"""How well the local verifier of ARTS generation (``--verifier local``: SmolLM2-135M answering closed questions)
tells good variants from broken ones, and what it costs per variant.

Good variants: a seeded sample of the released ARTS test sets' human-made variants (``--per-strategy`` per strategy
and domain, laptop and restaurant; the release was post-edited by people, so they are fluent and their labels are
right), each with its expected label and, for RevNon, the reversed aspects with their new labels. Broken copies:

- ``label_swapped``: the same polar variants with the opposite expected label (a verifier that reads the target
  must reject them);
- ``scrambled``: each variant with three words reversed in order and one word doubled (not fluent English).

Every variant is asked once; the verdicts of the three sets come from the same answers (a label swap changes only
the expected label). Printed: for several ``min_margin`` values, how many of each set the verdicts reject (a
useful verifier rejects few good and many broken ones), how often the target reads as expected and the fluency
answer, and the CPU seconds per variant on ``--threads`` torch threads.

    SENTIPROBE_DATA_DIR=../shared/data .venv/bin/python benchmarks/bench_arts_verifier.py [--per-strategy 17] \
        [--seed 0] [--threads 1]
"""
from __future__ import annotations

import argparse
import os
import sys

_THREADS = next((sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--threads"), "1")
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = _THREADS  # before torch loads

import json  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from _common import report, require_data  # noqa: E402

FLIP = {"positive": "negative", "negative": "positive"}
STRATEGIES = (("_adv1", "revtgt"), ("_adv2", "revnon"), ("_adv3", "adddiff"))


def samples(data: Path, per_strategy: int, seed: int) -> tuple[list, list]:
    from sentiprobe.generate.arts.verifier import Query

    rng = random.Random(seed)
    good, scrambled = [], []
    for dom in ("rest", "laptop"):
        d = json.loads((data / "arts" / "arts_testset" / f"{dom}_test_enriched.json").read_text(encoding="utf-8"))
        by_sentence: dict[str, list] = {}
        for k, r in d.items():
            if k == r["id"]:
                by_sentence.setdefault(r["sentence"], []).append(r)
        for suffix, strategy in STRATEGIES:
            for k in rng.sample(sorted(k for k in d if k.endswith(suffix)), per_strategy):
                r, o = d[k], d[d[k]["id"]]
                others: tuple = ()
                if strategy == "revnon":  # the aspects that shared the target's label are reversed
                    others = tuple((x["term"], FLIP.get(r["polarity"], x["polarity"]))
                                   for x in by_sentence[o["sentence"]] if x["id"] != o["id"]
                                   and x["term"] in r["sentence"] and x["polarity"] == o["polarity"])
                good.append(Query(k, strategy, o["sentence"], r["sentence"], r["term"], r["polarity"], others))
                w = r["sentence"].split()
                i = rng.randrange(1, max(2, len(w) - 3))
                w = w[:i] + w[i:i + 3][::-1] + w[i + 3:]
                j = rng.randrange(len(w))
                w.insert(j, w[j])
                scrambled.append(Query(k, strategy, o["sentence"], " ".join(w), r["term"], r["polarity"], others))
    return good, scrambled


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-strategy", type=int, default=17)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    from sentiprobe.generate.arts.verifier import LocalVerifier, Query

    good, scrambled = samples(Path(require_data()), args.per_strategy, args.seed)
    ver = LocalVerifier(threads=args.threads)
    ver.verify(good[:1])  # loads the model and the calibration answers outside the timed part
    c0, w0 = time.process_time(), time.perf_counter()
    answers = ver.lm.answer([ver._questions(q) for q in good + scrambled])
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    prior = ver._priors()
    sets: dict[str, list] = {"good": [], "label_swapped": [], "scrambled": []}
    for q, a in zip(good, answers):
        sets["good"].append((q, ver._verdict(q, a, prior)))
        if q.expected in FLIP:
            s = Query(q.key, q.strategy, q.original, q.variant, q.term, FLIP[q.expected],
                      tuple((t, FLIP.get(lab, lab)) for t, lab in q.others))
            sets["label_swapped"].append((s, ver._verdict(s, a, prior)))
    sets["scrambled"] = [(q, ver._verdict(q, a, prior)) for q, a in zip(scrambled, answers[len(good):])]
    rejected = {f"min_margin {m}": {name: f"{sum(bool(v.problems(q, m)) for q, v in pairs)}/{len(pairs)}"
                                     for name, pairs in sets.items()} for m in (0.0, 0.5, 1.0, 2.0)}
    reads = {name: {"target_reads_expected": f"{sum(v.target_sentiment == q.expected for q, v in pairs)}/{len(pairs)}",
                    "fluent_yes": f"{sum(bool(v.fluent) for q, v in pairs)}/{len(pairs)}"}
             for name, pairs in sets.items()}
    n = len(good) + len(scrambled)
    report("arts_verifier", {"verifier": ver.identity, "per_strategy": args.per_strategy, "seed": args.seed,
                             "threads": args.threads, "rejected": rejected, "answers": reads,
                             "variants_asked": n, "cpu_s": round(cpu, 1), "wall_s": round(wall, 1),
                             "cpu_s_per_variant": round(cpu / n, 3), "load": os.getloadavg()})


if __name__ == "__main__":
    main()
