"""The comparison report of several models' runs: the models and what they are, a profile across suites, and
per suite a leaderboard ranked by the suite's first headline metric and a pairwise matrix of paired tests (each
on the suite's own unit) over the models that ran it; the remaining metrics collapsible. Pure: it renders the
results documents and the comparison document (:func:`sentiprobe.compare.compare_systems`) through the templates under
``render/templates/comparison/`` (autoescape: every text is escaped).
"""
from __future__ import annotations

from typing import Any

from ..core.results import mark_small_sample_comparison, small_sample_note
from ..render import fragment, render
from ..render.env import macro
from ..render.format import UNIT_LABELS, format_value, unit_of
from ..render.profile import MAX_MODELS
from ..render.svg import profile
from .generation import asked_note
from .html import identity_summary, limit_note

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
    if entry.get("p_holm") is None:
        return ""
    return str(macro("comparison/pair_cell.html.j2", "p_holm")(entry))


def test_phrase(test: str) -> str:
    """A pair's ``test`` as a clause with a subject: ``none: r is undefined for X`` (no test was run) reads
    ``no test where r is undefined for X``, not ``None: ...``."""
    return f"no test where {test[len('none: '):]}" if test.startswith("none: ") else test


def _tests_note(comp: dict[str, Any], metric: str) -> str:
    """Which test gave the p-values of ``metric`` and how they were corrected."""
    tests = sorted({test_phrase(p["metrics"][metric].get("test", "")) for p in comp["pairs"]
                    if metric in p["metrics"]})
    t = comp.get("tests") or {}
    parts = ["; ".join(x for x in tests if x)]
    if t.get("bootstrap_resamples"):
        parts.append(f"bootstrap CIs and p-values from {int(t['bootstrap_resamples']):,} paired resamples "
                     f"(smallest p-value {t.get('p_floor', 0):.2g}, below the strictest Holm threshold "
                     f"{(t.get('strictest_holm_threshold') or 0):.2g}; \u2264 marks a p-value at that floor)")
    n = int(t.get('n_tests') or 0)
    alpha = comp.get("alpha")  # the level the engine tested at (1 - the run's confidence); never a default
    parts.append((f"Holm-corrected over the {n} tests of the suite" if n != 1 else
                  "one test on the suite (Holm's correction leaves it unchanged)")
                 + (f" (\u2605: below \u03b1 = {alpha})" if alpha is not None else ""))
    return ". ".join(p[:1].upper() + p[1:] for p in parts if p) + "."


def _comparison_small(comp: dict[str, Any]) -> str:
    """Why a suite's paired differences are unreliable (too few paired units), or '' (derived from ``n_units``,
    so a comparison written before the mark existed gets it too)."""
    return str(mark_small_sample_comparison(dict(comp)).get("small_sample_note") or "")


def pairwise_matrix(comp: dict[str, Any], metric: str, references: set[str] | frozenset[str] = frozenset()) -> str:
    """Rows minus columns: difference in the metric's unit, its CI, the Holm-corrected p-value and a star.

    With reference systems among the systems (``references``: their names), the columns are the models that were
    run and the rows every system, so the matrix stays as wide as the models (nine published systems beside two
    models would not fit a window); the references' pairs among themselves are in ``comparison.json``."""
    names = list(comp.get("system_names") or comp["systems"])
    columns = [n for n in names if n not in references] or names
    note = _tests_note(comp, metric)
    if len(columns) < len(names):
        note += (" Columns: the models that were run; every reference system is a row (the reference systems' "
                 "pairs among themselves are in comparison.json).")
    cells: dict[tuple[str, str], tuple[dict[str, Any] | None, float]] = {}
    for p in comp["pairs"]:
        e = p["metrics"].get(metric)
        cells[(p["a"], p["b"])] = (e, 1.0)
        cells[(p["b"], p["a"])] = (e, -1.0)
    return render("comparison/pairwise.html.j2", names=names, columns=columns, cells=cells, metric=metric, note=note,
                  small=_comparison_small(comp))


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
    cell = macro("comparison/cells.html.j2", "board_cell")
    spread = macro("comparison/cells.html.j2", "spread_cell")
    seeded = any((ms.get(m) or {}).get("n_seeds", 1) > 1 for ms in ran.values() for m in heads)
    rows = [{"rank": ranks[model], "model": model, "n": _n(ran[model], heads), "mark": reference_mark(docs[model]),
             "cells": [c for m in heads for c in ((cell(ran[model].get(m), m), spread(ran[model].get(m), m))
                                                 if seeded else (cell(ran[model].get(m), m),))]}
            for model in order]
    absent = [(model, why_not.get(model, "not run on this suite")) for model in docs if model not in ran
              and not _reference_elsewhere(docs[model], suite)]
    return render("comparison/leaderboard.html.j2", first=first, heads=heads, level=level, rows=rows, absent=absent,
                  links=links, seeded=seeded)


def reference_mark(doc: dict[str, Any]) -> str:
    """How a reference system's row is marked (``published, not re-run``); empty for a model that was run."""
    ref = (doc.get("model") or {}).get("reference")
    return str(ref.get("mark") or "reference, not re-run") if isinstance(ref, dict) else ""


def _reference_elsewhere(doc: dict[str, Any], suite: str) -> bool:
    """A reference system whose predictions are for other suites: not listed as "not run" on this one."""
    ref = (doc.get("model") or {}).get("reference")
    return isinstance(ref, dict) and suite not in (ref.get("suites") or [])


def _reference_lines(comparison: dict[str, Any] | None, suite: str) -> tuple[str, list[str]]:
    """The suite's reference-systems note and one line per reference covering part of its units (paired over
    the shared units only)."""
    refs = (comparison or {}).get("references")
    if not isinstance(refs, dict):
        return "", []
    note = str(((refs.get("suites") or {}).get(suite) or {}).get("note") or "")
    lines = []
    for name, rec in ((comparison or {}).get("partial_references") or {}).get(suite, {}).items():
        text = f"{name} covers part of the units: paired over {rec.get('paired_over', '')}"
        if rec.get("not_compared"):
            text += f"; not compared: {rec['not_compared']}"
        else:
            metric = (rec.get("metrics") or [None])[0]
            diffs = []
            for p in rec.get("pairs", []):
                e = (p.get("metrics") or {}).get(metric)
                if e is None or name not in (p["a"], p["b"]) or e.get("difference") is None:
                    continue
                sign, other = (1.0, p["b"]) if p["a"] == name else (-1.0, p["a"])
                diffs.append(f"{other} {sign * float(e['difference']):+.2f} {e.get('unit', '')}".rstrip()
                             + (f" (p_Holm {float(e['p_holm']):.3g})" if e.get("p_holm") is not None else ""))
            if diffs:
                text += f"; {name} minus each system on {metric}: " + "; ".join(diffs)
        lines.append(text)
    return note, lines


def _n(ms: dict[str, Any], heads: list[str]) -> str:
    for m in heads:
        if (ms.get(m) or {}).get("n") is not None:
            return str(int(ms[m]["n"]))
    return ""


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
        rows.append((k, UNIT_LABELS.get(unit, unit)))
    items = list(ran.items())  # at most MAX_COLUMNS systems per table: nine reference systems beside the models fit
    groups = [dict(items[i:i + MAX_COLUMNS]) for i in range(0, len(items), MAX_COLUMNS)]
    return render("comparison/all_metrics.html.j2", groups=groups, keep=rows, hidden=len(names) - len(keep))


MAX_COLUMNS = 6
"""Systems per table of the other metrics (a 1,280 px window holds six)."""


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


def _not_run(shown: list[str], docs: dict[str, dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """The suites every model skipped (a bare run's ``soul-jg`` without a generating model): each with the
    distinct reasons, so a suite of ``summary.json`` is never missing from the report without a word."""
    out: dict[str, list[str]] = {}
    for d in docs.values():
        for s, why in (d.get("skipped") or {}).items():
            if s not in shown and str(why) not in out.setdefault(s, []):
                out[s].append(str(why))
    return list(out.items())


def _models_table(docs: dict[str, dict[str, Any]], links: dict[str, str]) -> str:
    rows = [(label, str((d.get("model") or {}).get("name")) + (f" ({reference_mark(d)})" if reference_mark(d) else ""),
             fragment(identity_summary(d.get("model") or {}))) for label, d in docs.items()]
    return render("comparison/models.html.j2", rows=rows, links=links)


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
    unreliable: dict[str, str] = {}
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
                why = small_sample_note(e)
                if why and label not in unreliable:
                    unreliable[label] = why
        rows.append((label, unit))
    limited = {m: e.get("limit") for m, d in docs.items() for e in d.get("suites", {}).values() if e.get("limit")}
    how = ""
    if limited:
        first = next(iter(limited.values()))
        how = (f"a seeded random sample (seed {first.get('seed')}) of each suite's unit, the same for every model"
               if isinstance(first, dict) and first.get("mode") == "sample" else "the first test items")
    references = frozenset(n for n, d in docs.items() if reference_mark(d))
    sections = []
    for s in suites:
        comp = comps.get(s)
        heads = _headline(s, docs, comp)
        lim = next((d["suites"][s].get("limit") for d in docs.values() if (d.get("suites") or {}).get(s, {})
                    .get("limit")), None)
        matrices = [{"metric": m, "shown": UNIT_LABELS.get(_metric_unit(s, docs, m), ""),
                     "kind_unit": DIFF_UNITS.get(_diff_unit(comp, m), ""),
                     "matrix": fragment(pairwise_matrix(comp, m, references))}
                    for m in (comp.get("metrics", []) if comp is not None else [])]
        not_compared = None
        if comp is None and comparison is not None:
            not_compared = str((comparison.get("not_compared") or {}).get(s, "fewer than two models ran it"))
        small = {n for ms in _suite_metrics(s, docs).values() for m in heads
                 if (n := small_sample_note(ms.get(m) or {}))}
        if comp is not None and _comparison_small(comp):
            small = {_comparison_small(comp)}  # the paired unit count says it for every model at once
        ref_note, partial = _reference_lines(comparison, s)
        sections.append({"name": s, "comp": comp, "limit_note": limit_note(lim) if lim else "",
                         "small_notes": sorted(small),
                         "reference_note": ref_note, "partial_references": partial,
                         "leaderboard": fragment(leaderboard(s, docs, heads, links, _why_not(s, docs, comp))),
                         "matrices": matrices, "cochran_q": (comp or {}).get("cochran_q"),
                         "not_compared": not_compared,
                         "all_metrics": fragment(_all_metrics(s, docs, heads) + asked_note(s, docs))})
    html = render("comparison/report.html.j2", title=f"sentiprobe {title}", heading=title, n_models=len(docs),
                  not_run=_not_run(suites, docs),
                  suites=sections, n_compared=len([s for s in suites if s in comps]), intro=intro,
                  limited=list(limited), limited_how=how, models=fragment(_models_table(docs, links)),
                  profile=_profile_figure(rows, values, unreliable))
    return html + "\n"


def _profile_figure(rows: list[tuple[str, str]], values: dict[str, dict[str, tuple[Any, Any, Any]]],
                    unreliable: dict[str, str]) -> Any:
    """The Profile figure, or a sentence saying why there is none (more models than markers tell apart)."""
    if not rows:
        return ""
    fig = profile(rows, values, unreliable=unreliable)
    if fig:
        return fragment(fig)
    return (f"no figure: {len(values)} models are more than its {MAX_MODELS} distinct markers tell apart; "
            "the leaderboards below rank them suite by suite")


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
