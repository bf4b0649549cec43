"""HTML report section of the triplet suites: the nine P/R/F1 metrics with CIs, the parse-failure rate, a
per-polarity breakdown and missed / spurious examples with the spans marked.

Pure (results entry -> HTML, ``render/templates/suites/triplets.html.j2``); every piece of text, sentence tokens
included, is escaped (autoescape, :func:`html.escape` in :func:`_spans`)
(review text and LLM output are untrusted), and the span markers are added after escaping.
"""
from __future__ import annotations

import re
from html import escape
from typing import Any

from markupsafe import Markup

from ...render import render

ROWS = [f"{k}_{s}" for k in ("triplet", "target", "polar") for s in ("f1", "precision", "recall")]
_MARK = re.compile(r"\[\[(.*?)\]\]|&lt;&lt;(.*?)&gt;&gt;")


def _spans(text: str) -> str:
    """Escape, then turn the ``[[target]]`` / ``<<polar>>`` markers into styled elements."""
    def sub(m: re.Match) -> str:
        if m.group(1) is not None:
            return f'<mark class="target" title="target">{m.group(1)}</mark>'
        return f'<u class="polar" title="polar span">{m.group(2)}</u>'

    return Markup(_MARK.sub(sub, escape(str(text))))


def fitted_any(entry: dict[str, Any]) -> bool:
    """Whether the model was trained for this entry (a results entry without a fit record: assume it was)."""
    fits = entry.get("fit")
    return fits is None or any(isinstance(f, dict) and f.get("fitted") for f in fits)


def render_section(name: str, entry: dict[str, Any]) -> str:
    """The section of a triplet suite's results entry (``render/templates/suites/triplets.html.j2``)."""
    metrics = entry.get("metrics", {})
    details = entry.get("details", {})
    train = details.get("train_source")
    trained_on = str(train["kind"]) if isinstance(train, dict) and train.get("kind") and fitted_any(entry) else ""
    protocol = ""
    if details.get("protocol") and fitted_any(entry):
        protocol = str(details["protocol"])
    elif "fit" in entry:
        protocol = "zero-shot (the model was not trained on this suite)"
    return render("suites/triplets.html.j2", name=name, details=details, trained_on=trained_on, protocol=protocol,
                  rows=[(k, metrics[k]) for k in ROWS if metrics.get(k)], confidence=entry.get("confidence"),
                  pf=metrics.get("parse_failure_rate"), per_polarity=details.get("per_polarity") or {},
                  failures=details.get("failures") or [], spans=_spans)
