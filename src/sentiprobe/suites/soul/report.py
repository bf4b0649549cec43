"""The SOUL section of the HTML report. Every piece of dataset or model text is escaped.

The report stage of both SOUL suites: a pure function of the results entry (no suite, no data access).

Shows: where training data came from, the parse rules and prompt template, the confusion matrix of
parsed predictions, per-class precision / recall / F1 with the unparsed or missing predictions per gold
label, the junk replies, the justification metric settings (JG), a few failure examples, and the judge
table with judge-human agreement (or the mark "not validated against human ratings").
"""
from __future__ import annotations

from html import escape
from typing import Any

from ...report.html import pct
from ...report.svg import heatmap
from .judge import CRITERIA, NOT_VALIDATED
from .load import LABELS


def _e(v: Any) -> str:
    return escape("" if v is None else str(v))


def _num(v: Any, digits: int = 2) -> str:
    return "\u2014" if v is None else f"{float(v):.{digits}f}"


def _per_label(details: dict[str, Any]) -> str:
    inv = details.get("invalid_predictions_per_gold_label", {})
    rows = "".join(
        f"<tr><td>{_e(r['label'])}</td><td class=num>{int(r.get('support') or 0)}</td>"
        f"<td class=num>{pct(r.get('precision'))}</td><td class=num>{pct(r.get('recall'))}</td>"
        f"<td class=num>{pct(r.get('f1'))}</td><td class=num>{int(inv.get(r['label'], 0))}</td></tr>"
        for r in details.get("per_label", []))
    return ("<table><tr><th>gold label</th><th>support</th><th>precision (%)</th><th>recall (%)</th><th>F1 (%)</th>"
            f"<th>unparsed or missing predictions</th></tr>{rows}</table>")


def _junk(details: dict[str, Any]) -> str:
    junk = details.get("junk_predictions") or []
    if not junk:
        return ""
    rows = "".join(f"<tr><td><code>{_e(j['reply'])}</code></td><td class=num>{int(j['count'])}</td></tr>"
                   for j in junk)
    more = int(details.get("n_distinct_junk_predictions", len(junk))) - len(junk)
    tail = f'<p class="muted">and {more} other distinct replies</p>' if more > 0 else ""
    return ("<details><summary>unparsed replies (scored wrong; each is its own class in the reference report)"
            f"</summary><table><tr><th>reply (lower-cased)</th><th>count</th></tr>{rows}</table>{tail}</details>")


def _text_settings(details: dict[str, Any]) -> str:
    tm = details.get("text_metrics")
    if not tm:
        return ""
    if "not_computable" in tm:
        return f'<p class="muted">justification metrics: {_e(tm["not_computable"])}</p>'
    b = tm.get("bleu", {})
    bs = tm.get("bertscore", {})
    if "num_layers" in bs:
        bert = (f"{_e(bs.get('implementation'))}, {_e(bs.get('model'))}, layer {_e(bs.get('num_layers'))}, "
                "no idf, no baseline rescaling")
    else:
        bert = _e(bs.get("unavailable") or ("disabled" if bs.get("disabled") else "not computed"))
    return ("<p class=\"muted\">justification metrics (scores x100): BLEU "
            f"<code>{_e(b.get('signature'))}</code>; ROUGE-1/2/L F-measure (rouge-score, rougeL not rougeLsum, "
            f"stemmer {'on' if tm.get('rouge', {}).get('use_stemmer') else 'off'}); BERTScore F1: {bert}. "
            f"{int(tm.get('n_empty_candidates', 0))} empty candidate(s).</p>")


def _examples(details: dict[str, Any]) -> str:
    ex = details.get("examples") or []
    if not ex:
        return ""
    jg = any("justification" in e for e in ex)
    head = "<tr><th>item</th><th>review</th><th>statement</th><th>gold</th><th>predicted</th><th>raw output</th>"
    head += "<th>justification</th><th>reference</th></tr>" if jg else "</tr>"
    rows = []
    for e in ex:
        pred = "(missing)" if e.get("missing") else (e.get("predicted") or "(unparsed)")
        row = (f"<tr><td><code>{_e(e.get('item_id'))}</code></td><td>{_e(e.get('review'))}</td>"
               f"<td>{_e(e.get('statement'))}</td><td>{_e(e.get('gold'))}</td><td>{_e(pred)}</td>"
               f"<td><code>{_e(e.get('raw'))}</code></td>")
        if jg:
            row += f"<td>{_e(e.get('justification'))}</td><td>{_e(e.get('reference_justification'))}</td>"
        rows.append(row + "</tr>")
    return f"<details><summary>failure examples</summary><table>{head}{''.join(rows)}</table></details>"


def judge_table(judge: dict[str, Any]) -> str:
    """Judge scores per system and criterion, next to judge-human agreement when available."""
    summary = judge.get("summary", {})
    agreement = judge.get("agreement")
    status = ("validated against human ratings" if agreement else NOT_VALIDATED)
    jm = judge.get("judge_model", {})
    head = "".join(f"<th>{_e(c)}</th>" for c in CRITERIA)
    rows = []
    for system, per in summary.get("systems", {}).items():
        cells = "".join(
            f"<td class=num>{_num(per[c].get('value'))} <span class=muted>[{_num(per[c].get('ci_low'))}, "
            f"{_num(per[c].get('ci_high'))}]</span></td>" for c in CRITERIA if c in per)
        rows.append(f"<tr><td>{_e(system)}</td>{cells}</tr>")
    if agreement:
        kappas = []
        for c in CRITERIA:
            k = agreement.get("criteria", {}).get(c, {}).get("kappa_quadratic", {})
            kappas.append(f"<td class=num>{_num(k.get('value'))} <span class=muted>[{_num(k.get('ci_low'))}, "
                         f"{_num(k.get('ci_high'))}]</span></td>")
        rows.append(f"<tr><td><em>judge-human agreement (quadratic-weighted kappa, n="
                    f"{int(agreement.get('n_pairs', 0))})</em></td>{''.join(kappas)}</tr>")
    warn = "" if agreement else f' <span class="warn">({_e(NOT_VALIDATED)})</span>'
    return (f"<h3>Judge evaluation{warn}</h3><p class=\"muted\">judge {_e(jm.get('name'))} "
            f"{_e(jm.get('args') or '')}; {int(summary.get('n_judged', 0))} of {int(summary.get('n_sampled', 0))} "
            f"sampled items judged, {int(summary.get('n_missing', 0))} missing (invalid replies after one retry); "
            f"mean scores 1-3 [95% CI]; {_e(status)}.</p>"
            f"<table><tr><th>system</th>{head}</tr>{''.join(rows)}</table>")


def render_section(name: str, entry: dict[str, Any]) -> str:
    """HTML for a soul-rc / soul-jg results entry (``name``: the suite; the entry alone decides the content)."""
    d = entry.get("details", {})
    parts = [f"<p class=\"muted\">training data: {_e(d.get('train_source'))}; parsing: {_e(d.get('parse'))}</p>"]
    tmpl = d.get("prompt_template") or {}
    seen = d.get("prompt_templates") or []
    prompted = bool(set(d.get("modes") or {}) & {"generate", "score"})  # classifiers see no prompt
    if seen and prompted:
        parts.append(f"<p class=\"muted\">prompt templates used: {_e(', '.join(seen))}</p>")
    elif tmpl and prompted:
        parts.append(f"<p class=\"muted\">prompt template (if generating): {_e(tmpl.get('name'))} "
                     f"v{_e(tmpl.get('version'))} #{_e(tmpl.get('hash'))}</p>")
    counts = (f"{int(d.get('n_statements', 0))} statements in {int(d.get('n_reviews', 0))} reviews; "
              f"{int(d.get('n_parse_failures', 0))} unparsed, {int(d.get('n_missing', 0))} missing, "
              f"{int(d.get('n_generation_errors', 0))} generation errors (each scored wrong)")
    parts.append(f"<p class=\"muted\">{_e(counts)}</p>")
    if d.get("confusion_matrix"):
        parts.append(heatmap(d["confusion_matrix"], d.get("labels") or list(LABELS)))
    parts += [_per_label(d), _junk(d), _text_settings(d), _examples(d)]
    if d.get("judge"):
        parts.append(judge_table(d["judge"]))
    return "\n".join(p for p in parts if p)
