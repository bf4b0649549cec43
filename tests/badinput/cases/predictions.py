"""``sentiprobe score``: the predictions-file battery of every registered suite whose predictions are labels
(task ``classify`` or ``generate``), generated from the suite registry. A suite family adapts the battery below
(:data:`SETUP`, :func:`_expect`) only where its protocol reads files differently; triplet suites have their own
battery (:mod:`triplets`)."""
from __future__ import annotations

import json

from corpus import FIRST, GOLD, Build, Case, mkdir, nothing, suites, write

SETUP: dict[str, dict[str, str]] = {
    "arts-custom": {"path": "{data}/arts/arts_testset/laptop_test_enriched.json"},
}
"""Options a suite cannot run without (``--suite-arg``), by suite name."""


def label_suites() -> list[str]:
    from sentiprobe.suites import SUITES

    return [n for n in suites() if SUITES.get(n).task in ("classify", "generate")]


def _expect(suite: str, name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """What the message must say where a family reads a case differently."""
    if name == "label-outside-set":
        if suite.startswith("soul"):  # SOUL reads labels like model replies: an unparseable one is a wrong
            return ("missing", "{file}")  # answer (counted), so the one-row file fails on the missing rows
        if suite == "lexcomp-phrase-type":  # a label is a tag sequence: one unknown tag for n tokens
            return ("invalid labels", "1 tags for")
    return default


def battery(suite: str) -> list[Case]:
    """The predictions-file cases every label suite gets."""
    options = SETUP.get(suite, {})
    base = ("score", "--suite", suite, "--data-dir", "{data}", "--predictions", "{dir}/{file}",
            *(a for k, v in options.items() for a in ("--suite-arg", f"{k}={v}")))
    head = "item_id,label\n"
    row = f"{FIRST},{GOLD}\n"

    def c(name: str, build: Build, expect: tuple[str, ...] = ("{file}",), *, file: str = "p.csv",
          extra: tuple[str, ...] = (), exit: int = 1) -> Case:
        return Case(f"score-{suite}-{name}", (*base, *extra), build, exit, _expect(suite, name, expect), file,
                    (suite,), tuple(options.items()))

    out = [
        c("latin1", write("p.csv", head.encode() + f"{FIRST},".encode() + b"positiv\xe9\n"), ("not UTF-8", "{file}")),
        c("nul-bytes", write("p.csv", head + row + "\x00\x00\n"), ("binary content", "{file}")),
        c("gzip", write("p.csv", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x00"), ("{file}",)),
        c("directory", mkdir("p.csv"), ("is a directory", "{file}")),
        c("absent", nothing, ("not found", "{file}")),
        c("empty", write("p.csv", ""), ("{file}",)),
        c("header-only", write("p.csv", head), ("{file}",)),
        c("ragged-row", write("p.csv", head + row + f"{FIRST},{GOLD},extra\n"), ("{file}",)),
        c("duplicated-header", write("p.csv", f"item_id,label,label\n{FIRST},{GOLD},{GOLD}\n"),
          ("duplicated column", "{file}")),
        c("no-id-column", write("p.csv", "label\n" + GOLD + "\n"), ("{file}",)),
        c("no-label-column", write("p.csv", f"item_id\n{FIRST}\n"), ("{file}",)),
        c("unknown-id", write("p.csv", head + f"no-such-id-xyz,{GOLD}\n"), ("no-such-id-xyz",)),
        c("label-outside-set", write("p.csv", head + f"{FIRST},definitely-not-a-label\n"),
          ("definitely-not-a-label",)),
        c("duplicate-ids", write("p.csv", head + row + row), ("{file}",)),
        c("blank-label", write("p.csv", head + f"{FIRST},\n"), ("{file}",)),
        c("missing-predictions", write("p.csv", head + row), ("missing", "{file}")),
        c("bom-header", write("p.csv", "\ufeff" + head + row), ("missing", "{file}")),
        c("unknown-column", write("p.csv", head + row), ("nope",), extra=("--column", "nope")),
        c("jsonl-broken", write("p.jsonl", f'{{"item_id": "{FIRST}", "label": "{GOLD}"}}\n{{"item_id": \n'),
          ("invalid JSON", "{file}"), file="p.jsonl"),
        c("jsonl-not-object", write("p.jsonl", f'["{FIRST}", "{GOLD}"]\n'), ("JSON object", "{file}"),
          file="p.jsonl"),
        c("jsonl-meta-not-dict", write("p.jsonl", json.dumps({"item_id": FIRST, "label": GOLD, "meta": [1, 2],
                                                              "parse_ok": True}) + "\n"), ("{file}",),
          file="p.jsonl"),
        c("jsonl-nested-100000", write("p.jsonl", '{"item_id": "x", "label": ' + "[" * 100_000 + "]" * 100_000
                                       + "}\n"), ("nested deeper than 100", "{file}", "line 1"), file="p.jsonl"),
        c("jsonl-huge-number", write("p.jsonl", '{"item_id": "x", "label": ' + "9" * 5000 + "}\n"),
          ("more than 4300 digits", "{file}", "line 1"), file="p.jsonl"),
        c("huge-field", write("p.csv", head + f'{FIRST},"{"x" * 300_000}"\n'), ("{file}",)),
        c("unknown-suite-arg", write("p.csv", head + row), ("no option 'bogus_option'",),
          extra=("--suite-arg", "bogus_option=1")),
    ]
    if suite == "noncompsst":
        out.append(c("tables-out-missing-preds", write("p.csv", head + row), ("{file}",),
                     extra=("--tables-out", "{dir}/tables")))
    else:
        out.append(c("tables-out-unsupported", write("p.csv", head + row), ("no extra tables",),
                     extra=("--tables-out", "{dir}/tables", "--missing", "wrong")))
    return out


def cases() -> list[Case]:
    return [c for s in label_suites() for c in battery(s)]
