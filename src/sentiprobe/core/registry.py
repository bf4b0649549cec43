"""Name -> factory registries with did-you-mean errors and entry-point plug-ins.

Third-party packages add suites or models through the entry-point groups
``sentiprobe.suites`` and ``sentiprobe.models``; each entry point names a callable that
receives the registry and registers into it.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .errors import ConfigError, UnknownNameError, unknown_keys

T = TypeVar("T")


@dataclass(frozen=True)
class Entry(Generic[T]):
    """A registered factory.

    Attributes:
        name: registry key (lower-case, hyphenated).
        factory: callable building the object; keyword arguments are the documented params.
        description: one line shown by ``sentiprobe list``.
        params: documented keyword arguments ``{name: "type, default: meaning"}``.
        tags: free labels (``default`` marks models run by a bare ``sentiprobe run``).
        cost: models: rough seconds of the model's part of the main job on a 2-core machine, for the lane plan
            (:func:`sentiprobe.run.lanes.plan_lanes`); None: estimated from the tags.
    """

    name: str
    factory: Callable[..., T]
    description: str = ""
    params: dict[str, str] = field(default_factory=dict)
    tags: tuple[str, ...] = ()
    cost: float | None = None


class Registry(Generic[T]):
    def __init__(self, kind: str, entry_point_group: str | None = None) -> None:
        self.kind = kind
        self._entries: dict[str, Entry[T]] = {}
        self._group = entry_point_group
        self._plugins_loaded = False
        self.plugin_names: set[str] = set()  # registered by entry-point plug-ins

    def register(self, name: str, factory: Callable[..., T] | None = None, *, description: str = "",
                 params: dict[str, str] | None = None, tags: tuple[str, ...] = (),
                 cost: float | None = None) -> Any:
        """Register ``factory`` under ``name``; usable as a decorator when ``factory`` is omitted."""

        def deco(f: Callable[..., T]) -> Callable[..., T]:
            if name in self._entries and self._entries[name].factory is not f:
                raise ValueError(f"{self.kind} {name!r} is already registered")
            self._entries[name] = Entry(name, f, description or (f.__doc__ or "").strip().split("\n")[0],
                                        dict(params or {}), tuple(tags), cost)
            return f

        return deco(factory) if factory is not None else deco

    def _load_plugins(self) -> None:
        if self._plugins_loaded or not self._group:
            return
        self._plugins_loaded = True
        from importlib.metadata import entry_points

        for ep in entry_points(group=self._group):
            before = set(self._entries)
            ep.load()(self)
            self.plugin_names |= set(self._entries) - before

    def entry(self, name: str) -> Entry[T]:
        self._load_plugins()
        try:
            return self._entries[name]
        except KeyError:
            raise UnknownNameError(self.kind, name, self._entries) from None

    def create(self, name: str, **kwargs: Any) -> T:
        """Build ``name`` with keyword arguments; unknown arguments raise ConfigError with suggestions."""
        entry = self.entry(name)
        check_arguments(f"{self.kind} {name!r}", entry.factory, kwargs, entry.params)
        return entry.factory(**kwargs)

    def names(self, tag: str | None = None) -> list[str]:
        self._load_plugins()
        return sorted(n for n, e in self._entries.items() if tag is None or tag in e.tags)

    def __contains__(self, name: str) -> bool:
        self._load_plugins()
        return name in self._entries

    def __iter__(self) -> Iterator[Entry[T]]:
        self._load_plugins()
        return iter(sorted(self._entries.values(), key=lambda e: e.name))


def accepted_arguments(factory: Callable[..., Any], documented: Iterable[str] = ()) -> list[str] | None:
    """The keyword arguments ``factory`` takes: its named parameters, plus the ``documented`` ones (an entry's
    ``params``) when it passes ``**kwargs`` on; None when it takes ``**kwargs`` and documents nothing (unchecked).

    Why the documented names: a factory such as ``lambda **kw: Model(**kw)`` would otherwise accept any key and
    fail with a TypeError deep inside the model.
    """
    import inspect

    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # builtins without a signature
        return None
    known = [n for n, p in params.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        extra = [d for d in documented if d not in known]
        return known + extra if extra else None
    return known


def check_arguments(what: str, factory: Callable[..., Any], kwargs: dict[str, Any],
                    documented: Iterable[str] = ()) -> None:
    """Raise ConfigError naming unknown keyword arguments (with did-you-mean) before calling ``factory``
    (see :func:`accepted_arguments`; a ``**kwargs`` factory without documented params checks its own)."""
    known = accepted_arguments(factory, documented)
    if known is None:
        return
    unknown = [k for k in kwargs if k not in known]
    if unknown:
        raise ConfigError(f"{what}: unknown argument(s) {unknown_keys(unknown, known)}; "
                          f"known: {', '.join(known) or 'none'}")
