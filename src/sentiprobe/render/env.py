"""The jinja2 environment of the HTML reports: templates shipped as package data, autoescape on for every
template (dataset and model text is untrusted), ``StrictUndefined`` (a misspelt variable is an error, not an
empty cell), the formatting helpers of :mod:`sentiprobe.render.format` as filters.

:func:`render` returns :class:`markupsafe.Markup`, so a fragment rendered by one template is inserted into
another without being escaped twice; plain strings (text from data) are always escaped. The inline SVG charts
of :mod:`sentiprobe.render.svg` escape their own labels and are passed in with :func:`chart`.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, cast

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from ..core.types import ci_label
from . import format as fmt


@cache
def environment() -> Environment:
    """The one environment (built on first use; templates are compiled once per process)."""
    env = Environment(loader=PackageLoader("sentiprobe.render", "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False)
    env.filters.update(pct=fmt.pct, pct1=fmt.pct1, num=fmt.num, value=fmt.format_value,
                       signed=fmt.signed, p_value=fmt.p_value, short=fmt.short, text=fmt.text, unit_label=_unit_label,
                       ci_label=ci_label)
    env.globals.update(unit_of=fmt.unit_of)
    return env


def _unit_label(unit: str) -> str:
    return fmt.UNIT_LABELS.get(unit, unit)


def render(template: str, /, **context: Any) -> Markup:
    """Render ``template`` (a name under ``sentiprobe/render/templates``) with ``context``; leading and trailing
    white space dropped (a section with nothing to show is ``''``)."""
    return Markup(environment().get_template(template).render(**context).strip())


def macro(template: str, name: str) -> Callable[..., Markup]:
    """The macro ``name`` of ``template`` as a function (for a cell or note rendered on its own)."""
    return cast("Callable[..., Markup]", getattr(environment().get_template(template).module, name))


def chart(markup: str) -> Markup:
    """An SVG chart built by :mod:`sentiprobe.render.svg` (whose labels are escaped there) as markup."""
    return Markup(markup)


__all__ = ["chart", "environment", "macro", "render"]
