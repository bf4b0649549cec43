"""``sentiprobe judge`` and ``sentiprobe judge-agreement`` (SOUL judge evaluation, docs/protocols/soul.md#judge).

    sentiprobe judge --run DIR [--run DIR2 ...] --model NAME [--model-arg K=V ...] [--n 50] [--seed 0]
                     [--anonymise] [--human FILE] [--out DIR] [--json]
    sentiprobe judge-agreement --judge FILE --human FILE [--json]

``judge`` scores a run's soul-jg justifications with a generate-capable model on the 5-criterion 1-3
rubric and writes ``judge.jsonl`` + ``judge.json`` (and updates the run's results and report).
``judge-agreement`` computes judge-human agreement (weighted Cohen's kappa per criterion) of two rating
files (``judge.jsonl`` or flat ``item_id,system,<criterion columns>`` tables).
"""
from __future__ import annotations

import json
import sys

from .argtypes import COUNT, N_BOOT, SEED, int_in
from .options import add_confidence


def add_parser(sub) -> None:
    p = sub.add_parser("judge", help="SOUL: rate a run's justifications with an LLM judge (5 criteria, 1-3)")
    p.add_argument("--run", action="append", required=True, metavar="DIR",
                   help="run directory with predictions/soul-jg.jsonl (repeat to compare systems in one request)")
    p.add_argument("--model", required=True, help="judge model (a generate-capable adapter)")
    p.add_argument("--model-arg", default=[], action="append", metavar="KEY=VALUE",
                   help="argument for the judge model factory (repeatable)")
    p.add_argument("--n", type=COUNT, default=50, help="number of sampled test items (default 50)")
    p.add_argument("--seed", type=SEED, default=0, help="sampling seed (default 0)")
    p.add_argument("--anonymise", action="store_true",
                   help="show systems as 'System k' in a shuffled order (off by default, as in the paper)")
    p.add_argument("--max-tokens", type=int_in(1, 1_000_000), default=512,
                   help="maximum tokens of a judge reply (default 512)")
    p.add_argument("--human", default=None, metavar="FILE", help="human ratings: also compute judge-human agreement")
    p.add_argument("--out", default=None, help="directory for judge.jsonl / judge.json (default: the run directory)")
    p.add_argument("--data-dir", default=None, help="data directory (default: the run's, then $SENTIPROBE_DATA_DIR)")
    p.add_argument("--cache-dir", default=None, help="cache directory")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    p.add_argument("--n-boot", type=N_BOOT, default=1000, help="bootstrap resamples for CIs")
    add_confidence(p, "the judge scores' intervals (and the agreement's, with --human)")
    p.add_argument("--no-update", action="store_true", help="do not add the judge results to the runs' results/report")
    p.add_argument("--json", action="store_true", help="print the judge document")
    p.set_defaults(func=cmd_judge)

    a = sub.add_parser("judge-agreement", help="SOUL: judge-human agreement (weighted kappa per criterion)")
    a.add_argument("--judge", required=True, metavar="FILE", help="judge ratings (judge.jsonl or a flat table)")
    a.add_argument("--human", required=True, metavar="FILE", help="human ratings (same formats)")
    a.add_argument("--n-boot", type=N_BOOT, default=1000, help="bootstrap resamples for CIs")
    a.add_argument("--seed", type=SEED, default=0, help="bootstrap seed")
    add_confidence(a, "the kappa intervals")
    a.add_argument("--json", action="store_true", help="print the JSON document")
    a.set_defaults(func=cmd_agreement)


def cmd_judge(args) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import judge
    from .run_cmd import parse_model_args

    doc = judge(args.run, args.model, parse_model_args(args.model_arg), n=args.n, seed=args.seed,
                anonymise=args.anonymise, max_tokens=args.max_tokens, human=args.human, out=args.out,
                data_dir=args.data_dir, cache_dir=args.cache_dir, use_cache=not args.no_cache, n_boot=args.n_boot,
                confidence=args.confidence, update_runs=not args.no_update)
    if args.json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        s = doc["summary"]
        print(f"judged {s['n_judged']} of {s['n_sampled']} items ({s['n_missing']} missing); {doc['validation']}")
        for system, per in s["systems"].items():
            cells = "  ".join(f"{c}={per[c]['value']:.2f}" if per[c]["value"] is not None else f"{c}=n/a"
                              for c in per)
            print(f"  {system}: {cells}")
        print(f"wrote {doc['judge_file']}", file=sys.stderr)
    return 0


def cmd_agreement(args) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import judge_agreement

    doc = judge_agreement(args.judge, args.human, n_boot=args.n_boot, seed=args.seed, confidence=args.confidence)
    if args.json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        print(f"{doc['n_pairs']} (item, system) pairs rated by both")
        for c, row in doc["criteria"].items():
            k = row["kappa_quadratic"]
            v = "n/a" if k["value"] is None else f"{k['value']:.3f}"
            print(f"  {c:<12} quadratic-weighted kappa {v}  exact agreement "
                  f"{_num(row['exact_agreement']['value'])}")
    return 0


def _num(v: float | None) -> str:
    return "n/a" if v is None else format(v, ".3f")
