"""HTML report sections of the ``noncompsst`` and ``sst7`` suites (templates ``render/templates/suites/noncompsst``
and ``sst7``; every text escaped).

They read only ``result["details"]`` and ``result["metrics"]`` as written at score time, so a
report can be rendered from ``results.json`` alone.
"""
from __future__ import annotations

from typing import Any

from ...render import fragment, render
from ...render.format import num as _num
from ...render.svg import heatmap, scatter

N_TOP = 15


def _phrase_rows(details: dict[str, Any]) -> list[dict[str, Any]]:
    cols = details.get("phrase_columns") or []
    return [dict(zip(cols, r)) for r in details.get("phrases") or []]


def noncompsst_section(result: dict[str, Any]) -> str:
    """Scatter of model vs human MAXABS, the most non-compositional phrases, the per-variant table."""
    d = result.get("details") or {}
    rows = _phrase_rows(d)
    plot = ""
    pts = [(r["human_maxabs"], r["model_maxabs"]) for r in rows
           if r.get("human_maxabs") is not None and r.get("model_maxabs") is not None]
    if pts:
        labels = [f"{r.get('a', '')} | {r.get('b', '')} (human {_num(r.get('human_maxabs'))}, "
                  f"model {_num(r.get('model_maxabs'))})" for r in rows
                  if r.get("human_maxabs") is not None and r.get("model_maxabs") is not None]
        r = ((result.get("metrics") or {}).get("pearson_maxabs") or {}).get("value")
        plot = scatter(pts, labels=labels, xlabel="human MAXABS rating", ylabel="model MAXABS rating", r=r)
    top = sorted(rows, key=lambda r: (-(r.get("human_maxabs") or 0.0), r.get("index", 0)))[:N_TOP]
    gap = sorted(rows, key=lambda r: (-abs((r.get("human_sentiment") or 0) - (r.get("model_sentiment") or 0)),
                                      r.get("index", 0)))[:N_TOP // 2 + 1]
    facts = []
    if d.get("train"):
        t = d["train"]
        fact = f"SST-7 training set: {t.get('source', t.get('error', ''))}"
        if "n_train" in t:
            fact += (f", {int(t['n_train'])} items, {int(t.get('n_removed', 0))} removed for containing a "
                     "Study-2 subphrase")
        facts.append(("", fact))
    if d.get("text_options"):
        facts.append(("", "stimulus text: " + ", ".join(f"{k}={v}" for k, v in d["text_options"].items())))
    miss = d.get("missing") or {}
    if miss.get("note"):
        facts.append(("warn", str(miss["note"])))
    if d.get("limited"):
        facts.append(("warn", f"only {int(d.get('n_phrases', 0))} phrases had all 7 stimuli predicted (--limit)"))
    return render("suites/noncompsst.html.j2", scatter=fragment(plot), top=top, gap=gap,
                  variants=d.get("variants") or {}, per_seed=d.get("per_seed") or {}, seeds=d.get("seeds", []),
                  facts=facts)


def sst7_section(result: dict[str, Any]) -> str:
    """Per-seed numbers and the confusion matrix summed over seeds."""
    d = result.get("details") or {}
    cm = d.get("confusion_summed_over_seeds")
    return render("suites/sst7.html.j2", per_seed=d.get("per_seed") or {}, seeds=d.get("seeds") or [],
                  heatmap=fragment(heatmap(cm, [str(i) for i in range(len(cm))]) if cm else ""),
                  train=d.get("train") or {})


def render_section(name: str, entry: dict[str, Any]) -> str:
    """Stage of ``noncompsst``: its HTML section from its results entry alone."""
    return noncompsst_section(entry)


def render_sst7_section(name: str, entry: dict[str, Any]) -> str:
    """Stage of ``sst7``: its HTML section from its results entry alone."""
    return sst7_section(entry)
