"""Rendering helpers of the HTML reports: a leaf package (it imports only :mod:`sentiprobe.core`), so the suites'
report stages and :mod:`sentiprobe.report` both use it.

- :mod:`~sentiprobe.render.env`: the jinja2 environment (autoescape, ``StrictUndefined``), :func:`render` and
  :func:`fragment`;
- :mod:`~sentiprobe.render.format`: percentages, metric values by unit, intervals, p-values;
- :mod:`~sentiprobe.render.svg`: tiny inline-SVG charts (no plotting dependency);
- ``templates/``: the base page, the run and comparison reports and one template per suite section.
"""
from __future__ import annotations

from .env import fragment, render

__all__ = ["fragment", "render"]
