"""The jinja2 environment of the HTML reports: templates shipped as package data, autoescape on for every
template (dataset and model text is untrusted), ``StrictUndefined`` (a misspelt variable is an error, not an
empty cell), the formatting helpers of :mod:`sentiprobe.render.format` as filters.

:func:`render` returns a plain ``str`` (HTML), so whatever a caller appends to it is not escaped behind its
back; every string a template receives is escaped unless it is wrapped in :func:`fragment`, which only
sentiprobe's own HTML is: the output of another template, or an inline SVG chart of :mod:`sentiprobe.render.svg`
(which escapes its own labels).
"""
from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, cast

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from ..core.results import small_sample_note
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
    env.globals.update(unit_of=fmt.unit_of, small_sample_note=small_sample_note)
    return env


def _unit_label(unit: str) -> str:
    return fmt.UNIT_LABELS.get(unit, unit)


def render(template: str, /, **context: Any) -> str:
    """Render ``template`` (a name under ``sentiprobe/render/templates``) with ``context``; leading and trailing
    white space dropped (a section with nothing to show is ``''``). A plain ``str``: pass it to another template
    through :func:`fragment`."""
    return environment().get_template(template).render(**context).strip()


def macro(template: str, name: str) -> Callable[..., Markup]:
    """The macro ``name`` of ``template`` as a function (for a cell or note rendered on its own)."""
    return cast("Callable[..., Markup]", getattr(environment().get_template(template).module, name))


def fragment(html: str) -> Markup:
    """HTML that sentiprobe built, marked safe for a template: a fragment :func:`render` returned, or a chart of
    :mod:`sentiprobe.render.svg` (which escapes its own labels). Never data or model text."""
    return Markup(html)


__all__ = ["environment", "fragment", "macro", "render"]
