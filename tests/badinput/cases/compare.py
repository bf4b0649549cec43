"""``sentiprobe compare``: too few files, bad references and numbers, unreadable files."""
from __future__ import annotations

from corpus import Case, mkdir, write

OK = "item_id,label\ntest-0,pos\n"
CMP = ("compare", "--suite", "soul-rc", "--data-dir", "{data}", "--predictions", "{dir}/{file}")


def cases() -> list[Case]:
    return [
        Case("compare-one-file", CMP, write("p.csv", OK), 1, ("at least two",)),
        Case("compare-bad-reference", (*CMP, "{dir}/{file}", "--reference", "zz"), write("p.csv", OK), 1,
             ("--reference 'zz'",)),
        Case("compare-alpha-nan", (*CMP, "{dir}/{file}", "--alpha", "nan"), write("p.csv", OK), 2, ("--alpha",)),
        Case("compare-alpha-two", (*CMP, "{dir}/{file}", "--alpha", "2"), write("p.csv", OK), 2, ("--alpha",)),
        Case("compare-n-boot-negative", (*CMP, "{dir}/{file}", "--n-boot", "-5"), write("p.csv", OK), 2,
             ("--n-boot",)),
        Case("compare-confidence-one", (*CMP, "{dir}/{file}", "--confidence", "1"), write("p.csv", OK), 2,
             ("--confidence",)),
        Case("compare-noncompsst", ("compare", "--suite", "noncompsst", "--data-dir", "{data}", "--predictions",
                                    "{dir}/{file}", "{dir}/{file}"), write("p.csv", "line,label\n0,3\n"), 1,
             ("missing", "{file}")),
        Case("compare-latin1", ("compare", "--suite", "sentivent-polar", "--data-dir", "{data}", "--predictions",
                                "{dir}/{file}", "{dir}/{file}"), write("p.csv", b"item_id,label\nx,n\xe9g\n"), 1,
             ("not UTF-8", "{file}")),
        Case("compare-directory", ("compare", "--suite", "sentivent-polar", "--data-dir", "{data}", "--predictions",
                                   "{dir}/{file}", "{dir}/{file}"), mkdir("p.csv"), 1, ("directory", "{file}")),
        Case("compare-runs-nested-results", ("compare", "--runs", "{dir}/a", "{dir}/a"),
             write("a/results.json", "[" * 100_000 + "]" * 100_000), 1, ("nested deeper than 100", "{file}"),
             "a/results.json"),
    ]
