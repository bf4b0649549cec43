"""The report block that says how a generative model was asked (``details.generation`` of a suite entry).

Decoding mode (requested and used), prompt template (name, version, hash, text), reply schema, few-shot
examples, parse accounting (failure rate, unanswered items, the likely cause when most replies failed) and
the first replies. Rendered from ``render/templates/report/generation.html.j2`` (autoescape: every piece of
model or template text is escaped).
"""
from __future__ import annotations

import json
from typing import Any

from ..render import render
from ..suites.prompting import asked_summary


def generation_section(entry: dict[str, Any]) -> str:
    """HTML of ``entry["details"]["generation"]`` ('' when the suite's model did not generate)."""
    gen = (entry.get("details") or {}).get("generation")
    if not isinstance(gen, dict):
        return ""
    tmpl = gen.get("template") or {}
    text = "\n\n".join(str(tmpl.get(x, "")) for x in ("instruction", "answer_format", "item", "cue") if tmpl.get(x))
    schema = gen.get("reply_schema")
    return render("report/generation.html.j2", gen=gen, template_text=text or str(tmpl.get("text", "")),
                  reply_schema=json.dumps(schema, indent=1, ensure_ascii=False) if schema else "")


def asked_note(suite: str, docs: dict[str, dict[str, Any]]) -> str:
    """The comparison report's line per suite saying how each generative model was asked (template sent, decoding
    mode, parse failures); '' when no model generated."""
    rows = [(model, asked_summary(((d.get("suites") or {}).get(suite, {}).get("details") or {}).get("generation")))
            for model, d in docs.items()]
    rows = [(m, a) for m, a in rows if a]
    if not rows:
        return ""
    return render("report/asked_note.html.j2", rows=rows)
