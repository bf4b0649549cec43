"""What :func:`sentiprobe.data.fetch` did, file by file (:class:`FetchReport`, written as JSON by ``data fetch``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class FetchOutcome:
    """What happened to one manifest file.

    Attributes:
        path: manifest path.
        action: ``fetched`` (downloaded), ``derived`` (rebuilt by its recipe), ``skipped`` (already present
            and verified), ``failed``, or ``unpublished`` (optional file, not attempted or not available).
        source: the URL, mirror location or recipe used; ``None`` when nothing was attempted.
        size: bytes on disk after the operation (``None`` when absent).
        sha256: sha256 of the file on disk after the operation (``None`` when absent).
        message: human-readable detail (why it failed, how to supply an unpublished file).
        error: exception class name for failures (``ChecksumError``, ``DownloadError``, ...).
        expected_sha256 / actual_sha256: for checksum failures.
    """

    path: str
    action: str
    source: str | None = None
    size: int | None = None
    sha256: str | None = None
    message: str = ""
    error: str | None = None
    expected_sha256: str | None = None
    actual_sha256: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class FetchReport:
    """Result of :func:`fetch`; ``ok`` is False when any file failed."""

    data_dir: str
    mirror: str | None
    files: tuple[FetchOutcome, ...]
    schema_version: int = SCHEMA_VERSION

    def _with(self, action: str) -> list[FetchOutcome]:
        return [f for f in self.files if f.action == action]

    @property
    def fetched(self) -> list[FetchOutcome]:
        return self._with("fetched") + self._with("derived")

    @property
    def skipped(self) -> list[FetchOutcome]:
        return self._with("skipped")

    @property
    def failed(self) -> list[FetchOutcome]:
        return self._with("failed")

    @property
    def unpublished(self) -> list[FetchOutcome]:
        return self._with("unpublished")

    @property
    def ok(self) -> bool:
        return not self.failed

    def to_dict(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for f in self.files:
            counts[f.action] = counts.get(f.action, 0) + 1
        return {"schema_version": self.schema_version, "kind": "sentiprobe-fetch-report",
                "data_dir": self.data_dir, "mirror": self.mirror, "ok": self.ok, "counts": counts,
                "files": [f.to_dict() for f in self.files]}


__all__ = ["SCHEMA_VERSION", "FetchOutcome", "FetchReport"]
