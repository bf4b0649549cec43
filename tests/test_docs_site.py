"""The documentation site's home page is the README with its links re-based (tools/mkdocs_hooks.py).

``make docs`` (part of ``make test``) builds the whole site with ``--strict``; this checks the hook alone.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mkdocs_hooks", REPO / "tools" / "mkdocs_hooks.py")
assert _spec is not None and _spec.loader is not None
hooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hooks)


def test_readme_links_are_rebased_onto_the_docs_folder():
    text = ("See [LLM backends](docs/llm.md), [ARS](docs/protocols/arts.md#ars), ![plot](docs/img/p.png), "
            "[the paper](https://aclanthology.org/x), [below](#usage) and [the licence](LICENSE).")
    assert hooks.readme_for_site(text) == (
        "See [LLM backends](llm.md), [ARS](protocols/arts.md#ars), ![plot](img/p.png), "
        "[the paper](https://aclanthology.org/x), [below](#usage) and the licence (`LICENSE`).")


def test_the_home_page_is_the_readme():
    class Page:
        class file:  # the shape of mkdocs' Page.file
            src_uri = "index.md"
    out = hooks.on_page_markdown("placeholder", Page())
    assert out == hooks.readme_for_site((REPO / "README.md").read_text(encoding="utf-8"))
    assert out.startswith("# sentiprobe")
    Page.file.src_uri = "soul.md"
    assert hooks.on_page_markdown("x", Page()) == "x"
