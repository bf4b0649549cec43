"""``sentiprobe arts generate|audit|audit-sample|audit-score|fidelity|review``: ARTS test generation and its checks."""
from __future__ import annotations

import json
import os
import sys

from ..core.errors import ConfigError
from ..core.runspec import confidence_of
from .argtypes import COUNT, PROBABILITY, SEED, int_in
from .options import add_confidence


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
    g.add_argument("--phrase-source", choices=("auto", "template", "mined", "aspectset", "clauses"), default="auto",
                   help="AddDiff phrases: clauses mined from --pool (corrected mode's default with --pool), "
                        "templates from the input's pairs (the release; corrected: adjective phrases only), "
                        "templates from --pool (mined), or the AspectSet with labels from --pool")
    g.add_argument("--pool", default=None, help="training file (TOWE/_sent JSON, JSONL or SemEval XML) whose "
                                                "clauses AddDiff appends (default: train_sent_towe.json or "
                                                "train_sent.json beside --input; without one, AddDiff needs "
                                                "--pool or --phrase-source template)")
    g.add_argument("--aspectset", default=None, help="AspectSet phrase list for --phrase-source aspectset")
    g.add_argument("--vocab", action="append", default=[],
                   help="JSON file whose sentences form the in-domain vocabulary (repeatable; default: input+pool)")
    g.add_argument("--pos-check", choices=("lexical", "retag"), default="lexical",
                   help="antonym POS check: tag + WordNet POS (fast) or re-tag each candidate sentence")
    g.add_argument("--antonym-choice", choices=("first", "random"), default="first")
    g.add_argument("--opinions", choices=("auto", "gold", "finder"), default="auto",
                   help="opinion spans: the input's (gold), found (finder), or gold when present (auto)")
    g.add_argument("--rank", choices=("lm", "rules"), default="lm",
                   help="corrected mode: choose among valid candidates by SmolLM2 fluency and refuse disfluent "
                        "ones (lm, default) or take the first valid one in rule order (rules, no language model)")
    g.add_argument("--lm-dtype", choices=("auto", "bfloat16", "float32"), default="auto",
                   help="fluency model precision (default auto: float32 on every CPU, so that every machine "
                        "writes the same variants; bfloat16 is faster where the CPU runs it natively, but its "
                        "choices can differ; the report records the one used)")
    g.add_argument("--lexicon", action="append", default=[],
                   help="TOWE file whose opinion words and labels extend VADER in the validity checks "
                        "(repeatable; default: --pool when it has opinion spans)")
    g.add_argument("--pool-sentences", type=COUNT, default=2000,
                   help="clause mining parses at most this many pool sentences (seeded sample; default 2000)")
    g.add_argument("--max-sentence-chars", type=COUNT, default=2000,
                   help="refuse an input sentence longer than this (default 2000 characters)")
    g.add_argument("--verifier", choices=("none", "local", "endpoint"), default="none",
                   help="corrected mode: a reader of every whole variant (fluent? the target's sentiment? the "
                        "strategy's condition?): endpoint = an OpenAI-compatible server, a variant it rejects is "
                        "refused; local = the packaged SmolLM2, verdicts recorded only (it reads at chance level); "
                        "none (default)")
    g.add_argument("--verifier-url", default=None,
                   help="--verifier endpoint: base URL such as http://127.0.0.1:8000/v1 (default: "
                        "$SENTIPROBE_LLM_BASE_URL; the API key only from $SENTIPROBE_LLM_API_KEY)")
    g.add_argument("--verifier-model", default=None,
                   help="--verifier endpoint: the served model name (default: $SENTIPROBE_LLM_MODEL)")
    g.add_argument("--explain", action="store_true",
                   help="print, per variant, every candidate edit and why the chosen one won")
    g.add_argument("--no-provenance", action="store_true", help="write the bare released format")
    g.add_argument("--no-audit", action="store_true", help="skip the automatic audit in the report")
    g.add_argument("--cache-dir", default=None,
                   help="where the WordNet copy, the fluency model and its score cache live "
                        "(default: $SENTIPROBE_CACHE_DIR or the user cache)")
    g.add_argument("--json", action="store_true", help="print the report as JSON")
    g.set_defaults(func=cmd_generate)

    a = arts.add_parser("audit", help="the automatic audit of a generated file and every source refused, with why")
    a.add_argument("--generated", required=True, help="enriched JSON from `sentiprobe arts generate`")
    a.add_argument("--limit", type=COUNT, default=50, help="refused sources listed per strategy (default 50)")
    a.add_argument("--json", action="store_true")
    a.set_defaults(func=cmd_audit)

    s = arts.add_parser("audit-sample", help="blind, seeded, strategy-stratified sample of variants to judge (CSV)")
    s.add_argument("--generated", required=True, help="enriched JSON from `sentiprobe arts generate`")
    s.add_argument("--out", required=True, help="CSV to fill in (columns 'fluent' and 'label'); the answer key "
                                                "goes to <out>.key.json")
    s.add_argument("--per-strategy", type=COUNT, default=50, help="variants per strategy (default 50)")
    s.add_argument("--seed", type=SEED, default=0)
    s.set_defaults(func=cmd_sample)

    c = arts.add_parser("audit-score", help="fluency and label validity per strategy with Wilson intervals")
    c.add_argument("file", help="the filled-in CSV from audit-sample (its key is read from <file>.key.json)")
    c.add_argument("--key", default=None, help="answer key (default: the sample's <out>.key.json)")
    level = c.add_mutually_exclusive_group()
    add_confidence(level, "the Wilson intervals")
    level.add_argument("--alpha", type=PROBABILITY, default=None,
                       help="deprecated, use --confidence: 1 - the level (--alpha 0.05 is --confidence 0.95)")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_score)

    f = arts.add_parser("fidelity", help="compare a generated enriched set with a released one (docs/arts-generate.md)")
    f.add_argument("--generated", required=True, help="generated enriched JSON")
    f.add_argument("--reference", required=True, help="arts-laptop, arts-rest or a path to an enriched JSON")
    f.add_argument("--data-dir", default=None, help="data directory (default: $SENTIPROBE_DATA_DIR or cache)")
    f.add_argument("--json", action="store_true")
    f.set_defaults(func=cmd_fidelity)
    add_review_parser(arts)
    p.set_defaults(func=lambda a: (p.print_help(), 2)[1])


def add_review_parser(arts) -> None:
    r = arts.add_parser("review", help="review generated variants on a local web page and write a curated test set")
    r.add_argument("generated", help="enriched JSON from `sentiprobe arts generate` (its review state is saved "
                                     "after every key in <generated>.review.json; a later run resumes)")
    r.add_argument("--out", default=None, help="curated enriched JSON: accepted variants (with their fixes) and "
                                               "their sources, runnable with --suite arts-custom")
    r.add_argument("--export-audit", default=None, help="the judgements as an audit sheet (CSV + <path>.key.json) "
                                                        "that `sentiprobe arts audit-score` reads")
    r.add_argument("--reviewer", default="anonymous", help="name recorded with every decision (default anonymous)")
    r.add_argument("--write-refused", action="store_true",
                   help="after the variants, show every polar target the generator refused under RevTgt (from the "
                        "report beside the generated file) for you to write its reversal, or reject")
    r.add_argument("--port", type=int_in(0, 65535), default=0, help="port on 127.0.0.1 (default: a free one)")
    r.add_argument("--no-browser", action="store_true", help="only print the URL")
    r.set_defaults(func=cmd_review)


def cmd_review(args) -> int:
    """Serve the review page until its finish action (exit 0) or Ctrl-C (exit 130; the state is saved)."""
    from .. import api

    doc = api.arts_review(args.generated, out=args.out, export_audit=args.export_audit, reviewer=args.reviewer,
                          write_refused=args.write_refused, port=args.port, open_browser=not args.no_browser,
                          display=_has_display())
    return 130 if doc["status"] == "interrupted" else 0


def _has_display() -> bool:
    """Whether a graphical browser can open (read here: only the command line reads the environment)."""
    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def cmd_generate(args) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import arts_clause_cap, arts_generate, arts_report_path

    gen = arts_generate(args.input, args.out, input_format=args.format, cache_dir=args.cache_dir,
                        run_audit=not args.no_audit,
                        strategies=tuple(s.strip() for s in args.strategies.split(",") if s.strip()),
                        mode=args.mode, seed=args.seed, k=args.k, phrase_source=args.phrase_source,
                        pool_file=args.pool, aspectset_file=args.aspectset, vocab_files=tuple(args.vocab),
                        pos_check=args.pos_check, antonym_choice=args.antonym_choice, opinions=args.opinions,
                        provenance=not args.no_provenance, rank=args.rank, lm_dtype=args.lm_dtype,
                        lexicon_files=tuple(args.lexicon), pool_sentences=args.pool_sentences,
                        max_sentence_chars=args.max_sentence_chars, verifier=args.verifier,
                        verifier_url=args.verifier_url, verifier_model=args.verifier_model)
    rep_path = arts_report_path(args.out)
    if args.json:
        print(rep_path.read_text(encoding="utf-8"))
        return 0
    rep = json.loads(rep_path.read_text(encoding="utf-8"))
    if args.explain:
        _explain(gen)
    print(f"wrote {args.out} ({', '.join(f'{k} {v}' for k, v in rep['counts'].items())}); report: {rep_path}")
    if rep["resources"].get("pool_default"):
        print(f"  pool (AddDiff clauses, in-domain vocabulary): {rep['resources']['pool_default']}")
    for kind, var in (rep.get("adddiff_variety") or {}).items():
        print(f"  {kind}: {var['distinct_clauses']} distinct clauses in {var['variants']} variants; the most used "
              f"serves {var['most_used_variants']} ({var['largest_share']:.1%}; cap {arts_clause_cap():.0%})")
    skipped = [s for s in rep["skipped"] if s["stage"] == "input"]
    if skipped:
        print(f"{len(skipped)} input record(s) skipped: " + "; ".join(
            f"{k}: {v}" for k, v in rep["skipped_by_reason"].get("input", {}).items()), file=sys.stderr)
    refused = {k: sum(v.values()) for k, v in rep["skipped_by_reason"].items() if k != "input"}
    if refused:
        print("  refused (no variant): " + ", ".join(f"{k} {v}" for k, v in refused.items())
              + f"; list them with `sentiprobe arts audit --generated {args.out}`")
    ver = rep.get("verifier")
    if ver:
        print(f"  verifier {ver['verifier']} ({ver['policy']}): {ver['verified']} verified ({ver['from_cache']} from "
              f"cache), {ver['flagged']} flagged, {ver['refused']} refused, {ver['cpu_s']} CPU s"
              + "".join(f"\n    {n:5d}  {why}" for why, n in list(ver["flagged_by_reason"].items())[:6]))
    if rep.get("audit"):
        for kind, checks in rep["audit"]["summary"].items():
            print(f"  audit {kind:<16} " + "  ".join(f"{c} {v}" for c, v in checks.items()))
    return 0


def _explain(gen) -> None:
    """Every variant's candidates, their fluency and problems, and the reason for the choice."""
    for v in gen.variants:
        print(f"{v.key} [{v.kind}] {v.sentence}")
        for rec in v.choices:
            print(f"  site {rec['site']}: {rec.get('reason', '')}")
            for c in rec["candidates"]:
                mark = "*" if c["text"] == rec.get("chosen") else (" " if c["valid"] else "x")
                flu = f"{c['fluency']:+.2f}" if c.get("fluency") is not None else "     "
                why = "; ".join(c.get("problems", []))
                print(f"   {mark} {flu} {c['op']:<16} {c['text']}" + (f"  -- {why}" if why else ""))
        for ap in v.appended:
            print(f"  appended {ap['text']!r} ({ap['label']}, {ap['form']}, from {ap['origin']})")


def cmd_audit(args) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import arts_report

    if args.limit < 0:
        raise ConfigError(f"--limit must be >= 0, not {args.limit}")
    rep = arts_report(args.generated)
    refused = [s for s in rep["skipped"] if isinstance(s, dict) and s.get("stage") != "input"]
    if args.json:
        print(json.dumps({"counts": rep.get("counts"), "skipped_by_reason": rep.get("skipped_by_reason"),
                          "refused": refused, "audit": rep.get("audit")}, indent=2, ensure_ascii=False))
        return 0
    print(f"{args.generated}: " + ", ".join(f"{k} {v}" for k, v in (rep.get("counts") or {}).items()))
    for stage, reasons in (rep.get("skipped_by_reason") or {}).items():
        print(f"  {stage}: {sum(reasons.values())} without a variant")
        for why, n in sorted(reasons.items(), key=lambda x: -x[1])[:12]:
            print(f"    {n:5d}  {why}")
    by: dict[str, list] = {}
    for s in refused:
        by.setdefault(s["stage"], []).append(s)
    for stage, rows in by.items():
        print(f"refused {stage} ({len(rows)}):")
        for s in rows[:args.limit]:
            print(f"  {s['record']}: {s['reason']}")
        if len(rows) > args.limit:
            print(f"  ... {len(rows) - args.limit} more (--limit, or --json for all)")
    ver = rep.get("verifier")
    if ver:
        print(f"  verifier {ver['verifier']} ({ver['policy']}): {ver['verified']} verified ({ver['from_cache']} from "
              f"cache), {ver['flagged']} flagged, {ver['refused']} refused, {ver['cpu_s']} CPU s"
              + "".join(f"\n    {n:5d}  {why}" for why, n in list(ver["flagged_by_reason"].items())[:6]))
    if rep.get("audit"):
        for kind, checks in rep["audit"]["summary"].items():
            print(f"  audit {kind:<16} " + "  ".join(f"{c} {v}" for c, v in checks.items()))
    return 0


def cmd_sample(args) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import arts_audit_sample

    counts = arts_audit_sample(args.generated, args.out, per_strategy=args.per_strategy, seed=args.seed)
    print(f"wrote {args.out} (blind: sentence and term only) and its key {args.out}.key.json: "
          + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return 0


def cmd_score(args) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import arts_audit_score

    confidence = args.confidence if args.alpha is None else confidence_of(args.alpha)  # --alpha: the former name
    doc = arts_audit_score(args.file, key=args.key, confidence=confidence)
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    conf = round(100 * doc["confidence"], 1)
    print(f"  {'strategy':<16} {'fluent':>22} {'label correct':>22} {'valid (both)':>22}   ({conf}% Wilson CIs)")
    for name, r in [*doc["strategies"].items(), ("overall", doc["overall"])]:
        cells = []
        for m in ("fluent", "label", "valid"):
            x = r[m]
            cells.append("n/a" if x["rate"] is None else
                         f"{x['yes']}/{x['n']} {x['rate']:.2f} [{x['ci_low']:.2f},{x['ci_high']:.2f}]")
        print(f"  {name:<16} " + " ".join(f"{c:>22}" for c in cells) + f"  ({r['unjudged']} unjudged)")
    return 0


def cmd_fidelity(args) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import arts_fidelity

    doc = arts_fidelity(args.generated, args.reference, data_dir=args.data_dir)
    if args.json:
        print(json.dumps(doc, indent=2, ensure_ascii=False))
        return 0
    for name, v in doc["metrics"].items():
        print(f"  {name:<32} {'n/a' if v is None else f'{v:.3f}'}")
    for kind, d in doc["details"]["strategies"].items():
        print(f"  {kind} mismatch causes: {d['mismatch_causes']}")
    return 0
