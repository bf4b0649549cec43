"""Fit a learning model, or restore it, only when a prediction needs it.

A re-run whose every prediction is cached needs neither the training items nor the fitted state: the cache
key of a prediction is the model's fingerprint (its configuration and fitted-state hash) and the request. So
the cache remembers, per fit key, the fingerprint the fitted model had and the training-set sizes, and the
runner hands the predictor that fingerprint with a ``ready`` callback that restores the state (or fits) at
the first prediction missing from the cache.

The fit key holds the suite's training fingerprint (a hash of every training and dev item), which needs the
training items; it is remembered too, when nothing it depends on can have changed without a change to its
key: the suite's options are at their defaults (the training data is then the data directory's own,
manifest-verified files), and the key covers the suite (name, version, options), the resolved data
directory with the size, mtime and inode of every file of the suite's data family (a file added, replaced
or removed changes it), sentiprobe's source code and every installed distribution's version (lexicons and
tokenisers from PyPI packages shape training items too).
"""
from __future__ import annotations

import dataclasses
import functools
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import distributions
from pathlib import Path
from typing import Any

from .. import __version__
from ..core.errors import ConfigError
from ..core.hashing import package_source_hash, stable_hash
from ..data import manifest  # a module attribute: load_manifest is looked up when called
from ..suites import Suite
from .cache import PredictionCache

FITTED = "fitted-models"  # blobs namespace: fit key -> {"fingerprint", "n_train", "n_dev"}
TRAIN = "train-fingerprints"  # blobs namespace: suite key -> training fingerprint


@dataclass
class Prepared:
    """A model ready to be asked, or ready to become so.

    Attributes:
        fit: the results' fit record (``fitted``, ``restored_from_cache``, ``n_train``, ``n_dev``...).
        fingerprint: the model's fingerprint when known without loading its state (None: ask the model).
        ready: restores the state (or fits) before the model's first call; None when already done.
    """

    fit: dict[str, Any]
    fingerprint: str | None = None
    ready: Callable[[], None] | None = None


def prepare(model: Any, suite: Suite, cache: PredictionCache, seed: int) -> Prepared:
    """Fit ``model`` on the suite's training items, restore it from the cache, or defer that (see the module).

    The fit key covers the adapter (name, config, code), the suite's input kind and label set, the training
    items and the seed (left out for a ``seed_invariant`` adapter: one fit serves every seed). Suite options
    enter through the training items they change; two suites trained on the same items share one fit.
    """
    if not model.learns:
        return Prepared({"fitted": False})
    key = stable_hash({"adapter": model.name, "config": model.config(), "code": model.code_identity(),
                       "input_kind": suite.input_kind, "labels": list(suite.labels),
                       "train": train_fingerprint(suite, cache),
                       "seed": None if getattr(model, "seed_invariant", False) else seed}, 40)
    known = cache.get_many(FITTED, [key], table="blobs").get(key)
    if known is not None and not getattr(model, "request_uses_state", False):
        def ready() -> None:
            _restore_or_fit(model, suite, cache, key, seed)

        return Prepared({"fitted": True, "restored_from_cache": True, "n_train": known["n_train"],
                         "n_dev": known["n_dev"]}, str(known["fingerprint"]), ready)
    return Prepared(_restore_or_fit(model, suite, cache, key, seed))


def _restore_or_fit(model: Any, suite: Suite, cache: PredictionCache, key: str, seed: int) -> dict[str, Any]:
    train, dev = suite.training()
    if not train:
        raise ConfigError(f"model {model.name!r} learns but suite {suite.name!r} has no training items")
    state = cache.get_state(key)
    info: dict[str, Any] = {"fitted": True, "restored_from_cache": state is not None, "n_train": len(train),
                            "n_dev": len(dev)}
    if state is not None:
        model.load_state(state)
    else:
        t0 = time.perf_counter()
        model.fit(train, dev, suite.labels, input_kind=suite.input_kind, seed=seed)
        info["fit_seconds"] = round(time.perf_counter() - t0, 3)
        state = model.get_state()
        if state is None:  # nothing to restore from: never remembered, always fitted
            return info
        cache.put_state(key, state)
    cache.put_many(FITTED, {key: {"fingerprint": model.fingerprint, "n_train": len(train), "n_dev": len(dev)}},
                   table="blobs")
    return info


def train_fingerprint(suite: Suite, cache: PredictionCache) -> str:
    """``suite.train_fingerprint()``, remembered across runs where that is sound (see the module docstring)."""
    if not _at_defaults(suite.options) or suite.family not in manifest.load_manifest().families:
        return suite.train_fingerprint()  # data the manifest does not pin (a user file, a plug-in's own data)
    key = stable_hash({"suite": suite.describe(), "data_dir": str(Path(suite.data_dir).resolve()),
                       "files": _family_files(suite), "code": package_source_hash(), "sentiprobe": __version__,
                       "distributions": _distributions()}, 40)
    found = cache.get_many(TRAIN, [key], table="blobs").get(key)
    if isinstance(found, dict):
        return str(found["fingerprint"])
    fp = suite.train_fingerprint()
    cache.put_many(TRAIN, {key: {"fingerprint": fp}}, table="blobs")
    return fp


def _at_defaults(options: Any) -> bool:
    for f in dataclasses.fields(options):
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            return False
        if getattr(options, f.name) != default:
            return False
    return True


def _family_files(suite: Suite) -> dict[str, list[int] | None]:
    out: dict[str, list[int] | None] = {}
    for entry in manifest.load_manifest().select(suite.family):
        try:
            st = os.stat(Path(suite.data_dir) / entry.path)
        except FileNotFoundError:
            out[entry.path] = None
        else:
            out[entry.path] = [st.st_size, st.st_mtime_ns, st.st_ino]
    return out


@functools.lru_cache(maxsize=1)
def _distributions() -> str:
    return stable_hash(sorted(f"{d.metadata['Name']}=={d.version}" for d in distributions()), 32)
