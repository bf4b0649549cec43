"""Behaviours of the fake OpenAI-compatible server (``tests/fake_openai.py``) that LLM bad-input cases name
(``Case.llm``): each is a function returning the server's keyword arguments."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

KEY = "sk-corpus-LEAK-TRAP-0123456789abcdef"
"""The API key the key-echo cases set; no file a case writes may contain it."""


def encodings(key: str) -> list[str]:
    """The key as a server could write it back: JSON escapes, zero-width and other format characters between its
    characters, case, URL and HTML escapes, fullwidth letters."""
    esc = "".join(f"\\u{ord(c):04x}" for c in key)
    return [key, key.lower(), key.upper(), esc, "\u200b".join(key), "\u2060".join(key), "\u00ad".join(key),
            "\\u200b".join(key), " ".join(key), "".join(f"%{ord(c):02X}" for c in key),
            "".join(f"&#{ord(c)};" for c in key), "".join(chr(ord(c) + 0xFEE0) for c in key)]


def _echo_key(text: str) -> str:
    return json.dumps({"label": "true", "answer": "true", "triplets": []})[:-1] + \
        ', "justification": "key ' + " | ".join(encodings(KEY)) + '"}'


SERVERS: dict[str, Callable[[], dict[str, Any]]] = {
    "500": lambda: {"faults": ["500"] * 2000,
                    "error_body": b"CUDA error: out of memory\n  while loading the weights\n"},
    "refuse-json-schema-500": lambda: {"structured": {"json_object"}, "refuse_status": 500},
    "429-twice": lambda: {"faults": ["429", "429"]},
    "truncated": lambda: {"raw_reply": lambda text: '{"label": "positive", "why": "the sent',
                          "finish_reason": "length"},
    "echo-key": lambda: {"raw_reply": _echo_key},
    "unanswered": lambda: {"raw_reply": lambda text: "true", "fail_if": lambda text: len(text) % 3 == 0,
                           "error_body": b'{"error": {"message": "model overloaded"}}'},
    "unanswered-triplets": lambda: {"raw_reply": lambda text: '{"triplets": []}',
                                    "fail_if": lambda text: len(text) % 3 == 0,
                                    "error_body": b'{"error": {"message": "model overloaded"}}'},
}
