"""``sentiprobe export`` and ``sentiprobe report`` on damaged run directories: deep JSON, a model whose results are
missing or a directory (a header-only CSV with exit 0 before), an output path that is a directory."""
from __future__ import annotations

import json

from corpus import Case, both, mkdir, nested, write

DEEP = nested(100_000)
SUMMARY = write("run/summary.json", json.dumps({"runs": {"m": {"dir": "m"}}}))


def cases() -> list[Case]:
    return [
        Case("export-not-a-run", ("export", "{dir}/{file}"), mkdir("empty"), 1, ("not a run directory", "{file}"),
             "empty"),
        Case("export-results-nested", ("export", "{dir}/run"), write("run/results.json", DEEP), 1,
             ("nested deeper than 100", "{file}"), "run/results.json"),
        Case("export-summary-nested", ("export", "{dir}/run"), write("run/summary.json", DEEP), 1,
             ("nested deeper than 100", "{file}"), "run/summary.json"),
        Case("export-results-missing", ("export", "{dir}/run"), both(SUMMARY, mkdir("run/m")), 1,
             ("model 'm'", "results.json is missing", "{file}"), "run/m/results.json"),
        Case("export-results-directory", ("export", "{dir}/run"), both(SUMMARY, mkdir("run/m/results.json")), 1,
             ("model 'm'", "is not a file", "{file}"), "run/m/results.json"),
        Case("export-summary-lists-nothing", ("export", "{dir}/run"),
             write("run/summary.json", json.dumps({"runs": {}})), 1, ("lists no model", "{file}"),
             "run/summary.json"),
        Case("export-out-directory", ("export", "{dir}/run", "--out", "{dir}/{file}"),
             both(SUMMARY, mkdir("outdir")), 1, ("--out", "is a directory", "{file}"), "outdir"),
        Case("export-out-under-a-file", ("export", "{dir}/run", "--out", "{dir}/{file}/x.csv"),
             both(SUMMARY, write("f.txt", "x")), 1, ("--out", "not a directory"), "f.txt"),
        Case("report-results-nested", ("report", "{dir}/run", "--out", "{dir}/r.html"),
             write("run/results.json", DEEP), 1, ("nested deeper than 100", "{file}"), "run/results.json"),
        Case("report-results-not-json", ("report", "{dir}/run", "--out", "{dir}/r.html"),
             write("run/results.json", "{oops"), 1, ("invalid JSON", "{file}"), "run/results.json"),
        Case("report-out-directory", ("report", "{dir}/run", "--out", "{dir}/out"),
             both(write("run/results.json", "{}"), mkdir("out")), 1, ("is a directory",), "run/results.json"),
        Case("report-n-boot-negative", ("report", "{dir}/run", "--out", "{dir}/r.html", "--n-boot", "-1"),
             write("run/results.json", "{}"), 2, ("argument --n-boot",), "run/results.json"),
    ]
