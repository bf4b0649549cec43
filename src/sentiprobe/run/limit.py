"""``--limit``: which test items a limited run asks, identical for every model of the run.

Two modes:

- ``sample`` (default): a seeded random sample of the suite's own unit (``Item.group_id``: an ARTS source
  example with its variants, a SOUL review with its statements, a NonCompSST phrase with its controls, a
  SENTiVENT item), stratified by the unit's gold label where it has one, whole units only. Why: the first
  items of a file are not a sample of it (on SST-7 the first 20% put the majority baseline at 40% instead of
  20%, so tf-idf "lost" to it), and cutting through a unit breaks the suite's own metric (an ARTS unit scored
  without its variants).
- ``first``: the first items in file order (the behaviour before sampling; reproducible by eye).

The limit is a number of items (``--limit 200``) or a share of them (``--limit 0.1``); a sample takes whole
units in a stratified random order until it holds at least that many items. The record
(:func:`apply_limit`'s second value) goes into the suite's results entry as ``limit`` and says what was
asked: mode, seed, unit, how many units and items of how many, and the hash of the sampled unit ids.
"""
from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..core.runspec import LIMIT_MODES as LIMIT_MODES  # re-exported: declared by the run spec
from ..core.runspec import check_choice
from ..core.types import Item
from ..render.format import describe_limit  # noqa: F401  (re-exported: formatting of the limit record)


def check_limit_mode(mode: str) -> str:
    """``mode`` when it is one of :data:`LIMIT_MODES`, else a ConfigError."""
    return check_choice(mode, "limit_mode", LIMIT_MODES)


def _target(limit: int | float, n: int) -> int:
    return min(n, limit if isinstance(limit, int) else max(1, math.ceil(limit * n)))


def unit_stratum(members: Sequence[Item]) -> str | None:
    """A unit's gold label: that of its source item (the item whose id is the unit's id, e.g. an ARTS
    original), else the label all its items share, else None (a SOUL review has none)."""
    for it in members:
        if it.item_id == it.group_id:
            return it.label
    labels = {it.label for it in members}
    return labels.pop() if len(labels) == 1 else None


def stratified_order(strata: Sequence[str | None], seed: int) -> list[int]:
    """Unit indices in a random order whose every prefix is close to a proportional stratified sample.

    Each stratum's units are shuffled and spread evenly over [0, 1) (the k-th of m at ``(k + u) / m`` with a
    random offset ``u`` per stratum); sorting by position interleaves the strata in proportion.
    """
    rng = np.random.default_rng(seed)
    groups: dict[str | None, list[int]] = {}
    for i, s in enumerate(strata):
        groups.setdefault(s, []).append(i)
    keys: list[tuple[float, float, int]] = []
    for _, members in sorted(groups.items(), key=lambda kv: (kv[0] is None, str(kv[0]))):
        perm = rng.permutation(len(members))
        offset = float(rng.random())
        for k, j in enumerate(perm):
            keys.append(((k + offset) / len(members), float(rng.random()), members[int(j)]))
    return [i for _, _, i in sorted(keys)]


def apply_limit(items: Sequence[Item], limit: int | float | None, *, mode: str = "sample", seed: int = 0,
                unit: str = "item") -> tuple[list[Item], dict[str, Any] | None]:
    """The items a run with ``--limit`` asks, in file order, and the record of how they were chosen.

    ``limit`` None: every item and no record. ``unit`` names ``Item.group_id`` in the record (the suite's
    ``groups_name``).
    """
    items = list(items)
    if limit is None:
        return items, None
    check_limit_mode(mode)
    target = _target(limit, len(items))
    record: dict[str, Any] = {"value": limit, "mode": mode, "unit": unit, "of_items": len(items)}
    if mode == "first":
        chosen = items[:target]
        record.update(n_items=len(chosen))
        return chosen, record
    units: dict[str, list[Item]] = {}
    for it in items:
        units.setdefault(it.group_id, []).append(it)
    ids = list(units)
    strata = [unit_stratum(units[u]) for u in ids]
    stratified = any(s is not None for s in strata) and len(set(strata)) > 1
    order = stratified_order(strata if stratified else [None] * len(ids), seed)
    keep: set[str] = set()
    count = 0
    for i in order:
        if count >= target:
            break
        keep.add(ids[i])
        count += len(units[ids[i]])
    chosen = [it for it in items if it.group_id in keep]
    digest = hashlib.sha256("\n".join(sorted(keep)).encode("utf-8")).hexdigest()[:16]
    record.update(seed=seed, n_units=len(keep), of_units=len(ids), n_items=len(chosen),
                  stratified_by="gold label" if stratified else None, units_hash=digest)
    return chosen, record


def limit_value(record: Any) -> Any:
    """The requested limit of a results entry's ``limit`` (a record, or the bare number older runs wrote)."""
    return record.get("value") if isinstance(record, dict) else record


def unit_names(metrics: Mapping[str, Any], items: Sequence[Any], groups_name: str) -> dict[str, str]:
    """What each metric's ``n`` counts, for its small-sample note: the unit the engine names (``unit_name``: a
    metric over a subset of the units, ARTS's ``ars_polar`` over 11 of 15 source examples, still counts source
    examples); else the suite's unit (``source example``, ``review``) when ``n`` is the number of groups asked,
    ``item`` when it is the number of items."""
    n_groups = len({it.group_id for it in items})
    return {k: str(m["unit_name"]) if m.get("unit_name") else groups_name if m.get("n") == n_groups
            else "item" if m.get("n") == len(items) else "unit"
            for k, m in metrics.items() if isinstance(m, Mapping)}
