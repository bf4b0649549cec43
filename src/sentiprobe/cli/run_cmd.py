"""``sentiprobe run [--suite A,B] [--model [LABEL=]M,N] [--model-arg [LABEL:]KEY=VALUE] [--out DIR] [--json]``.

Progress goes to stderr (bars on a terminal, one plain line per stage elsewhere); stdout gets the results
table, or with ``--json`` a compact document (headline metrics and paths). The full documents stay in the
run directory.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from ..core.errors import ConfigError
from .options import add_run_settings, run_settings
from .suite_args import parse_suite_args


def add_parser(sub) -> None:
    p = sub.add_parser("run", help="run models on suites: fit, predict (cached), score, report")
    p.add_argument("--suite", default=None, action="append",
                   help="suite names, comma-separated or repeated (default: every suite whose data is available)")
    p.add_argument("--model", default=None, action="append", metavar="[LABEL=]NAME", type=model_specs,
                   help="model names, comma-separated or repeated (default: the default models, see "
                        "`sentiprobe list models`); LABEL=NAME runs NAME under LABEL (directory <out>/LABEL/), so "
                        "one model can run twice: --model plain=NAME,json=NAME --model-arg plain:KEY=VALUE; a "
                        "LABEL is letters, digits and . _ - + @ (at most 64), not a file name of the run")
    p.add_argument("--model-arg", default=[], action="append", metavar="[LABEL:]KEY=VALUE",
                   help="argument for the model factories (repeatable): LABEL:KEY=VALUE for one model, KEY=VALUE "
                        "for every selected model that takes KEY"),
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
    add_run_settings(p)  # --seed, --n-boot, --confidence, --limit, --limit-mode, --limit-seed, --missing
    p.add_argument("--no-progress", action="store_true",
                   help="no progress on stderr (third-party progress bars included)")
    p.add_argument("--jobs", default="auto", metavar="N|auto",
                   help="models run side by side in N worker processes (default auto: one per CPU, at most 4 "
                        "and one per model; 1 runs them one after another in this process); same results")
    p.add_argument("--skip-unsupported", action="store_true",
                   help="skip the (model, suite) pairs of an explicit --model x --suite list that cannot run "
                        "(one line each, exit 0) instead of failing them (exit 1), as the bare `sentiprobe run` does")
    p.add_argument("--reference", default="all", metavar="all|none|NAME,...",
                   help="the papers' own systems beside the models, read from the prediction files that ship with "
                        "the data (never run) and paired with every model on the suite's unit: all (default: those "
                        "of the suites run), none, or names (`sentiprobe list models` lists them, e.g. "
                        "published:bert_pt)")
    p.add_argument("--reference-file", default=[], action="append", dest="reference_files",
                   metavar="LABEL=PATH[:COLUMN][,sha256=HEX][,suite=NAME]|FILE.yaml",
                   help="register a prediction file as a reference system (repeatable), validated like any "
                        "prediction file; with sha256= a file whose sha256 differs is refused; suite= names the "
                        "suite when the run has several; or a YAML file with a 'references' list of "
                        "{label, path, column, sha256, suite, paper, covers}")
    p.add_argument("--json", action="store_true",
                   help="print a compact JSON document (headline metrics and paths) instead of the table")
    p.set_defaults(func=cmd)


def split_names(values: list[str] | None) -> list[str] | None:
    """``--x a,b --x c`` -> ``[a, b, c]`` (None when none given)."""
    return [s.strip() for arg in values or [] for s in arg.split(",") if s.strip()] or None


def model_specs(text: str) -> str:
    """An argparse type for ``--model``: every ``LABEL`` of ``LABEL=NAME`` follows the label rule
    (:mod:`sentiprobe.run.labels`), so a label that would break the run directory is a usage error before anything
    runs; names are checked against the registry later (with did-you-mean)."""
    # the API loads when a --model value is parsed, not on `sentiprobe --help`
    from ..api import label_problem

    for spec in text.split(","):
        if "=" in spec:
            label = spec.split("=", 1)[0].strip()
            problem = label_problem(label)
            if problem is not None:
                shown = label if len(label) <= 40 else f"{label[:37]}..."
                raise argparse.ArgumentTypeError(f"model label {shown!r} {problem}")
    return text


def parse_model_args(pairs: list[str]) -> dict[str, str]:
    """``[LABEL:]KEY=VALUE`` pairs -> ``{"[LABEL:]KEY": value}`` (matched to models by the API)."""

    out = {}
    for kv in pairs:
        if "=" not in kv or not kv.split("=", 1)[0].strip().rsplit(":", 1)[-1].strip():
            raise ConfigError(f"--model-arg expects [LABEL:]KEY=VALUE, got {kv!r}")
        k, v = kv.split("=", 1)
        k = k.strip()
        if ":" in k:
            model, key = k.split(":", 1)
            k = f"{model.strip()}:{key.strip().replace('-', '_')}"
        else:
            k = k.replace("-", "_")
        out[k] = v
    return out


THIRD_PARTY_QUIET = {"HF_HUB_DISABLE_PROGRESS_BARS": "1"}
"""Environment switches of the progress bars libraries draw themselves (Hugging Face hub downloads and
transformers' "Loading weights" follow it); set for this process and the
worker processes it starts."""


def quiet_third_party_progress() -> None:
    """No third-party progress bars: under ``--no-progress`` or when stderr is not a terminal (a log file would
    fill with carriage-return redraws)."""

    os.environ.update(THIRD_PARTY_QUIET)
    if "transformers" in sys.modules:  # already imported: its switch is read at import time
        sys.modules["transformers"].utils.logging.disable_progress_bar()
    if "huggingface_hub" in sys.modules:
        sys.modules["huggingface_hub"].utils.disable_progress_bars()


def cmd(args) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import (Progress, available_suite_names, compact_summary, expand_suite_groups, results_table, run,
                       run_errors)

    for flag, given in (("--suite", args.suite), ("--model", args.model)):
        if given is not None and split_names(given) is None:  # `--model ''` is not "the default models"
            raise ConfigError(f"{flag} {' '.join(map(repr, given))} names nothing; leave {flag} out for the defaults")
    suites = split_names(args.suite)
    if suites:
        suites = expand_suite_groups(suites, args.data_dir)  # `--suite lexcomp`: every lexcomp-* suite
    settings = run_settings(args)  # before any work: `--limit 0` is an error, not an empty run
    suite_options = parse_suite_args(args.suite_arg, suites or available_suite_names(args.data_dir))
    progress = Progress(sys.stderr, enabled=not args.no_progress)
    if not (progress.enabled and progress.tty):
        quiet_third_party_progress()
    doc = run(suites=suites, models=split_names(args.model), model_args=parse_model_args(args.model_arg),
              out=args.out, data_dir=args.data_dir, cache_dir=args.cache_dir, use_cache=not args.no_cache,
              **settings.to_dict(), progress=progress,
              suite_options=suite_options, repair_cache=args.repair_cache, overwrite=args.overwrite,
              log=lambda msg: print(msg, file=sys.stderr), jobs=args.jobs,
              skip_unsupported=args.skip_unsupported, reference=args.reference,
              reference_files=args.reference_files)
    if args.json:
        print(json.dumps(compact_summary(doc), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(results_table(doc))
    for line in generation_warnings(doc) + label_mapping_notes(doc):
        print(line, file=sys.stderr)
    if args.skip_unsupported:
        for model, run_doc in (doc.get("runs") or {}).items():
            for suite, why in (run_doc.get("skipped") or {}).items():
                print(f"sentiprobe: skipped {suite} ({model}): {why}", file=sys.stderr)
    errors = run_errors(doc)
    for where, err in errors.items():
        print(f"sentiprobe: suite {where} failed: {err['type']}: {err['message']}", file=sys.stderr)
    if errors:
        print(f"sentiprobe: {len(errors)} suite(s) failed; the other results are in {args.out} "
              f"(details in each model's run.log)", file=sys.stderr)
        return 1
    return 0


def generation_warnings(summary: dict) -> list[str]:
    """Closing lines about generated replies: unanswered items (scored as wrong) and suites where more than
    half the replies did not parse (with the likely cause and the first replies)."""
    out = []
    for model, run in (summary.get("runs") or {}).items():
        for suite, entry in (run.get("suites") or {}).items():
            gen = (entry.get("details") or {}).get("generation")
            if not isinstance(gen, dict):
                continue
            where = f"{suite} ({model})"
            if gen.get("unanswered"):
                errs = "; ".join(gen.get("unanswered_errors") or [])
                out.append(f"sentiprobe: warning: {where}: {gen['unanswered']} of {gen.get('n')} items got no answer "
                           f"from the model and are scored as wrong (last errors: {errs}); run again to ask them "
                           "again (the answered ones are cached)")
            if gen.get("warning"):
                out.append(f"sentiprobe: warning: {where}: {gen['warning']}")
                for r in (gen.get("first_failures") or [])[:3]:
                    out.append(f"    {r.get('item_id')}: {json.dumps(r.get('reply'), ensure_ascii=False)}")
    return out


def label_mapping_notes(summary: dict) -> list[str]:
    """One line per (suite, model) whose classes cover only some of the suite's labels (a 2-way head on a
    3-label suite): the model never predicts the others, which the per-model report also says."""
    out = []
    for model, run in (summary.get("runs") or {}).items():
        for suite, entry in (run.get("suites") or {}).items():
            never = (entry.get("label_mapping") or {}).get("never_predicted") or []
            if never:
                out.append(f"sentiprobe: note: {suite} ({model}): no model label maps to the suite label(s) "
                           f"{', '.join(never)}: the model never predicts {'it' if len(never) == 1 else 'them'} "
                           f"(recall 0; its labels: {', '.join(entry['label_mapping'].get('model_labels') or [])})")
    return out
