"""``sentiprobe run``: options, output directories, data directories, numbers."""
from __future__ import annotations

from corpus import Case, mkdir, nothing, write

RUN = ("run", "--suite", "soul-rc", "--model", "majority", "--out", "{dir}/r", "--data-dir", "{data}")


def cases() -> list[Case]:
    return [
        Case("run-limit-zero", (*RUN, "--limit", "0"), nothing, 1, ("--limit must be a positive",)),
        Case("run-limit-negative", (*RUN, "--limit", "-1"), nothing, 1, ("--limit must be a positive",)),
        Case("run-limit-junk", (*RUN, "--limit", "ten"), nothing, 1, ("--limit must be a positive", "'ten'")),
        Case("run-limit-fraction-above-one", (*RUN, "--limit", "1.5"), nothing, 1, ("fraction in (0, 1]",)),
        Case("run-jobs-zero", ("run", "--suite", "soul-rc", "--model", "majority,tfidf-lr", "--out", "{dir}/r",
                               "--data-dir", "{data}", "--jobs", "0"), nothing, 1, ("--jobs must be a positive",)),
        Case("run-jobs-junk", ("run", "--suite", "soul-rc", "--model", "majority,tfidf-lr", "--out", "{dir}/r",
                               "--data-dir", "{data}", "--jobs", "many"), nothing, 1,
             ("--jobs must be a positive", "'many'")),
        Case("run-model-arg-other-model", ("run", "--suite", "soul-rc", "--model", "tfidf-lr", "--out", "{dir}/r",
                                           "--data-dir", "{data}", "--model-arg", "majority:C=3"), nothing, 1,
             ("not among the selected models",)),
        Case("run-out-other-config", (*RUN, "--no-progress"), write("r/summary.json", '{"config_hash": "another"}'),
             1, ("--overwrite",), "r/summary.json"),
        Case("run-out-summary-nested", (*RUN, "--no-progress"),
             write("r/summary.json", '{"config_hash": ' + "[" * 100_000 + "]" * 100_000 + "}"), 1, ("--overwrite",),
             "r/summary.json"),
        Case("run-unknown-suite", ("run", "--suite", "arts-lap", "--model", "majority", "--out", "{dir}/r"),
             nothing, 2, ("did you mean 'arts-laptop'",)),
        Case("run-unknown-model", ("run", "--suite", "arts-laptop", "--model", "majorty", "--out", "{dir}/r"),
             nothing, 2, ("did you mean 'majority'",)),
        Case("run-empty-model", ("run", "--suite", "soul-rc", "--model", "", "--out", "{dir}/r"), nothing, 1,
             ("--model '' names nothing",)),
        Case("run-empty-suite", ("run", "--suite", " , ", "--model", "majority", "--out", "{dir}/r"), nothing, 1,
             ("--suite ' , ' names nothing",)),
        Case("run-unknown-suite-arg", (*RUN, "--suite-arg", "promt_style=chat"), nothing, 1,
             ("did you mean 'prompt_style'",)),
        Case("run-suite-arg-no-equals", (*RUN, "--suite-arg", "prompt_style"), nothing, 1, ("KEY=VALUE",)),
        Case("run-model-arg-unknown", ("run", "--suite", "soul-rc", "--model", "tfidf-lr", "--out", "{dir}/r",
                                       "--data-dir", "{data}", "--model-arg", "CC=3"), nothing, 1,
             ("unknown argument",)),
        Case("run-out-is-file", ("run", "--suite", "soul-rc", "--model", "majority", "--out", "{dir}/{file}/x",
                                 "--data-dir", "{data}"), write("f.txt", "x"), 1, ("not a directory",), "f.txt"),
        Case("run-empty-data-dir", ("run", "--suite", "soul-rc", "--model", "majority", "--out", "{dir}/r",
                                    "--data-dir", "{dir}/empty", "--no-progress"), mkdir("empty"), 1,
             ("missing data file",)),
        Case("run-bad-n-boot", (*RUN, "--n-boot", "-3"), nothing, 2, ("argument --n-boot",)),
        Case("run-n-boot-10e12", (*RUN, "--n-boot", "1000000000000"), nothing, 2,
             ("argument --n-boot: must be an integer from 0 to 100,000",)),
        Case("run-seed-negative", (*RUN, "--seed", "-1"), nothing, 2, ("argument --seed: must be an integer from 0",)),
        Case("run-seed-2-64", (*RUN, "--seed", str(2 ** 64)), nothing, 2, ("argument --seed",)),
        # a label is a directory beside the run's own files: one named like them, a very long one or one with odd
        # characters is a usage error at parse time (these used to end in "internal error")
        Case("run-label-is-report-html", ("run", "--suite", "soul-rc", "--model", "report.html=majority,b=majority",
                                          "--out", "{dir}/r", "--data-dir", "{data}", "--no-progress"), nothing, 2,
             ("argument --model: model label 'report.html' is the name of a file or folder the run writes",)),
        Case("run-label-is-summary-other-case", (*RUN[:3], "--model", "Summary.JSON=majority", *RUN[5:],
                                                 "--no-progress"), nothing, 2,
             ("model label 'Summary.JSON' is the name of a file or folder the run writes",)),
        Case("run-label-300-chars", (*RUN[:3], "--model", "a" * 300 + "=majority", *RUN[5:], "--no-progress"),
             nothing, 2, ("is 300 characters long; at most 64",)),
        Case("run-label-hidden-file", (*RUN[:3], "--model", ".x=majority", *RUN[5:], "--no-progress"), nothing, 2,
             ("model label '.x' may hold only",)),
        Case("run-label-markup", (*RUN[:3], "--model", "<b>x</b>=majority", *RUN[5:], "--no-progress"), nothing, 2,
             ("model label '<b>x</b>' may hold only",)),
        Case("run-label-differs-in-case-only", (*RUN[:3], "--model", "A=majority,a=majority", *RUN[5:],
                                                "--no-progress"), nothing, 1, ("given more than once",)),
        Case("run-seed-junk", (*RUN, "--seed", "x"), nothing, 2, ("argument --seed", "'x'")),
    ]
