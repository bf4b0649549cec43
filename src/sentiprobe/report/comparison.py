"""The comparison report of several models' runs: the models and what they are, a profile across suites, and
per suite a leaderboard ranked by the suite's first headline metric and a pairwise matrix of paired tests (each
on the suite's own unit) over the models that ran it; the remaining metrics collapsible. Pure: it renders the
results documents and the comparison document (:func:`sentiprobe.compare.compare_systems`); every text is
escaped.
"""
from __future__ import annotations

from html import escape
from typing import Any

from ..core.types import ci_label
from .html import UNIT_LABELS, format_value, identity_summary, limit_note, metric_cell, page, unit_of
from .svg import profile

DIFF_UNITS = {"pp": "percentage points (pp)", "r": "Pearson's r", "points": "points"}
"""How a difference's unit reads in a heading."""


def _suite_metrics(suite: str, docs: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {m: d.get("suites", {}).get(suite, {}).get("metrics", {}) for m, d in docs.items()
            if suite in d.get("suites", {})}


def _headline(suite: str, docs: dict[str, dict[str, Any]], comp: dict[str, Any] | None) -> list[str]:
    """The suite's headline metrics (as the suite declares them), else the compared ones, else the first two."""
    from ..suites import SUITES

    present = {k for ms in _suite_metrics(suite, docs).values() for k in ms}
    if suite in SUITES:
        heads = [m for m in SUITES.get(suite).headline if m in present]
        if heads:
            return heads
    if comp is not None and comp.get("metrics"):
        return list(comp["metrics"])
    for ms in _suite_metrics(suite, docs).values():
        if ms:
            return list(ms)[:2]
    return []


def p_text(entry: dict[str, Any]) -> str:
    """The Holm-corrected p-value of a pairwise entry; ``p_Holm <= x`` when the bootstrap p-value sat at its floor
    (no resample crossed zero: the data only say the p-value is at most that)."""
    p = entry.get("p_holm")
    if p is None:
        return ""
    op = "\u2264" if entry.get("at_floor") else "="
    return f"p<sub>Holm</sub> {op} {p:.2g}" if p < 0.001 else f"p<sub>Holm</sub> {op} {p:.3g}"


def _signed(v: float, nd: int) -> str:
    """``+1.2`` / ``-0.4``; a value that rounds to zero is ``+0.0``, never ``-0.0``."""
    return f"{round(v, nd) + 0.0:+.{nd}f}"


def _pair_cell(entry: dict[str, Any] | None, sign: float) -> str:
    if entry is None or entry.get("difference") is None:
        return '<td class="muted">\u2014</td>'
    nd = 3 if entry["unit"] == "r" else 1
    d = _signed(sign * entry["difference"], nd)
    lo, hi = entry.get("ci_low"), entry.get("ci_high")
    a, b = sorted((sign * lo, sign * hi)) if lo is not None and hi is not None else (None, None)
    ci = "" if a is None or b is None else \
        f'<br><span class="muted">[{_signed(a, nd)}, {_signed(b, nd)}]</span>'
    mark = '<span class="sig" title="significant after Holm correction">\u2605</span>' if entry.get("significant") \
        else ""
    p = p_text(entry)
    ptxt = f'<br><span class="muted">{p}</span>' if p else ""
    return f'<td class="num pair">{d} {escape(entry["unit"])} {mark}{ci}{ptxt}</td>'


def _tests_note(comp: dict[str, Any], metric: str) -> str:
    """Which test gave the p-values of ``metric`` and how they were corrected."""
    tests = sorted({p["metrics"][metric].get("test", "") for p in comp["pairs"] if metric in p["metrics"]})
    t = comp.get("tests") or {}
    parts = ["; ".join(x for x in tests if x)]
    if t.get("bootstrap_resamples"):
        parts.append(f"bootstrap CIs and p-values from {int(t['bootstrap_resamples']):,} paired resamples "
                     f"(smallest p-value {t.get('p_floor', 0):.2g}, below the strictest Holm threshold "
                     f"{(t.get('strictest_holm_threshold') or 0):.2g}; \u2264 marks a p-value at that floor)")
    parts.append(f"Holm-corrected over the {int(t.get('n_tests') or 0)} tests of the suite "
                 f"(\u2605: below \u03b1 = {escape(str(comp.get('alpha', 0.05)))})")
    return ". ".join(p[:1].upper() + p[1:] for p in parts if p) + "."


def pairwise_matrix(comp: dict[str, Any], metric: str) -> str:
    """Rows minus columns: difference in the metric's unit, its CI, the Holm-corrected p-value and a star."""
    names = list(comp.get("system_names") or comp["systems"])
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
    return (f'<table class="pairwise" aria-label="pairwise {escape(metric)}"><tr><th>row \u2212 column</th>{head}'
            f"</tr>{''.join(rows)}</table>"
            f'<p class="muted">{escape(_tests_note(comp, metric))}</p>')


def _rank_key(v: Any) -> float | None:
    return None if not isinstance(v, int | float) else round(float(v), 12)


def leaderboard(suite: str, docs: dict[str, dict[str, Any]], heads: list[str], links: dict[str, str],
                why_not: dict[str, str]) -> str:
    """Models ranked by the first headline metric (higher is better unless the metric says otherwise; tied
    values share a rank); models without a value unranked at the bottom, those that did not run the suite last
    with the reason."""
    from ..stats.paired import competition_ranks

    ran = _suite_metrics(suite, docs)
    first = heads[0] if heads else None
    values = {m: _rank_key((ms.get(first) or {}).get("value")) if first else None for m, ms in ran.items()}
    hib = next((ms[first].get("higher_is_better", True) for ms in ran.values() if first in ms), True)
    ranks = competition_ranks(values, higher_is_better=bool(hib))
    ranked = sorted((m for m in ran if ranks[m] is not None), key=lambda m: (ranks[m], list(docs).index(m)))
    order = ranked + [m for m in ran if ranks[m] is None]
    level = next((e.get("confidence") for e in (d["suites"][suite] for d in docs.values()
                                                if suite in d.get("suites", {}))), None)
    head = "".join(f"<th>{escape(m)} [{escape(ci_label(level))}]</th>" for m in heads)
    rows = []
    for model in order:
        ms = ran[model]
        cells = "".join(_board_cell(ms.get(m), m) for m in heads)
        rank = ranks[model]
        rows.append(f"<tr><td class=\"num\">{'' if rank is None else rank}</td><td>{_link(model, links)}</td>"
                    f'<td class="num">{_n(ms, heads)}</td>{cells}</tr>')
    for model in docs:
        if model not in ran:
            why = why_not.get(model, "not run on this suite")
            rows.append(f'<tr class="muted"><td></td><td>{_link(model, links)}</td><td></td>'
                        f'<td class="wrap" colspan="{max(1, len(heads))}">{escape(why)}</td></tr>')
    caption = (f"ranked by {escape(first)}; tied values share a rank" if first else "")
    return (f'<table class="leaderboard"><caption class="muted">{caption}</caption><tr><th>rank</th><th>model</th>'
            f"<th>n</th>{head}</tr>{''.join(rows)}</table>")


def _n(ms: dict[str, Any], heads: list[str]) -> str:
    for m in heads:
        if (ms.get(m) or {}).get("n") is not None:
            return str(int(ms[m]["n"]))
    return ""


def _board_cell(m: dict[str, Any] | None, name: str) -> str:
    if m is None:
        return '<td class="muted">n/a</td>'
    if m.get("n_seeds", 1) > 1 and m.get("value") is not None:  # a sweep's seeds: their mean and spread
        unit = unit_of(m, name)
        sd = m.get("seed_sd")
        spread = "" if sd is None else f" \u00b1 {format_value(name, sd, unit)}"
        return (f'<td class="num">{format_value(name, m["value"], unit)}{spread} '
                f'<span class="muted">(mean \u00b1 sd of {int(m["n_seeds"])} seeds)</span></td>')
    return metric_cell({**m, "name": name})


def _link(model: str, links: dict[str, str]) -> str:
    name = escape(model)
    return f'<a href="{escape(links[model])}">{name}</a>' if model in links else name


def _stacked_cell(m: dict[str, Any] | None, name: str) -> str:
    """A metric's value with its CI on a second line (narrow columns: one per model)."""
    if m is None:
        return "<td></td>"
    if m.get("value") is None:
        return f'<td class="muted" title="{escape(str(m.get("note") or ""))}">n/a</td>'
    unit = unit_of(m, name)
    lo, hi = m.get("ci_low"), m.get("ci_high")
    ci = "" if lo is None else \
        f'<br><span class="muted">[{format_value(name, lo, unit)}, {format_value(name, hi, unit)}]</span>'
    return f'<td class="num">{format_value(name, m["value"], unit)}{ci}</td>'


def _all_metrics(suite: str, docs: dict[str, dict[str, Any]], heads: list[str]) -> str:
    """Every other metric: one row per metric, one column per model (metrics outnumber models)."""
    ran = _suite_metrics(suite, docs)
    names: list[str] = []
    for ms in ran.values():
        names += [k for k in ms if k not in names and k not in heads]
    keep = [k for k in names if any((ms.get(k) or {}).get("value") is not None for ms in ran.values())]
    if not keep:
        return ""
    rows = []
    for k in keep:
        unit = next((unit_of(ms[k], k) for ms in ran.values() if k in ms), "")
        shown = UNIT_LABELS.get(unit, unit)
        rows.append(f"<tr><th><code>{escape(k)}</code>{f' ({escape(shown)})' if shown else ''}</th>"
                    + "".join(_stacked_cell(ms.get(k), k) for ms in ran.values()) + "</tr>")
    head = "".join(f"<th>{escape(m)}</th>" for m in ran)
    hidden = len(names) - len(keep)
    note = f'<p class="muted">{hidden} metric(s) not computable for any model are hidden.</p>' if hidden else ""
    return (f'<details><summary>all other metrics ({len(keep)})</summary><table class="metrics">'
            f"<tr><th>metric</th>{head}</tr>{''.join(rows)}</table>{note}</details>")


def _why_not(suite: str, docs: dict[str, dict[str, Any]], comp: dict[str, Any] | None) -> dict[str, str]:
    out = {}
    for model, d in docs.items():
        if suite in (d.get("skipped") or {}):
            out[model] = f"not applicable: {d['skipped'][suite]}"
        elif suite in (d.get("errors") or {}):
            err = d["errors"][suite]
            out[model] = f"failed: {err.get('type', '')}: {err.get('message', '')}"
    for model, why in ((comp or {}).get("excluded") or {}).items():
        out.setdefault(model, f"not compared: {why}")
    return out


def _models_table(docs: dict[str, dict[str, Any]], links: dict[str, str]) -> str:
    rows = []
    for label, d in docs.items():
        model = d.get("model") or {}
        rows.append(f"<tr><td>{_link(label, links)}</td><td><code>{escape(str(model.get('name')))}</code></td>"
                    f'<td class="wrap">{identity_summary(model)}</td></tr>')
    return ("<table class=\"models\"><caption class=\"muted\">\u2020 not given as an argument: a default or a value "
            "from the environment</caption><tr><th>model</th><th>registered as</th><th>what was run (adapter, its "
            f"effective settings)</th></tr>{''.join(rows)}</table>")


def render_comparison(docs: dict[str, dict[str, Any]], comparison: dict[str, Any] | None = None,
                      links: dict[str, str] | None = None, *, title: str = "model comparison",
                      intro: str = "") -> str:
    """The comparison report: ``docs`` = model label -> results document; ``comparison`` from
    :func:`~sentiprobe.compare.compare_systems`; ``links``: label -> the model's own report."""
    links = {m: f"{m}/report.html" for m in docs} if links is None else links
    suites: list[str] = []
    for d in docs.values():
        suites += [s for s in (*d.get("suites", {}), *(d.get("errors") or {})) if s not in suites]
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
        for model, ms in _suite_metrics(s, docs).items():
            e = ms.get(m)
            if e is not None:
                unit = unit_of(e, m)
                values[model][label] = (e.get("value"), e.get("ci_low"), e.get("ci_high"))
        rows.append((label, unit))
    compared = [s for s in suites if s in comps]
    body = [f"<h1>sentiprobe: {escape(title)}</h1>",
            f'<p class="muted">{len(docs)} models on {len(suites)} suites; paired comparisons on {len(compared)} '
            "suite(s). On every suite, each two models that ran it are compared on the same resamples of the "
            "suite's own unit; a model that did not run a suite is listed there and blocks nothing. Each model's "
            f"full report is linked.{(' ' + escape(intro)) if intro else ''}</p>"]
    limited = {m: e.get("limit") for m, d in docs.items() for e in d.get("suites", {}).values() if e.get("limit")}
    if limited:
        first = next(iter(limited.values()))
        how = (f"a seeded random sample (seed {first.get('seed')}) of each suite's unit, the same for every model"
               if isinstance(first, dict) and first.get("mode") == "sample" else "the first test items")
        body.append(f'<div class="banner" role="alert">Limited runs ({escape(", ".join(limited))}): only part of '
                    f"the test items were used ({escape(how)}; each suite says which); these numbers are not "
                    "comparable with full runs.</div>")
    body += ["<h2>Models</h2>", _models_table(docs, links)]
    if rows:
        body += ["<h2>Profile</h2>", profile(rows, values)]
    for s in suites:
        comp = comps.get(s)
        heads = _headline(s, docs, comp)
        body.append(f'<h2 id="{escape(s)}">{escape(s)}</h2>')
        lim = next((d["suites"][s].get("limit") for d in docs.values() if (d.get("suites") or {}).get(s, {})
                    .get("limit")), None)
        if lim:
            body.append(f'<p class="warn">limited: {escape(limit_note(lim))}</p>')
        if comp is not None:
            note = f"; {comp['note']}" if comp.get("note") else ""
            body.append(f'<p class="muted">paired unit: {escape(str(comp.get("unit")))} '
                        f'(n = {int(comp.get("n_units", 0))}){escape(note)}</p>')
        body.append(leaderboard(s, docs, heads, links, _why_not(s, docs, comp)))
        if comp is not None:
            for m in comp.get("metrics", []):
                kind_unit = DIFF_UNITS.get(_diff_unit(comp, m), "")
                shown = UNIT_LABELS.get(_metric_unit(s, docs, m), "")
                body.append(f"<h3>{escape(m)}{f' ({escape(shown)})' if shown else ''}: pairwise differences"
                            f"{f', in {escape(kind_unit)}' if kind_unit else ''}</h3>" + pairwise_matrix(comp, m))
            q = comp.get("cochran_q")
            if q:
                body.append(f'<p class="muted">Cochran\'s Q over all {len(comp.get("system_names", []))} models '
                            f"({escape(str(q.get('metric')))}): Q = {q.get('statistic', 0):.3f}, df "
                            f"{escape(str(q.get('df')))}, p = {q.get('p_value', 1):.3g}</p>")
        elif comparison is not None:
            why = (comparison.get("not_compared") or {}).get(s, "fewer than two models ran it")
            body.append(f'<p class="muted">no paired comparison: {escape(str(why))}</p>')
        body.append(_all_metrics(s, docs, heads))
    return page(f"sentiprobe {title}", "\n".join(body))


def _diff_unit(comp: dict[str, Any], metric: str) -> str:
    for p in comp.get("pairs", []):
        if metric in p["metrics"]:
            return str(p["metrics"][metric].get("unit", ""))
    return ""


def _metric_unit(suite: str, docs: dict[str, dict[str, Any]], metric: str) -> str:
    for ms in _suite_metrics(suite, docs).values():
        if metric in ms:
            return unit_of(ms[metric], metric)
    return ""


__all__ = ["format_value", "leaderboard", "p_text", "pairwise_matrix", "render_comparison"]
