"""``sentiprobe export RUN_DIR --format csv|jsonl [--out FILE] [--data-dir DIR]``: the per-item table."""
from __future__ import annotations

import sys


def add_parser(sub) -> None:
    p = sub.add_parser("export", help="per-item table of a run (input, gold, prediction, correct) as CSV or JSONL")
    p.add_argument("run_dir", metavar="RUN_DIR", help="run directory (every model) or one model's directory")
    p.add_argument("--format", choices=("csv", "jsonl"), default="csv", help="output format (default csv)")
    p.add_argument("--out", default=None, metavar="FILE", help="write here instead of stdout")
    p.add_argument("--data-dir", default=None,
                   help="data directory (default: the one the run recorded in results.json)")
    p.set_defaults(func=cmd)


def cmd(args) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import export

    text = export(args.run_dir, args.format, args.out, data_dir=args.data_dir)
    if args.out is None:
        sys.stdout.write(text)
    else:
        print(f"wrote {args.out}", file=sys.stderr)
    return 0
