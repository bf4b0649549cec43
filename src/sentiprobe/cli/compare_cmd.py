"""``sentiprobe compare``: paired comparisons on each suite's own metrics and unit.

``--suite S --predictions A B [C ...]`` compares prediction files (or ``--column a --column b`` of one file);
``--runs DIR DIR ...`` compares run directories suite by suite. Text output lists per suite the leaderboard and
every pair's differences (percentage points for rates, r for correlations) with CIs and Holm-corrected p-values.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..core.runspec import confidence_of
from ..core.types import ci_label
from .argtypes import N_BOOT, PROBABILITY, SEED
from .options import add_confidence
from .suite_args import parse_suite_args


def add_parser(sub) -> None:
    p = sub.add_parser("compare", help="paired comparison of systems on each suite's own metrics and unit "
                                       "(paired bootstrap, McNemar, Cochran's Q, Holm)")
    p.add_argument("--suite", default=None, help="suite name (with --predictions)")
    p.add_argument("--predictions", nargs="+", metavar="FILE", default=None,
                   help="prediction files (CSV/JSONL, or the suite's published layouts)")
    p.add_argument("--runs", nargs="+", metavar="DIR", default=None,
                   help="run directories (one model each) to compare on every suite they share")
    p.add_argument("--names", nargs="+", default=None,
                   help="system names (default: the run's model directory, else the file stem)")
    p.add_argument("--reference", default=None, help="reference system (default: the best on the headline metric)")
    p.add_argument("--column", action="append", default=None,
                   help="label column; repeat it to compare several columns of one published file")
    p.add_argument("--data-dir", default=None, help="data directory (default: $SENTIPROBE_DATA_DIR or cache)")
    p.add_argument("--suite-arg", default=[], action="append", metavar="KEY=VALUE", help="suite option")
    p.add_argument("--missing", choices=("error", "wrong"), default="error",
                   help="missing predictions: error (default) or count them as wrong")
    p.add_argument("--n-boot", type=N_BOOT, default=1000, help="bootstrap resamples (default 1000)")
    p.add_argument("--seed", type=SEED, default=0, help="bootstrap seed")
    add_confidence(p, "the intervals and the significance level of the tests (1 - confidence)")
    p.add_argument("--alpha", type=PROBABILITY, default=None, help=argparse.SUPPRESS)  # the former name: 1 - confidence
    p.add_argument("--mcnemar", choices=("protocol", "exact", "chi2"), default="protocol",
                   help="McNemar's test: protocol = the suite's setting (default: the exact binomial test below 25 "
                        "discordant pairs, else the continuity-corrected chi-square clamped at 0; SENTiVENT: its "
                        "paper's chi-square, mlxtend mcnemar(corrected=True)); exact = always the exact binomial "
                        "test; chi2 = the former name of protocol. The test used is recorded beside each pair")
    p.add_argument("--json", action="store_true", help="print the JSON document")
    p.set_defaults(func=cmd)


def _v(v: float | None, scale: float = 100.0, nd: int = 1) -> str:
    return "n/a" if v is None else f"{scale * v:.{nd}f}"


def format_suite(doc: dict[str, Any]) -> list[str]:
    """Text lines of one suite's comparison entry."""
    from ..api import test_phrase  # loads when it runs: `sentiprobe --help` stays instant

    level = ci_label(doc["confidence"]) if doc.get("confidence") is not None else "CI"
    lines = [f"suite {doc['suite']}: {doc['n_units']} {doc['unit']}s, reference {doc['reference']}; "
             f"differences with {level}"]
    if doc.get("small_sample_note"):
        lines.append(f"  \u2020 {doc['small_sample_note']}")
    for m in doc["metrics"]:
        corr = doc["kinds"][m] == "correlation"
        board = "  ".join(f"{n} {_v(doc['systems'][n][m]['value'], 1 if corr else 100, 3 if corr else 1)}"
                          for n in doc["leaderboard"][m])
        lines.append(f"  {m} ({'r' if corr else '%'}): {board}")
    if "cochran_q" in doc:
        q = doc["cochran_q"]
        lines.append(f"  Cochran's Q ({q['metric']}) = {q['statistic']:.3f} (df {q['df']}), p = {q['p_value']:.4g}")
    for pr in doc["pairs"]:
        cells = []
        for m, d in pr["metrics"].items():
            nd = 3 if d["unit"] == "r" else 1
            diff = "n/a" if d["difference"] is None else f"{d['difference']:+.{nd}f}"
            ci = "" if d["ci_low"] is None else f" [{d['ci_low']:+.{nd}f}, {d['ci_high']:+.{nd}f}]"
            op = "<=" if d.get("at_floor") else ""
            p = "" if d.get("p_holm") is None else \
                f" p_holm {op}{d['p_holm']:.3g}{' *' if d.get('significant') else ''}"
            cells.append(f"d{m} {diff} {d['unit']}{ci}{p}")
            mc = d.get("mcnemar")
            if mc:
                cells.append(f"McNemar ({mc['method']}) b={mc['counts']['b']} c={mc['counts']['c']} "
                             f"p {mc['p_value']:.4g}")
        lines.append(f"  {pr['a']} - {pr['b']}: " + "  ".join(cells))
    tests = sorted({test_phrase(d.get("test", "")) for pr in doc["pairs"] for d in pr["metrics"].values()})
    t = doc.get("tests") or {}
    n_tests = f"{t.get('n_tests', '?')} test{'' if t.get('n_tests') == 1 else 's'}"
    lines.append(f"  tests: {'; '.join(x for x in tests if x)}; Holm over {n_tests}"
                 + (f"; bootstrap floor p = {t['p_floor']:.2g} (<= marks a p-value at it)" if t.get("p_floor") else ""))
    if doc.get("not_run"):
        lines.append(f"  not run on this suite: {', '.join(doc['not_run'])}")
    return lines


def cmd(args) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import compare

    # --alpha: the former option (1 - confidence), still accepted; its range is checked at parse time
    confidence = args.confidence if args.alpha is None else confidence_of(args.alpha)
    options = (parse_suite_args(args.suite_arg, [args.suite]).get(args.suite, {})
               if args.suite and not args.runs else None)
    doc = compare(args.runs, suite=args.suite, predictions=args.predictions, names=args.names,
                  reference=args.reference,
                  column=args.column if args.column and len(args.column) > 1 else
                  (args.column[0] if args.column else None),
                  data_dir=args.data_dir, missing=args.missing, n_boot=args.n_boot, seed=args.seed,
                  confidence=confidence, mcnemar=args.mcnemar, suite_options=options)
    suites = list(doc["suites"].values()) if args.runs else [doc]
    nothing = bool(args.runs) and not suites  # every suite left out: say so and fail, not exit 0 silently
    if args.json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        for d in suites:
            print("\n".join(format_suite(d)))
        for name, why in doc.get("not_compared", {}).items():
            print(f"suite {name}: not compared ({why})")
    if nothing:
        print("sentiprobe: error: nothing was compared: no suite has two systems that asked the same items"
              + (" (see 'not compared' above)" if not args.json else ""), file=sys.stderr)
        return 1
    return 0
