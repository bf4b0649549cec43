"""Structured decoding for the local SmolLM2 adapter: a reply schema as a token constraint.

Two engines, one per backend of :mod:`.local_lm`:

- transformers: a ``LogitsProcessor`` driven by llguidance (``pip install llguidance==1.9.1``, a 3 MB wheel
  without dependencies; the grammar engine behind OpenAI's, vLLM's and llama.cpp's structured outputs). Each
  row of a batch has its own matcher; before every step the tokens the grammar does not allow get ``-inf``.
  Why llguidance and not xgrammar or outlines: xgrammar pulls in triton (hundreds of MB) and outlines a
  stack of packages, for the same masks.
- llama.cpp (llama-cpp-python): its own GBNF grammars (:func:`gbnf_for`).

:func:`constraint_for` turns (mode, reply schema) into what both need: the JSON schema to enforce, or the
label list for ``choice``.
"""
from __future__ import annotations

import json
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..core.errors import ConfigError, require
from .structured import effective_mode, schema_to_gbnf

ANY_OBJECT = {"type": "object"}


def constraint_for(mode: str, wire: Mapping[str, Any] | None) -> tuple[str, Any] | None:
    """``("schema", json_schema)`` or ``("choice", labels)`` for a request, or None (free text)."""
    mode = effective_mode(mode, wire)
    if wire is None or mode in ("off", "auto"):
        return None
    if mode == "choice":
        return "choice", list(wire["choices"])
    if mode == "json_object":
        return "schema", ANY_OBJECT
    return "schema", wire["schema"]


def gbnf_for(constraint: tuple[str, Any]) -> str:
    """The GBNF grammar of a constraint (llama.cpp)."""
    kind, value = constraint
    if kind == "choice":
        return "root ::= " + " | ".join('"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"' for v in value) + "\n"
    if value == ANY_OBJECT:
        return _JSON_OBJECT_GBNF
    return schema_to_gbnf(value)


_JSON_OBJECT_GBNF = r'''root ::= object
value ::= object | array | string | number | ("true" | "false" | "null")
object ::= "{" ws ( string ws ":" ws value ( ws "," ws string ws ":" ws value )* )? ws "}"
array ::= "[" ws ( value ( ws "," ws value )* )? ws "]"
string ::= "\"" ( [^"\\\x7F\x00-\x1F] | "\\" ( ["\\/bfnrt] | "u" [0-9a-fA-F]{4} ) )* "\""
number ::= "-"? ( "0" | [1-9] [0-9]* ) ( "." [0-9]+ )? ( [eE] [-+]? [0-9]+ )?
ws ::= [ \t\n]?
'''


def llguidance_grammar(constraint: tuple[str, Any]) -> str:
    """The llguidance grammar of a constraint."""
    llg = require("llguidance", "hf", "structured decoding with the transformers backend")
    kind, value = constraint
    if kind == "choice":
        return llg.grammar_from("choice", json.dumps(value))
    # compact JSON (no free whitespace): a small model otherwise spends its token budget on indentation
    compact = {**value, "x-guidance": {"whitespace_flexible": False, "item_separator": ", ", "key_separator": ": "}}
    return llg.LLMatcher.grammar_from_json_schema(json.dumps(compact))


class GrammarLogitsProcessor:
    """A transformers logits processor: one llguidance matcher per batch row (left-padded prompts).

    ``grammars`` has one grammar per row (None: that row is free text). ``prompt_len`` is the padded prompt
    length: the tokens after it are the ones generated so far. A row whose matcher stopped (the reply is
    complete) may only produce ``eos``.
    """

    def __init__(self, tokenizer: Any, grammars: list[str | None], prompt_len: int, eos: int) -> None:
        import llguidance  # optional extra [hf], heavy: imported only when used

        self.matchers = [None if g is None else llguidance.LLMatcher(tokenizer, g, log_level=0) for g in grammars]
        for m in self.matchers:
            if m is not None and m.is_error():
                raise ConfigError(f"the reply schema cannot be compiled for constrained decoding: {m.get_error()}")
        self.prompt_len = prompt_len
        self.eos = eos
        self.consumed = 0

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        import torch  # optional extra [hf/encoders], heavy: imported only when used

        new = input_ids.shape[1] - self.prompt_len
        if new > self.consumed:  # the token each row produced at the last step
            last = input_ids[:, -1].tolist()
            for m, tok in zip(self.matchers, last):
                if m is not None and not m.is_stopped() and not m.is_error():
                    m.consume_token(int(tok))
            self.consumed = new
        vocab = scores.shape[1]
        allowed = np.zeros((len(self.matchers), vocab), dtype=bool)
        for r, m in enumerate(self.matchers):
            if m is None:
                allowed[r] = True
                continue
            if m.is_stopped() or m.is_error():
                allowed[r, self.eos] = True
                continue
            bits = np.frombuffer(m.compute_bitmask(), dtype=np.uint8)
            row = np.unpackbits(bits, bitorder="little")[:vocab].astype(bool)
            allowed[r, : row.shape[0]] = row
            if not row.any():
                allowed[r, self.eos] = True
        return scores.masked_fill(~torch.from_numpy(allowed).to(scores.device), float("-inf"))


class LlamaGrammarProcessor:
    """A llama-cpp-python logits processor (``(input_ids, scores) -> scores``, numpy) driven by llguidance.

    llama-cpp-python's own GBNF sampling checks every one of the 49k candidate tokens against the grammar at
    each step, which made constrained replies about 2.5x slower than free ones here; llguidance computes the
    mask in a few microseconds. One processor per prompt; the prompt's length is taken at the first call.
    """

    def __init__(self, tokenizer: Any, grammar: str, eos: int) -> None:
        import llguidance  # optional extra [hf], heavy: imported only when used

        self.matcher = llguidance.LLMatcher(tokenizer, grammar, log_level=0)
        if self.matcher.is_error():
            raise ConfigError(f"the reply schema cannot be compiled for constrained decoding: "
                              f"{self.matcher.get_error()}")
        self.eos = eos
        self.seen: int | None = None

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        m = self.matcher
        n = len(input_ids)
        if self.seen is None:
            self.seen = n
        for tok in input_ids[self.seen:n]:
            if not m.is_stopped() and not m.is_error():
                m.consume_token(int(tok))
        self.seen = n
        if m.is_stopped() or m.is_error():
            allowed = np.zeros(scores.shape[0], dtype=bool)
            allowed[self.eos] = True
        else:
            bits = np.frombuffer(m.compute_bitmask(), dtype=np.uint8)
            allowed = np.unpackbits(bits, bitorder="little")[: scores.shape[0]].astype(bool)
            if allowed.shape[0] < scores.shape[0]:
                allowed = np.concatenate([allowed, np.zeros(scores.shape[0] - allowed.shape[0], dtype=bool)])
            if not allowed.any():
                allowed[self.eos] = True
        out = np.array(scores, copy=True)
        out[~allowed] = -np.inf
        return out


def llama_llguidance_tokenizer(llama: Any) -> Any:
    """An llguidance tokenizer for a loaded ``llama_cpp.Llama`` (about a second; keep it)."""
    import llama_cpp  # optional extra [llama-server], heavy: imported only when used
    from llguidance.llamacpp import lltokenizer_from_vocab  # optional extra [hf], heavy: imported only when used

    vocab = llama_cpp.llama_model_get_vocab(llama.model)
    with warnings.catch_warnings():  # llguidance calls a llama.cpp function deprecated in 0.3.36, once per token
        warnings.simplefilter("ignore", DeprecationWarning)
        return lltokenizer_from_vocab(vocab)


def llguidance_tokenizer(hf_tokenizer: Any, n_vocab: int) -> Any:
    """An llguidance tokenizer for a fast Hugging Face tokenizer (about a second; keep it)."""
    from llguidance.hf import from_tokenizer  # optional extra [hf], heavy: imported only when used

    return from_tokenizer(hf_tokenizer, n_vocab=n_vocab)
