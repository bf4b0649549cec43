"""Validating predictions against a suite's items: the one check before every score stage.

Its own module so that both the suite contract (:mod:`.spec`, ``ScoreContext.check``) and the bound suite
(:mod:`.base`) use it without importing each other.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from ..core.errors import PredictionError
from ..core.types import Item, Prediction


def check_predictions(suite: str, labels: Sequence[str], items: Sequence[Item], predictions: Sequence[Prediction],
                      *, missing: str = "error", path: str | Path | None = None,
                      label_problem: Callable[[Item, str], str | None] | None = None) -> dict[str, Prediction]:
    """Index predictions by item id after validating them against the items.

    Unknown ids, duplicates and labels outside the label set raise PredictionError naming the first
    offenders. ``label_problem(item, label)`` replaces the label-set test for suites whose label is structured
    (a tag sequence): it returns what is wrong with the label, or None. Missing predictions raise unless
    ``missing`` is ``wrong`` or ``variants-wrong`` (they are then absent from the mapping and the suite scores
    them as wrong and reports how many). A *blank* prediction (an empty or ``null`` label cell of a predictions
    file, marked ``meta["blank"]`` by the readers) is a missing one, in every suite; a model output that could
    not be parsed (``label=None``) is a wrong answer.
    """
    known = {it.item_id: it for it in items}
    by_id: dict[str, Prediction] = {}
    dups, unknown, bad, blank = [], [], [], []
    allowed = set(labels)
    for p in predictions:
        if p.item_id in by_id or p.item_id in blank:
            dups.append(p.item_id)
        if p.label is None and isinstance(p.meta, dict) and p.meta.get("blank") is True:
            blank.append(p.item_id)
            if p.item_id not in known:
                unknown.append(p.item_id)
            continue
        by_id[p.item_id] = p
        if p.item_id not in known:
            unknown.append(p.item_id)
        elif p.label is None:
            continue
        elif not isinstance(p.label, str):  # a reader let a list or a number through: never a TypeError later
            bad.append(f"{p.item_id} (label is a {type(p.label).__name__}, not a string)")
        elif label_problem is not None:
            why = label_problem(known[p.item_id], p.label)
            if why:
                bad.append(f"{p.item_id} ({why})")
        elif p.label not in allowed:
            bad.append(f"{p.item_id}={p.label}")
    if unknown:
        raise PredictionError(f"predictions for ids that are not in suite {suite}", unknown, path=path)
    if dups:
        raise PredictionError("duplicate predictions", dups, path=path)
    if bad:
        raise PredictionError("invalid labels" if label_problem is not None else
                              f"labels outside the label set {list(labels)}", bad, path=path)
    if blank and missing == "error":
        raise PredictionError("blank labels (an empty or null label is a missing prediction; use --missing wrong "
                              "to count them as wrong)", blank, path=path)
    absent = [it.item_id for it in items if it.item_id not in by_id]
    if absent and missing == "error":
        raise PredictionError("missing predictions (use --missing wrong to count them as wrong)", absent, path=path)
    return by_id
