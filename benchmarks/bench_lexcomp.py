"""LexComp sweep benchmark: embedding cache cold vs warm (issue 11, item 7).

A sweep trains one probe per (suite x representation x layer mode x encoder). The frozen representations
are the expensive part to compute and the same for every probe of a representation, so they are cached on
disk (``EmbeddingCache`` in ``models/embed_store.py``). This script runs the sweep twice with fresh adapters:

1. cold: empty embedding cache directory (every sentence is embedded once; later cells of the same
   representation share the vectors in memory);
2. warm: the same directory, memory cleared (nothing is embedded; vectors are read from disk once).

It prints, per phase, the embedding seconds, the probe training seconds and the wall time, the cold/warm
ratio of both the embedding stage and the whole sweep, and the test score of every cell next to the best
majority baseline. Probe training is identical in both phases (same seeds), so the whole-sweep ratio is
bounded by how much of the cold sweep the embedding took; ``--max-epochs``/``--limit-train`` shorten
training for a quick look (the spec's protocol is 500/20).

Example (the README figures)::

    PYTHONPATH=src SENTIPROBE_DATA_DIR=/path/to/data python benchmarks/bench_lexcomp.py \\
        --reprs glove,minilm --encoders none,att --max-epochs 5 --patience 3 --limit-train 400 --json out.json
"""
from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

TEXT_SUITES = ("lexcomp-nc-literality", "lexcomp-nc-relations", "lexcomp-an-attributes", "lexcomp-phrase-type")


def sweep(args, cache_dir: Path) -> dict:
    from sentiprobe.models import create_model
    from sentiprobe.suites import get_suite

    cells, embed_s, train_s = [], 0.0, 0.0
    t_wall = time.perf_counter()
    for suite_name in args.suites.split(","):
        suite = get_suite(suite_name, args.data_dir)
        train, dev, test = suite.items("train"), suite.items("dev"), suite.items("test")
        if args.limit_train and len(train) > args.limit_train:  # a seeded sample, not the (sorted) head
            import random

            train = random.Random(0).sample(train, args.limit_train)
        for rep in args.reprs.split(","):
            layer_modes = args.layers.split(",") if rep != "glove" else ["top"]
            for layers in layer_modes:
                for enc in args.encoders.split(","):
                    m = create_model("lexcomp-probe", repr=rep, layers=layers, encoder=enc, cache_dir=str(cache_dir),
                                     max_epochs=args.max_epochs, patience=args.patience, threads=args.threads)
                    t0 = time.perf_counter()
                    m.fit(train, dev, suite.labels, input_kind="tokens", seed=0)
                    preds = m.classify(test, suite.labels, "tokens")
                    total = time.perf_counter() - t0
                    emb = sum(c.get_seconds for c in m._caches.values())
                    embed_s += emb
                    train_s += total - emb
                    sc = suite.score(test, preds, n_boot=0)
                    main = "span_f1" if suite_name.endswith("phrase-type") else "accuracy"
                    base = sc.details.get("baselines", {})
                    best = max((v for k, v in base.items() if k.startswith("majority_") and isinstance(v, float)
                                and not k.endswith("allennlp08")), default=None)  # strict F1 vs strict F1
                    cells.append({"suite": suite_name, "repr": rep, "layers": layers, "encoder": enc,
                                  main: round(sc.metrics[main].value, 4), "best_majority": best,
                                  "seconds": round(total, 2), "embed_seconds": round(emb, 2),
                                  "computed": sum(c.computed for c in m._caches.values()),
                                  "epochs": m.heads["main"].log.get("epochs")})
                    print(json.dumps(cells[-1]), flush=True)
    return {"cells": cells, "embed_seconds": round(embed_s, 2), "train_seconds": round(train_s, 2),
            "wall_seconds": round(time.perf_counter() - t_wall, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", default=None)
    ap.add_argument("--suites", default=",".join(TEXT_SUITES))
    ap.add_argument("--reprs", default="glove,minilm,smollm2")
    ap.add_argument("--layers", default="top,all")
    ap.add_argument("--encoders", default="none,bilstm,att")
    ap.add_argument("--max-epochs", type=int, default=500)
    ap.add_argument("--patience", type=int, default=20)
    ap.add_argument("--limit-train", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--cache-dir", default=None, help="embedding cache (default: a temporary directory, removed)")
    ap.add_argument("--json", default=None, help="write the figures to this file")
    args = ap.parse_args()
    tmp = Path(args.cache_dir) if args.cache_dir else Path(tempfile.mkdtemp(prefix="lexcomp-bench-"))
    if tmp.exists():
        shutil.rmtree(tmp)
    from sentiprobe.models.embed_store import clear_memory

    try:
        cold = sweep(args, tmp)
        clear_memory()  # the warm phase starts like a fresh process: vectors come from disk
        warm = sweep(args, tmp)
    finally:
        if not args.cache_dir:
            shutil.rmtree(tmp, ignore_errors=True)
    out = {"args": vars(args), "cold": cold, "warm": warm,
           "embed_ratio": round(cold["embed_seconds"] / max(warm["embed_seconds"], 1e-3), 1),
           "sweep_ratio": round(cold["wall_seconds"] / max(warm["wall_seconds"], 1e-3), 2)}
    print(json.dumps({k: v for k, v in out.items() if k not in ("cold", "warm")}
                     | {"cold": {k: v for k, v in cold.items() if k != "cells"},
                        "warm": {k: v for k, v in warm.items() if k != "cells"}}, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
