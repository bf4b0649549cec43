"""Typed errors. Every error a user can cause names the file, record and field involved."""
from __future__ import annotations

import difflib
import importlib
import reprlib
from collections.abc import Iterable, Sequence
from pathlib import Path


class SentiprobeError(Exception):
    """Base class of every error sentiprobe raises on purpose."""


class DataError(SentiprobeError):
    """A data file is malformed. Names the file, the record (id or line) and the field."""

    def __init__(self, message: str, *, path: str | Path | None = None,
                 record: str | int | None = None, field: str | None = None) -> None:
        self.path = str(path) if path is not None else None
        self.record = record
        self.field = field
        where = []
        if self.path:
            where.append(f"file {self.path}")
        if record is not None:
            where.append(f"record {record!r}")
        if field is not None:
            where.append(f"field {field!r}")
        super().__init__(f"{message} ({', '.join(where)})" if where else message)


class MissingDataError(SentiprobeError):
    """A data file the suite needs is not present in the data directory."""

    def __init__(self, path: str | Path, hint: str = "") -> None:
        self.path = str(path)
        msg = f"missing data file {self.path}"
        super().__init__(f"{msg}. {hint}" if hint else msg)


class ChecksumError(SentiprobeError):
    """A file's sha256 (or size) does not match the manifest."""

    def __init__(self, path: str | Path, expected: str, actual: str, detail: str = "") -> None:
        self.path = str(path)
        self.expected = expected
        self.actual = actual
        extra = f" ({detail})" if detail else ""
        super().__init__(f"checksum mismatch for {self.path}: expected sha256 {expected}, "
                         f"got {actual}{extra}")


class DownloadError(SentiprobeError):
    """A download failed (network error, HTTP error, truncated body)."""


class TamperedDataError(ChecksumError):
    """A data file a suite is about to read does not match the manifest's sha256 (verify on read).

    Raised instead of silently scoring modified data; names the file (and, for a symlink, the file it
    resolves to), the expected and actual sha256 and the repair command.
    """

    def __init__(self, path: str | Path, expected: str, actual: str, *, family: str,
                 resolved: str | Path | None = None, detail: str = "", repair: str | None = None) -> None:
        self.family = family
        self.resolved = str(resolved) if resolved is not None and str(resolved) != str(path) else None
        via = f"symlink to {self.resolved}; " if self.resolved else ""
        what = f"{detail}; " if detail else ""
        how = repair or (f"repair it with `sentiprobe data fetch {family} --force` (or `sentiprobe data verify "
                         f"{family}` to list every damaged file)")
        super().__init__(path, expected, actual, f"{via}{what}the file was modified or replaced; {how}")


class UnsafePathError(DataError):
    """A manifest path is absolute, contains ``..`` or resolves outside the data directory."""


class DownloadDeadlineError(DownloadError):
    """A download did not finish within its overall deadline (e.g. a mirror trickling bytes)."""


class DownloadStalledError(DownloadError):
    """A transfer timed out as stalled: it delivered less than the stall rate over the stall window
    (``data fetch --stall-rate`` / ``--stall-window``), however often single bytes arrived (a trickle never trips
    the per-read timeout)."""


class CacheCorruptError(SentiprobeError):
    """The prediction cache database is not a readable SQLite file; names it and how to repair it."""

    def __init__(self, path: str | Path, detail: str) -> None:
        self.path = str(path)
        self.detail = detail
        super().__init__(f"the prediction cache {self.path} is corrupt ({detail}); rerun with --repair-cache "
                         f"to move it aside (to {Path(self.path).name}.corrupt-<timestamp>) and start a fresh "
                         f"cache, or delete it (the cache is safe to delete)")


_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxtuple, _SHORT.maxdict, _SHORT.maxset = 3, 6, 6, 4, 6
_SHORT.maxstring = _SHORT.maxother = 60
_SHORT.maxlong = 40


def short_repr(value: object) -> str:
    """``repr(value)`` bounded in length and in work, for messages about values from untrusted input (a YAML alias
    bomb expands to 10^9 leaves; a plain repr would print them all)."""
    return _SHORT.repr(value)


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``known`` to ``name``, or ``""`` when none is close."""
    close = difflib.get_close_matches(str(name), list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def unknown_keys(keys: Iterable[str], known: Iterable[str]) -> str:
    """``'a' (did you mean 'b'?), 'c'``: the unknown keys, each with its suggestion."""
    known = list(known)
    return ", ".join(f"{k!r}{did_you_mean(k, known)}" for k in keys)


MAX_KNOWN_LISTED = 12
"""Most names an unknown-name error lists when none is close to what was typed."""


class UnknownNameError(SentiprobeError, KeyError):
    """An unknown registry name, with did-you-mean suggestions."""

    def __init__(self, kind: str, name: str, choices: Iterable[str]) -> None:
        self.kind = kind
        self.name = name
        self.choices = sorted(choices)
        folded = {c.lower(): c for c in self.choices}  # `SOUL-RC` is a misspelt `soul-rc`
        close = [folded[m] for m in difflib.get_close_matches(str(name).lower(), list(folded), n=3, cutoff=0.5)]
        # also suggest names that extend what the user typed ("arts" -> "arts-laptop")
        close += [c for c in self.choices if c.startswith(str(name).lower()) and c not in close][:3]
        msg = f"unknown {kind} {name!r}"
        if close:
            msg += "; did you mean " + " or ".join(repr(c) for c in close[:3]) + "?"
        elif len(self.choices) > MAX_KNOWN_LISTED:  # a manifest's hundreds of files: a few, and how many
            msg += (f"; known: {', '.join(self.choices[:MAX_KNOWN_LISTED])} and {len(self.choices) - MAX_KNOWN_LISTED}"
                    " more")
        else:
            msg += f"; known: {', '.join(self.choices)}"
        super().__init__(msg)

    def __str__(self) -> str:  # KeyError would repr() the message
        return self.args[0]


class PredictionError(SentiprobeError):
    """Predictions do not fit the suite: unknown ids, missing items, labels outside the label set."""

    def __init__(self, message: str, offenders: Sequence[str] = (), *, path: str | Path | None = None,
                 limit: int = 10) -> None:
        self.offenders = list(offenders)
        self.path = str(path) if path is not None else None
        shown = ", ".join(repr(o) for o in self.offenders[:limit])
        more = f" (and {len(self.offenders) - limit} more)" if len(self.offenders) > limit else ""
        where = f" in {self.path}" if self.path else ""
        text = f"{message}{where}"
        if self.offenders:
            text += f": {len(self.offenders)} offender(s), first: {shown}{more}"
        super().__init__(text)


class LabelSetError(SentiprobeError, ValueError):
    """Gold labels outside the label set a metric was asked to use.

    A gold label the metric does not know cannot be scored as right or wrong; counting it as a wrong
    class (as an index of -1 would) silently changes every rate, so it is an error. Predictions
    outside the label set are not errors: they are wrong answers. Also a ``ValueError``, which callers
    caught before this type existed.
    """

    def __init__(self, labels: Sequence[str], offenders: Iterable[object], limit: int = 5) -> None:
        self.labels = list(labels)
        self.offenders = sorted({str(o) for o in offenders})
        shown = ", ".join(repr(o) for o in self.offenders[:limit])
        more = f" (and {len(self.offenders) - limit} more)" if len(self.offenders) > limit else ""
        super().__init__(f"gold labels outside the label set {self.labels}: {shown}{more}")


class CapabilityError(SentiprobeError):
    """A model lacks a capability the suite needs (e.g. generate)."""


class MissingExtraError(SentiprobeError, ImportError):
    """An optional dependency is missing; says which extra installs it."""

    def __init__(self, package: str, extra: str, purpose: str = "") -> None:
        self.package = package
        self.extra = extra
        why = f" for {purpose}" if purpose else ""
        super().__init__(f"the package {package!r} is needed{why}: "
                         f"pip install 'sentiprobe[{extra}]'")


class ConfigError(SentiprobeError):
    """Invalid arguments or configuration."""


def require(module: str, extra: str, purpose: str = ""):
    """Import an optional dependency lazily, raising MissingExtraError with install advice."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise MissingExtraError(module.split(".")[0], extra, purpose) from exc
