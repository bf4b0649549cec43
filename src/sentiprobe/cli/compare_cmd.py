"""``sentiprobe compare --suite S --predictions A B [C ...] [--json]``: paired significance tests."""
from __future__ import annotations

import json


def add_parser(sub) -> None:
    p = sub.add_parser("compare", help="compare systems' predictions on one suite (McNemar, Cochran's Q, "
                                       "paired bootstrap, Holm)")
    p.add_argument("--suite", required=True, help="suite name (see `sentiprobe list suites`)")
    p.add_argument("--predictions", required=True, nargs="+", metavar="FILE",
                   help="two or more prediction files (CSV/JSONL, or the suite's published layouts)")
    p.add_argument("--names", nargs="+", default=None, help="system names (default: file stems)")
    p.add_argument("--reference", default=None, help="reference system (default: the most accurate)")
    p.add_argument("--column", default=None, help="label column of the prediction files")
    p.add_argument("--data-dir", default=None, help="data directory (default: $SENTIPROBE_DATA_DIR or cache)")
    p.add_argument("--missing", choices=("error", "wrong"), default="error",
                   help="missing predictions: error (default) or count them as wrong")
    p.add_argument("--n-boot", type=int, default=1000, help="bootstrap resamples (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    p.add_argument("--exact-below", type=int, default=25,
                   help="exact McNemar when discordant pairs b + c are fewer than this (default 25)")
    p.add_argument("--json", action="store_true", help="print the JSON document")
    p.set_defaults(func=cmd)


def _f(v, pct: bool = True) -> str:
    if v is None:
        return "n/a"
    return f"{100 * v:.1f}" if pct else f"{v:.4g}"


def cmd(args) -> int:
    from ..compare import compare_predictions

    doc = compare_predictions(args.suite, args.predictions, names=args.names, reference=args.reference,
                              column=args.column, data_dir=args.data_dir, missing=args.missing,
                              n_boot=args.n_boot, seed=args.seed, alpha=args.alpha, exact_below=args.exact_below)
    if args.json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
        return 0
    print(f"suite {doc['suite']}: {doc['n_items']} items, reference {doc['reference']}")
    for name, ms in doc["metrics"].items():
        cells = "  ".join(f"{k} {_f(m['value'])} [{_f(m['ci_low'])}, {_f(m['ci_high'])}]" for k, m in ms.items())
        print(f"  {name:<28} {cells}")
    q = doc["cochran_q"]
    print(f"Cochran's Q = {q['statistic']:.3f} (df {q['df']}), p = {q['p_value']:.4g}"
          f"{' (reject H0)' if q['reject'] else ''}")
    for pr in doc["pairs"]:
        mc = pr["mcnemar"]
        boots = "  ".join(f"d{k} {_f(b['delta'])} [{_f(b['ci_low'])}, {_f(b['ci_high'])}] p_holm {b['p_holm']:.3g}"
                          for k, b in pr["bootstrap"].items())
        print(f"  {pr['a']} vs {pr['b']}: McNemar b={mc['counts']['b']} c={mc['counts']['c']} ({mc['method']}) "
              f"p={mc['p_value']:.4g} p_holm={mc['p_holm']:.4g}  {boots}")
    return 0
