"""Reading an OpenAI-compatible server's replies: chat and completion texts, echoed option log-probs.

Every parser raises :class:`~.http_retry.MalformedResponse` (or KeyError/TypeError/IndexError) for a body it cannot
use; :func:`~.http_retry.post_json` retries those and counts them towards the circuit breaker.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.errors import ConfigError
from .http_retry import MalformedResponse


def as_text_prompt(prompt: Any, system: str | None) -> str:
    if not isinstance(prompt, str):
        raise ConfigError("the completions endpoint takes string prompts; use endpoint=chat for chat messages")
    return f"{system}\n\n{prompt}" if system else prompt


def _with_finish(text: str, choice: Any) -> str | dict[str, str]:
    """The reply text, or ``{"text": text, "finish_reason": "length"}`` when the server says it stopped at the token
    limit: the suites count such a reply as a parse failure whatever could be read from it (a plain ``str``
    otherwise, so every other caller and cache entry stays a string)."""
    reason = choice.get("finish_reason") if isinstance(choice, Mapping) else None
    return {"text": text, "finish_reason": "length"} if reason == "length" else text


def parse_chat(data: Any) -> str | dict[str, str]:
    choice = data["choices"][0]
    msg = choice["message"]
    content = msg.get("content")
    if content is None:
        return _with_finish("", choice)
    if not isinstance(content, str):
        raise MalformedResponse("message content is not a string")
    return _with_finish(content, choice)


def parse_completion(data: Any) -> str | dict[str, str]:
    choice = data["choices"][0]
    text = choice["text"]
    if not isinstance(text, str):
        raise MalformedResponse("completion text is not a string")
    return _with_finish(text, choice)


def option_logprob(tokens: Sequence[str], values: Sequence[float | None], offsets: Sequence[int] | None,
                   full: str, start: int, echoed: str | None) -> float:
    """Sum of the echoed log-probs of the tokens that spell ``full[start:]`` (the scored option).

    Works from the end of the token list, so it does not depend on character offsets (servers skip
    special tokens when computing them): first the generated tokens are dropped (the echoed ``text``
    is ``full`` plus the generated text; trailing empty-string tokens are dropped as well), then
    tokens are taken from the end until they cover the option; a token straddling the boundary counts
    wholly. When the echoed text does not start with ``full``, falls back to ``text_offset``.
    """
    option = full[start:]
    toks = [(str(t), v) for t, v in zip(tokens, values)]
    if echoed is not None and echoed.startswith(full):
        gen = echoed[len(full):]
        if gen:
            acc, k = "", len(toks)
            while k > 0 and len(acc) < len(gen):
                k -= 1
                acc = toks[k][0] + acc
            if acc == gen and "".join(t for t, _ in toks[:k]).endswith(option):
                toks = toks[:k]  # the generated tokens are listed (OpenAI, vLLM); else (llama.cpp) they are not
        while toks and toks[-1][0] == "":
            toks.pop()
        if not "".join(t for t, _ in toks).endswith(option):
            raise MalformedResponse("the echoed tokens do not end with the option")
        total, covered = 0.0, 0
        for t, v in reversed(toks):
            if covered >= len(option):
                break
            if v is None:
                raise MalformedResponse("a continuation token has no log-prob")
            total += float(v)
            covered += len(t)
        return total
    if offsets is None:
        raise MalformedResponse("the response has neither an echoed text nor text offsets")
    total, seen = 0.0, False
    for (t, v), off in zip(toks, offsets):
        if off + len(t) > start and off < len(full):
            if v is None:
                raise MalformedResponse("a continuation token has no log-prob")
            total += float(v)
            seen = True
    if not seen:
        raise MalformedResponse("the echoed tokens do not cover the option")
    return total


def mode_of(body: Mapping[str, Any]) -> str:
    """The structured-decoding mode a request body carries (for messages)."""
    rf = body.get("response_format")
    if isinstance(rf, Mapping):
        return str(rf.get("type", "off"))
    if "grammar" in body:
        return "grammar"
    if "guided_choice" in body:
        return "choice"
    return "off"


__all__ = ["as_text_prompt", "mode_of", "option_logprob", "parse_chat", "parse_completion"]
