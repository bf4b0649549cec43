"""What a run says while it works (stderr) and the results table it ends with (stdout).

A run has long silent stretches otherwise: loading and verifying data, fitting a model, bootstrapping
confidence intervals. :class:`Progress` names the model, the suite and the stage:

- on a terminal, a status line per stage that ends as ``done in 3.2s`` (never erased), and a tqdm bar for
  stages that count items (prediction); bars are kept after they finish (``leave=True``) so the screen shows
  what ran, not a blank line;
- elsewhere (CI logs, ``nohup``, a pipe), one plain line per stage when it ends, with seconds: no carriage
  returns, no bar redraws filling a log file, and no line said twice. A stage still running after
  ``quiet_for`` seconds (5 by default: a model's fit, an LLM's replies) also gets a line when that time has passed,
  so a log never looks stuck without saying what it is doing.

The results table and the compact ``--json`` document are built from the run's summary document
(:func:`results_table`, :func:`compact_summary`), never from the suites themselves, so they work on a
``summary.json`` read back from disk.
"""
from __future__ import annotations

import sys
import textwrap
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TextIO

from ..core.results import small_sample_note
from ..core.types import ci_label
from ..report.html import UNIT_LABELS, format_value, unit_of

STAGE_WORDS = {"load": "loading data", "fit": "fitting", "predict": "predicting", "score": "scoring"}


class Progress:
    """Stage reporting for one run.

    Args:
        stream: where progress goes (stderr by default; results go to stdout).
        enabled: False prints nothing (``--no-progress``, the Python API's ``progress=False``).
        tty: force terminal (True) or plain-line (False) mode; None asks ``stream.isatty()``.
        quiet_for: plain-line mode: seconds a stage may run before its start is said (0: at once).
    """

    def __init__(self, stream: TextIO | None = None, *, enabled: bool = True, tty: bool | None = None,
                 quiet_for: float = 5.0) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        if tty is None:
            isatty = getattr(self.stream, "isatty", None)
            tty = bool(isatty()) if callable(isatty) else False
        self.tty = tty
        self.quiet_for = quiet_for
        self._lock = threading.Lock()  # the start line of a long stage comes from a timer thread

    def _write(self, text: str) -> None:
        with self._lock:
            self.stream.write(text)
            self.stream.flush()

    def _announce_later(self, what: str) -> tuple[threading.Timer | None, dict[str, bool]]:
        """Plain-line mode: say that ``what`` runs once it has run ``quiet_for`` seconds (from a timer), or now.
        Returns the timer and the stage's state (``ended``: the timer must not write any more)."""
        state = {"ended": False}

        def say() -> None:
            with self._lock:
                if not state["ended"]:
                    self.stream.write(f"{what} ...\n")
                    self.stream.flush()

        if self.quiet_for <= 0:
            say()
            return None, state
        timer = threading.Timer(self.quiet_for, say)
        timer.daemon = True
        timer.start()
        return timer, state

    @contextmanager
    def stage(self, model: str, suite: str, stage: str, detail: str = "") -> Iterator[dict[str, float]]:
        """Report ``stage`` of ``model`` on ``suite``; yields a dict whose ``seconds`` is set on exit.

        A stage that raises is reported as failed (with its seconds) and the exception propagates.
        """
        what = f"{suite} · {model} · {STAGE_WORDS.get(stage, stage)}" + (f" ({detail})" if detail else "")
        timing: dict[str, float] = {}
        t0 = time.perf_counter()
        timer, state = None, {"ended": False}
        if self.enabled:
            if self.tty:
                self._write(f"  {what} ...")
            else:
                timer, state = self._announce_later(what)
        ok = False
        try:
            yield timing
            ok = True
        finally:
            timing["seconds"] = time.perf_counter() - t0
            if timer is not None:
                timer.cancel()
            with self._lock:
                state["ended"] = True  # a timer already running waits for the lock, then writes nothing
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
        from tqdm.auto import tqdm  # only when a progress bar is shown

        self._write("\n")  # the bar goes below the stage line
        return tqdm(total=total, desc=desc, unit="item", file=self.stream, leave=True, dynamic_ncols=True)


NULL_PROGRESS = Progress(enabled=False, tty=False)


def headline_of(metrics: Mapping[str, Any], headline: tuple[str, ...] | list[str]) -> list[str]:
    """The headline metric names present in ``metrics`` (the first metric when ``headline`` is empty)."""
    names = [m for m in headline if m in metrics]
    if not names and metrics:
        names = [next(iter(metrics))]
    return names


WIDTH = 100
"""The results table's width: it must read in a terminal or a CI log without wrapping."""
LABEL_WIDTH = 24
"""The model column's width; a longer label gets a line of its own."""


def _unit(m: Mapping[str, Any], name: str) -> str:
    return unit_of(dict(m), name)


def _fmt(m: Mapping[str, Any], name: str = "") -> str:
    """A metric's value and CI in its unit, without the unit sign (the column heading names it)."""
    v = m.get("value")
    if v is None:
        return "n/a"
    unit = _unit(m, name)
    lo, hi = m.get("ci_low"), m.get("ci_high")
    ci = f" [{format_value('', lo, unit)}, {format_value('', hi, unit)}]" if lo is not None and hi is not None else ""
    return f"{format_value('', v, unit)}{ci}" + (f" {SMALL_MARK}" if small_sample_note(m) else "")


SMALL_MARK = "\u2020"
"""Marks a cell whose interval rests on too few units; the suite's lines end with a footnote saying why."""


def _spread(m: Mapping[str, Any], name: str = "") -> str:
    """The spread of a sweep's seeds (their sd), for a column of its own: never shown as an interval."""
    k = int(m.get("n_seeds") or 1)
    sd = m.get("seed_sd")
    if k < 2:
        return "one seed"
    if sd is None:
        return "n/a"
    if sd == 0:
        return f"none: same on all {k} seeds (deterministic)"
    return f"{format_value('', sd, _unit(m, name))} ({k} seeds)"


def _heading(name: str, m: Mapping[str, Any] | None) -> str:
    if m is None:
        return name
    unit = _unit(m, name)
    return f"{name} ({UNIT_LABELS.get(unit, unit)})"


def _wrap(text: str, indent: int) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=" " * indent, subsequent_indent=" " * (indent + 2),
                         break_long_words=True, break_on_hyphens=False) or [""]


def _asked(entry: Mapping[str, Any]) -> str | None:
    """How a generative model was asked on a suite (a summary entry's ``asked``, or from a results entry's
    ``details.generation``); None for other models."""
    from ..suites.prompting import asked_summary

    return entry.get("asked") or asked_summary((entry.get("details") or {}).get("generation"))


def _parse_note(metrics: Mapping[str, Any], generated: bool = False) -> str:
    """``parse failures 12.5%`` when a suite could not read some replies; for a generative model always, also
    ``parse failures 0.0%`` (empty otherwise)."""
    pf = metrics.get("parse_failure_rate") or {}
    v = pf.get("value") if isinstance(pf, Mapping) else None
    if not isinstance(v, int | float) or (v <= 0 and not generated):
        return ""
    return f"parse failures {100 * v:.1f}%"


def results_table(summary: Mapping[str, Any]) -> str:
    """The table a run ends with, at most :data:`WIDTH` columns: per suite a heading with its headline metrics
    (unit; intervals at the run's confidence level), then one line per model that ran it: n (``*`` for a
    ``--limit`` run), the metrics (\u2020 on an interval over too few units, with a line under the suite saying
    why), the parse-failure rate when above 0, and seconds; failures on their own
    wrapped lines; the (suite, model) pairs that do not apply summarised in one line; then where the reports are.

    ``summary`` is the document :func:`~sentiprobe.run.runner.run_models` returns (or ``summary.json``).
    """
    headline = summary.get("headline", {})
    runs = summary.get("runs", {})
    order: list[str] = []
    for run in runs.values():
        order += [s for s in (*(run.get("suites") or {}), *(run.get("errors") or {})) if s not in order]
    if not order and not any(r.get("skipped") for r in runs.values()):
        return "no results\n"

    mw = min(LABEL_WIDTH, max([len("model"), *(len(m) for m in runs)]))
    lines: list[str] = [f"headline metrics ({ci_label((summary.get('config') or {}).get('confidence'))})"]
    limited = False
    for suite in order:
        ran = {m: r["suites"][suite] for m, r in runs.items() if suite in (r.get("suites") or {})}
        sample: dict[str, Any] = next((e.get("metrics", {}) for e in ran.values() if e.get("metrics")), {})
        names = headline_of(sample, headline.get(suite, ()))
        seeded = any((e.get("metrics", {}).get(n) or {}).get("n_seeds", 1) > 1 for e in ran.values() for n in names)
        cells: dict[str, list[str]] = {m: [c for n in names for c in (
            (_fmt(e.get("metrics", {}).get(n) or {}, n),) + ((_spread(e.get("metrics", {}).get(n) or {}, n),)
                                                              if seeded else ()))] for m, e in ran.items()}
        heads = [h for n in names for h in (_heading(n, sample.get(n)),) + ((f"{n} seed sd",) if seeded else ())]
        widths = [max([len(h), *(len(c[k]) for c in cells.values())]) for k, h in enumerate(heads)]
        lines.append("")
        unit = (sample.get(names[0]) or {}).get("unit_name") if names else None
        lines.append(f"{suite}" + (f"  (n = {unit}s)" if unit else ""))
        header = f"  {'model':<{mw}}  {'n':>6}   " + "  ".join(f"{h:<{w}}" for h, w in zip(heads, widths)) + \
            "  seconds"
        wide = len(header) <= WIDTH
        if ran:  # too wide for every metric: the first in the column, the others on lines of their own
            lines.append(header if wide else f"  {'model':<{mw}}  {'n':>6}   {heads[0] if heads else ''}")
        for m, e in ran.items():
            first = (e.get("metrics") or {}).get(names[0]) if names else None
            n = first.get("n") if isinstance(first, dict) and first.get("unit_name") else e.get("n_items")
            mark = "*" if e.get("limit") else " "
            limited = limited or bool(e.get("limit"))
            secs = sum(v for v in (e.get("seconds") or {}).values() if isinstance(v, int | float))
            metrics = e.get("metrics", {})
            pf = (metrics.get("parse_failure_rate") or {}).get("value")
            if len(m) > mw:  # a long label on a line of its own
                lines.append(f"  {m}")
            prefix = f"  {m if len(m) <= mw else '':<{mw}}  {'' if n is None else n:>6}{mark}  "
            if isinstance(pf, int | float) and pf >= 1.0:
                lines += _wrap(prefix + "no reply could be parsed (parse failures 100%); raw replies: its report", 0)
                continue
            vals = [f"{c:<{w}}" for c, w in zip(cells[m], widths)]
            note = _parse_note(metrics, generated=bool(_asked(e)))
            row = prefix + "  ".join(vals) + f"  {secs:7.1f}" + (f"  {note}" if note else "")
            if wide and len(row) <= WIDTH:
                lines.append(row)
                continue
            lines.append(prefix + vals[0].rstrip() + f"  {secs:.1f}s")  # too wide: one metric per line
            lines += [" " * len(prefix) + f"{h}: {v.strip()}" for h, v in zip(heads[1:], vals[1:])]
            if note:
                lines.append(" " * len(prefix) + note)
        notes = sorted({w for e in ran.values() for n in names
                        if (w := small_sample_note(e.get("metrics", {}).get(n) or {}))})
        lines += [f"  {SMALL_MARK} {w}" for w in notes]
        for m, e in ran.items():  # how each generative model was asked: the template and mode sent
            if _asked(e):
                lines += _wrap(f"{m}: {_asked(e)}", 4)
        for m, r in runs.items():
            err = (r.get("errors") or {}).get(suite)
            if err:
                lines += _wrap(f"{m}: FAILED: {err.get('type')}: {err.get('message')}", 2)
    skipped = sum(len(r.get("skipped") or {}) for r in runs.values())
    if limited:
        lines += ["", "* --limit: part of the suite's test items (see the reports' banners); not comparable with "
                      "full runs"]
    if skipped:
        lines += [""] + _wrap(f"not applicable, not run: {skipped} (suite, model) pair(s); `sentiprobe list matrix` "
                              "shows which", 0)
    out = summary.get("out")
    if out:
        lines.append("")
        lines.append(f"report: {out}/{summary.get('report', 'report.html')}")
        if summary.get("comparison"):
            lines.append(f"paired comparisons: {out}/{summary['comparison']}")
        for model in runs:
            page = runs[model].get("report") or f"{runs[model].get('dir', model)}/report.html"
            lines.append(f"  {model}: {out}/{page}")
        refs = summary.get("references") or {}
        if refs:
            lines += _wrap(f"reference systems ({len(refs)}; read from released predictions, not re-run; in the "
                           f"leaderboards and pairwise matrices of the report): {', '.join(refs)}", 0)
    return "\n".join(lines).lstrip("\n") + "\n"


def compact_summary(summary: Mapping[str, Any]) -> dict[str, Any]:
    """The ``--json`` document: headline metrics and paths, in the results layout scripts read.

    ``suites.<suite>.metrics.<name>`` (the metric as in results.json: ``value``, ``ci_low``, ``ci_high``, ``n``...)
    for the suite's headline metrics, at the top level when one model ran, under ``runs.<model>`` when several
    did; ``references.<name>`` the same for each reference system of the run. The full documents (every metric,
    details, provenance) stay in the run directory.
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
    refs = {n: {"results": f"{out}/{r.get('results')}", "mark": r.get("mark"),
                "suites": {s: {"metrics": {k: dict(e["metrics"][k]) for k in headline_of(e.get("metrics", {}),
                                                                                     headline.get(s, ()))}}
                           for s, e in (r.get("suites") or {}).items()}}
            for n, r in (summary.get("references") or {}).items()}
    doc: dict[str, Any] = {"out": out, "summary": f"{out}/summary.json",
                           "report": f"{out}/{summary.get('report', 'report.html')}"}
    if len(runs) == 1:  # the one model's entries at the top level; ``report`` stays the run's report
        only = next(iter(runs.values()))
        doc.update({k: v for k, v in only.items() if k != "report"}, model_report=only["report"])
    else:
        doc["runs"] = runs
    if refs:  # the reference systems (published predictions, read, not re-run): headline metrics per suite
        doc["references"] = refs
    return doc
