"""``sentiprobe list [suites|models|prompts|matrix] [--model M,N] [--suite NAME] [--json]``."""
from __future__ import annotations

import json


def add_parser(sub) -> None:
    p = sub.add_parser("list", help="list suites and models with their arguments")
    p.add_argument("what", nargs="?", choices=("suites", "models", "prompts", "all", "matrix"), default="all",
                   help="matrix: which model runs on which suite (the rule of a bare `sentiprobe run`); prompts: "
                        "the prompt templates and reply schemas of the generative tasks")
    p.add_argument("--model", default=None, action="append",
                   help="models of the matrix, comma-separated or repeated (default: the default models)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--suite", action="append", default=None,
                   help="with 'prompts': only these suites (repeatable or comma-separated)")
    p.set_defaults(func=cmd)


def _short_reason(why: str) -> str:
    import re

    m = re.search(r"needs the capability (.*?);", why)
    if m:
        return "needs " + m.group(1).replace("'", "")
    return "needs generate" if "cannot generate" in why else why


WIDTH = 100
"""Columns of the text output (the console's width everywhere in sentiprobe)."""


def matrix_text(matrix: dict[str, dict[str, str | None]]) -> str:
    """Suites as rows, models as numbered columns (the names in a legend above, so any number of models fits in
    :data:`WIDTH` columns): ``x`` runs, ``.`` does not apply; then per model where and why not."""
    import textwrap

    models = list(next(iter(matrix.values()), {}))
    sw = max([5, *(len(s) for s in matrix)])
    keys = [str(k) for k in range(1, len(models) + 1)]
    cw = max([1, *(len(k) for k in keys)])
    lines = textwrap.wrap("models: " + ", ".join(f"{k} {m}" for k, m in zip(keys, models)), WIDTH,
                          subsequent_indent="  ")
    lines += ["", f"{'suite':<{sw}}  " + " ".join(f"{k:>{cw}}" for k in keys)]
    for suite, row in matrix.items():
        lines.append(f"{suite:<{sw}}  " + " ".join(f"{'.' if row[m] else 'x':>{cw}}" for m in models))
    lines += ["", "x: runs in a bare `sentiprobe run` (a model may still refuse a suite's items when it sees them,",
              "e.g. the constituent baselines outside LexComp); .: not applicable:"]
    for m in models:
        why = [f"{suite} ({_short_reason(r)})" for suite, row in matrix.items() if (r := row[m])]
        if why:
            lines += textwrap.wrap(f"{m}: " + ", ".join(why), WIDTH, initial_indent="  ", subsequent_indent="    ")
    return "\n".join(lines) + "\n"


def _wrapped(text: str, indent: str, more: str) -> str:
    """``text`` wrapped at :data:`WIDTH` columns (long words such as paths are not broken)."""
    import textwrap

    return "\n".join(textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=more,
                                    break_long_words=False, break_on_hyphens=False)) + "\n"


def cmd(args) -> int:
    from ..api import compatibility, list_models, list_prompts, list_suites
    from .run_cmd import split_names

    if args.what == "matrix":
        matrix = compatibility(split_names(args.model))
        if args.json:
            print(json.dumps(matrix, indent=2))
        else:
            print(matrix_text(matrix), end="")
        return 0

    if args.what == "prompts":
        names = [n.strip() for a in args.suite or [] for n in a.split(",") if n.strip()] or None
        prompts = list_prompts(names)
        if args.json:
            print(json.dumps({"prompts": prompts}, indent=2, ensure_ascii=False))
        else:
            print(format_prompts(prompts), end="")
        return 0
    doc = {}
    if args.what in ("suites", "all"):
        doc["suites"] = list_suites()
    if args.what in ("models", "all"):
        doc["models"] = list_models()
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    for s in doc.get("suites", []):
        print(_wrapped(f"suite  {s['name']:<20} {s['family']:<11} {s['description']}", "", " " * 7), end="")
        print(*options_text(s["options"], "--suite-arg"), sep="", end="")
    for m in doc.get("models", []):
        default = " [default]" if "default" in m["tags"] else ""
        if "reference" in m["tags"]:
            print(_wrapped(f"reference  {m['name']:<40} {m['description']}", "", " " * 11), end="")
            continue
        print(_wrapped(f"model  {m['name']:<20} {m['description']}{default}", "", " " * 7), end="")
        if m["options"] is not None:
            print(*options_text(m["options"], "--model-arg"), sep="", end="")
        else:
            for k, v in m["params"].items():
                print(_wrapped(f"--model-arg {k}=...  {v}", " " * 9, " " * 13), end="")
    return 0


def options_text(options: dict[str, dict], flag: str) -> list[str]:
    """One line per option (``describe_options``): ``--flag NAME=TYPE  help (default; choices; range; env)``."""
    lines = []
    for name, d in options.items():
        unset_said = d["default"] is None and "unset:" in d["help"]  # the help says what unset means
        extra = [] if unset_said else ["default " + ("unset" if d["default"] is None else json.dumps(d["default"]))]
        if d["choices"]:
            extra.append("one of " + "|".join(map(str, d["choices"])))
        if d.get("range"):
            extra.append(d["range"])
        if d["env"]:
            extra.append(f"env {d['env']}")
        lines.append(_wrapped(f"{flag} {name}={d['type']}  {d['help']}" + (f" ({'; '.join(extra)})" if extra else ""),
                              " " * 9, " " * 13))
    return lines


def format_prompts(prompts: list[dict]) -> str:
    """The prompt templates as people read them: one block per suite."""
    out = []
    for p in prompts:
        t = p["template"]
        out.append(f"== {p['suite']}: template {t['name']} v{t['version']} #{t['hash']} (max_tokens {p['max_tokens']})")
        out.append(t["instruction"])
        out.append(f"[answer format, free text] {t['answer_format']}")
        out.append(f"[answer format, structured] {p['json_instruction']}")
        out.append("[k few-shot examples: item + cue + gold answer]")
        out.append(f"{t['item']}\n{t['cue']}")
        out.append(f"reply schema {p['reply_schema']['name']}: {json.dumps(p['reply_schema']['schema'])}")
        out.append("")
    return "\n".join(out) + ("\n" if out else "no suite declares a prompt\n")
