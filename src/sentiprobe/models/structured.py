"""Structured decoding: how a reply schema declared by a suite is sent to a generator.

A suite declares what a reply must look like (:class:`~sentiprobe.suites.prompting.ReplySchema`) and
passes it to ``generate(prompts, schema=WIRE, structured=MODE)`` as a plain JSON-able dict, the *wire
form* checked by :func:`check_wire`::

    {"name": "soul_rc_answer", "schema": {JSON schema, root an object}, "choices": ["true", ...] | None}

``choices`` is set when the reply is one label out of a list (classification): ``choice`` mode sends it
as is and the reply is the bare label.

Modes (adapter argument ``structured``):

===============  =====================================================================================
``json_schema``  ``response_format: {"type": "json_schema", "json_schema": {name, schema, strict}}``
                 (OpenAI, vLLM, llama.cpp's ``llama-server``, Ollama >= 0.5)
``json_object``  ``response_format: {"type": "json_object", "schema": schema}`` (llama-cpp-python's
                 server and ``llama-server`` constrain to the schema; others to any JSON object)
``grammar``      ``grammar``: a GBNF grammar generated from the schema (:func:`schema_to_gbnf`;
                 llama.cpp servers)
``choice``       ``guided_choice``: the label list (vLLM); schemas without ``choices`` use ``json_schema``
``off``          nothing: free text, parsed leniently
``auto``         the first of :data:`AUTO_LADDER` the endpoint accepts (probed once per endpoint and
                 schema; an HTTP 400/422 answer to the probe steps down one rung and says so once)
===============  =====================================================================================

Why a GBNF writer of our own: the schemas suites declare use a small subset of JSON schema (objects
with fixed properties, arrays, strings, string enums, numbers, booleans) and llama.cpp's converter is
not importable without compiling llama.cpp; :func:`schema_to_gbnf` refuses anything outside the subset.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..core.errors import ConfigError

MODES = ("auto", "json_schema", "json_object", "grammar", "choice", "off")
AUTO_LADDER = ("json_schema", "json_object", "off")
"""What ``auto`` tries, best first: a server that refuses a rung (HTTP 400/422) is asked with the next."""
UNSUPPORTED_STATUS = frozenset({400, 422})
"""Statuses with which a server refuses a request field it does not know (FastAPI/pydantic answer 422)."""


def as_mode(value: Any) -> str:
    """A structured-decoding mode from a model argument (``true`` means ``auto``, ``false`` means ``off``)."""
    v = str(value).strip().lower() if value is not None else "off"
    v = {"true": "auto", "1": "auto", "yes": "auto", "on": "auto", "false": "off", "0": "off", "no": "off",
         "none": "off", "": "off"}.get(v, v)
    if v not in MODES:
        raise ConfigError(f"structured must be one of {list(MODES)}, got {value!r}")
    return v


def check_wire(spec: Any) -> dict[str, Any]:
    """The wire form of a reply schema, validated (ConfigError names what is wrong)."""
    if not isinstance(spec, Mapping) or not isinstance(spec.get("name"), str) or not spec["name"]:
        raise ConfigError(f"a reply schema must be a mapping with a non-empty 'name', got {type(spec).__name__}")
    schema = spec.get("schema")
    if not isinstance(schema, Mapping) or schema.get("type") != "object":
        raise ConfigError(f"reply schema {spec['name']!r}: 'schema' must be a JSON schema whose root is an object")
    choices = spec.get("choices")
    if choices is not None and (not isinstance(choices, list | tuple) or not choices
                                or not all(isinstance(c, str) and c for c in choices)):
        raise ConfigError(f"reply schema {spec['name']!r}: 'choices' must be a non-empty list of strings")
    return {"name": spec["name"], "schema": dict(schema), "choices": None if choices is None else list(choices)}


def split_prompt(prompt: Any, schema: Any) -> tuple[Any, dict[str, Any] | None]:
    """(prompt, reply schema) of one prompt: a prompt may carry its own schema as ``{"prompt": P, "schema": W}``
    (an item-level schema, e.g. a triplet reply whose spans must come from that sentence); else the call's."""
    if isinstance(prompt, Mapping) and "prompt" in prompt:
        own = prompt.get("schema")
        return prompt["prompt"], check_wire(own) if own is not None else (check_wire(schema) if schema else None)
    return prompt, check_wire(schema) if schema is not None else None


def effective_mode(mode: str, wire: Mapping[str, Any] | None) -> str:
    """The mode a request is really sent with: ``off`` without a schema, ``json_schema`` for ``choice`` when
    the schema has no label list."""
    if wire is None:
        return "off"
    if mode == "choice" and not wire.get("choices"):
        return "json_schema"
    return mode


def apply_mode(body: dict[str, Any], mode: str, wire: Mapping[str, Any] | None) -> dict[str, Any]:
    """``body`` (a chat or completions request) with the fields of ``mode`` for the reply schema ``wire``."""
    mode = effective_mode(mode, wire)
    if mode == "off" or wire is None:
        return body
    schema = wire["schema"]
    if mode == "json_schema":
        body["response_format"] = {"type": "json_schema",
                                   "json_schema": {"name": wire["name"], "schema": schema, "strict": True}}
    elif mode == "json_object":
        body["response_format"] = {"type": "json_object", "schema": schema}
    elif mode == "grammar":
        body["grammar"] = schema_to_gbnf(schema)
    elif mode == "choice":
        body["guided_choice"] = list(wire["choices"])
    else:
        raise ConfigError(f"structured mode {mode!r} cannot be sent (resolve 'auto' first)")
    return body


# ---- JSON schema (the subset suites use) -> GBNF ------------------------------------------------------

_GBNF_COMMON = {
    "ws": r'" "?',
    "string": r'"\"" ( [^"\\\x7F\x00-\x1F] | "\\" ( ["\\/bfnrt] | "u" [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] '
              r'[0-9a-fA-F] ) )* "\""',
    "integer": r'"-"? ( "0" | [1-9] [0-9]* )',
    "number": r'"-"? ( "0" | [1-9] [0-9]* ) ( "." [0-9]+ )? ( [eE] [-+]? [0-9]+ )?',
    "boolean": r'"true" | "false"',
}


def _literal(value: Any) -> str:
    """A GBNF string literal that matches the JSON encoding of ``value``."""
    text = json.dumps(value, ensure_ascii=False)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def schema_to_gbnf(schema: Mapping[str, Any]) -> str:
    """A GBNF grammar (llama.cpp's format) accepting the JSON values that ``schema`` describes.

    Supported: ``object`` (every listed property, in order; all of them are emitted), ``array`` of one
    item schema (``maxItems`` honoured), ``anyOf``, ``string``, ``integer``, ``number``, ``boolean``,
    ``enum`` and ``const`` of JSON scalars. Anything else raises ConfigError.
    """
    rules: dict[str, str] = {}
    used: set[str] = {"ws"}

    def expr(node: Any, name: str) -> str:
        if not isinstance(node, Mapping):
            raise ConfigError(f"cannot write a grammar for schema node {node!r}")
        if "const" in node:
            return _literal(node["const"])
        if "anyOf" in node:
            alts = node["anyOf"]
            if not isinstance(alts, list | tuple) or not alts:
                raise ConfigError(f"schema node {name!r}: anyOf must be a non-empty list")
            names = []
            for k, sub in enumerate(alts):
                rule = f"{name}-{k}"
                rules[rule] = expr(sub, rule)
                names.append(rule)
            return "( " + " | ".join(names) + " )"
        if "enum" in node:
            vals = node["enum"]
            if not isinstance(vals, list | tuple) or not vals:
                raise ConfigError(f"schema node {name!r}: enum must be a non-empty list")
            return "( " + " | ".join(_literal(v) for v in vals) + " )"
        kind = node.get("type")
        if kind in _GBNF_COMMON and kind != "ws":
            used.add(kind)
            return kind
        if kind == "object":
            props = node.get("properties") or {}
            if not isinstance(props, Mapping):
                raise ConfigError(f"schema node {name!r}: properties must be a mapping")
            parts = []
            for k, sub in props.items():
                rule = f"{name}-{_rule_name(k)}"
                rules[rule] = expr(sub, rule)
                parts.append(f'{_literal(k)} ws ":" ws {rule}')
            inner = ' ws "," ws '.join(parts)
            return f'"{{" ws {inner} ws "}}"' if parts else '"{" ws "}"'
        if kind == "array":
            item = f"{name}-item"
            rules[item] = expr(node.get("items", {}), item)
            cap = node.get("maxItems")
            if isinstance(cap, int) and not isinstance(cap, bool) and cap >= 0:
                if cap == 0:
                    return '"[" ws "]"'
                tail = (' ( ws "," ws ' + item + " )?") * (cap - 1)
                return f'"[" ws ( {item}{tail} )? ws "]"'
            return f'"[" ws ( {item} ( ws "," ws {item} )* )? ws "]"'
        raise ConfigError(f"cannot write a grammar for schema node {name!r} (type {kind!r}): the grammar "
                          "writer supports objects, arrays, anyOf, strings, numbers, booleans, enum and const")

    rules["root"] = expr(schema, "root")
    out = [f"root ::= {rules.pop('root')}"]
    out += [f"{k} ::= {v}" for k, v in rules.items()]
    out += [f"{k} ::= {_GBNF_COMMON[k]}" for k in sorted(used)]
    return "\n".join(out) + "\n"


def _rule_name(key: str) -> str:
    """A GBNF rule name (letters, digits, dashes) for a property key."""
    cleaned = "".join(c if c.isalnum() else "-" for c in key.lower()).strip("-")
    return cleaned or "field"
