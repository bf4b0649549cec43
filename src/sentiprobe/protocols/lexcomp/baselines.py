"""Majority baselines of docs/protocols/lexcomp.md#majority-baselines, from labels only (no representation).

- Majority-All: the most frequent training label;
- Majority-1 / Majority-2: the most frequent training label of items with the same first / last
  constituent (lower-cased); NC Literality also keys on ``target_word``;
- an unseen constituent gets the Majority-All label; a tie inside a constituent's counts gets the
  Majority-All label when it is among the tied labels, else the alphabetically smallest; a tie in
  Majority-All itself gets the alphabetically smallest. ``ties="first-seen"`` switches both tie rules
  to "the tied label seen first in the training file" (the original notebooks' behaviour);
- Phrase Type (our definition): Majority-All = all ``O``; Majority-word = the most frequent training tag
  of the lower-cased word (``O`` when unseen; ties as above with ``O`` as the default).

The functions take items (``meta["first"]``/``["last"]``/``["target_word"]``) so the model adapters
(``majority-first``/``majority-last``) and the score stage's baseline table share one implementation.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from ...core.types import Item

KEYS: dict[str, Callable[[Item], str]] = {
    "first": lambda it: str(it.meta["first"]).lower(),
    "last": lambda it: str(it.meta["last"]).lower(),
    "target": lambda it: str(it.meta["target_word"]).lower(),
}
TIES = ("alphabetical", "first-seen")


def pick(labels_in_order: Sequence[str], default: str | None, ties: str = "alphabetical") -> str:
    """The majority of ``labels_in_order`` (training-file order) with the protocol's tie rule."""
    c = Counter(labels_in_order)
    top = max(c.values())
    tied = [lab for lab in c if c[lab] == top]
    if len(tied) == 1:
        return tied[0]
    if default is not None and default in tied:
        return default
    if ties == "first-seen":
        return next(lab for lab in labels_in_order if lab in tied)
    return min(tied)


def fit(train: Sequence[Item], key: str | None, ties: str = "alphabetical") -> dict[str, Any]:
    """The fitted table: ``{"default": Majority-All label, "table": {constituent: label}}``."""
    ys = [it.label for it in train if it.label is not None]
    default = pick(ys, None, ties)
    table: dict[str, str] = {}
    if key is not None:
        groups: dict[str, list[str]] = {}
        for it in train:
            if it.label is not None:
                groups.setdefault(KEYS[key](it), []).append(it.label)
        table = {k: pick(v, default, ties) for k, v in groups.items()}
    return {"default": default, "table": table, "key": key, "ties": ties}


def predict(fitted: dict[str, Any], item: Item) -> str:
    if fitted["key"] is None:
        return fitted["default"]
    return fitted["table"].get(KEYS[fitted["key"]](item), fitted["default"])


def fit_words(train: Sequence[Item], ties: str = "alphabetical") -> dict[str, str]:
    """Phrase Type Majority-word: lower-cased word -> most frequent training tag (``O`` by default)."""
    groups: dict[str, list[str]] = {}
    for it in train:
        for w, t in zip(it.tokens or (), (it.label or "").split()):
            groups.setdefault(w.lower(), []).append(t)
    return {w: pick(v, "O", ties) for w, v in groups.items()}


def tag_words(table: dict[str, str], item: Item) -> list[str]:
    return [table.get(w.lower(), "O") for w in item.tokens or ()]


VARIANTS = {"majority_all": None, "majority_first": "first", "majority_last": "last"}


def fit_all(train: Sequence[Item], task: str, ties: str = "alphabetical") -> dict[str, Any]:
    """Every baseline of a task fitted on ``train``: ``{name: fitted}`` for the classification tasks (each
    :func:`fit` table), ``{"majority_word": word table}`` for Phrase Type (what :func:`table` scores)."""
    if task == "phrase-type":
        return {"majority_word": fit_words(train, ties), "ties": ties}
    variants = dict(VARIANTS, **({"majority_target": "target"} if task == "nc-literality" else {}))
    return {**{name: fit(train, key, ties) for name, key in variants.items()}, "ties": ties}


def table(fitted: dict[str, Any], test: Sequence[Item]) -> dict[str, Any]:
    """docs/protocols/lexcomp.md#majority-baselines table row of one classification task from :func:`fit_all`: test
    accuracy (fraction) of each baseline and which one is the task's "majority" figure (the best of
    Majority-All/-1/-2)."""
    out: dict[str, Any] = {}
    for name, f in fitted.items():
        if name == "ties":
            continue
        correct = [predict(f, it) == it.label for it in test]
        out[name] = sum(correct) / len(correct) if correct else None
    main = {k: v for k, v in out.items() if k != "majority_target" and v is not None}
    out["best"] = max(main, key=lambda k: (main[k], k == "majority_all")) if main else None
    out["ties"] = fitted["ties"]
    return out
