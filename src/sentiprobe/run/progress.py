"""What a run says while it works (stderr) and the results table it ends with (stdout).

A run has long silent stretches otherwise: loading and verifying data, fitting a model, bootstrapping
confidence intervals. :class:`Progress` names the model, the suite and the stage:

- on a terminal, a status line per stage that ends as ``done in 3.2s`` (never erased), and a tqdm bar for
  stages that count items (prediction); bars are kept after they finish (``leave=True``) so the screen shows
  what ran, not a blank line;
- elsewhere (CI logs, ``nohup``, a pipe), one plain line when a stage starts and one when it ends, with
  seconds: no carriage returns, no bar redraws filling a log file.

The results table and the compact ``--json`` document are built from the run's summary document
(:func:`results_table`, :func:`compact_summary`), never from the suites themselves, so they work on a
``summary.json`` read back from disk.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TextIO

STAGE_WORDS = {"load": "loading data", "fit": "fitting", "predict": "predicting", "score": "scoring"}


class Progress:
    """Stage reporting for one run.

    Args:
        stream: where progress goes (stderr by default; results go to stdout).
        enabled: False prints nothing (``--no-progress``, the Python API's ``progress=False``).
        tty: force terminal (True) or plain-line (False) mode; None asks ``stream.isatty()``.
    """

    def __init__(self, stream: TextIO | None = None, *, enabled: bool = True, tty: bool | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        if tty is None:
            isatty = getattr(self.stream, "isatty", None)
            tty = bool(isatty()) if callable(isatty) else False
        self.tty = tty

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()

    @contextmanager
    def stage(self, model: str, suite: str, stage: str, detail: str = "") -> Iterator[dict[str, float]]:
        """Report ``stage`` of ``model`` on ``suite``; yields a dict whose ``seconds`` is set on exit.

        A stage that raises is reported as failed (with its seconds) and the exception propagates.
        """
        what = f"{suite} · {model} · {STAGE_WORDS.get(stage, stage)}" + (f" ({detail})" if detail else "")
        timing: dict[str, float] = {}
        t0 = time.perf_counter()
        if self.enabled:
            self._write(f"{what} ...\n" if not self.tty else f"  {what} ...")
        ok = False
        try:
            yield timing
            ok = True
        finally:
            timing["seconds"] = time.perf_counter() - t0
            if self.enabled:
                end = f"done in {timing['seconds']:.1f}s" if ok else f"failed after {timing['seconds']:.1f}s"
                # on a terminal the status line is rewritten in place (a bar may have been drawn below it)
                self._write(f"\r\x1b[2K✓ {what}: {end}\n" if self.tty and ok else
                            ("\n" if self.tty else "") + f"{what}: {end}\n")

    def note(self, text: str) -> None:
        """One line about the run as a whole (how it is laid out), when enabled."""
        if self.enabled:
            self._write(f"{text}\n")

    def bar(self, total: int, desc: str) -> Any:
        """A tqdm bar for ``total`` items (None when disabled, nothing to do, or not on a terminal).

        The bar stays on screen when it closes (``leave=True``): a vanished bar leaves the user unsure
        whether anything ran.
        """
        if not self.enabled or not self.tty or total <= 0:
            return None
        from tqdm.auto import tqdm

        self._write("\n")  # the bar goes below the stage line
        return tqdm(total=total, desc=desc, unit="item", file=self.stream, leave=True, dynamic_ncols=True)


NULL_PROGRESS = Progress(enabled=False, tty=False)


def headline_of(metrics: Mapping[str, Any], headline: tuple[str, ...] | list[str]) -> list[str]:
    """The headline metric names present in ``metrics`` (the first metric when ``headline`` is empty)."""
    names = [m for m in headline if m in metrics]
    if not names and metrics:
        names = [next(iter(metrics))]
    return names


def _fmt(m: Mapping[str, Any]) -> str:
    """A metric by its unit: fractions as percentages (``53.29%``), correlations and coefficients as numbers."""
    from ..report.html import format_value, unit_of

    v = m.get("value")
    if v is None:
        return "n/a"
    unit = unit_of(dict(m))
    suffix = "%" if unit == "fraction" else ""
    lo, hi = m.get("ci_low"), m.get("ci_high")
    ci = f" [{format_value('', lo, unit)}, {format_value('', hi, unit)}]" if lo is not None and hi is not None else ""
    return f"{format_value('', v, unit)}{suffix}{ci}"


def results_table(summary: Mapping[str, Any]) -> str:
    """One line per suite × model: headline metrics with their CIs (at the run's level) and per-stage seconds;
    then the reports.

    ``summary`` is the document :func:`~sentiprobe.run.runner.run_models` returns (or ``summary.json``).
    """
    headline = summary.get("headline", {})
    rows: list[tuple[str, str, str, str]] = []
    for model, run in summary.get("runs", {}).items():
        for suite, entry in (run.get("suites") or {}).items():
            metrics = entry.get("metrics", {})
            names = headline_of(metrics, headline.get(suite, ()))
            cells = "  ".join(f"{n} {_fmt(metrics[n])}" for n in names)
            secs = entry.get("seconds") or {}
            timing = " ".join(f"{k} {v:.1f}s" for k, v in secs.items() if isinstance(v, int | float))
            rows.append((suite, model, cells, timing))
        for suite, err in (run.get("errors") or {}).items():
            rows.append((suite, model, f"FAILED: {err.get('type')}: {err.get('message')}", ""))
        for suite, why in (run.get("skipped") or {}).items():
            rows.append((suite, model, f"skipped: {why}", ""))
    if not rows:
        return "no results\n"
    ws = [max(len(r[i]) for r in [*rows, ("suite", "model", "", "")]) for i in range(3)]
    from ..core.types import ci_label

    head = f"headline metrics ({ci_label((summary.get('config') or {}).get('confidence'))})"
    lines = [f"{'suite':<{ws[0]}}  {'model':<{ws[1]}}  {head:<{ws[2]}}  seconds"]
    lines += [f"{s:<{ws[0]}}  {m:<{ws[1]}}  {c:<{ws[2]}}  {t}".rstrip() for s, m, c, t in rows]
    out = summary.get("out")
    if out:
        lines.append("")
        lines.append(f"report: {out}/{summary.get('report', 'report.html')}")
        for model in summary.get("runs", {}):
            lines.append(f"  {model}: {out}/{model}/report.html")
    return "\n".join(lines) + "\n"


def compact_summary(summary: Mapping[str, Any]) -> dict[str, Any]:
    """The ``--json`` document: headline metrics and paths, in the results layout scripts read.

    ``suites.<suite>.metrics.<name>`` (the metric as in results.json: ``value``, ``ci_low``, ``ci_high``, ``n``...)
    for the suite's headline metrics, at the top level when one model ran, under ``runs.<model>`` when several
    did. The full documents (every metric, details, provenance) stay in the run directory.
    """
    out = str(summary.get("out", ""))
    headline = summary.get("headline", {})

    def one(model: str, run: Mapping[str, Any]) -> dict[str, Any]:
        suites = {}
        for suite, entry in (run.get("suites") or {}).items():
            metrics = entry.get("metrics", {})
            suites[suite] = {"metrics": {n: dict(metrics[n]) for n in headline_of(metrics, headline.get(suite, ()))},
                             "predictions": f"{out}/{model}/predictions/{suite}.jsonl"}
        doc: dict[str, Any] = {"model": model, "results": f"{out}/{model}/results.json",
                               "report": f"{out}/{model}/report.html", "suites": suites,
                               "errors": dict(run.get("errors") or {})}
        if run.get("skipped"):
            doc["skipped"] = dict(run["skipped"])
        return doc

    runs = {m: one(m, r) for m, r in summary.get("runs", {}).items()}
    doc: dict[str, Any] = {"out": out, "summary": f"{out}/summary.json",
                           "report": f"{out}/{summary.get('report', 'report.html')}"}
    if len(runs) == 1:  # the one model's entries at the top level; ``report`` stays the run's report
        only = next(iter(runs.values()))
        doc.update({k: v for k, v in only.items() if k != "report"}, model_report=only["report"])
    else:
        doc["runs"] = runs
    return doc
