"""The SOUL section of the HTML report (``render/templates/suites/soul.html.j2``). Every piece of dataset or
model text is escaped.

The report stage of both SOUL suites: a pure function of the results entry (no suite, no data access).

Shows: where training data came from, the parse rules and prompt template, the confusion matrix of
parsed predictions, per-class precision / recall / F1 with the unparsed or missing predictions per gold
label, the junk replies, the justification metric settings (JG), a few failure examples, and the judge
table with judge-human agreement (or the mark "not validated against human ratings").
"""
from __future__ import annotations

from typing import Any

from ...render import fragment, render
from ...render.svg import heatmap
from .judge import CRITERIA, NOT_VALIDATED
from .load import LABELS


def render_section(name: str, entry: dict[str, Any]) -> str:
    """HTML for a soul-rc / soul-jg results entry (``name``: the suite; the entry alone decides the content),
    rendered from ``render/templates/suites/soul.html.j2``."""
    d = entry.get("details", {})
    junk = d.get("junk_predictions") or []
    return render("suites/soul.html.j2", details=d, criteria=CRITERIA, not_validated=NOT_VALIDATED,
                  prompted=bool(set(d.get("modes") or {}) & {"generate", "score"}),  # classifiers see no prompt
                  heatmap=fragment(heatmap(d["confusion_matrix"], d.get("labels") or list(LABELS))
                              if d.get("confusion_matrix") else ""),
                  more_junk=int(d.get("n_distinct_junk_predictions", len(junk))) - len(junk),
                  jg=any("justification" in e for e in d.get("examples") or []), judge=d.get("judge"))
