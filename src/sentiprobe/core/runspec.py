"""The run spec: one declaration of every setting that decides a run's results.

Why one place: the same settings used to be listed again in the command line, the Python API, the run
configuration, sweep configs, sweep jobs and their payloads, and the lists drifted apart (sweeps had no
``confidence``, no ``limit_mode``, and refused the fractional ``limit`` that ``run`` takes). Everything else is
derived from :class:`RunSettings`:

- the ``sentiprobe run`` flags (``cli/options.py``: ``--seed``, ``--n-boot``, ``--confidence``, ``--limit``,
  ``--limit-mode``, ``--limit-seed``, ``--missing``) with their help, choices and defaults;
- the keyword arguments of :func:`sentiprobe.api.run` (a test holds the signature to these fields);
- the run configuration (``RunConfig`` extends ``RunSettings``), hence the configuration hash and the provenance
  recorded in ``results.json`` and ``summary.json``;
- the top-level keys of a sweep config and each sweep job's key and payload (``run/sweep_plan.py``).

``confidence`` is the one name of the level at every boundary; only ``stats/`` turns it into an alpha.
Settings that only say where or how a run executes (``--out``, ``--jobs``, the cache and data directories,
progress) are not part of the spec: they never change a number.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import Field, dataclass, field, fields
from typing import Any

from .errors import ConfigError, short_repr
from .limits import check_n_boot, check_seed

DEFAULT_CONFIDENCE = 0.95
"""Confidence level of every interval and test unless ``--confidence`` / ``confidence=`` says otherwise."""
LIMIT_MODES = ("sample", "first")
"""How ``--limit`` chooses items: a seeded stratified sample of the suite's unit, or the first items."""
MISSING_POLICIES = ("error", "wrong", "variants-wrong")
"""How missing predictions are scored."""

KINDS = ("seed", "n_boot", "confidence", "limit", "choice")


@dataclass(frozen=True)
class Setting:
    """How one run setting is offered to users (the ``metadata["setting"]`` of a :class:`RunSettings` field).

    Attributes:
        help: the flag's help text (also the API's documentation of the argument).
        kind: which checked parser the command line uses (one of :data:`KINDS`).
        metavar: the flag's metavar (None: argparse's default).
        choices: the allowed values of a ``choice`` setting.
    """

    help: str
    kind: str
    metavar: str | None = None
    choices: tuple[str, ...] = ()


def _setting(default: Any, help: str, kind: str, *, metavar: str | None = None,
             choices: tuple[str, ...] = ()) -> Any:
    return field(default=default, metadata={"setting": Setting(help, kind, metavar, choices)})


def parse_limit(value: Any) -> int | float | None:
    """``limit`` as a positive item count (int) or a fraction in (0, 1] (float); None stays None.

    Strings are parsed (``"50"``, ``"0.1"``); 0, negatives, fractions above 1, booleans and junk raise a
    ConfigError: ``--limit 0`` used to write an empty run with null metrics, ``--limit -5`` to run all but
    five items.
    """
    if value is None:
        return None
    bad = ConfigError(f"--limit must be a positive number of items or a fraction in (0, 1], not {value!r}")
    if isinstance(value, bool):
        raise bad
    if isinstance(value, str):
        text = value.strip()
        try:
            value = int(text)
        except ValueError:
            try:
                value = float(text)
            except ValueError:
                raise bad from None
    if isinstance(value, int):
        if value < 1:
            raise bad
        return value
    if isinstance(value, float) and math.isfinite(value) and 0.0 < value <= 1.0:
        return value
    raise bad


def check_confidence(value: Any) -> float:
    """A confidence level in (0, 1), else a ConfigError."""
    if isinstance(value, bool) or not isinstance(value, float | int) or not math.isfinite(value) \
            or not 0.0 < float(value) < 1.0:
        raise ConfigError(f"--confidence must be a number in (0, 1), such as 0.95, not {value!r}")
    return float(value)


def confidence_of(alpha: float) -> float:
    """The confidence level ``1 - alpha`` (``0.05`` -> exactly ``0.95``): how an alpha reads as a level (the former
    ``--alpha`` options, an engine's recorded alpha). The other way, :func:`sentiprobe.stats.alpha_of`, belongs
    to ``stats/``."""
    return round(1.0 - float(alpha), 12)


def check_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ConfigError(f"--{name.replace('_', '-')} must be one of {', '.join(choices)}, not {short_repr(value)}")
    return str(value)


@dataclass(frozen=True, kw_only=True)
class RunSettings:
    """Every setting that decides a run's numbers (recorded in ``results.json``; part of the configuration hash).

    Attributes:
        seed: base seed; seed k of a multi-seed suite uses ``seed + k``.
        n_boot: bootstrap resamples of every interval and paired test.
        confidence: the confidence level of every interval and test.
        limit: evaluate only part of each suite's test items: a positive number of items, or a fraction in
            (0, 1] of them (rounded up); chosen as ``limit_mode`` says.
        limit_mode: ``sample`` (a seeded random sample of the suite's unit, stratified by gold label, the same
            for every model) or ``first`` (the first items in file order).
        limit_seed: the seed of the ``sample`` (independent of ``seed``, so every seed of a sweep asks the
            same items).
        missing: how missing predictions are scored: ``error``, ``wrong`` or ``variants-wrong``.
    """

    seed: int = _setting(0, "base seed (default 0)", "seed")
    n_boot: int = _setting(1000, "bootstrap resamples of every interval and paired test (default 1000)", "n_boot")
    confidence: float = _setting(
        DEFAULT_CONFIDENCE, f"confidence level of every confidence interval and test, in (0, 1) (default "
                            f"{DEFAULT_CONFIDENCE}); recorded and named in the report headers", "confidence",
        metavar="LEVEL")
    limit: int | float | None = _setting(
        None, "only N test items per suite, or a fraction in (0, 1] of them (recorded, bannered in the reports); "
              "chosen as --limit-mode says", "limit", metavar="N|FRACTION")
    limit_mode: str = _setting(
        "sample", "sample (default): a seeded random sample of each suite's unit (ARTS source examples with their "
                  "variants, SOUL reviews, NonCompSST phrases), stratified by gold label, the same for every model; "
                  "first: the first items in file order", "choice", choices=LIMIT_MODES)
    limit_seed: int = _setting(0, "seed of the --limit sample (default 0)", "seed")
    missing: str = _setting("error", "how missing predictions are scored (see `sentiprobe score --help`)", "choice",
                            choices=MISSING_POLICIES)

    def __post_init__(self) -> None:
        object.__setattr__(self, "limit", parse_limit(self.limit))
        check_seed(self.seed, "--seed")
        check_n_boot(self.n_boot, "--n-boot")
        object.__setattr__(self, "confidence", check_confidence(self.confidence))
        check_seed(self.limit_seed, "--limit-seed")
        for f in setting_fields():
            meta = f.metadata["setting"]
            if meta.kind == "choice":
                check_choice(getattr(self, f.name), f.name, meta.choices)

    def to_dict(self) -> dict[str, Any]:
        """The settings alone (a subclass's other fields left out), JSON-able."""
        return {f.name: getattr(self, f.name) for f in setting_fields()}


def setting_fields() -> tuple[Field[Any], ...]:
    """The fields of :class:`RunSettings`, in declaration order (each with its :class:`Setting`)."""
    return tuple(fields(RunSettings))


def setting_names() -> tuple[str, ...]:
    return tuple(f.name for f in setting_fields())


def settings_of(obj: Any) -> RunSettings:
    """The :class:`RunSettings` part of ``obj`` (a RunConfig, say) as a plain RunSettings."""
    return RunSettings(**{n: getattr(obj, n) for n in setting_names()})


def settings_from_mapping(doc: Mapping[str, Any], where: str, *, exclude: tuple[str, ...] = ()) -> RunSettings:
    """RunSettings from a config document's keys (the names of the fields; ``-`` read as ``_``); a ConfigError
    naming ``where`` for a bad value. Keys that are not settings are the caller's to check."""
    names = [n for n in setting_names() if n not in exclude]
    given = {str(k).replace("-", "_"): v for k, v in doc.items()}
    try:
        return RunSettings(**{n: given[n] for n in names if n in given})
    except ConfigError as exc:
        msg = str(exc)
        for n in names:  # a config file has keys, not flags
            msg = msg.replace("--" + n.replace("_", "-") + " ", f"'{n}' ")
        raise ConfigError(f"{where}: {msg}") from None


__all__ = ["DEFAULT_CONFIDENCE", "KINDS", "LIMIT_MODES", "MISSING_POLICIES", "RunSettings", "Setting",
           "check_choice", "check_confidence", "confidence_of", "parse_limit", "setting_fields", "setting_names",
           "settings_from_mapping", "settings_of"]
