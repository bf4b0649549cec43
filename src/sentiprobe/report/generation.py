"""The report block that says how a generative model was asked (``details.generation`` of a suite entry).

Decoding mode (requested and used), prompt template (name, version, hash, text), reply schema, few-shot
examples, parse accounting (failure rate, unanswered items, the likely cause when most replies failed) and
the first replies. Every piece of model or template text is escaped.
"""
from __future__ import annotations

import json
from html import escape
from typing import Any


def generation_section(entry: dict[str, Any]) -> str:
    """HTML of ``entry["details"]["generation"]`` ('' when the suite's model did not generate)."""
    gen = (entry.get("details") or {}).get("generation")
    if not isinstance(gen, dict):
        return ""
    tmpl = gen.get("template") or {}
    shots = gen.get("shots") or {}
    rate = gen.get("parse_failure_rate")
    requested, used = gen.get("structured_requested"), gen.get("structured", "off")
    mode = escape(str(used)) + (f" (requested {escape(str(requested))})" if requested not in (None, used) else "")
    k = int(shots.get("k") or 0)
    shot_text = (f"{k}-shot, examples from the {escape(str(shots.get('source')))} split: "
                 + escape(", ".join(shots.get("item_ids") or [])) if k else "zero-shot")
    rows = [("decoding", f"structured decoding: <b>{mode}</b>"),
            ("prompt", f"template <code>{escape(str(tmpl.get('name')))}</code> v{escape(str(tmpl.get('version')))} "
                       f"#<code>{escape(str(tmpl.get('hash')))}</code>; {shot_text}; max_tokens "
                       f"{escape(str(gen.get('max_tokens')))}, temperature {escape(str(gen.get('temperature')))}"),
            ("replies", f"{int(gen.get('n') or 0)} items: {int(gen.get('parsed') or 0)} parsed, "
                        f"{int(gen.get('parse_failures') or 0)} did not parse"
                        + (f" (parse failure rate {rate:.1%})" if isinstance(rate, int | float) else "")
                        + f", {int(gen.get('unanswered') or 0)} unanswered")]
    body = "".join(f"<tr><th>{escape(a)}</th><td>{b}</td></tr>" for a, b in rows)
    parts = ['<h3>How the model was asked</h3>', f"<table>{body}</table>"]
    if gen.get("warning"):
        parts.append(f'<p class="warn">{escape(str(gen["warning"]))}</p>')
    if gen.get("unanswered"):
        parts.append(f'<p class="warn">{int(gen["unanswered"])} item(s) got no answer from the model and are '
                     f'scored as wrong: {escape("; ".join(gen.get("unanswered_errors") or []))}</p>')
    text = "\n\n".join(str(tmpl.get(x, "")) for x in ("instruction", "answer_format", "item", "cue") if tmpl.get(x))
    parts.append(f"<details><summary>prompt template</summary><pre>{escape(text or str(tmpl.get('text', '')))}"
                 "</pre></details>")
    if gen.get("reply_schema"):
        parts.append("<details><summary>reply schema</summary><pre>"
                     f"{escape(json.dumps(gen['reply_schema'], indent=1, ensure_ascii=False))}</pre></details>")
    fails = gen.get("first_failures") or []
    if fails:
        li = "".join(f"<li><code>{escape(str(f.get('item_id')))}</code>: "
                     f"<code>{escape(str(f.get('reply')))}</code></li>" for f in fails)
        parts.append(f"<details open><summary>first replies that did not parse</summary><ul>{li}</ul></details>")
    first = gen.get("first_replies") or []
    if first:
        li = "".join(f"<li><code>{escape(str(r))}</code></li>" for r in first)
        parts.append(f"<details><summary>first replies</summary><ul>{li}</ul></details>")
    return "\n".join(parts)
