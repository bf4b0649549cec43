"""The protocol pages, their anchors, the citation map and the citation rewriter (tools/rewrite_spec_citations.py).

Code and docs cite the former internal specs ("spec §5.4"); docs/protocols/CITATIONS.tsv maps every spec section to
a section of docs/protocols/<family>.md and the rewriter turns the citations into links. These tests check that
every target exists, that the rewriter resolves every citation in the tree, and that its output still parses,
fits the line length and links to anchors that exist.
"""
from __future__ import annotations

import ast
import importlib.util
import os
import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PROTOCOLS = REPO / "docs" / "protocols"
_spec = importlib.util.spec_from_file_location("rewrite_spec_citations", REPO / "tools" / "rewrite_spec_citations.py")
assert _spec is not None and _spec.loader is not None
rw = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = rw  # dataclasses look their module up
_spec.loader.exec_module(rw)

ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(page: Path) -> list[str]:
    return ANCHOR.findall(page.read_text(encoding="utf-8"))


def test_every_protocol_page_has_unique_anchors_before_headings():
    pages = sorted(PROTOCOLS.glob("*.md"))
    assert {p.stem for p in pages} >= {"arts", "noncompsst", "sentivent", "triplets", "lexcomp", "soul"}
    for page in pages:
        found = anchors(page)
        assert len(found) == len(set(found)), f"{page.name}: duplicate anchors"
        lines = page.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if ANCHOR.fullmatch(line.strip()):
                where = f"{page.name}:{i + 1}"
                assert lines[i + 1] == "" and lines[i + 2].startswith("#"), f"{where}: anchor not before a heading"
            elif line.startswith("## ") or line.startswith("### "):
                assert i >= 2 and ANCHOR.fullmatch(lines[i - 2].strip()), f"{page.name}:{i + 1}: heading without anchor"


def test_every_citation_target_exists():
    table = rw.load_table()
    assert len(table) > 100
    for (proto, section), target in table.items():
        page = REPO / target.path
        assert page.is_file(), f"{proto} §{section}: {target.path} missing"
        if target.anchor:
            assert target.anchor in anchors(page), f"{proto} §{section}: #{target.anchor} not in {target.path}"
        if "." in section:  # a subsection's parent is mapped too
            assert (proto, section.rsplit(".", 1)[0]) in table
    for proto in rw.PROTOCOLS:
        assert (proto, "-") in table


@pytest.mark.parametrize(("text", "rel", "expected"), [
    ("# binning (spec §4.2), removal (§4.3).", "src/sentiprobe/suites/noncompsst/sst7.py",
     "# binning (docs/protocols/noncompsst.md#sst7-binning), removal (docs/protocols/noncompsst.md#removal-rule)."),
    ("# (spec ``arts.md`` §5.1-5.2)", "src/sentiprobe/x.py", "# (docs/protocols/arts.md#ars, #subset-accuracy)"),
    ("# (SENTiVENT spec section 9)", "src/sentiprobe/stats/x.py", "# (docs/protocols/sentivent.md#agreement)"),
    ("# (spec sections 2.8 and 6)", "src/sentiprobe/suites/triplets/x.py",
     "# (docs/protocols/triplets.md#data, #measures)"),
    ("# (see ../shared/specs/soul.md)", "src/sentiprobe/suites/soul/x.py", "# (see docs/protocols/soul.md)"),
    ("**Binning** (spec §4.2): x", "docs/noncompsst.md",
     "**Binning** ([SST-7 labels](protocols/noncompsst.md#sst7-binning)): x"),
    ("Spec: `../shared/specs/sentivent.md` sections 2.8 and 6.", "docs/triplets.md",
     "Protocol: [triplet data](protocols/triplets.md#data), [triplet extraction](protocols/triplets.md#measures)."),
    ("## LexComp\n\nAblations (spec §8, x)", "README.md",
     "## LexComp\n\nAblations ([ablations](docs/protocols/lexcomp.md#ablations), x)"),
])
def test_rewrite_examples(text, rel, expected):
    findings = []
    assert rw.rewrite_text(text, rel, rw.load_table(), findings) == expected
    assert findings == []


def test_rewrite_leaves_strings_and_unknown_sections_alone():
    table = rw.load_table()
    src = 'x = "spec soul.md 6.4"  # spec §6.4\n'
    findings = []
    out = rw.rewrite_text(src, "src/sentiprobe/models/hf_nli.py", table, findings)
    assert out == 'x = "spec soul.md 6.4"  # docs/protocols/soul.md#nli\n'
    assert [f.problem.split(":")[0] for f in findings] == ["in a string literal or code"]
    findings = []
    assert rw.rewrite_text("# spec §42\n", "src/sentiprobe/suites/arts/x.py", table, findings) == "# spec §42\n"
    assert "not in CITATIONS.tsv" in findings[0].problem


def test_reflow_keeps_python_valid_and_short():
    src = ('def f():\n    """' + "word " * 18 + '(spec §5.4) and more words that continue\n'
           '    the same paragraph here."""\n    return 1  # ' + "x" * 60 + " (spec §5.4) " + "y" * 30 + "\n")
    out = rw.rewrite_text(src, "src/sentiprobe/suites/noncompsst/x.py", rw.load_table(), [])
    ast.parse(out)
    assert all(len(line) <= rw.LINE_LENGTH for line in out.splitlines())
    assert "docs/protocols/noncompsst.md#numerics" in out and out.rstrip().endswith("return 1")


def _link_ok(rel: str, href: str) -> bool:
    path, _, anchor = href.partition("#")
    if re.match(r"[a-z]+:", path):
        return True
    target = (REPO / os.path.dirname(rel) / path).resolve() if path else REPO / rel
    if not target.exists():
        return False
    return not anchor or target.suffix != ".md" or anchor in anchors(target) or anchor in _slugs(target)


def _slugs(page: Path) -> set[str]:
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.*)$", page.read_text(encoding="utf-8"), re.M)}


def test_rewrite_of_the_tree_resolves_everything():
    """Dry run over every tracked file: each citation resolves; Python stays valid and within the line length;
    new Markdown links reach existing anchors; a second pass changes nothing. Citations inside string literals
    are left for a decision by hand (messages and model fingerprints) and only reported."""
    table = rw.load_table()
    problems = []
    for rel in rw.tracked_files(list(rw.DEFAULT_PATHS)):
        text = (REPO / rel).read_text(encoding="utf-8")
        findings = []
        new = rw.rewrite_text(text, rel, table, findings)
        problems += [f"{f.path}:{f.line}: {f.problem}: {f.text!r}" for f in findings
                     if not f.problem.startswith("in a string literal")]
        if new == text:
            continue
        assert rw.rewrite_text(new, rel, table, []) == new, f"{rel}: second pass changes the text"
        if rel.endswith(".py"):
            ast.parse(new, rel)
            old = set(text.splitlines())
            long = [line for line in new.splitlines() if line not in old and len(line) > rw.LINE_LENGTH]
            assert not long, f"{rel}: lines longer than {rw.LINE_LENGTH}: {long}"
        else:
            old_links = set(MD_LINK.findall(text))
            bad = [h for h in MD_LINK.findall(new) if h not in old_links and not _link_ok(rel, h)]
            assert not bad, f"{rel}: broken links {bad}"
    assert not problems, "unresolved citations:\n" + "\n".join(problems)
