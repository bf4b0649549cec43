"""``sentiprobe sweep CONFIG.yaml [--executor local|ray] [--address ADDRESS] --out DIR``."""
from __future__ import annotations

import json
import os
import sys

from .environment import execute_job_in_environment


def add_parser(sub) -> None:
    p = sub.add_parser("sweep", help="run a grid of models x suites x seeds (locally or on a Ray cluster)",
                       description="Run every (model, suite, seed) job of a YAML sweep config into its own run "
                                   "directory under --out; finished jobs are never recomputed. See "
                                   "docs/scale-out.md.")
    p.add_argument("config", help="sweep config (YAML): models, suites, seeds, optional limit/n_boot/retries/resources")
    p.add_argument("--out", required=True,
                   help="sweep directory (jobs/, sweep.json, summary.json, comparison.json, report.html)")
    p.add_argument("--executor", choices=("local", "ray"), default="local",
                   help="local: one job after another in this process (default); ray: Ray tasks")
    p.add_argument("--address", default=None,
                   help="Ray cluster address (auto, HOST:PORT, ray://HOST:PORT; default: $RAY_ADDRESS, else a "
                        "private single-node Ray)")
    p.add_argument("--data-dir", default=None, help="data directory (default: $SENTIPROBE_DATA_DIR or cache)")
    p.add_argument("--cache-dir", default=None,
                   help="cache directory shared by every job (default: $SENTIPROBE_CACHE_DIR or the user cache)")
    p.add_argument("--json", action="store_true",
                   help="print the sweep index (one line of JSON) instead of the results table")
    p.set_defaults(func=cmd)


def cmd(args) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import sweep, sweep_table
    from .run_cmd import quiet_third_party_progress

    quiet_third_party_progress()  # jobs run without progress; so do the libraries they load

    address = args.address or (os.environ.get("RAY_ADDRESS") if args.executor == "ray" else None)
    # workers may run elsewhere: the API gives them absolute directories, never their own environment's defaults
    index = sweep(args.config, args.out, executor=args.executor, address=address, data_dir=args.data_dir,
                  cache_dir=args.cache_dir, log=lambda m: print(m, file=sys.stderr), job_fn=execute_job_in_environment)
    if args.json:
        print(json.dumps(index, ensure_ascii=False))
    else:
        sys.stdout.write(sweep_table(args.out))
    failed = [j for j, r in index["jobs"].items() if r["status"] == "failed"]
    if failed:
        print(f"sentiprobe: {len(failed)} job(s) failed: {', '.join(failed)}; the others are in {args.out} "
              f"(errors in sweep.json)", file=sys.stderr)
        return 1
    print(f"sentiprobe: sweep done: {args.out}/report.html", file=sys.stderr)
    return 0
