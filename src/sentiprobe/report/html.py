"""Self-contained HTML report (inline CSS and SVG, no CDN). Every piece of text is escaped."""
from __future__ import annotations

import json
import math
from html import escape
from typing import Any

from ..core.types import ci_label
from ..stats.rounding import percent
from .svg import ci_bars

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;max-width:1100px;color:#222;
padding:0 1em}
h1{font-size:1.6em}h2{border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.8em 0;font-size:.92em;max-width:100%}
th,td{border:1px solid #ddd;padding:.3em .6em;text-align:left;vertical-align:top;overflow-wrap:break-word}
td.wrap,table.identity td{overflow-wrap:anywhere}
th{background:#f4f4f4}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.pair{white-space:normal;font-size:.9em}caption{text-align:left;caption-side:bottom}
.scroll{overflow-x:auto;max-width:100%}span.metric{display:inline-block;margin-right:1.2em;white-space:nowrap}
table.identity td code{white-space:pre-wrap;overflow-wrap:anywhere}
.muted{color:#777;font-size:.9em}.warn{color:#a50}
.banner{background:#fff3cd;border:2px solid #d39e00;color:#6b4f00;padding:.6em 1em;margin:1em 0;font-weight:600}
.sig{color:#1a7f37;font-weight:600}
code{background:#f6f6f6;padding:0 .2em}
ins{background:#d4f7d4;text-decoration:none}del{background:#f7d4d4}
details{margin:.5em 0}svg.plot{max-width:100%;height:auto}
"""


def pct(v: float | None) -> str:
    """A fraction as a percentage with two decimals (round half up), or an em dash (None, NaN, inf)."""
    if v is None or not math.isfinite(float(v)):
        return "\u2014"
    return percent(float(v))


def unit_of(m: dict[str, Any], name: str = "") -> str:
    """The metric's unit (``Metric.unit``); results written before units existed get it from the name."""
    from ..core.types import metric_unit

    return str(m.get("unit") or metric_unit(m.get("name") or name))


UNIT_LABELS = {"fraction": "%", "correlation": "r", "coefficient": "coefficient", "score": "score", "count": "count"}


def format_value(name: str, v: float | None, unit: str | None = None) -> str:
    """A metric value for display by its unit: fractions as percentages with two decimals, correlations and
    coefficients with three decimals, counts as integers."""
    if v is None or not math.isfinite(float(v)):
        return "\u2014"
    u = unit or unit_of({}, name)
    if u == "fraction":
        return pct(v)
    if u == "count":
        return str(round(v))
    return f"{v:.3f}"


def is_percentage(name: str, value: float | None, unit: str | None = None) -> bool:
    """Whether a metric is shown as a percentage (its unit is ``fraction``)."""
    return value is not None and (unit or unit_of({}, name)) == "fraction"


def metric_cell(m: dict[str, Any]) -> str:
    if m.get("value") is None:
        return f'<td class="muted" title="{escape(m.get("note") or "")}">n/a</td>'
    name = m.get("name", "")
    unit = unit_of(m, name)
    ci = ""
    if m.get("ci_low") is not None:
        ci = (f' <span class="muted">[{format_value(name, m["ci_low"], unit)}, '
              f'{format_value(name, m["ci_high"], unit)}]</span>')
    return f'<td class="num">{format_value(name, m["value"], unit)}{ci}</td>'


def metrics_table(metrics: dict[str, dict[str, Any]], confidence: float | None = None) -> str:
    """The metrics of a suite entry; the header names the level of the intervals (``confidence``)."""
    rows = []
    for name, m in metrics.items():
        unit = unit_of(m, name)
        rows.append(f"<tr><td><code>{escape(name)}</code></td>{metric_cell({**m, 'name': name})}"
                    f"<td>{escape(UNIT_LABELS.get(unit, unit))}</td>"
                    f'<td class="num">{int(m.get("n") or 0)}</td>'
                    f'<td class="muted">{escape(str(m.get("note") or ""))}</td></tr>')
    return (f"<table><tr><th>metric</th><th>value [{escape(ci_label(confidence))}]</th><th>unit</th><th>n</th>"
            "<th>note</th></tr>"
            + "".join(rows) + "</table>")


def limit_note(limit: Any, n_items: Any = None) -> str:
    """How a limited run chose its items, in one sentence (see :mod:`sentiprobe.run.limit`)."""
    from ..run.limit import describe_limit

    return describe_limit(limit, n_items)


def label_mapping_note(mapping: Any) -> str:
    """How the model's labels were mapped to the suite's; a warning for suite labels it can never predict."""
    if not isinstance(mapping, dict):
        return ""
    to_suite = mapping.get("to_suite") or {}
    pairs = ", ".join(f"{k} \u2192 {v if v is not None else 'dropped'}" for k, v in to_suite.items())
    out = f'<p class="muted">model labels mapped by {escape(str(mapping.get("by", "")))}: {escape(pairs)}</p>'
    never = mapping.get("never_predicted") or []
    if never:
        out += (f'<p class="warn">no model label maps to the suite label(s) {escape(", ".join(map(str, never)))}: '
                "the model never predicts them (they count as errors wherever they are the gold label)</p>")
    return out


def limit_banner(limit: Any, n_items: Any) -> str:
    """A loud banner for runs on a subset of the items (their numbers are not the suite's)."""
    if not limit:
        return ""
    return (f'<div class="banner" role="alert">Limited run: {escape(limit_note(limit, n_items))}. These numbers '
            "are not comparable with full runs or published results.</div>")


def _short(v: Any, width: int = 80) -> str:
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, default=str)
    return text if len(text) <= width else text[: width - 1] + "\u2026"


def identity_summary(model: dict[str, Any]) -> str:
    """One cell: the adapter and its effective settings (values not given as arguments marked \u2020: a default
    or the environment)."""
    ident = model.get("identity") or {}
    cfg = ident.get("config") or {}
    given = set(ident.get("given") or model.get("args") or {})
    parts = [f"<code>{escape(str(ident.get('adapter') or model.get('name')))}</code>"]
    dagger = "\u2020"
    shown = [f"{escape(str(k))}={escape(_short(v, 60))}{'' if k in given else dagger}"
             for k, v in cfg.items() if v not in (None, "", [], {})]
    extra = [f"{escape(str(k))}={escape(_short(v, 60))}" for k, v in (model.get("args") or {}).items()
             if k not in cfg]
    if shown or extra:
        parts.append('<span class="muted">' + ", ".join(shown + extra) + "</span>")
    return " ".join(parts)


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
        rows.append((f"{k} ({src})", _short(v, 200)))
    for k, v in (model.get("args") or {}).items():
        if k not in cfg:
            rows.append((f"{k} (argument; not part of the outputs' identity)", _short(v, 200)))
    for name, entry in (results.get("suites") or {}).items():
        mc = entry.get("model_config") or {}
        tmpl = (entry.get("details") or {}).get("prompt_template")
        if mc.get("template_hash") or (isinstance(tmpl, dict) and mc.get("template_hash") is not None):
            label = f"{tmpl.get('name')} v{tmpl.get('version')} " if isinstance(tmpl, dict) else ""
            rows.append((f"prompt template ({name})", f"{label}#{mc.get('template_hash')}"))
    body = "".join(f"<tr><th>{escape(k)}</th><td><code>{escape(v)}</code></td></tr>" for k, v in rows)
    return f'<table class="identity" aria-label="model identity">{body}</table>'


def _suite_section(name: str, entry: dict[str, Any]) -> str:
    from ..suites import SUITES

    parts = [f'<h2 id="{escape(name)}">{escape(name)}</h2>',
             limit_banner(entry.get("limit"), entry.get("n_items")),
             f'<p class="muted">{int(entry.get("n_items", 0))} items'
             + f'; cache hits {int(entry.get("cache", {}).get("hits", 0))}, computed '
               f'{int(entry.get("cache", {}).get("computed", 0))}</p>',
             label_mapping_note(entry.get("label_mapping")),
             metrics_table(entry.get("metrics", {}), entry.get("confidence"))]
    for unit in ("fraction", "correlation"):
        vals = [(k, m) for k, m in entry.get("metrics", {}).items()
                if m.get("value") is not None and unit_of(m, k) == unit]
        if vals:
            parts.append(ci_bars([(k, m["value"], m.get("ci_low"), m.get("ci_high")) for k, m in vals], unit=unit,
                                 title=f"{name} metrics ({UNIT_LABELS[unit]})"))
    from .generation import generation_section

    parts.append(generation_section(entry))  # how a generative model was asked (empty for other models)
    if name in SUITES:
        parts.append(SUITES.get(name).render_section(name, entry))
    else:  # a results file from a suite this installation does not have (a plug-in, an older version)
        parts.append(f'<p class="warn">suite {escape(name)} is not installed: no suite section</p>')
    return "\n".join(parts)


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
            lo, hi = m.get("ci_low"), m.get("ci_high")
            ci = "" if lo is None else \
                f' <span class="muted">[{format_value(k, lo, unit)}, {format_value(k, hi, unit)}]</span>'
            items.append(f'<span class="metric"><code>{escape(k)}</code> {v}{ci}</span>')
        mark = ' <span class="warn" title="a --limit run">(limited)</span>' if entry.get("limit") else ""
        rows.append(f'<tr><td><a href="#{escape(name)}">{escape(name)}</a>{mark}</td>'
                    f'<td class="num">{int(entry.get("n_items") or 0)}</td><td>{" ".join(items)}</td></tr>')
    for name, err in (results.get("errors") or {}).items():
        rows.append(f'<tr><td><a href="#{escape(name)}">{escape(name)}</a></td><td></td>'
                    f'<td class="warn">failed: {escape(str(err.get("type", "")))}</td></tr>')
    level = ci_label((results.get("config") or {}).get("confidence"))
    return (f'<table class="profile"><tr><th>suite</th><th>n</th><th>headline metrics [{escape(level)}]</th></tr>'
            + "".join(rows) + "</table>")


def _provenance(results: dict[str, Any]) -> str:
    prov = results.get("provenance") or {"packages": results.get("packages", {}),
                                          "platform": results.get("platform", "")}  # schema v1
    pk = prov.get("packages", {})
    rows = "".join(f"<tr><td>{escape(k)}</td><td>{escape(str(v))}</td></tr>" for k, v in pk.items())
    files = []
    for entry in results.get("suites", {}).values():
        for f, h in entry.get("data_files", {}).items():
            files.append(f"<tr><td>{escape(f)}</td><td><code>{escape(str(h))}</code></td></tr>")
    opts = []
    for name, entry in results.get("suites", {}).items():
        o = (entry.get("suite") or {}).get("options") or {}
        if o:
            shown = ", ".join(f"{k}={v}" for k, v in o.items())
            opts.append(f"<tr><td>{escape(name)}</td><td><code>{escape(shown)}</code></td></tr>")
    return (f"<h2>Provenance</h2><p>command: <code>{escape(results.get('command', ''))}</code><br>"
            f"seed {escape(str(results.get('seed')))}, created {escape(str(results.get('created')))}, "
            f"{escape(str(prov.get('platform', '')))}; git commit "
            f"<code>{escape(str(prov.get('git_commit') or 'n/a'))}</code>; data dir "
            f"<code>{escape(str(prov.get('data_dir') or 'n/a'))}</code></p>"
            + (f"<details open><summary>suite options</summary><table>{''.join(opts)}</table></details>"
               if opts else "")
            + f"<details><summary>package versions</summary><table>{rows}</table></details>"
            f"<details><summary>data files (sha256)</summary><table>{''.join(files)}</table></details>")


def page(title: str, body: str) -> str:
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>{body}</body></html>\n")


def render_report(results: dict[str, Any]) -> str:
    """The report of one model's run (results.json document, validated against the results schema)."""
    from ..core.results import validate_results

    validate_results(results)
    model = results.get("model", {})
    label = model.get("label") or model.get("name")
    body = [f"<h1>sentiprobe report: {escape(str(label))}</h1>",
            f'<p class="muted">sentiprobe {escape(str(results.get("sentiprobe_version")))}</p>',
            "<h2>Model</h2>", identity_table(results),
            "<h2>Profile</h2>", _profile(results)]
    body += [_suite_section(n, e) for n, e in results.get("suites", {}).items()]
    for name, err in (results.get("errors") or {}).items():
        body.append(f'<h2 id="{escape(name)}">{escape(name)}</h2><p class="warn">failed: '
                    f'{escape(err.get("type", ""))}: {escape(err.get("message", ""))}</p>')
    body.append(_provenance(results))
    return page(f"sentiprobe: {label}", "\n".join(body))


def render_comparison(docs: dict[str, dict[str, Any]], comparison: dict[str, Any] | None = None,
                      links: dict[str, str] | None = None, **kwargs: Any) -> str:
    """A report comparing several models' runs (see :mod:`sentiprobe.report.comparison`)."""
    from .comparison import render_comparison as render

    return render(docs, comparison, links, **kwargs)
