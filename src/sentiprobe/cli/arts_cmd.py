"""``sentiprobe arts generate|audit-sample|audit-score|fidelity``: ARTS test generation and its checks."""
from __future__ import annotations

import json
import sys

from .argtypes import COUNT, PROBABILITY, SEED


def add_parser(sub) -> None:
    p = sub.add_parser("arts", help="ARTS test generation (offline), its audit and its fidelity to the release")
    arts = p.add_subparsers(dest="arts_command", metavar="ARTS_COMMAND")

    g = arts.add_parser("generate", help="generate RevTgt/RevNon/AddDiff variants for an aspect-sentiment file")
    g.add_argument("--input", required=True, help="TOWE JSON, SemEval-2014 XML (.xml) or JSONL (.jsonl) file")
    g.add_argument("--format", choices=("towe", "semeval-xml", "jsonl"), default=None,
                   help="input format (default: from the file name)")
    g.add_argument("--out", required=True, help="output enriched JSON (its report goes to <out>.report.json)")
    g.add_argument("--strategies", default="revtgt,revnon,adddiff",
                   help="comma-separated: revtgt, revnon, adddiff, revnon_adddiff, adddiff_k (default: the first 3)")
    g.add_argument("--k", type=COUNT, default=None, help="AddDiff(k): number of appended aspects (with adddiff_k)")
    g.add_argument("--seed", type=SEED, default=1016, help="seed of every random choice (default 1016)")
    g.add_argument("--mode", choices=("corrected", "faithful"), default="corrected",
                   help="corrected (default) or faithful to the original code's quirks (docs/arts-generate.md)")
    g.add_argument("--phrase-source", choices=("template", "mined", "aspectset"), default="template",
                   help="AddDiff phrases: templates from the input's pairs (as the release), mined from --pool, "
                        "or the AspectSet with labels from --pool")
    g.add_argument("--pool", default=None, help="training TOWE file for --phrase-source mined/aspectset")
    g.add_argument("--aspectset", default=None, help="AspectSet phrase list for --phrase-source aspectset")
    g.add_argument("--vocab", action="append", default=[],
                   help="JSON file whose sentences form the in-domain vocabulary (repeatable; default: input+pool)")
    g.add_argument("--pos-check", choices=("lexical", "retag"), default="lexical",
                   help="antonym POS check: tag + WordNet POS (fast) or re-tag each candidate sentence")
    g.add_argument("--antonym-choice", choices=("first", "random"), default="first")
    g.add_argument("--opinions", choices=("auto", "gold", "finder"), default="auto",
                   help="opinion spans: the input's (gold), found (finder), or gold when present (auto)")
    g.add_argument("--no-provenance", action="store_true", help="write the bare released format")
    g.add_argument("--no-audit", action="store_true", help="skip the automatic audit in the report")
    g.add_argument("--cache-dir", default=None, help="where the prepared WordNet copy lives (default: user cache)")
    g.add_argument("--json", action="store_true", help="print the report as JSON")
    g.set_defaults(func=cmd_generate)

    s = arts.add_parser("audit-sample", help="stratified sample of generated variants for human judgement (CSV)")
    s.add_argument("--generated", required=True, help="enriched JSON from `sentiprobe arts generate`")
    s.add_argument("--out", required=True, help="CSV to write (fill in the 'valid' and 'fluent' columns)")
    s.add_argument("--per-strategy", type=COUNT, default=50, help="variants per strategy (default 50)")
    s.add_argument("--seed", type=SEED, default=0)
    s.set_defaults(func=cmd_sample)

    c = arts.add_parser("audit-score", help="validity rate per strategy with a Wilson interval from a filled CSV")
    c.add_argument("file", help="the filled-in CSV from audit-sample")
    c.add_argument("--column", default="valid", help="judgement column (default valid; e.g. fluent)")
    c.add_argument("--alpha", type=PROBABILITY, default=0.05)
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_score)

    f = arts.add_parser("fidelity", help="compare a generated enriched set with a released one (docs/arts-generate.md)")
    f.add_argument("--generated", required=True, help="generated enriched JSON")
    f.add_argument("--reference", required=True, help="arts-laptop, arts-rest or a path to an enriched JSON")
    f.add_argument("--data-dir", default=None, help="data directory (default: $SENTIPROBE_DATA_DIR or cache)")
    f.add_argument("--json", action="store_true")
    f.set_defaults(func=cmd_fidelity)
    p.set_defaults(func=lambda a: (p.print_help(), 2)[1])


def cmd_generate(args) -> int:
    from pathlib import Path

    from ..suites.arts.generate import GenerateConfig, generate_file, report_path

    cfg = GenerateConfig(strategies=tuple(s.strip() for s in args.strategies.split(",") if s.strip()),
                         mode=args.mode, seed=args.seed, k=args.k, phrase_source=args.phrase_source,
                         pool_file=args.pool, aspectset_file=args.aspectset, vocab_files=tuple(args.vocab),
                         pos_check=args.pos_check, antonym_choice=args.antonym_choice, opinions=args.opinions,
                         provenance=not args.no_provenance)
    generate_file(args.input, args.out, cfg, input_format=args.format,
                  cache_dir=Path(args.cache_dir) if args.cache_dir else None, run_audit=not args.no_audit)
    rep_path = report_path(args.out)
    if args.json:
        print(rep_path.read_text(encoding="utf-8"))
        return 0
    rep = json.loads(rep_path.read_text(encoding="utf-8"))
    print(f"wrote {args.out} ({', '.join(f'{k} {v}' for k, v in rep['counts'].items())}); report: {rep_path}")
    skipped = [s for s in rep["skipped"] if s["stage"] == "input"]
    if skipped:
        print(f"{len(skipped)} input record(s) skipped: " + "; ".join(
            f"{k}: {v}" for k, v in rep["skipped_by_reason"].get("input", {}).items()), file=sys.stderr)
    if rep.get("audit"):
        for kind, checks in rep["audit"]["summary"].items():
            print(f"  audit {kind:<16} " + "  ".join(f"{c} {v}" for c, v in checks.items()))
    return 0


def cmd_sample(args) -> int:
    from ..suites.arts.generate import audit_sample

    counts = audit_sample(args.generated, args.out, per_strategy=args.per_strategy, seed=args.seed)
    print(f"wrote {args.out}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return 0


def cmd_score(args) -> int:
    from ..suites.arts.generate import audit_score

    doc = audit_score(args.file, column=args.column, alpha=args.alpha)
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    for name, r in [*doc["strategies"].items(), ("overall", doc["overall"])]:
        rate = "n/a" if r["rate"] is None else f"{r['rate']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]"
        print(f"  {name:<16} {r['valid']}/{r['judged']} valid  {rate}  ({r['unjudged']} unjudged)")
    return 0


def cmd_fidelity(args) -> int:
    from ..suites import get_suite
    from ..suites.arts.generate import fidelity_report

    ref = args.reference
    if ref in ("arts-laptop", "arts-rest"):
        dom = "laptop" if ref == "arts-laptop" else "rest"
        ref = str(get_suite(ref, args.data_dir).path(f"arts_testset/{dom}_test_enriched.json"))
    doc = fidelity_report(args.generated, ref)
    if args.json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
        return 0
    for name, v in doc["metrics"].items():
        print(f"  {name:<32} {'n/a' if v is None else f'{v:.3f}'}")
    for kind, d in doc["details"]["strategies"].items():
        print(f"  {kind} mismatch causes: {d['mismatch_causes']}")
    return 0
