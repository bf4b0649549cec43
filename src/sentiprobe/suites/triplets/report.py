"""HTML report section of the triplet suites: the nine P/R/F1 metrics with CIs, the parse-failure rate, a
per-polarity breakdown and missed / spurious examples with the spans marked.

Pure (results entry -> HTML); every piece of text, sentence tokens included, goes through :func:`html.escape`
(review text and LLM output are untrusted), and the span markers are added after escaping.
"""
from __future__ import annotations

import re
from html import escape
from typing import Any

from ...core.types import ci_label

ROWS = [f"{k}_{s}" for k in ("triplet", "target", "polar") for s in ("f1", "precision", "recall")]
_MARK = re.compile(r"\[\[(.*?)\]\]|&lt;&lt;(.*?)&gt;&gt;")


def _pct(v: Any) -> str:
    return "n/a" if v is None else f"{100 * float(v):.1f}"


def _spans(text: str) -> str:
    """Escape, then turn the ``[[target]]`` / ``<<polar>>`` markers into styled elements."""
    def sub(m: re.Match) -> str:
        if m.group(1) is not None:
            return f'<mark class="target" title="target">{m.group(1)}</mark>'
        return f'<u class="polar" title="polar span">{m.group(2)}</u>'

    return _MARK.sub(sub, escape(str(text)))


def _examples(title: str, rows: list[dict]) -> str:
    if not rows:
        return ""
    body = "".join(f"<tr><td>{escape(str(r.get('id', '')))}</td><td>{escape(str(r.get('polarity', '')))}</td>"
                   f"<td>{_spans(r.get('text', ''))}</td></tr>" for r in rows)
    return (f"<h4>{escape(title)}</h4><table class=\"examples\"><tr><th>sentence</th><th>polarity</th>"
            f"<th>target <mark>marked</mark>, polar span <u>underlined</u></th></tr>{body}</table>")


def fitted_any(entry: dict[str, Any]) -> bool:
    """Whether the model was trained for this entry (a results entry without a fit record: assume it was)."""
    fits = entry.get("fit")
    return fits is None or any(isinstance(f, dict) and f.get("fitted") for f in fits)


def render_section(name: str, entry: dict[str, Any]) -> str:
    metrics = entry.get("metrics", {})
    details = entry.get("details", {})
    parts = [f'<section class="suite triplets"><h3>{escape(name)}</h3>']
    train = details.get("train_source")
    if isinstance(train, dict) and train.get("kind") and fitted_any(entry):
        parts.append(f"<p>trained on: {escape(str(train['kind']))}</p>")
    if details.get("protocol") and fitted_any(entry):
        parts.append(f"<p>protocol: {escape(str(details['protocol']))}</p>")
    elif "fit" in entry:
        parts.append("<p>protocol: zero-shot (the model was not trained on this suite)</p>")
    rows = []
    for key in ROWS:
        m = metrics.get(key)
        if not m:
            continue
        ci = "" if m.get("ci_low") is None else f"[{_pct(m['ci_low'])}, {_pct(m['ci_high'])}]"
        rows.append(f"<tr><td>{escape(key)}</td><td>{_pct(m.get('value'))}</td><td>{escape(ci)}</td>"
                    f"<td>{escape(str(m.get('n', '')))}</td></tr>")
    parts.append(f'<table class="metrics"><tr><th>metric</th><th>%</th><th>{escape(ci_label(entry.get("confidence")))} '
                 '(sentences)</th><th>n</th></tr>'
                 + "".join(rows) + "</table>")
    pf = metrics.get("parse_failure_rate")
    if pf:
        parts.append(f"<p>parse failure rate: {_pct(pf.get('value'))}% "
                     f"({escape(str(pf.get('note') or ''))}); missing sentences: "
                     f"{escape(str(details.get('missing_sentences', 0)))}</p>")
    per = details.get("per_polarity") or {}
    if per:
        body = "".join(f"<tr><td>{escape(str(p))}</td><td>{_pct(v.get('precision'))}</td>"
                       f"<td>{_pct(v.get('recall'))}</td><td>{_pct(v.get('f1'))}</td>"
                       f"<td>{escape(str(v.get('gold', '')))}</td><td>{escape(str(v.get('predicted', '')))}</td></tr>"
                       for p, v in per.items())
        parts.append("<h4>per polarity (triplets)</h4><table class=\"per-label\"><tr><th>polarity</th><th>P</th>"
                     f"<th>R</th><th>F1</th><th>gold</th><th>predicted</th></tr>{body}</table>")
    fails = details.get("failures") or []
    if fails:
        body = "".join(f"<tr><td>{escape(str(f.get('record')))}</td><td>{escape(str(f.get('reason')))}</td>"
                       f"<td><code>{escape(str(f.get('reply', '')))}</code></td></tr>" for f in fails[:10])
        parts.append(f"<h4>parse failures (first {min(10, len(fails))})</h4><table class=\"examples\"><tr>"
                     f"<th>sentence</th><th>why</th><th>raw reply</th></tr>{body}</table>")
    parts.append(_examples("missed triplets", details.get("missed_examples") or []))
    parts.append(_examples("spurious triplets", details.get("spurious_examples") or []))
    parts.append("</section>")
    return "".join(parts)
