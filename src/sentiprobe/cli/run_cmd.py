"""``sentiprobe run [--suite A,B] [--model M,N] [--model-arg [MODEL:]KEY=VALUE] [--out DIR] [--json]``.

Progress goes to stderr (bars on a terminal, one plain line per stage elsewhere); stdout gets the results
table, or with ``--json`` a compact document (headline metrics and paths). The full documents stay in the
run directory.
"""
from __future__ import annotations

import json
import sys

from .argtypes import N_BOOT, SEED


def add_parser(sub) -> None:
    p = sub.add_parser("run", help="run models on suites: fit, predict (cached), score, report")
    p.add_argument("--suite", default=None, action="append",
                   help="suite names, comma-separated or repeated (default: every suite whose data is available)")
    p.add_argument("--model", default=None, action="append",
                   help="model names, comma-separated or repeated (default: the default models, see "
                        "`sentiprobe list models`)")
    p.add_argument("--model-arg", default=[], action="append", metavar="[MODEL:]KEY=VALUE",
                   help="argument for the model factories (repeatable): MODEL:KEY=VALUE for one model, KEY=VALUE "
                        "for every selected model that takes KEY")
    p.add_argument("--suite-arg", default=[], action="append", metavar="[SUITE:]KEY=VALUE",
                   help="suite option (repeatable; `sentiprobe list suites` shows each suite's options; "
                        "SUITE: restricts it to one suite)")
    p.add_argument("--out", default="runs/latest",
                   help="run directory (default runs/latest): <out>/<model>/..., <out>/summary.json, "
                        "<out>/report.html")
    p.add_argument("--overwrite", action="store_true",
                   help="replace a run of a different configuration in --out (removes only sentiprobe's files)")
    p.add_argument("--data-dir", default=None, help="data directory (default: $SENTIPROBE_DATA_DIR or cache)")
    p.add_argument("--cache-dir", default=None, help="cache directory (default: $SENTIPROBE_CACHE_DIR or cache)")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the prediction cache")
    p.add_argument("--repair-cache", action="store_true",
                   help="if the cache database is corrupt, move it aside (cache.sqlite.corrupt-<timestamp>) "
                        "and start a fresh one instead of stopping")
    p.add_argument("--seed", type=SEED, default=0, help="base seed (default 0)")
    p.add_argument("--n-boot", type=N_BOOT, default=1000, help="bootstrap resamples for CIs")
    p.add_argument("--limit", default=None, metavar="N|FRACTION",
                   help="only the first N test items per suite, or a fraction in (0, 1] of them (recorded)")
    p.add_argument("--missing", choices=("error", "wrong", "variants-wrong"), default="error",
                   help="how missing predictions are scored (see `sentiprobe score --help`)")
    p.add_argument("--no-progress", action="store_true", help="no progress on stderr")
    p.add_argument("--jobs", default="auto", metavar="N|auto",
                   help="models run side by side in N worker processes (default auto: one per CPU, at most 4 "
                        "and one per model; 1 runs them one after another in this process); same results")
    p.add_argument("--json", action="store_true",
                   help="print a compact JSON document (headline metrics and paths) instead of the table")
    p.set_defaults(func=cmd)


def split_names(values: list[str] | None) -> list[str] | None:
    """``--x a,b --x c`` -> ``[a, b, c]`` (None when none given)."""
    return [s.strip() for arg in values or [] for s in arg.split(",") if s.strip()] or None


def parse_model_args(pairs: list[str]) -> dict[str, str]:
    """``[MODEL:]KEY=VALUE`` pairs -> ``{"[MODEL:]KEY": value}`` (matched to models by the API)."""
    from ..core.errors import ConfigError

    out = {}
    for kv in pairs:
        if "=" not in kv or not kv.split("=", 1)[0].strip().rsplit(":", 1)[-1].strip():
            raise ConfigError(f"--model-arg expects [MODEL:]KEY=VALUE, got {kv!r}")
        k, v = kv.split("=", 1)
        k = k.strip()
        if ":" in k:
            model, key = k.split(":", 1)
            k = f"{model.strip()}:{key.strip().replace('-', '_')}"
        else:
            k = k.replace("-", "_")
        out[k] = v
    return out


def cmd(args) -> int:
    from ..api import available_suite_names, expand_suite_groups, run, run_errors
    from ..core.errors import ConfigError
    from ..run.progress import Progress, compact_summary, results_table
    from ..run.runner import parse_limit
    from .suite_args import parse_suite_args

    for flag, given in (("--suite", args.suite), ("--model", args.model)):
        if given is not None and split_names(given) is None:  # `--model ''` is not "the default models"
            raise ConfigError(f"{flag} {' '.join(map(repr, given))} names nothing; leave {flag} out for the defaults")
    suites = split_names(args.suite)
    if suites:
        suites = expand_suite_groups(suites, args.data_dir)  # `--suite lexcomp`: every lexcomp-* suite
    limit = parse_limit(args.limit)  # before any work: `--limit 0` is an error, not an empty run
    suite_options = parse_suite_args(args.suite_arg, suites or available_suite_names(args.data_dir))
    progress = Progress(sys.stderr, enabled=not args.no_progress)
    doc = run(suites=suites, models=split_names(args.model), model_args=parse_model_args(args.model_arg),
              out=args.out, data_dir=args.data_dir, cache_dir=args.cache_dir, use_cache=not args.no_cache,
              seed=args.seed, n_boot=args.n_boot, limit=limit, missing=args.missing, progress=progress,
              suite_options=suite_options, repair_cache=args.repair_cache, overwrite=args.overwrite,
              log=lambda msg: print(msg, file=sys.stderr), jobs=args.jobs)
    if args.json:
        print(json.dumps(compact_summary(doc), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(results_table(doc))
    errors = run_errors(doc)
    for where, err in errors.items():
        print(f"sentiprobe: suite {where} failed: {err['type']}: {err['message']}", file=sys.stderr)
    if errors:
        print(f"sentiprobe: {len(errors)} suite(s) failed; the other results are in {args.out} "
              f"(details in each model's run.log)", file=sys.stderr)
        return 1
    return 0
