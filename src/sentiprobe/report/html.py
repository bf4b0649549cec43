"""Self-contained HTML report (inline CSS and SVG, no CDN), rendered from the jinja2 templates of
:mod:`sentiprobe.render` (``templates/report/``) with autoescape: every piece of text is escaped."""
from __future__ import annotations

from typing import Any

from ..core.results import small_sample_note
from ..core.types import ci_label
from ..render import fragment, render
from ..render.env import macro
from ..render.format import UNIT_LABELS, describe_limit, format_value, is_percentage, pct, short, unit_of
from ..render.svg import ci_bars

def _macro(name: str) -> Any:
    return macro("macros.html.j2", name)


def metric_cell(m: dict[str, Any]) -> str:
    """A metric's value with its interval in one table cell (``n/a`` with the note as a tooltip)."""
    return str(_macro("metric_cell")(m, m.get("name", "")))


def metrics_table(metrics: dict[str, dict[str, Any]], confidence: float | None = None) -> str:
    """The metrics of a suite entry; the header names the level of the intervals (``confidence``)."""
    return render("report/metrics_table.html.j2", metrics=metrics, confidence=confidence)


def limit_note(limit: Any, n_items: Any = None) -> str:
    """How a limited run chose its items, in one sentence (see :mod:`sentiprobe.run.limit`)."""
    return describe_limit(limit, n_items)


def label_mapping_note(mapping: Any) -> str:
    """How the model's labels were mapped to the suite's; a warning for suite labels it can never predict."""
    if not isinstance(mapping, dict):
        return ""
    return render("report/label_mapping.html.j2", mapping=mapping)


def limit_banner(limit: Any, n_items: Any) -> str:
    """A loud banner for runs on a subset of the items (their numbers are not the suite's)."""
    if not limit:
        return ""
    return str(_macro("limit_banner")(limit_note(limit, n_items)))


def identity_summary(model: dict[str, Any]) -> str:
    """One cell: the adapter and its effective settings (values not given as arguments marked \u2020: a default
    or the environment)."""
    ident = model.get("identity") or {}
    cfg = ident.get("config") or {}
    given = set(ident.get("given") or model.get("args") or {})
    shown = [(str(k), short(v, 60), "" if k in given else "\u2020") for k, v in cfg.items()
             if v not in (None, "", [], {})]
    shown += [(str(k), short(v, 60), "") for k, v in (model.get("args") or {}).items() if k not in cfg]
    return str(_macro("identity_summary")(str(ident.get("adapter") or model.get("name")), shown))


def identity_table(results: dict[str, Any]) -> str:
    """What was run: label, registered model, adapter and class, every effective setting with where it came
    from, and per suite the prompt template's hash (generative suites) and the adapter fingerprint."""
    model = results.get("model") or {}
    ident = model.get("identity") or {}
    given = set(ident.get("given") or model.get("args") or {})
    rows = [("model (label)", str(model.get("label") or model.get("name"))),
            ("registered model", str(model.get("name")))]
    if ident:
        rows += [("adapter", f"{ident.get('adapter')} ({ident.get('class')})"),
                 ("capabilities", ", ".join(ident.get("capabilities") or []))]
    cfg = ident.get("config") or {}
    for k, v in cfg.items():
        if k == "template_hash" and v is None:  # set by each generative suite: shown per suite below
            continue
        src = "argument" if k in given else "default or environment"
        rows.append((f"{k} ({src})", short(v, 200)))
    for k, v in (model.get("args") or {}).items():
        if k not in cfg:
            rows.append((f"{k} (argument; not part of the outputs' identity)", short(v, 200)))
    for name, entry in (results.get("suites") or {}).items():
        mc = entry.get("model_config") or {}
        details = entry.get("details") or {}
        # the template sent (details.generation, what the predictions name), else the suite's declared one
        tmpl = ((details.get("generation") or {}).get("template") if isinstance(details.get("generation"), dict)
                else None) or details.get("prompt_template")
        if mc.get("template_hash") or (isinstance(tmpl, dict) and mc.get("template_hash") is not None):
            label = f"{tmpl.get('name')} v{tmpl.get('version')} " if isinstance(tmpl, dict) else ""
            rows.append((f"prompt template ({name})", f"{label}#{mc.get('template_hash')}"))
    return render("report/identity_table.html.j2", rows=rows)


def _suite_section(name: str, entry: dict[str, Any]) -> str:
    from ..suites import SUITES
    from .generation import generation_section

    charts = []
    for unit in ("fraction", "correlation"):
        vals = [(k, m) for k, m in entry.get("metrics", {}).items()
                if m.get("value") is not None and unit_of(m, k) == unit]
        if vals:
            charts.append(fragment(ci_bars([(k, m["value"], m.get("ci_low"), m.get("ci_high")) for k, m in vals],
                                      unit=unit, title=f"{name} metrics ({UNIT_LABELS[unit]})",
                                      unreliable={k for k, m in vals if small_sample_note(m)})))
    # a results file from a suite this installation does not have (a plug-in, an older version): no section
    section = fragment(SUITES.get(name).render_section(name, entry)) if name in SUITES else None
    return render("report/suite_section.html.j2", name=name, entry=entry,
                  small_notes=sorted({n for m in entry.get("metrics", {}).values() if (n := small_sample_note(m))}),
                  limit_note=limit_note(entry["limit"], entry.get("n_items")) if entry.get("limit") else "",
                  mapping=entry.get("label_mapping"),
                  metrics_table=fragment(metrics_table(entry.get("metrics", {}), entry.get("confidence"))),
                  charts=charts,
                  generation=fragment(generation_section(entry)),  # how a generative model was asked (or '')
                  section=section)


def _headline_names(name: str, metrics: dict[str, Any], k: int = 4) -> list[str]:
    from ..suites import SUITES

    heads = [m for m in (SUITES.get(name).headline if name in SUITES else ()) if m in metrics]
    return (heads + [m for m in metrics if m not in heads])[:k]


def _profile(results: dict[str, Any]) -> str:
    """One row per suite: n, then its headline metrics (the suite's own first) as ``name value [CI]`` entries
    that wrap inside the cell, so the table never grows wider than the page."""
    rows = []
    for name, entry in results.get("suites", {}).items():
        ms = entry.get("metrics", {})
        items = []
        for k in _headline_names(name, ms):
            m = ms[k]
            unit = unit_of(m, k)
            v = "n/a" if m.get("value") is None else format_value(k, m["value"], unit) + (
                "%" if unit == "fraction" else "")
            items.append((k, v, "" if m.get("ci_low") is None else
                          f"[{format_value(k, m['ci_low'], unit)}, {format_value(k, m.get('ci_high'), unit)}]",
                          small_sample_note(m) or ""))
        first = next((ms[k] for k in _headline_names(name, ms) if (ms[k] or {}).get("unit_name")), None)
        n = int(first["n"]) if first is not None else int(entry.get("n_items") or 0)  # units, as every output
        rows.append({"name": name, "limited": bool(entry.get("limit")), "n": n, "metrics": items,
                     "unit": first.get("unit_name") if first is not None else "item"})
    level = ci_label((results.get("config") or {}).get("confidence"))
    return render("report/profile.html.j2", rows=rows, errors=results.get("errors") or {}, level=level)


def _provenance(results: dict[str, Any]) -> str:
    prov = results.get("provenance") or {"packages": results.get("packages", {}),
                                          "platform": results.get("platform", "")}  # schema v1
    files = [(f, h) for entry in results.get("suites", {}).values() for f, h in entry.get("data_files", {}).items()]
    opts = [(name, ", ".join(f"{k}={v}" for k, v in o.items())) for name, entry in results.get("suites", {}).items()
            if (o := (entry.get("suite") or {}).get("options") or {})]
    return render("report/provenance.html.j2", results=results, prov=prov, files=files, options=opts)


def page(title: str, body: str) -> str:
    """The base page (``base.html.j2``) around ``body``, HTML rendered by a template."""
    return render("base.html.j2", title=title, body=fragment(body)) + "\n"


def render_report(results: dict[str, Any]) -> str:
    """The report of one model's run (results.json document, validated against the results schema)."""
    from ..core.results import validate_results

    validate_results(results)
    model = results.get("model", {})
    label = model.get("label") or model.get("name")
    html = render("report/run.html.j2", title=f"sentiprobe: {label}", label=label, results=results,
                  identity=fragment(identity_table(results)), profile=fragment(_profile(results)),
                  sections=[fragment(_suite_section(n, e)) for n, e in results.get("suites", {}).items()],
                  errors=results.get("errors") or {}, provenance=fragment(_provenance(results)))
    return html + "\n"


def render_comparison(docs: dict[str, dict[str, Any]], comparison: dict[str, Any] | None = None,
                      links: dict[str, str] | None = None, **kwargs: Any) -> str:
    """A report comparing several models' runs (see :mod:`sentiprobe.report.comparison`)."""
    from .comparison import render_comparison as render_many

    return render_many(docs, comparison, links, **kwargs)


__all__ = ["UNIT_LABELS", "format_value", "identity_summary", "identity_table", "is_percentage",
           "label_mapping_note", "limit_banner", "limit_note", "metric_cell", "metrics_table", "page", "pct",
           "render_comparison", "render_report", "unit_of"]
