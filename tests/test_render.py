"""The report templates (sentiprobe.render): autoescape everywhere, StrictUndefined, shipped as package data."""
from __future__ import annotations

import tomllib
from pathlib import Path

import jinja2
import pytest

from sentiprobe.render import fragment, render
from sentiprobe.render.env import environment

REPO = Path(__file__).resolve().parents[1]
TEMPLATES = REPO / "src" / "sentiprobe" / "render" / "templates"
EVIL = "<script>alert(1)</script>\"'&"


def test_text_is_escaped_and_markup_is_not_escaped_twice():
    html = render("report/identity_table.html.j2", rows=[(EVIL, EVIL)])
    assert "<script>" not in html and html.count("&lt;script&gt;") == 2 and "&amp;" in html
    page = render("base.html.j2", title=EVIL, body=fragment("<svg></svg>"))
    assert "<title>&lt;script&gt;" in page and "<svg></svg>" in page  # a chart passes as markup
    assert render("base.html.j2", title="t", body="<b>x</b>").count("&lt;b&gt;") == 1  # a plain str does not


def test_every_template_autoescapes_and_a_missing_variable_is_an_error():
    env = environment()
    assert env.autoescape is True and env.undefined is jinja2.StrictUndefined
    names = env.list_templates(filter_func=lambda n: n.endswith(".j2"))
    assert len(names) >= 20
    for name in names:  # each one compiles
        env.get_template(name)
    with pytest.raises(jinja2.UndefinedError):
        render("report/identity_table.html.j2")  # rows not given


def test_the_templates_are_package_data():
    """Every file under render/templates matches pyproject's package-data (so `pip install` ships it)."""
    globs = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["sentiprobe"]
    root = REPO / "src" / "sentiprobe"
    shipped = {p for g in globs for p in root.glob(g)}  # setuptools' glob: `*` stays in a folder, `**` recurses
    files = [p for p in TEMPLATES.rglob("*") if p.is_file()]
    assert files
    missing = [p.relative_to(root).as_posix() for p in files if p not in shipped]
    assert not missing, missing
