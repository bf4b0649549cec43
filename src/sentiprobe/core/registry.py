"""The one registry: name -> value, with did-you-mean errors and entry-point plug-ins.

:class:`NameRegistry` is the one mechanism (lookup, names, iteration, plug-ins); the suites' registry is one
(``SUITES``: name -> ``SuiteSpec``) and :class:`Registry` the models' (``MODELS``: name -> :class:`Entry`, a factory
with typed options and tags). Third-party packages add suites or models through the entry-point groups
``sentiprobe.suites`` and ``sentiprobe.models``; each entry point names a callable that receives the registry and
registers into it (``SUITES.register(spec)``, ``MODELS.register(name, factory, options=...)``).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .errors import ConfigError, UnknownNameError, unknown_keys
from .options import describe_options, option_fields, parse_values

T = TypeVar("T")


class NameRegistry(Generic[T]):
    """Name -> value (a suite spec, a model :class:`Entry`), with did-you-mean errors and entry-point plug-ins.

    ``kind`` names the values in messages (``unknown suite 'arts-lap'; did you mean 'arts-laptop'?``). The entry
    points of ``entry_point_group`` are loaded on first use: each names a callable that receives the registry
    and registers into it; what they add is in :attr:`plugin_names`.
    """

    def __init__(self, kind: str, entry_point_group: str | None = None) -> None:
        self.kind = kind
        self._entries: dict[str, T] = {}
        self._group = entry_point_group
        self._plugins_loaded = False
        self.plugin_names: set[str] = set()  # registered by entry-point plug-ins

    def add(self, name: str, value: T, same: Callable[[T, T], bool] | None = None) -> T:
        """Register ``value`` under ``name``; a second, different value under a taken name is a ValueError
        (``same(old, new)``: whether re-registering replaces harmlessly; default: only the same object)."""
        old = self._entries.get(name)
        if old is not None and not (same(old, value) if same is not None else old is value):
            raise ValueError(f"{self.kind} {name!r} is already registered")
        self._entries[name] = value
        return value

    def _load_plugins(self) -> None:
        if self._plugins_loaded or not self._group:
            return
        self._plugins_loaded = True
        from importlib.metadata import entry_points

        for ep in entry_points(group=self._group):
            before = set(self._entries)
            ep.load()(self)
            self.plugin_names |= set(self._entries) - before

    def get(self, name: str) -> T:
        """The value registered as ``name`` (UnknownNameError with did-you-mean otherwise)."""
        self._load_plugins()
        try:
            return self._entries[name]
        except KeyError:
            raise UnknownNameError(self.kind, name, self._entries) from None

    def names(self) -> list[str]:
        self._load_plugins()
        return sorted(self._entries)

    def __contains__(self, name: object) -> bool:
        self._load_plugins()
        return name in self._entries

    def __iter__(self) -> Iterator[T]:
        self._load_plugins()
        return iter(self._entries[n] for n in sorted(self._entries))


@dataclass(frozen=True)
class Entry(Generic[T]):
    """A registered factory.

    Attributes:
        name: registry key (lower-case, hyphenated).
        factory: callable building the object; its keyword arguments are the fields of ``options``.
        description: one line shown by ``sentiprobe list``.
        options: the typed arguments (a frozen dataclass of :func:`~sentiprobe.core.options.option` fields):
            ``--model-arg`` values are parsed and checked against it before ``factory`` is called, and
            ``sentiprobe list models`` shows it. None: a plug-in's factory documented by ``params`` only, whose
            values reach it as given.
        params: ``{name: "type, default: meaning"}``: derived from ``options``, else as registered.
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
    options: type | None = None

    def arguments(self) -> list[str] | None:
        """The keyword arguments the factory takes (None: any, unchecked): see :func:`accepted_arguments`."""
        if self.options is not None:
            return [f.name for f in option_fields(self.options)]
        return accepted_arguments(self.factory, self.params)

    def parse(self, kwargs: Mapping[str, Any], what: str) -> dict[str, Any]:
        """``kwargs`` checked (unknown keys with did-you-mean) and, with declared options, converted to their
        types (``what`` starts error messages: ``model 'tfidf-lr'``); only the given keys are returned, so the
        factory's defaults stay in force."""
        if self.options is None:
            check_arguments(what, self.factory, dict(kwargs), self.params)
            return dict(kwargs)
        return parse_values(self.options, kwargs, owner=what, noun="argument")


class Registry(NameRegistry[Entry[T]]):
    """Name -> :class:`Entry` (a factory with typed options and tags): the model registry (``MODELS``)."""

    def register(self, name: str, factory: Callable[..., T] | None = None, *, description: str = "",
                 options: type | None = None, params: dict[str, str] | None = None, tags: tuple[str, ...] = (),
                 cost: float | None = None) -> Any:
        """Register ``factory`` under ``name``; usable as a decorator when ``factory`` is omitted.

        ``options``: the typed arguments (see :class:`Entry`); ``params``: free-text documentation of the
        arguments of a factory without ``options`` (plug-ins written before options existed).
        """

        def deco(f: Callable[..., T]) -> Callable[..., T]:
            documented = describe_params(options) if options is not None else dict(params or {})
            self.add(name, Entry(name, f, description or (f.__doc__ or "").strip().split("\n")[0], documented,
                                 tuple(tags), cost, options), same=lambda old, new: old.factory is new.factory)
            return f

        return deco(factory) if factory is not None else deco

    def entry(self, name: str) -> Entry[T]:
        return self.get(name)

    def create(self, name: str, **kwargs: Any) -> T:
        """Build ``name`` with keyword arguments, parsed by its options; unknown or invalid arguments raise
        ConfigError (did-you-mean) before the factory runs."""
        entry = self.entry(name)
        return entry.factory(**entry.parse(kwargs, f"{self.kind} {name!r}"))

    def names(self, tag: str | None = None) -> list[str]:
        return sorted(e.name for e in self if tag is None or tag in e.tags)


def describe_params(options: type) -> dict[str, str]:
    """``{name: "type, default X: help"}`` of an options dataclass (what ``Entry.params`` shows)."""
    out = {}
    for name, d in describe_options(options).items():
        extra = f", one of {'|'.join(map(str, d['choices']))}" if d["choices"] else ""
        extra += f", {d['range']}" if d.get("range") else ""
        default = "unset" if d["default"] is None else d["default"]
        out[name] = f"{d['type']}{extra}, default {default}: {d['help']}"
    return out


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
