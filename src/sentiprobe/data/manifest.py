"""The manifest of upstream data files (``manifest.json``, package data built by ``tools/build_manifest.py``).

One :class:`ManifestFile` per file: manifest path (``family/relative/path``, as laid out under the data
directory), status, pinned URL, sha256, size, git blob id and licence note. Statuses:

- ``upstream``: a byte copy of a file at a pinned commit; ``url`` is its raw GitHub URL.
- ``derived`` / ``transcribed``: made from other material; ``url`` is ``None``, ``origin`` says how, and
  ``derive`` (when set) is the recipe sentiprobe uses to rebuild it (see :mod:`sentiprobe.data.derive`).
- ``unpublished``: not in the reference data (never published, or absent from every available copy).
  Optional: ``sha256``/``size`` are ``None``; ``git_blob`` is the expected upstream blob id when known;
  ``reason``, ``substitute`` and ``how_to_supply`` explain the situation. ``url`` is the pinned upstream
  location when the file exists in an upstream git tree (fetched only on request).
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.errors import DataError, UnknownNameError, UnsafePathError

SCHEMA_VERSION = 1
STATUSES = ("upstream", "derived", "transcribed", "unpublished")
MANIFEST_RESOURCE = "manifest.json"


@dataclass(frozen=True)
class SourceRef:
    """Where an upstream file lives: GitHub ``owner/name``, full commit id, path inside the repository."""

    repository: str
    commit: str
    path: str

    def to_dict(self) -> dict[str, str]:
        return {"repository": self.repository, "commit": self.commit, "path": self.path}


@dataclass(frozen=True)
class DeriveRecipe:
    """How sentiprobe rebuilds a derived/transcribed file.

    Attributes:
        recipe: recipe name (``pickle-dict-to-json``, ``pickle-dict-to-tsv``, ``python-literal-to-json``).
        inputs: manifest paths the recipe reads (downloaded first).
        source_url: an extra pinned upstream file the recipe reads (not itself a data file), or ``None``.
        source_git_blob: expected git blob id of ``source_url``'s content.
        params: recipe parameters (JSON object).
    """

    recipe: str
    inputs: tuple[str, ...]
    source_url: str | None
    source_git_blob: str | None
    params: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        src = None
        if self.source_url:
            src = {"url": self.source_url, "git_blob": self.source_git_blob}
        return {"recipe": self.recipe, "inputs": list(self.inputs), "source": src, "params": dict(self.params)}


@dataclass(frozen=True)
class ManifestFile:
    """One file of the data directory (or an optional, unpublished one). See the module docstring."""

    path: str
    family: str
    status: str
    url: str | None
    source: SourceRef | None
    sha256: str | None
    size: int | None
    git_blob: str | None
    licence: str
    origin: str | None = None
    derive: DeriveRecipe | None = None
    reason: str | None = None
    substitute: str | None = None
    how_to_supply: str | None = None

    @property
    def optional(self) -> bool:
        return self.status == "unpublished"

    @property
    def rel(self) -> str:
        """Path relative to the family folder."""
        return self.path.split("/", 1)[1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path, "family": self.family, "status": self.status, "url": self.url,
            "source": self.source.to_dict() if self.source else None, "sha256": self.sha256,
            "size": self.size, "git_blob": self.git_blob, "licence": self.licence, "origin": self.origin,
            "derive": self.derive.to_dict() if self.derive else None, "reason": self.reason,
            "substitute": self.substitute, "how_to_supply": self.how_to_supply,
        }


@dataclass(frozen=True)
class FamilySource:
    """An upstream repository snapshot a family draws from (``name`` is the PROVENANCE's short name)."""

    name: str
    repository: str
    commit: str


@dataclass(frozen=True)
class FamilyInfo:
    """A data family (a folder of the data directory)."""

    name: str
    title: str
    citation: str
    licence: str
    provenance: str
    sources: tuple[FamilySource, ...]
    files: int
    bytes: int


@dataclass(frozen=True)
class Manifest:
    """All families and files; ``files`` sorted by path."""

    schema_version: int
    families: dict[str, FamilyInfo]
    files: tuple[ManifestFile, ...]

    def __iter__(self) -> Iterator[ManifestFile]:
        return iter(self.files)

    @property
    def family_names(self) -> list[str]:
        return list(self.families)

    def get(self, path: str) -> ManifestFile | None:
        return self._index().get(path)

    def entry(self, path: str) -> ManifestFile:
        """The entry for ``path``; UnknownNameError (with did-you-mean) when absent."""
        e = self.get(path)
        if e is None:
            raise UnknownNameError("manifest file", path, self._index())
        return e

    def select(self, families: Iterable[str] | str | None = None, *,
               include_unpublished: bool = True) -> list[ManifestFile]:
        """Entries of ``families`` (all when ``None``); families are validated (UnknownNameError)."""
        if isinstance(families, str):
            families = [families]
        wanted = None
        if families is not None:
            wanted = set()
            for f in families:
                if f not in self.families:
                    raise UnknownNameError("data family", f, self.families)
                wanted.add(f)
        return [e for e in self.files if (wanted is None or e.family in wanted)
                and (include_unpublished or not e.optional)]

    def _index(self) -> dict[str, ManifestFile]:
        idx = self.__dict__.get("_idx")
        if idx is None:
            idx = {e.path: e for e in self.files}
            object.__setattr__(self, "_idx", idx)
        return idx


def unsafe_path_reason(rel: str) -> str | None:
    """Why ``rel`` cannot be a data-dir-relative manifest path, or ``None`` when it is safe.

    Why: a manifest path is joined to the data directory and read (and, by ``data fetch``, written); an
    absolute path, a ``..`` component, a backslash or drive letter (Windows separators) or a NUL byte
    would let a manifest (reachable through the Python API) address files outside the data directory.
    """
    if not isinstance(rel, str):
        return f"not a string ({type(rel).__name__})"
    if not rel:
        return "empty path"
    if "\0" in rel:
        return "NUL byte in path"
    if "\\" in rel:
        return "backslash in path (use '/')"
    if rel.startswith("/") or (len(rel) > 1 and rel[1] == ":"):
        return "absolute path"
    if ".." in rel.split("/"):
        return "'..' component in path"
    return None


def check_relative_path(rel: str, *, source: str | Path | None = None, record: str | None = None,
                        field: str = "path") -> str:
    """``rel`` unchanged when :func:`unsafe_path_reason` finds nothing; UnsafePathError otherwise."""
    why = unsafe_path_reason(rel)
    if why is not None:
        raise UnsafePathError(f"unsafe manifest path {rel!r}: {why}; paths must stay inside the data directory",
                              path=source, record=record if record is not None else rel, field=field)
    return rel


def _req(d: dict[str, Any], key: str, where: str, path: str, types: type | tuple[type, ...]) -> Any:
    if key not in d:
        raise DataError("missing field", path=path, record=where, field=key)
    v = d[key]
    if not isinstance(v, types):
        raise DataError(f"wrong type {type(v).__name__}", path=path, record=where, field=key)
    return v


def parse_manifest(doc: Any, path: str = MANIFEST_RESOURCE) -> Manifest:
    """Validate and convert a manifest JSON document; DataError names the record and field."""
    if not isinstance(doc, dict):
        raise DataError("manifest must be a JSON object", path=path)
    version = _req(doc, "schema_version", "manifest", path, int)
    if version != SCHEMA_VERSION:
        raise DataError(f"unsupported schema_version {version} (this sentiprobe reads {SCHEMA_VERSION})",
                        path=path, field="schema_version")
    fams = {}
    for name, f in _req(doc, "families", "manifest", path, dict).items():
        srcs = tuple(FamilySource(_req(s, "name", name, path, str), _req(s, "repository", name, path, str),
                                  _req(s, "commit", name, path, str))
                     for s in _req(f, "sources", name, path, list))
        fams[name] = FamilyInfo(name, _req(f, "title", name, path, str), _req(f, "citation", name, path, str),
                                _req(f, "licence", name, path, str), _req(f, "provenance", name, path, str),
                                srcs, _req(f, "files", name, path, int), _req(f, "bytes", name, path, int))
    files, seen = [], set()
    opt_str = (str, type(None))
    for i, d in enumerate(_req(doc, "files", "manifest", path, list)):
        where = f"files[{i}]"
        p = check_relative_path(_req(d, "path", where, path, str), source=path, record=where)
        where = p
        if p in seen:
            raise DataError("duplicate manifest path", path=path, record=p, field="path")
        seen.add(p)
        family = _req(d, "family", where, path, str)
        if family not in fams or not p.startswith(family + "/"):
            raise DataError(f"family {family!r} unknown or not the path's first folder", path=path, record=p,
                            field="family")
        status = _req(d, "status", where, path, str)
        if status not in STATUSES:
            raise DataError(f"status must be one of {STATUSES}", path=path, record=p, field="status")
        sha, size = _req(d, "sha256", where, path, opt_str), _req(d, "size", where, path, (int, type(None)))
        if status != "unpublished" and (sha is None or size is None):
            raise DataError("sha256 and size are required unless status is 'unpublished'", path=path,
                            record=p, field="sha256" if sha is None else "size")
        url = _req(d, "url", where, path, opt_str)
        if status == "upstream" and not url:
            raise DataError("an upstream file needs a url", path=path, record=p, field="url")
        src = d.get("source")
        der = d.get("derive")
        recipe = None
        if der is not None:
            s = der.get("source") or {}
            inputs = tuple(check_relative_path(i, source=path, record=p, field="derive.inputs")
                           for i in _req(der, "inputs", where, path, list))
            recipe = DeriveRecipe(_req(der, "recipe", where, path, str), inputs, s.get("url"), s.get("git_blob"),
                                  dict(der.get("params") or {}))
        files.append(ManifestFile(
            path=p, family=family, status=status, url=url,
            source=SourceRef(src["repository"], src["commit"], src["path"]) if src else None,
            sha256=sha, size=size, git_blob=_req(d, "git_blob", where, path, opt_str),
            licence=_req(d, "licence", where, path, str), origin=d.get("origin"), derive=recipe,
            reason=d.get("reason"), substitute=d.get("substitute"), how_to_supply=d.get("how_to_supply")))
    return Manifest(version, fams, tuple(sorted(files, key=lambda e: e.path)))


def load_manifest(path: str | Path | None = None) -> Manifest:
    """The packaged manifest (cached), or the manifest JSON at ``path``."""
    if path is not None:
        p = Path(path)
        try:
            doc = json.loads(p.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise DataError(f"invalid JSON: {exc.msg}", path=p, record=f"line {exc.lineno}") from None
        return parse_manifest(doc, str(p))
    return _packaged()


@lru_cache(maxsize=1)
def _packaged() -> Manifest:
    text = resources.files(__package__).joinpath(MANIFEST_RESOURCE).read_text(encoding="utf-8")
    return parse_manifest(json.loads(text), f"sentiprobe/data/{MANIFEST_RESOURCE}")
