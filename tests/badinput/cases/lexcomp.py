"""LexComp predictions whose label is not a string (issue 22: a list crashed the five classification suites with
TypeError, an integer or a list crashed ``lexcomp-phrase-type`` with AttributeError), for every registered
LexComp suite."""
from __future__ import annotations

import json

from corpus import FIRST, GOLD, Case, suites, write


def _suites() -> list[str]:
    from sentiprobe.suites import SUITES

    return [n for n in suites() if SUITES.get(n).family == "lexcomp"]


def cases() -> list[Case]:
    out = []
    for suite in _suites():
        base = ("score", "--suite", suite, "--data-dir", "{data}", "--predictions", "{dir}/{file}")
        for name, label in (("list", ["O"]), ("int", 1), ("object", {"tag": "O"})):
            line = json.dumps({"item_id": FIRST, "label": label, "meta": {}, "parse_ok": True}) + "\n"
            out.append(Case(f"score-{suite}-label-{name}", base, write("p.jsonl", line), 1,
                            ("{file}", "field 'label'", "must be str or null"), "p.jsonl", (suite,)))
            plain = json.dumps({"item_id": FIRST, "label": label}) + "\n"  # without meta: read as a label cell
            out.append(Case(f"score-{suite}-plain-label-{name}", base, write("p.jsonl", plain), 1,
                            ("{file}",) if suite == "lexcomp-phrase-type" else ("labels outside the label set",),
                            "p.jsonl", (suite,)))
    out += [
        Case("score-lexcomp-phrase-type-tags-not-strings",
             ("score", "--suite", "lexcomp-phrase-type", "--data-dir", "{data}", "--predictions", "{dir}/{file}"),
             write("p.jsonl", json.dumps({"item_id": FIRST, "tags": [0, 1]}) + "\n"), 1,
             ("{file}", "line 1", "tag strings"), "p.jsonl", ("lexcomp-phrase-type",)),
        Case("score-lexcomp-phrase-type-blank-among-valid",
             ("score", "--suite", "lexcomp-phrase-type", "--data-dir", "{data}", "--predictions", "{dir}/{file}",
              "--missing", "error"),
             write("p.csv", f"item_id,label\n{FIRST},\n"), 1, ("blank labels", "{file}", FIRST), "p.csv",
             ("lexcomp-phrase-type",)),
        Case("score-lexcomp-phrase-type-valid-with-missing-wrong",
             ("score", "--suite", "lexcomp-phrase-type", "--data-dir", "{data}", "--predictions", "{dir}/{file}",
              "--missing", "wrong", "--json", "--n-boot", "10"),
             write("p.csv", f"item_id,label\n{FIRST},{GOLD}\n"), 0, ('"span_f1"',), "p.csv",
             ("lexcomp-phrase-type",)),
    ]
    return out
