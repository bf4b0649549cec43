"""``sentiprobe list [suites|models] [--json]``."""
from __future__ import annotations

import json


def add_parser(sub) -> None:
    p = sub.add_parser("list", help="list suites and models with their arguments")
    p.add_argument("what", nargs="?", choices=("suites", "models", "all"), default="all")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd)


def cmd(args) -> int:
    from ..api import list_models, list_suites

    doc = {}
    if args.what in ("suites", "all"):
        doc["suites"] = list_suites()
    if args.what in ("models", "all"):
        doc["models"] = list_models()
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    for s in doc.get("suites", []):
        print(f"suite  {s['name']:<20} {s['family']:<11} {s['description']}")
    for m in doc.get("models", []):
        default = " [default]" if "default" in m["tags"] else ""
        print(f"model  {m['name']:<20} {m['description']}{default}")
        for k, v in m["params"].items():
            print(f"         --model-arg {k}=...  {v}")
    return 0
