"""``sentiprobe run [--suite A,B] [--model NAME] [--out DIR] [--json]``."""
from __future__ import annotations

import json
import sys


def add_parser(sub) -> None:
    p = sub.add_parser("run", help="run models on suites: fit, predict (cached), score, report")
    p.add_argument("--suite", default=None, action="append",
                   help="suite names, comma-separated or repeated (default: every suite whose data is available)")
    p.add_argument("--model", default=None, action="append",
                   help="model name (repeatable; default: the default models, see `sentiprobe list models`)")
    p.add_argument("--model-arg", default=[], action="append", metavar="KEY=VALUE",
                   help="argument for the model factory (repeatable)")
    p.add_argument("--suite-arg", default=[], action="append", metavar="[SUITE:]KEY=VALUE",
                   help="suite option (repeatable; `sentiprobe list suites` shows each suite's options; "
                        "SUITE: restricts it to one suite)")
    p.add_argument("--out", default="runs/latest", help="run directory (default runs/latest)")
    p.add_argument("--data-dir", default=None, help="data directory (default: $SENTIPROBE_DATA_DIR or cache)")
    p.add_argument("--cache-dir", default=None, help="cache directory (default: $SENTIPROBE_CACHE_DIR or cache)")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the prediction cache")
    p.add_argument("--repair-cache", action="store_true",
                   help="if the cache database is corrupt, move it aside (cache.sqlite.corrupt-<timestamp>) "
                        "and start a fresh one instead of stopping")
    p.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    p.add_argument("--n-boot", type=int, default=1000, help="bootstrap resamples for CIs")
    p.add_argument("--limit", type=int, default=None, help="only the first N test items per suite (recorded)")
    p.add_argument("--missing", choices=("error", "wrong", "variants-wrong"), default="error",
                   help="how missing predictions are scored (see `sentiprobe score --help`)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--json", action="store_true", help="also print the results document")
    p.set_defaults(func=cmd)


def parse_model_args(pairs: list[str]) -> dict[str, str]:
    from ..core.errors import ConfigError

    out = {}
    for kv in pairs:
        if "=" not in kv:
            raise ConfigError(f"--model-arg expects KEY=VALUE, got {kv!r}")
        k, v = kv.split("=", 1)
        out[k.strip().replace("-", "_")] = v
    return out


def cmd(args) -> int:
    from ..api import available_suite_names, run, run_errors
    from .suite_args import parse_suite_args

    suites = [s.strip() for arg in args.suite or [] for s in arg.split(",") if s.strip()] or None
    suite_options = parse_suite_args(args.suite_arg, suites or available_suite_names(args.data_dir))
    doc = run(suites=suites, models=args.model, model_args=parse_model_args(args.model_arg), out=args.out,
              data_dir=args.data_dir, cache_dir=args.cache_dir, use_cache=not args.no_cache, seed=args.seed,
              n_boot=args.n_boot, limit=args.limit, missing=args.missing, progress=not args.no_progress,
              suite_options=suite_options, repair_cache=args.repair_cache,
              log=lambda msg: print(msg, file=sys.stderr))
    if args.json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    errors = run_errors(doc)
    for where, err in errors.items():
        print(f"sentiprobe: suite {where} failed: {err['type']}: {err['message']}", file=sys.stderr)
    if errors:
        print(f"sentiprobe: {len(errors)} suite(s) failed; the other results are in {args.out} "
              f"(details in run.log)", file=sys.stderr)
        return 1
    return 0
