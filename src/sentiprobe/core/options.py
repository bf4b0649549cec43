"""Typed options: one machinery for suite options (``--suite-arg``) and model arguments (``--model-arg``).

An options type is a frozen dataclass whose fields are declared with :func:`option` (default, help, allowed
values, bounds, the environment variable the CLI reads as a default). :func:`parse_options` builds an instance
from strings or typed values (did-you-mean on unknown keys, typed errors naming the owner and the field),
:func:`describe_options` is what ``sentiprobe list`` prints and :func:`options_dict` what results record.

Types a field may have: ``str``, ``int``, ``float``, ``bool``, ``Path``, a string mapping (``dict[str, str |
None]``: a dict, a JSON object or ``a:b,c:d``), a ``Literal[...]`` of strings, and a union of these with ``None``
(``""``/``none``/``null`` read as None) or with a ``Literal`` (``float | Literal["auto"]``: the word, else a
number).
"""
from __future__ import annotations

import dataclasses
import json
import math
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ConfigError, unknown_keys

__all__ = ["NoOptions", "convert", "describe_options", "env_defaults", "option", "option_fields",
           "options_dict", "parse_options"]


@dataclass(frozen=True)
class NoOptions:
    """An owner (suite or model) without options."""


def option(default: Any, help: str, *, choices: Sequence[Any] | None = None, env: str | None = None,
           user_file: bool = False, lo: float | None = None, hi: float | None = None,
           lo_open: bool = False) -> Any:
    """Declare an option field.

    Args:
        default: the default value (documentation only for a model whose factory computes it: write None and
            say in ``help`` what unset means).
        help: one line for ``sentiprobe list`` and the docs.
        choices: allowed values (checked by :func:`parse_options`; strings match case-insensitively).
        env: environment variable the CLI reads as the default (never read outside ``cli/``).
        user_file: the value is a path to a user-supplied file (hashed and recorded by the run).
        lo, hi: bounds of a number (``lo_open``: strictly greater than ``lo``).
    """
    meta = {"help": help, "choices": tuple(choices) if choices is not None else None, "env": env,
            "user_file": user_file, "lo": lo, "hi": hi, "lo_open": lo_open}
    return field(default=default, metadata=meta)


def option_fields(options_type: type) -> list[dataclasses.Field]:
    return list(dataclasses.fields(options_type))


def describe_options(options_type: type) -> dict[str, dict[str, Any]]:
    """``{name: {"default", "help", "choices", "env", "type"}}`` for listing and docs."""
    hints = typing.get_type_hints(options_type)
    out = {}
    for f in option_fields(options_type):
        out[f.name] = {"default": _jsonable(f.default), "help": f.metadata.get("help", ""),
                       "choices": list(f.metadata["choices"]) if f.metadata.get("choices") else None,
                       "env": f.metadata.get("env"), "type": _type_name(hints.get(f.name))}
        bounds = _bounds_text(f)
        if bounds:
            out[f.name]["range"] = bounds
    return out


def env_defaults(options_type: type) -> dict[str, str]:
    """``{option name: environment variable}`` for the options that have one (read by ``cli/`` only)."""
    return {f.name: f.metadata["env"] for f in option_fields(options_type) if f.metadata.get("env")}


def parse_options(options_type: type, raw: Mapping[str, Any] | Any | None, *, suite: str | None = None,
                  owner: str | None = None, noun: str = "option") -> Any:
    """An options instance from a mapping of (string or typed) values, validated.

    Unknown keys raise ConfigError with a did-you-mean; values are converted to the field's type (see the module
    docstring; ``bool`` accepts 1/0/true/false/yes/no/on/off, ``int`` an integral number) and checked against
    ``choices`` and bounds. An instance of ``options_type`` is returned as is. ``owner`` names the owner in
    errors (``model 'tfidf-lr'``; ``suite=NAME`` is short for ``suite 'NAME'``), ``noun`` what a key is.
    """
    if isinstance(raw, options_type):
        return raw
    who = owner if owner is not None else f"suite {suite!r}"
    return options_type(**parse_values(options_type, raw, owner=who, noun=noun))


def parse_values(options_type: type, raw: Mapping[str, Any] | None, *, owner: str,
                 noun: str = "option") -> dict[str, Any]:
    """The converted values of the keys ``raw`` gives (no defaults added): see :func:`parse_options`."""
    raw = dict(raw or {})
    known = [f.name for f in option_fields(options_type)]
    unknown = [k for k in raw if k not in known]
    if unknown:
        raise ConfigError(f"{owner}: unknown {noun}(s) {unknown_keys(unknown, known)}; "
                          f"known: {', '.join(known) or 'none'}")
    types_ = typing.get_type_hints(options_type)
    values: dict[str, Any] = {}
    for f in option_fields(options_type):
        if f.name in raw:
            m = f.metadata
            values[f.name] = convert(raw[f.name], types_.get(f.name), f"{owner} {noun} {f.name!r}",
                                     choices=m.get("choices"), lo=m.get("lo"), hi=m.get("hi"),
                                     lo_open=bool(m.get("lo_open")))
    return values


def options_dict(options: Any) -> dict[str, Any]:
    """JSON-able ``{name: value}`` of an options instance (paths as strings)."""
    return {f.name: _jsonable(getattr(options, f.name)) for f in option_fields(type(options))}


def _jsonable(v: Any) -> Any:
    if isinstance(v, Path):
        return str(v)
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    return v


def _type_name(tp: Any) -> str:
    if typing.get_origin(tp) is typing.Literal:
        return "|".join(map(str, typing.get_args(tp)))
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return " | ".join(_type_name(a) for a in typing.get_args(tp)).replace("NoneType", "None")
    if typing.get_origin(tp) in (dict, Mapping):
        return "mapping"
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


def _bounds_text(f: dataclasses.Field) -> str:
    lo, hi = f.metadata.get("lo"), f.metadata.get("hi")
    if lo is None and hi is None:
        return ""
    if hi is None:
        return f"{'>' if f.metadata.get('lo_open') else '>='} {lo}"
    if lo is None:
        return f"<= {hi}"
    return f"{'(' if f.metadata.get('lo_open') else '['}{lo}, {hi}]"


_TRUE = ("1", "true", "yes", "y", "on")
_FALSE = ("0", "false", "no", "n", "off")
_NONE = ("", "none", "null")


def convert(value: Any, tp: Any, what: str, *, choices: Sequence[Any] | None = None, lo: float | None = None,
            hi: float | None = None, lo_open: bool = False) -> Any:
    """``value`` converted to the annotated type ``tp`` and checked against ``choices`` and bounds (``what``, such
    as ``model 'x' argument 'y'``, starts every error message)."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if type(None) in args and (value is None or (isinstance(value, str) and value.strip().lower() in _NONE)):
            return None
        inner = [a for a in args if a is not type(None)]
        words = [w for a in inner if typing.get_origin(a) is typing.Literal for w in typing.get_args(a)]
        rest = [a for a in inner if typing.get_origin(a) is not typing.Literal]
        if words and isinstance(value, str) and value.strip().lower() in [str(w).lower() for w in words]:
            return next(w for w in words if str(w).lower() == value.strip().lower())
        if words and not rest:
            return _choose(str(value), words, what)
        tp = rest[0] if len(rest) == 1 else str
        if words:  # a number or a word: say both
            try:
                return convert(value, tp, what, choices=choices, lo=lo, hi=hi, lo_open=lo_open)
            except ConfigError as exc:
                raise ConfigError(f"{exc} (or one of {', '.join(map(str, words))})") from None
    if typing.get_origin(tp) is typing.Literal:
        choices = tuple(typing.get_args(tp))
        tp = str
    out = _convert_one(value, tp, what)
    if choices:
        out = _choose(out, choices, what)
    if isinstance(out, int | float) and not isinstance(out, bool):
        _check_bounds(out, what, lo, hi, lo_open)
    return out


def _choose(value: Any, choices: Sequence[Any], what: str) -> Any:
    if value is None or value in choices:
        return value
    if isinstance(value, str):
        folded = [c for c in choices if isinstance(c, str) and c.lower() == value.strip().lower()]
        if folded:
            return folded[0]
    raise ConfigError(f"{what} must be one of {', '.join(map(str, choices))}; {value!r} is not one of them")


def _check_bounds(v: float, what: str, lo: float | None, hi: float | None, lo_open: bool) -> None:
    if lo is not None and (v <= lo if lo_open else v < lo):
        raise ConfigError(f"{what} must be {'>' if lo_open else '>='} {lo}, got {v}")
    if hi is not None and v > hi:
        raise ConfigError(f"{what} must be <= {hi}, got {v}")


def _convert_one(value: Any, tp: Any, what: str) -> Any:
    if tp is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        s = str(value).strip().lower()
        if s in _TRUE:
            return True
        if s in _FALSE:
            return False
        raise ConfigError(f"{what}: expected true/false (or 1/0), got {value!r}")
    if tp is int:
        return _to_int(value, what)
    if tp is float:
        if isinstance(value, bool):
            raise ConfigError(f"{what}: expected a number, got {value!r}")
        try:
            out = float(value.strip()) if isinstance(value, str) else float(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{what}: expected a number, got {value!r}") from None
        if not math.isfinite(out):
            raise ConfigError(f"{what}: expected a finite number, got {value!r}")
        return out
    if tp is Path:
        return Path(str(value)).expanduser()
    if typing.get_origin(tp) in (dict, Mapping):
        return _to_mapping(value, what)
    if tp is Any:
        return value
    return value if isinstance(value, str) else str(value)


def _to_int(value: Any, what: str) -> int:
    """An int from an int, an integral float or a numeric string (``"3"``, ``"3.0"``, ``"1e3"``)."""
    if isinstance(value, bool):
        raise ConfigError(f"{what}: expected an integer, got {value!r}")
    if isinstance(value, int):
        return value
    try:
        f = float(value.strip()) if isinstance(value, str) else float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{what}: expected an integer, got {value!r}") from None
    if not math.isfinite(f) or not f.is_integer():
        raise ConfigError(f"{what}: expected an integer, got {value!r}")
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        return int(value.strip())  # exact for integers beyond a float's precision
    return int(f)


def _to_mapping(value: Any, what: str) -> dict[str, str | None] | None:
    """A string -> string mapping given as a dict, a JSON object, or ``a:b,c:d`` / ``a=b,c=d``.

    A value of ``""``/``none`` maps a key to ``None`` (used to drop a model class).
    """
    from .io import loads_json

    if value is None:
        return None
    if isinstance(value, Mapping):
        return {str(k): (None if v is None else str(v)) for k, v in value.items()}
    if not isinstance(value, str):
        raise ConfigError(f"{what} must be a mapping, got {value!r}")
    s = value.strip()
    if not s:
        return None
    if s.startswith("{"):
        try:
            d = loads_json(s)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{what} is not valid JSON: {exc}") from None
        if not isinstance(d, dict):
            raise ConfigError(f"{what} must be a JSON object")
        return _to_mapping(d, what)
    out: dict[str, str | None] = {}
    for part in s.split(","):
        sep = ":" if ":" in part else "=" if "=" in part else None
        if sep is None:
            raise ConfigError(f"{what}: cannot read {part!r}; write 'model_label:suite_label,...'")
        k, v = (x.strip() for x in part.split(sep, 1))
        out[k] = None if v.lower() in _NONE else v
    return out
