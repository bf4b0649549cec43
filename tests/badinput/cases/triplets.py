"""Triplet predictions, for every registered suite whose task is ``extract`` (generated from the registry).

A bad record is a counted failure naming it (exit 0 under ``--missing wrong``, shown in ``--json`` details and
``parse_failure_rate``); a file that cannot be read, that names no sentence of the test set, or that leaves
sentences out under ``--missing error`` (the default) is an error."""
from __future__ import annotations

import json

from corpus import FIRST, Build, Case, mkdir, nested, suites, write

DEEP = 100_000


def _suites() -> list[str]:
    from sentiprobe.suites import SUITES

    return [n for n in suites() if SUITES.get(n).task == "extract"]


def line(trip: object) -> str:
    return json.dumps({"id": FIRST, "triplets": [trip]}) + "\n"


def battery(suite: str) -> list[Case]:
    base = ("score", "--suite", suite, "--data-dir", "{data}", "--predictions", "{dir}/{file}", "--json",
            "--n-boot", "20")
    lenient = (*base, "--missing", "wrong")

    def c(name: str, data: str | bytes | Build, expect: tuple[str, ...], exit: int = 0,
          args: tuple[str, ...] = lenient) -> Case:
        build = data if callable(data) else write("p.jsonl", data)
        return Case(f"score-{suite}-{name}", args, build, exit, expect, "p.jsonl", (suite,))

    reply = json.dumps({"item_id": FIRST, "label": None, "raw": nested(DEEP), "parse_ok": False,
                        "meta": {"mode": "generate", "triplets": []}})
    return [
        c("broken-json", line([0, 0, 1, 1, "positive"]) + f'{{"id": "{FIRST}", "triplets": [[0, 0\n',
          ("parse_failure_rate", '"line 2"', "broken JSON")),
        c("broken-json-only", f'{{"id": "{FIRST}", "triplets": [[0, 0\n',
          ("no record names a sentence", "line 1: broken JSON", "{file}"), exit=1),
        c("out-of-range", line([0, 0, 998, 999, "positive"]), ("out of range", "line 1 (")),
        c("unknown-polarity", line([0, 0, 1, 1, "ecstatic"]), ("unknown polarity", "'ecstatic'")),
        c("overlapping-spans", line([0, 1, 1, 2, "positive"]), ("overlap", "line 1 (")),
        c("text-not-in-sentence", line({"target": "zzqxw", "polar": "great", "polarity": "positive"}),
          ("not in the sentence",)),
        c("index-infinity", f'{{"id": "{FIRST}", "triplets": [[0, Infinity, 1, 1, "positive"]]}}\n',
          ("span index inf is not an integer",)),
        c("index-nan", f'{{"id": "{FIRST}", "triplets": [[NaN, 0, 1, 1, "positive"]]}}\n',
          ("span index nan is not an integer",)),
        c("index-1e308", f'{{"id": "{FIRST}", "triplets": [[0, 0, 1e308, 1e308, "positive"]]}}\n',
          ("out of range",)),
        c("word-list-10e300", line({"target": [0, 1, 10 ** 300], "polar": [3], "polarity": "positive"}),
          ("not contiguous",)),
        c("nested-line", line([0, 0, 1, 1, "positive"]) + nested(DEEP) + "\n",
          ('"line 2"', "broken JSON: nested deeper than 100")),
        c("nested-in-triplet", f'{{"id": "{FIRST}", "triplets": [{nested(DEEP)}]}}\n',
          ("line 1: broken JSON: nested deeper than 100",), exit=1, args=lenient),
        c("nested-in-reply", reply + "\n", ("nested deeper than 100", "parse_failure_rate")),
        c("nested-under-the-guard", line(json.loads(nested(60))), ("is not an object",)),
        c("nested-as-the-file", nested(DEEP), ("no record names a sentence", "nested deeper than 100", "{file}"),
          exit=1),
        c("unknown-sentence", json.dumps({"id": "no-such:1", "triplets": []}) + "\n",
          ("no record names a sentence", "no-such:1", "{file}"), exit=1),
        c("free-text", "The battery is great.\nI liked the screen.\n", ("no record names a sentence", "{file}"),
          exit=1),
        c("missing-sentences", line([0, 0, 2, 2, "positive"]), ("sentences have no prediction record",
                                                                "--missing wrong", "{file}"), exit=1, args=base),
        c("missing-sentences-wrong", line([0, 0, 2, 2, "positive"]), ("missing_rate", "missing_sentences")),
        c("directory", mkdir("p.jsonl"), ("is a directory", "{file}"), exit=1),
        c("empty", "\n\n", ("no records", "{file}"), exit=1),
        c("latin1", b'{"id": "x\xe9"}\n', ("not UTF-8", "{file}"), exit=1),
    ]


def cases() -> list[Case]:
    return [c for s in _suites() for c in battery(s)]
