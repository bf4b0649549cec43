"""``sentiprobe agree FILE [--level L] [--json]``: inter-rater agreement of a rater table (CSV)."""
from __future__ import annotations

import json

from .argtypes import N_BOOT, SEED
from .options import add_confidence


def _list(s: str | None) -> list[str] | None:
    return None if s is None else [x.strip() for x in s.split(",") if x.strip()]


def add_parser(sub) -> None:
    p = sub.add_parser("agree", help="agreement of a rater table: Fleiss' kappa, Krippendorff's alpha, "
                                     "Gwet's AC1, percent agreement")
    p.add_argument("file", help="CSV: header = rater names, one row per unit, blank cell = missing rating")
    p.add_argument("--level", choices=("nominal", "ordinal", "interval", "ratio"), default="nominal",
                   help="level of measurement for Krippendorff's alpha (default nominal)")
    p.add_argument("--weights", choices=("identity", "linear", "quadratic"), default=None,
                   help="agreement weights for Fleiss / AC1 / percent agreement / Cohen (default identity)")
    p.add_argument("--categories", default=None,
                   help="comma-separated category order (needed for ordered levels/weights of text labels)")
    p.add_argument("--raters", default=None, help="comma-separated rater columns (default: all but the id column)")
    p.add_argument("--id-column", default=None, help="unit id column (auto: id, unit, unit_id or item_id)")
    p.add_argument("--ignore-columns", default=None, help="comma-separated columns that are not raters")
    p.add_argument("--missing-values", default="", help="comma-separated cell values meaning 'no rating' "
                                                        "besides the blank cell (e.g. NA)")
    p.add_argument("--ci", choices=("analytic", "bootstrap"), default="analytic",
                   help="analytic (Gwet's variance, t interval) or bootstrap over units (default analytic)")
    p.add_argument("--n-boot", type=N_BOOT, default=1000, help="bootstrap resamples (default 1000)")
    p.add_argument("--seed", type=SEED, default=0, help="bootstrap seed")
    add_confidence(p, "the intervals (analytic or bootstrap)")
    p.add_argument("--json", action="store_true", help="print the JSON document")
    p.set_defaults(func=cmd)


def cmd(args) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import agree

    missing = [""] + (_list(args.missing_values) or [])
    doc = agree(args.file, raters=_list(args.raters), id_column=args.id_column,
                ignore=_list(args.ignore_columns) or (), missing=missing, level=args.level,
                categories=_list(args.categories), weights=args.weights, ci=args.ci, n_boot=args.n_boot,
                seed=args.seed, confidence=args.confidence)
    if args.json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
        return 0
    d = doc["details"]
    print(f"{d['source']}: {len(d['raters'])} raters, {d['n_units_total']} units, {d['n_units_used']} with >= 2 "
          f"ratings ({d['n_units_excluded_single_rating']} single-rated, {d['n_units_excluded_no_rating']} unrated "
          "excluded from observed agreement)")
    for name, m in doc["metrics"].items():
        v = m["value"]
        shown = "n/a" if v is None else f"{v:.3f}"
        ci = "" if m["ci_low"] is None else f"  [{m['ci_low']:.3f}, {m['ci_high']:.3f}]"
        band = d["interpretation"].get(name)
        print(f"  {name:<20} {shown}{ci}  se={m['se'] if m['se'] is None else round(m['se'], 4)}"
              f"{'  ' + band if band else ''}")
    return 0
