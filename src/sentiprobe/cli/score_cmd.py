"""``sentiprobe score --suite S --predictions FILE [--column C] [--suite-arg K=V] [--json]``."""
from __future__ import annotations

import json

from .argtypes import N_BOOT, SEED
from .options import add_confidence
from .suite_args import parse_suite_args


def add_parser(sub) -> None:
    p = sub.add_parser("score", help="score a predictions file (no model involved)")
    p.add_argument("--suite", required=True, help="suite name (see `sentiprobe list suites`)")
    p.add_argument("--predictions", required=True, help="CSV/JSONL predictions file")
    p.add_argument("--column", default=None, help="label column (e.g. a model column of a published CSV)")
    p.add_argument("--data-dir", default=None, help="data directory (default: $SENTIPROBE_DATA_DIR or cache)")
    p.add_argument("--missing", choices=("error", "wrong", "variants-wrong"), default="error",
                   help="missing predictions: error (default), wrong (count every missing one as wrong) or "
                        "variants-wrong (ARTS: a missing variant counts as wrong, a missing source is an error); "
                        "always reported")
    p.add_argument("--suite-arg", default=[], action="append", metavar="KEY=VALUE",
                   help="suite option (repeatable; `sentiprobe list suites` shows each suite's options)")
    p.add_argument("--tables-out", default=None, metavar="DIR",
                   help="write the suite's extra tables here (NonCompSST: pooled scores and rating TSVs)")
    p.add_argument("--n-boot", type=N_BOOT, default=1000, help="bootstrap resamples for CIs (default 1000)")
    p.add_argument("--seed", type=SEED, default=0, help="bootstrap seed")
    add_confidence(p)
    p.add_argument("--json", action="store_true", help="print the JSON document")
    p.set_defaults(func=cmd)


def cmd(args) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import score

    options = parse_suite_args(args.suite_arg, [args.suite]).get(args.suite, {})
    doc = score(args.suite, args.predictions, column=args.column, data_dir=args.data_dir, missing=args.missing,
                n_boot=args.n_boot, seed=args.seed, confidence=args.confidence, suite_options=options,
                tables_out=args.tables_out)
    if args.json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        from ..api import format_value, is_percentage
        from ..core.types import ci_label

        print(f"{'metric':<28} {'value':>10}  [{ci_label(doc['confidence'])}]")
        for k, m in doc["metrics"].items():
            v = m["value"]
            unit = "%" if is_percentage(k, v) else ""
            shown = "n/a" if v is None else f"{format_value(k, v)}{unit}"
            lo = "" if m["ci_low"] is None else f"  [{format_value(k, m['ci_low'])}, {format_value(k, m['ci_high'])}]"
            print(f"{k:<28} {shown:>10}{lo}  n={m['n']}" + (f"  \u2020 {m['small_sample_note']}"
                                                             if m.get("small_sample_note") else ""))
    return 0
