"""GTS tagger on CPU: training throughput (sentences/s), peak memory, and the F1 it reaches per triplet suite.

Throughput: one epoch over the first ``--sentences`` training sentences of each suite (``torch.set_num_threads``
= ``--threads``), after GloVe is loaded (its load time is reported apart). Peak memory: the process's peak RSS
(GloVe is memory-mapped: only the rows looked up are resident) and the growth during the epoch.
F1 (``--epochs N``, 0 to skip): a full clean-protocol fit (dev-selected epoch) and one test evaluation through
the suite's predict and score stages. Re-measure:

    PYTHONPATH=src SENTIPROBE_DATA_DIR=../shared/data .venv/bin/python benchmarks/bench_triplets.py \\
        --threads 1 --epochs 6 [--suites absa-triplet-explicit ...]
"""
from __future__ import annotations

import argparse
import time

from _common import peak_rss_mib, report, require_data

SUITES = ["absa-triplet-explicit", "sentivent-triplet-direct", "sentivent-triplet"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--suites", nargs="*", default=SUITES)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--sentences", type=int, default=512, help="sentences in the throughput epoch")
    ap.add_argument("--epochs", type=int, default=6, help="epochs of the F1 fit (0: throughput only)")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--train-empty", choices=("true", "false"), default="true",
                    help="train on sentences without triplets too (model arg train_empty)")
    ap.add_argument("--model", default="gts-glove", choices=("gts-glove", "gts-minilm"))
    ap.add_argument("--model-arg", default=[], action="append", metavar="KEY=VALUE",
                    help="extra model argument (e.g. finetune=false for gts-minilm)")
    args = ap.parse_args()
    require_data()
    import torch

    from sentiprobe.models import create_model
    from sentiprobe.models.gts_encoders import glove
    from sentiprobe.suites import get_suite
    from sentiprobe.suites.triplets.llm_extract import predict

    extra = dict(kv.split("=", 1) for kv in args.model_arg)
    torch.set_num_threads(args.threads)
    t0 = time.perf_counter()
    glove()
    out: dict = {"threads": args.threads, "glove_load_s": round(time.perf_counter() - t0, 2),
                 "torch": torch.__version__, "suites": {}}
    for name in args.suites:
        suite = get_suite(name)
        train, dev = suite.training()
        rss0 = peak_rss_mib()
        m = create_model(args.model, epochs=1, max_train=args.sentences, progress=False, lr=args.lr, **extra)
        t1 = time.perf_counter()
        m.fit(train, [], suite.labels, seed=0)
        secs = time.perf_counter() - t1
        n = min(args.sentences, len([it for it in train if it.tokens]))
        row = {"train_source": train[0].meta.get("source"), "throughput_sentences": n,
               "train_sentences_per_s": round(n / secs, 1), "peak_rss_mib": round(peak_rss_mib(), 1),
               "rss_growth_mib": round(peak_rss_mib() - rss0, 1)}
        if args.epochs > 0:
            m = create_model(args.model, epochs=args.epochs, lr=args.lr, progress=True,
                             train_empty=args.train_empty, **extra)
            t2 = time.perf_counter()
            m.fit(train, dev, suite.labels, seed=0)
            fit_s = time.perf_counter() - t2
            items = suite.items("test")
            res = suite.score(items, predict(suite, m, items), n_boot=1000)
            row.update({"epochs": args.epochs, "best_epoch": m.best_epoch, "fit_s": round(fit_s, 1),
                        "dev_f1_per_epoch": [h["dev_triplet_f1"] for h in m.history],
                        **{k: {"value": round(v.value, 4), "ci": [round(v.ci_low, 4), round(v.ci_high, 4)]
                               if v.ci_low is not None else None}
                           for k, v in res.metrics.items() if k.endswith("_f1")},
                        "command": f"sentiprobe run --suite {name} --model {args.model} "
                                   f"--model-arg epochs={args.epochs} --model-arg lr={args.lr} "
                                   f"--model-arg threads={args.threads} --model-arg train_empty={args.train_empty}"
                                   + "".join(f" --model-arg {kv}" for kv in args.model_arg)})
        out["suites"][name] = row
        print(f"{name}: {row}", flush=True)
    report("triplets-gts-glove-cpu", out)


if __name__ == "__main__":
    main()
