"""The comparison report of several models' runs: a profile across suites, a leaderboard and a pairwise matrix
of paired tests per suite (each on the suite's own unit), the remaining metrics collapsible. Pure: it renders the
results documents and the comparison document (:func:`sentiprobe.compare.compare_runs`); every text is escaped.
"""
from __future__ import annotations

from html import escape
from typing import Any

from ..core.types import ci_label
from .html import UNIT_LABELS, format_value, metric_cell, page, unit_of
from .svg import profile


def _headline(suite: str, docs: dict[str, dict[str, Any]], comp: dict[str, Any] | None) -> list[str]:
    if comp is not None and comp.get("metrics"):
        return list(comp["metrics"])
    for d in docs.values():
        ms = list(d.get("suites", {}).get(suite, {}).get("metrics", {}))
        if ms:
            return ms[:2]
    return []


def _pair_cell(entry: dict[str, Any] | None, sign: float) -> str:
    if entry is None or entry.get("difference") is None:
        return '<td class="muted">\u2014</td>'
    nd = 3 if entry["unit"] == "r" else 1
    d = sign * entry["difference"]
    lo, hi = entry.get("ci_low"), entry.get("ci_high")
    ci = "" if lo is None or hi is None else \
        f" [{min(sign * lo, sign * hi):+.{nd}f}, {max(sign * lo, sign * hi):+.{nd}f}]"
    p = entry.get("p_holm")
    mark = '<span class="sig" title="significant after Holm correction">\u2605</span>' if entry.get("significant") \
        else ""
    ptxt = "" if p is None else f'<br><span class="muted">p<sub>Holm</sub> = {p:.3g}</span>'
    return f'<td class="num">{d:+.{nd}f} {escape(entry["unit"])}{ci} {mark}{ptxt}</td>'


def pairwise_matrix(comp: dict[str, Any], metric: str) -> str:
    """Rows minus columns: difference in the metric's unit, its CI, the Holm-corrected p-value and a star."""
    names = list(comp["systems"])
    cells: dict[tuple[str, str], tuple[dict[str, Any], float]] = {}
    for p in comp["pairs"]:
        e = p["metrics"].get(metric)
        cells[(p["a"], p["b"])] = (e, 1.0)
        cells[(p["b"], p["a"])] = (e, -1.0)
    head = "".join(f"<th>{escape(n)}</th>" for n in names)
    rows = []
    for a in names:
        tds = "".join('<td class="muted">\u00b7</td>' if a == b else _pair_cell(*cells.get((a, b), (None, 1.0)))
                      for b in names)
        rows.append(f"<tr><th>{escape(a)}</th>{tds}</tr>")
    test = ""
    for p in comp["pairs"]:
        if metric in p["metrics"]:
            test = p["metrics"][metric].get("test", "")
            break
    return (f'<table class="pairwise" aria-label="pairwise {escape(metric)}"><tr><th>{escape(metric)}: row '
            f"\u2212 column</th>{head}</tr>{''.join(rows)}</table>"
            f'<p class="muted">{escape(test)}; p-values Holm-corrected over every pair and metric of the suite '
            f'(\u2605: below \u03b1 = {escape(str(comp.get("alpha", 0.05)))}).</p>')


def _leaderboard(suite: str, comp: dict[str, Any] | None, docs: dict[str, dict[str, Any]],
                 heads: list[str], links: dict[str, str]) -> str:
    order = list(comp["leaderboard"][heads[0]]) if comp and heads and heads[0] in comp.get("leaderboard", {}) \
        else list(docs)
    level = next((d["suites"][suite].get("confidence") for d in docs.values() if suite in d.get("suites", {})), None)
    head = "".join(f"<th>{escape(m)} [{escape(ci_label(level))}]</th>" for m in heads)
    rows = []
    for rank, model in enumerate(order, 1):
        ms = docs.get(model, {}).get("suites", {}).get(suite, {}).get("metrics", {})
        cells = "".join(metric_cell({**ms[m], "name": m}) if m in ms else '<td class="muted">n/a</td>' for m in heads)
        name = escape(model)
        link = f'<a href="{escape(links[model])}">{name}</a>' if model in links else name
        rows.append(f"<tr><td>{rank}</td><td>{link}</td>{cells}</tr>")
    return f'<table class="leaderboard"><tr><th>#</th><th>model</th>{head}</tr>{"".join(rows)}</table>'


def _all_metrics(suite: str, docs: dict[str, dict[str, Any]], heads: list[str]) -> str:
    names: list[str] = []
    for d in docs.values():
        for k in d.get("suites", {}).get(suite, {}).get("metrics", {}):
            if k not in names and k not in heads:
                names.append(k)
    keep = [k for k in names if any(d.get("suites", {}).get(suite, {}).get("metrics", {}).get(k, {}).get("value")
                                     is not None for d in docs.values())]  # all-n/a columns hidden
    if not keep:
        return ""
    rows = []
    for model, d in docs.items():
        ms = d.get("suites", {}).get(suite, {}).get("metrics", {})
        rows.append(f"<tr><td>{escape(model)}</td>"
                    + "".join(metric_cell({**ms[k], "name": k}) if k in ms else "<td></td>" for k in keep) + "</tr>")
    head = "".join(f"<th>{escape(k)}</th>" for k in keep)
    hidden = len(names) - len(keep)
    note = f'<p class="muted">{hidden} metric(s) not computable for any model are hidden.</p>' if hidden else ""
    return (f"<details><summary>all other metrics ({len(keep)})</summary><table><tr><th>model</th>{head}</tr>"
            f"{''.join(rows)}</table>{note}</details>")


def render_comparison(docs: dict[str, dict[str, Any]], comparison: dict[str, Any] | None = None,
                      links: dict[str, str] | None = None) -> str:
    """The comparison report: ``docs`` = model name -> results document; ``comparison`` from ``compare_runs``."""
    links = {m: f"{m}/report.html" for m in docs} if links is None else links
    suites: list[str] = []
    for d in docs.values():
        suites += [s for s in d.get("suites", {}) if s not in suites]
    comps = (comparison or {}).get("suites", {})
    rows: list[tuple[str, str]] = []
    values: dict[str, dict[str, tuple[Any, Any, Any]]] = {m: {} for m in docs}
    for s in suites:
        heads = _headline(s, docs, comps.get(s))
        if not heads:
            continue
        m = heads[0]
        label = f"{s}: {m}"
        unit = "fraction"
        for model, d in docs.items():
            e = d.get("suites", {}).get(s, {}).get("metrics", {}).get(m)
            if e is not None:
                unit = unit_of(e, m)
                values[model][label] = (e.get("value"), e.get("ci_low"), e.get("ci_high"))
        rows.append((label, unit))
    body = ["<h1>sentiprobe: model comparison</h1>",
            f'<p class="muted">{len(docs)} models on {len(suites)} suites. Pairwise tests compare the models on '
            "the same resamples of each suite's own unit; each model's full report is linked.</p>"]
    limited = [m for m, d in docs.items() if any(e.get("limit") for e in d.get("suites", {}).values())]
    if limited:
        body.append(f'<div class="banner" role="alert">Limited runs ({escape(", ".join(limited))}): only part of '
                    "the test items were used; these numbers are not comparable with full runs.</div>")
    if rows:
        body += ["<h2>Profile</h2>", profile(rows, values)]
    for s in suites:
        comp = comps.get(s)
        heads = _headline(s, docs, comp)
        body.append(f'<h2 id="{escape(s)}">{escape(s)}</h2>')
        if comp is not None:
            body.append(f'<p class="muted">unit: {escape(str(comp.get("unit")))} (n = {int(comp.get("n_units", 0))}); '
                        f'{escape(str(comp.get("note", "")))}</p>')
        body.append(_leaderboard(s, comp, docs, heads, links))
        if comp is not None:
            for m in comp.get("metrics", []):
                body.append(f"<h3>{escape(m)} ({escape(UNIT_LABELS.get(comp['kinds'].get(m, ''), ''))})</h3>"
                            + pairwise_matrix(comp, m))
        elif comparison is not None:
            why = (comparison.get("not_compared") or {}).get(s, "not in every run")
            body.append(f'<p class="warn">no paired comparison: {escape(str(why))}</p>')
        body.append(_all_metrics(s, docs, heads))
    for model, d in docs.items():
        for s, err in (d.get("errors") or {}).items():
            body.append(f'<p class="warn">{escape(model)} / {escape(s)} failed: {escape(err.get("type", ""))}: '
                        f'{escape(err.get("message", ""))}</p>')
    return page("sentiprobe comparison", "\n".join(body))


__all__ = ["format_value", "pairwise_matrix", "render_comparison"]
