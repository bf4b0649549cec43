"""MkDocs hooks of the documentation site (``mkdocs.yml``: ``hooks``).

The site's home page is the repository's README.md, which links to ``docs/...`` from the repository root. When
``index.md`` is rendered its text is replaced by the README's, with links and images into ``docs/`` made relative
to the docs folder; a link to any other repository file (not part of the site) becomes its text followed by the
path in code, so strict mode has nothing to reject and nothing is silently dropped.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
_LINK = re.compile(r"(?P<bang>!?)\[(?P<label>[^\]]+)\]\((?P<href>[^)\s]+)\)")


def readme_for_site(text: str) -> str:
    """README text with its links re-based from the repository root onto the docs folder."""
    def fix(m: re.Match[str]) -> str:
        bang, label, href = m.group("bang"), m.group("label"), m.group("href")
        if re.match(r"[a-z][a-z0-9+.-]*:", href) or href.startswith("#"):
            return m.group(0)
        if href.startswith("docs/"):
            return f"{bang}[{label}]({href[len('docs/'):]})"
        return m.group(0) if bang else f"{label} (`{href}`)"
    return _LINK.sub(fix, text)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    if page.file.src_uri == "index.md":
        return readme_for_site((ROOT / "README.md").read_text(encoding="utf-8"))
    return markdown
