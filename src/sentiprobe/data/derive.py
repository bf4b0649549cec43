"""Rebuild derived / transcribed manifest files from their inputs (no code is ever executed).

Recipes (named in the manifest's ``derive`` field):

- ``pickle-dict-to-json`` / ``pickle-dict-to-tsv``: read a pickle that holds only a dict of plain values
  with a small opcode interpreter (``pickletools.genops``); any opcode that could import or call something
  (GLOBAL, REDUCE, BUILD, ...) is refused. Nothing is unpickled.
- ``python-literal-to-json``: parse a pinned upstream Python file with :mod:`ast` (never imported or run),
  take the literal assigned to ``params['name']`` with ``ast.literal_eval`` and write it as JSON.

The output is checked against the manifest's sha256 and size by the caller (:mod:`.fetch`).
"""
from __future__ import annotations

import ast
import json
import pickletools
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from ..core.errors import DataError
from .manifest import ManifestFile

_PUSH_CONST = {"NEWTRUE": True, "NEWFALSE": False, "NONE": None}
_PUSH_ARG = {"SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE", "BININT", "BININT1", "BININT2",
             "BINFLOAT", "SHORT_BINBYTES", "BINBYTES", "LONG1"}


def read_plain_pickle(data: bytes, path: str = "<pickle>") -> Any:
    """Value of a pickle made only of dicts, lists, strings, numbers, booleans and None."""
    stack: list[Any] = []
    marks: list[int] = []
    memo: dict[int, Any] = {}
    try:
        for op, arg, pos in pickletools.genops(data):
            name = op.name
            if name in ("PROTO", "FRAME"):
                pass
            elif name == "MEMOIZE":
                memo[len(memo)] = stack[-1]
            elif name in ("BINPUT", "LONG_BINPUT", "PUT"):
                memo[int(cast(int, arg))] = stack[-1]
            elif name in _PUSH_CONST:
                stack.append(_PUSH_CONST[name])
            elif name in _PUSH_ARG:
                stack.append(arg)
            elif name == "EMPTY_DICT":
                stack.append({})
            elif name == "EMPTY_LIST":
                stack.append([])
            elif name == "MARK":
                marks.append(len(stack))
            elif name in ("BINGET", "LONG_BINGET"):
                stack.append(memo[cast(int, arg)])
            elif name == "SETITEM":
                v, k = stack.pop(), stack.pop()
                stack[-1][k] = v
            elif name == "SETITEMS":
                start = marks.pop()
                items = stack[start:]
                del stack[start:]
                for k, v in zip(items[::2], items[1::2]):
                    stack[-1][k] = v
            elif name == "APPEND":
                v = stack.pop()
                stack[-1].append(v)
            elif name == "APPENDS":
                start = marks.pop()
                items = stack[start:]
                del stack[start:]
                stack[-1].extend(items)
            elif name == "STOP":
                if len(stack) != 1:
                    raise DataError("malformed pickle: stack not a single value at STOP", path=path,
                                    record=f"byte {pos}")
                return stack[0]
            else:
                raise DataError(f"refusing pickle opcode {name}: only plain data is read", path=path,
                                record=f"byte {pos}")
    except (ValueError, IndexError, KeyError, TypeError, AttributeError) as exc:
        raise DataError(f"malformed pickle: {exc}", path=path) from None
    raise DataError("malformed pickle: no STOP opcode", path=path)


def python_literal(source: bytes, name: str, path: str = "<source>") -> Any:
    """The literal assigned to the module-level name ``name`` in Python ``source`` (parsed, never run)."""
    try:
        tree = ast.parse(source.decode("utf-8"), filename=path)
    except (SyntaxError, UnicodeDecodeError) as exc:
        raise DataError(f"cannot parse Python source: {exc}", path=path) from None
    found = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            found = node.value
    if found is None:
        raise DataError(f"no module-level assignment to {name}", path=path, field=name)
    try:
        return ast.literal_eval(found)
    except ValueError:
        raise DataError(f"{name} is not a plain literal", path=path, field=name) from None


def _json(obj: Any, params: dict[str, Any]) -> bytes:
    text = json.dumps(obj, indent=params.get("indent"), ensure_ascii=params.get("ensure_ascii", True))
    return (text + ("\n" if params.get("trailing_newline", True) else "")).encode("utf-8")


def _pickle_dict(entry: ManifestFile, data_dir: Path) -> dict[Any, Any]:
    src = entry.derive.inputs[0]  # type: ignore[union-attr]
    obj = read_plain_pickle((data_dir / src).read_bytes(), src)
    if not isinstance(obj, dict):
        raise DataError(f"expected a dict, found {type(obj).__name__}", path=src)
    return obj


def derive_bytes(entry: ManifestFile, data_dir: Path, get_source: Callable[[str, str | None], bytes]) -> bytes:
    """Bytes of ``entry`` rebuilt by its recipe. ``get_source(url, git_blob)`` downloads an extra source."""
    r = entry.derive
    if r is None:
        raise DataError("no recipe to rebuild this file", path=entry.path, field="derive")
    if r.recipe == "pickle-dict-to-json":
        return _json(_pickle_dict(entry, data_dir), r.params)
    if r.recipe == "pickle-dict-to-tsv":
        d = _pickle_dict(entry, data_dir)
        t, f = r.params.get("true", "1"), r.params.get("false", "0")
        lines = ["\t".join(r.params["header"])]
        for k, v in d.items():
            if not isinstance(v, bool) or "\t" in str(k) or "\n" in str(k):
                raise DataError("value is not a boolean or key has a tab/newline", path=r.inputs[0], record=k)
            lines.append(f"{k}\t{t if v else f}")
        return ("\n".join(lines) + "\n").encode("utf-8")
    if r.recipe == "python-literal-to-json":
        if not r.source_url:
            raise DataError("recipe needs a source url", path=entry.path, field="derive.source")
        src = get_source(r.source_url, r.source_git_blob)
        return _json(python_literal(src, r.params["name"], r.source_url), r.params)
    raise DataError(f"unknown recipe {r.recipe!r}", path=entry.path, field="derive.recipe")
