"""``sentiprobe data fetch|verify|list|stats|path``: empty and unknown names, bad numbers, a mirror that never answers
(its host's circuit opens after 3 failed attempts: the other files are not attempted), a mirror that trickles (a
stall: a typed timeout, and the other files are not attempted)."""
from __future__ import annotations

from corpus import Case, mkdir, nothing

FETCH = ("data", "fetch", "soul", "--data-dir", "{dir}/d")


def cases() -> list[Case]:
    return [
        Case("data-stats-empty-dir", ("data", "stats", "sentivent-polar", "--data-dir", "{dir}/empty"),
             mkdir("empty"), 1, ("missing",)),
        Case("data-stats-unknown", ("data", "stats", "sentivent-polr", "--data-dir", "{data}"), nothing, 2,
             ("did you mean",)),
        Case("data-verify-empty", ("data", "verify", "soul", "--data-dir", "{dir}/empty"), mkdir("empty"), 1, ()),
        Case("data-list-unknown", ("data", "list", "sentivnt"), nothing, 2, ("did you mean",)),
        Case("data-path-unknown-file", ("data", "path", "arts/src_data/laptop/test_sent_towe.jsn", "--data-dir",
                                        "{data}"), nothing, 2, ("did you mean", "test_sent_towe.json")),
        Case("data-path-outside", ("data", "path", "../../etc/passwd", "--data-dir", "{data}"), nothing, 2,
             ("unknown data file '../../etc/passwd'", "more")),
        Case("data-path-missing", ("data", "path", "soul/test.csv", "--data-dir", "{dir}/empty"), mkdir("empty"), 1,
             ("missing data file", "sentiprobe data fetch soul")),
        Case("data-fetch-bad-mirror", (*FETCH, "--mirror", "{dir}/m"), mkdir("m"), 1, ()),
        Case("data-fetch-timeout-negative", (*FETCH, "--timeout", "-1"), nothing, 2, ("argument --timeout",)),
        Case("data-fetch-timeout-zero", (*FETCH, "--timeout", "0"), nothing, 2, ("argument --timeout",)),
        Case("data-fetch-retries-negative", (*FETCH, "--retries", "-2"), nothing, 2, ("argument --retries",)),
        Case("data-fetch-deadline-nan", (*FETCH, "--deadline", "nan"), nothing, 2, ("argument --deadline",)),
        Case("data-fetch-total-deadline-zero", (*FETCH, "--total-deadline", "0"), nothing, 2,
             ("argument --total-deadline",)),
        Case("data-fetch-silent-mirror", (*FETCH, "--mirror", "{server}", "--timeout", "1", "--include-unpublished"),
             nothing, 1, ("giving up", "failed 3 attempts in a row", "not attempted"), server=True, timeout=60),
        # one byte every 0.5 s never trips --timeout: the stall check ends it (the console states the deadline first)
        Case("data-fetch-trickling-mirror", (*FETCH, "--mirror", "{server}", "--timeout", "5", "--retries", "0",
                                             "--stall-window", "2", "--json"), nothing, 1,
             ('"error": "DownloadStalledError"', "stalled a transfer", "not attempted",
              "giving up after", "s in all (--total-deadline)"), server="trickle", timeout=30),
        Case("data-fetch-stall-rate-negative", (*FETCH, "--stall-rate", "-1"), nothing, 2, ("argument --stall-rate",)),
        Case("data-fetch-stall-window-zero", (*FETCH, "--stall-window", "0"), nothing, 2,
             ("argument --stall-window",)),
    ]
