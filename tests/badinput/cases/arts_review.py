"""``sentiprobe arts review``: a missing, malformed or variant-less generated file, a damaged review state, an
output that is a directory or the input itself, a port out of range. Every case fails before the server starts."""
from __future__ import annotations

import json

from corpus import Case, both, mkdir, nothing, write

_GEN = json.dumps({
    "a_0": {"sentence": "The food is good.", "term": "food", "polarity": "positive", "id": "a_0", "from": 4, "to": 8},
    "a_0_adv1": {"sentence": "The food is bad.", "term": "food", "polarity": "negative", "id": "a_0", "from": 4,
                 "to": 8}})


def cases() -> list[Case]:
    """Bad generated files, state files, outputs and ports of ``sentiprobe arts review``."""
    def rev(name: str, build, expect: tuple[str, ...], extra: tuple[str, ...] = (), code: int = 1) -> Case:
        return Case(f"arts-review-{name}", ("arts", "review", "{dir}/{file}", "--no-browser", *extra), build, code,
                    expect, "g.json")

    return [
        rev("absent", nothing, ("not found", "{file}")),
        rev("malformed-json", write("g.json", '{"a_0": {"sentence": '), ("invalid JSON", "{file}")),
        rev("directory", mkdir("g.json"), ("directory", "{file}")),
        rev("originals-only", write("g.json", json.dumps({k: v for k, v in json.loads(_GEN).items() if k == "a_0"})),
            ("no variants", "{file}")),
        rev("damaged-state", both(write("g.json", _GEN), write("g.review.json", "{")),
            ("not a review state file", "g.review.json")),
        rev("out-is-directory", both(write("g.json", _GEN), mkdir("cur")), ("--out", "directory"),
            ("--out", "{dir}/cur")),
        rev("out-is-input", write("g.json", _GEN), ("--out", "generated file itself"), ("--out", "{dir}/g.json")),
        rev("port-out-of-range", write("g.json", _GEN), ("--port", "65,535"), ("--port", "70000"), code=2),
        rev("port-not-a-number", write("g.json", _GEN), ("--port",), ("--port", "eighty"), code=2),
    ]
