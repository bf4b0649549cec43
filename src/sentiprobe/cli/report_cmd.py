"""``sentiprobe report RUN_DIR [RUN_DIR ...] --out FILE.html``: the report of one run, or the comparison report
(profile, leaderboards, pairwise paired tests on each suite's unit) of several."""
from __future__ import annotations

import json

from .argtypes import N_BOOT, SEED
from .options import add_confidence


def add_parser(sub) -> None:
    p = sub.add_parser("report", help="write the HTML report of a run, or the comparison report of several runs")
    p.add_argument("runs", nargs="+", metavar="RUN_DIR",
                   help="run directories (a directory of several models' runs stands for all of them)")
    p.add_argument("--out", required=True, help="the HTML file to write")
    p.add_argument("--names", nargs="+", default=None, help="model names (default: from the runs)")
    p.add_argument("--n-boot", type=N_BOOT, default=1000, help="bootstrap resamples of the paired tests")
    p.add_argument("--seed", type=SEED, default=0, help="bootstrap seed")
    add_confidence(p, "the paired comparisons' intervals and tests (a run's own intervals keep the level it ran "
                      "with)")
    p.add_argument("--json", action="store_true", help="print the comparison document")
    p.set_defaults(func=cmd)


def cmd(args) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import report

    doc = report(args.runs, args.out, names=args.names, n_boot=args.n_boot, seed=args.seed,
                 confidence=args.confidence)
    if args.json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        print(f"wrote {doc['out']}")
    return 0
