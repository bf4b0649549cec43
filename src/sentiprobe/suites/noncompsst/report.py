"""HTML report sections of the ``noncompsst`` and ``sst7`` suites (every text escaped).

They read only ``result["details"]`` and ``result["metrics"]`` as written at score time, so a
report can be rendered from ``results.json`` alone.
"""
from __future__ import annotations

from html import escape
from typing import Any

from ...report.svg import heatmap, scatter

N_TOP = 15


def _num(v: Any, nd: int = 2) -> str:
    if v is None:
        return "\u2014"
    try:
        return f"{float(v):.{nd}f}"
    except (TypeError, ValueError):
        return escape(str(v))


def _variant_table(details: dict[str, Any]) -> str:
    rows = []
    for v, d in (details.get("variants") or {}).items():
        rows.append(f"<tr><td><code>{escape(str(v))}</code></td><td>{escape(str(d.get('per', '')))}</td>"
                    f'<td class="num">{int(d.get("n") or 0)}</td><td class="num">{_num(d.get("model_mean"), 3)}</td>'
                    f'<td class="num">{_num(d.get("model_sd"), 3)}</td><td>{escape(str(d.get("human", "")))}</td>'
                    f'<td class="num">{_num(d.get("pearson"), 3)}</td></tr>')
    if not rows:
        return ""
    return ("<h3>Rating variants</h3><table><tr><th>variant</th><th>one value per</th><th>n</th>"
            "<th>model mean</th><th>model sd</th><th>human ratings</th><th>Pearson r</th></tr>"
            + "".join(rows) + "</table>")


def _phrase_rows(details: dict[str, Any]) -> list[dict[str, Any]]:
    cols = details.get("phrase_columns") or []
    return [dict(zip(cols, r)) for r in details.get("phrases") or []]


def _top_table(rows: list[dict[str, Any]], title: str, note: str) -> str:
    body = []
    for r in rows:
        body.append(f"<tr><td>{escape(str(r.get('a', '')))} <span class=\"muted\">|</span> "
                    f"{escape(str(r.get('b', '')))}</td><td class=\"num\">{_num(r.get('human_maxabs'))}</td>"
                    f"<td class=\"num\">{_num(r.get('model_maxabs'))}</td>"
                    f"<td class=\"num\">{_num(r.get('model_max'))}</td>"
                    f"<td class=\"num\">{_num(r.get('human_sentiment'))}</td>"
                    f"<td class=\"num\">{_num(r.get('model_sentiment'))}</td></tr>")
    if not body:
        return ""
    return (f"<h3>{escape(title)}</h3><p class=\"muted\">{escape(note)}</p><table><tr><th>phrase (A | B)</th>"
            "<th>human MAXABS</th><th>model MAXABS</th><th>model MAX (signed)</th><th>human sentiment</th>"
            "<th>model sentiment</th></tr>" + "".join(body) + "</table>")


def noncompsst_section(result: dict[str, Any]) -> str:
    """Scatter of model vs human MAXABS, the most non-compositional phrases, the per-variant table."""
    d = result.get("details") or {}
    rows = _phrase_rows(d)
    parts = []
    pts = [(r["human_maxabs"], r["model_maxabs"]) for r in rows
           if r.get("human_maxabs") is not None and r.get("model_maxabs") is not None]
    if pts:
        labels = [f"{r.get('a', '')} | {r.get('b', '')} (human {_num(r.get('human_maxabs'))}, "
                  f"model {_num(r.get('model_maxabs'))})" for r in rows
                  if r.get("human_maxabs") is not None and r.get("model_maxabs") is not None]
        r = ((result.get("metrics") or {}).get("pearson_maxabs") or {}).get("value")
        parts.append("<h3>Model vs human non-compositionality (MAXABS)</h3>"
                     + scatter(pts, labels=labels, xlabel="human MAXABS rating", ylabel="model MAXABS rating", r=r))
    top = sorted(rows, key=lambda r: (-(r.get("human_maxabs") or 0.0), r.get("index", 0)))[:N_TOP]
    parts.append(_top_table(top, "Most non-compositional phrases (human MAXABS)",
                            "sentiment on the 0..6 scale (3 neutral); model sentiment = seed-mean argmax"))
    gap = sorted(rows, key=lambda r: (-abs((r.get("human_sentiment") or 0) - (r.get("model_sentiment") or 0)),
                                      r.get("index", 0)))[:N_TOP // 2 + 1]
    parts.append(_top_table(gap, "Largest human/model sentiment disagreements",
                            "phrases where the model's seed-mean sentiment is furthest from the human mean"))
    parts.append(_variant_table(d))
    ps = d.get("per_seed") or {}
    if ps:
        items = "".join(f"<li><code>{escape(str(k))}</code>: {escape(', '.join(_num(x, 4) for x in v))}</li>"
                        for k, v in ps.items())
        parts.append(f"<p>Per-seed values (seeds {escape(', '.join(str(s) for s in d.get('seeds', [])))}):</p>"
                     f"<ul>{items}</ul>")
    facts = []
    if d.get("train"):
        t = d["train"]
        fact = f"SST-7 training set: {escape(str(t.get('source', t.get('error', ''))))}"
        if "n_train" in t:
            fact += (f", {int(t['n_train'])} items, {int(t.get('n_removed', 0))} removed for containing a "
                     "Study-2 subphrase")
        facts.append(fact)
    if d.get("text_options"):
        facts.append("stimulus text: " + escape(", ".join(f"{k}={v}" for k, v in d["text_options"].items())))
    miss = d.get("missing") or {}
    if miss.get("note"):
        facts.append(f'<span class="warn">{escape(str(miss["note"]))}</span>')
    if d.get("limited"):
        facts.append(f'<span class="warn">only {int(d.get("n_phrases", 0))} phrases had all 7 stimuli '
                     "predicted (--limit)</span>")
    if facts:
        parts.append('<p class="muted">' + "<br>".join(facts) + "</p>")
    return "\n".join(p for p in parts if p)


def sst7_section(result: dict[str, Any]) -> str:
    """Per-seed numbers and the confusion matrix summed over seeds."""
    d = result.get("details") or {}
    parts = []
    ps = d.get("per_seed") or {}
    if ps:
        seeds = d.get("seeds") or []
        head = "".join(f"<th>seed {escape(str(s))}</th>" for s in seeds)
        rows = "".join(f"<tr><td><code>{escape(k)}</code></td>"
                       + "".join(f'<td class="num">{_num(x, 4)}</td>' for x in v) + "</tr>" for k, v in ps.items())
        parts.append(f"<table><tr><th>metric</th>{head}</tr>{rows}</table>")
    cm = d.get("confusion_summed_over_seeds")
    if cm:
        parts.append("<h3>Confusion matrix (rows gold, columns predicted; summed over seeds)</h3>"
                     + heatmap(cm, [str(i) for i in range(len(cm))]))
    t = d.get("train") or {}
    if t:
        size = f', {int(t["n_train"])} items' if "n_train" in t else ""
        parts.append(f'<p class="muted">training set: {escape(str(t.get("source", t.get("error", ""))))}{size}</p>')
    return "\n".join(parts)


def render_section(name: str, entry: dict[str, Any]) -> str:
    """Stage: the HTML section of suite ``name`` (``noncompsst`` or ``sst7``) from its results entry alone."""
    return sst7_section(entry) if name == "sst7" else noncompsst_section(entry)
