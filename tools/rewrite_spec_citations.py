"""Rewrite citations of the former internal specs into links to docs/protocols/.

Code and docs used to cite the team's internal protocol specs, which users and new maintainers of the repository
do not have: ``spec §5.4``, ``(§4.3)``, ``spec ``arts.md`` §5.1-5.2``, ``SENTiVENT spec section 9``,
``spec 6.3``, ``../shared/specs/soul.md``. The protocols are now defined in ``docs/protocols/<family>.md`` and
``docs/protocols/CITATIONS.tsv`` maps every spec section to its new anchor. This script finds every such
citation, works out which protocol it refers to, and replaces it:

- in the comments and docstrings of Python files by the path and anchor,
  ``docs/protocols/noncompsst.md#sst7-binning`` (several sections of one page: ``docs/protocols/arts.md#ars,
  #subset-accuracy``); a line pushed past the line length is reflowed at a space (a trailing comment moves above
  its code line). A citation inside another string literal (a message, a model's fingerprint) is only reported;
- in Markdown files by relative links, ``[SST-7 labels](protocols/noncompsst.md#sst7-binning)``.

Which protocol: a name in the citation itself (``arts.md``, ``shared/specs/soul.md``, ``SENTiVENT spec``), else the
file's protocol (path rules below, then :data:`LINE_OVERRIDES`), else, in Markdown, the protocol named by the
nearest heading above. What cannot be resolved is left untouched and reported.

Usage (from the repository root)::

    python tools/rewrite_spec_citations.py            # show the diff, change nothing
    python tools/rewrite_spec_citations.py --write    # rewrite the files
    python tools/rewrite_spec_citations.py --check    # exit 1 while any citation is left (CI after the rewrite)

Paths default to the git-tracked ``*.py`` and ``*.md`` files under src, tests, docs, scripts, benchmarks, tools
and README.md. Mentions of "the spec" without a section number are listed for rewording by hand.
"""
from __future__ import annotations

import argparse
import csv
import difflib
import io
import os
import re
import subprocess
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "docs" / "protocols" / "CITATIONS.tsv"
LINE_LENGTH = 120
DEFAULT_PATHS = ("src", "tests", "docs", "scripts", "benchmarks", "tools", "README.md")
PROTOCOLS = ("arts", "noncompsst", "sentivent", "lexcomp", "soul")
#: how the protocols are named in prose (``SENTiVENT spec section 9``)
DISPLAY = {"ARTS": "arts", "NonCompSST": "noncompsst", "SST-7": "noncompsst", "SENTiVENT": "sentivent",
           "LexComp": "lexcomp", "SOUL": "soul"}

#: (path regex, protocol): the protocol a file cites when a citation names none; first match wins
PATH_RULES: tuple[tuple[str, str], ...] = (
    (r"suites/(arts)/", r"\1"),
    (r"suites/(noncompsst|sentivent|lexcomp|soul)/", r"\1"),
    (r"suites/triplets/", "sentivent"),
    (r"models/(gts|gts_encoders|triplet_rules)\.py$", "sentivent"),
    (r"models/(probes|constituents|probe_representations)\.py$", "lexcomp"),
    (r"protocols/lexcomp/", "lexcomp"),
    (r"protocols/triplets/", "sentivent"),
    (r"models/(hf_seq2seq|hf_nli)\.py$", "soul"),
    (r"cli/judge_cmd\.py$", "soul"),
    (r"cli/arts_cmd\.py$", "arts"),
    (r"tests/test_(arts)", r"\1"),
    (r"tests/test_(noncompsst|sst7)", "noncompsst"),
    (r"tests/test_(sentivent|triplets)", "sentivent"),
    (r"tests/test_(lexcomp)", r"\1"),
    (r"tests/test_(soul|recipes_seq2seq)", "soul"),
    (r"docs/(arts|arts-generate)\.md$", "arts"),
    (r"docs/(noncompsst)\.md$", r"\1"),
    (r"docs/(triplets)\.md$", "sentivent"),
    (r"docs/(lexcomp)\.md$", r"\1"),
    (r"docs/(soul|llm)\.md$", "soul"),
    (r"scripts/llama_server_integration", "soul"),
)

#: (path suffix, text on the line, protocol) for lines of files that cite several protocols
LINE_OVERRIDES: tuple[tuple[str, str, str], ...] = (
    ("models/hf_finetune.py", "strictly better", "noncompsst"),
    ("tests/test_recipes_finetune.py", "dictionary.txt (spec 4.4)", "noncompsst"),
    ("stats/agreement.py", "over units with >= 2 ratings", "sentivent"),
    ("tests/agreement_dense_oracle.py", "over units with >= 2 ratings", "sentivent"),
)

#: files whose mentions of the specs are about the specs themselves (and the protocol pages, which replace them)
SKIP = frozenset({"tools/rewrite_spec_citations.py", "tests/test_citation_map.py", "tests/test_report_fixes.py"})
SKIP_DIRS = ("docs/protocols/",)

_NUM = r"\d+(?:\.\d+)?"
_REF = rf"§?\s?{_NUM}(?:\s*[-–]\s*§?\s?{_NUM})?"
_SEP = r"(?:\s*(?:,|/|\+)\s*|\s+and\s+)"
_REFS = rf"{_REF}(?:{_SEP}§\s?{_NUM}(?:\s*[-–]\s*§?\s?{_NUM})?|{_SEP}(?={_NUM}){_REF})*"
_NAME = r"(?P<name>arts|noncompsst|sentivent|lexcomp|soul)\.md"
_SPEC_PATH = rf"(?:\.\./)?shared/specs/{_NAME}"

CITATION = re.compile(
    # 1. a path to a spec, optionally led by "spec"/"Spec:"/"Specification:" and followed by sections
    rf"(?P<lead>\b[Ss]pec(?:ification)?(?P<colon>:)?\s+)?(?P<tick>`?){_SPEC_PATH}(?P=tick)"
    rf"(?:\s+(?:sections?\s+|§\s?)(?P<prefs>{_REFS}))?"
    # 2. "spec" [name.md] [section(s)] refs; the name may be quoted with one or two backticks; a protocol's
    #    display name may stand before "spec"
    rf"|(?:\b(?P<display>ARTS|NonCompSST|SENTiVENT|LexComp|SOUL)\s+)?\b[Ss]pec\s+"
    rf"(?:``?(?P<sname>arts|noncompsst|sentivent|lexcomp|soul)\.md``?\s+|(?P<bname>arts|noncompsst|sentivent|"
    rf"lexcomp|soul)\.md\s+)?(?:sections?\s+)?(?P<srefs>{_REFS})"
    # 3. "(sentivent.md 7.4)": a spec name and a section without "spec"
    rf"|\b(?P<nname>arts|noncompsst|sentivent|lexcomp|soul)\.md\s+(?P<nrefs>§?\s?{_NUM}(?:{_SEP}§?\s?{_NUM})*)"
    # 4. bare "§4.3", "§5.1-5.2", "§4.1, §4.2"
    rf"|(?P<brefs>§\s?{_NUM}(?:\s*[-–]\s*§?\s?{_NUM})?(?:{_SEP}§\s?{_NUM}(?:\s*[-–]\s*§?\s?{_NUM})?)*)")

GENERIC = re.compile(r"\b(?:[Tt]he spec(?:'s)?|[Ss]pec's)\b(?!\w)")
_HEADING = re.compile(r"^#{1,6}\s+(.*)$", re.M)


@dataclass(frozen=True)
class Target:
    path: str     # from the repository root, e.g. docs/protocols/arts.md
    anchor: str   # without '#', '' for the page
    title: str


@dataclass
class Finding:
    path: str
    line: int
    text: str
    problem: str


def load_table(path: Path = TABLE) -> dict[tuple[str, str], Target]:
    """``{(protocol, section): Target}`` from CITATIONS.tsv (section ``-`` = the whole page)."""
    out: dict[tuple[str, str], Target] = {}
    with path.open(encoding="utf-8") as f:
        rows = [line for line in f if line.strip() and not line.startswith("#")]
    for row in csv.DictReader(rows, delimiter="\t"):
        target, _, anchor = row["target"].partition("#")
        key = (row["protocol"], row["section"])
        if key in out:
            raise ValueError(f"{path}: duplicate row for {key}")
        out[key] = Target(target, anchor, row["title"])
    return out


def file_protocol(rel: str) -> str | None:
    for pattern, proto in PATH_RULES:
        m = re.search(pattern, rel)
        if m:
            return m.expand(proto)
    return None


def _sections(table: dict[tuple[str, str], Target], proto: str) -> list[str]:
    def key(s: str) -> tuple[int, ...]:
        return tuple(int(p) for p in s.split("."))
    return sorted((s for p, s in table if p == proto and s != "-"), key=key)


def expand_refs(refs: str, proto: str, table: dict[tuple[str, str], Target]) -> list[str]:
    """Section numbers of ``"5.1-5.2, §6"``: ranges expand to the sections between their ends (same depth)."""
    out: list[str] = []
    known = _sections(table, proto)
    for part in re.split(_SEP, refs):
        nums = re.findall(_NUM, part)
        if not nums:
            continue
        if len(nums) == 1:
            out.append(nums[0])
            continue
        lo, hi = nums[0], nums[-1]
        depth = lo.count(".")

        def k(s: str) -> tuple[int, ...]:
            return tuple(int(p) for p in s.split("."))
        inside = [s for s in known if s.count(".") == depth and k(lo) <= k(s) <= k(hi)
                  and (depth == 0 or s.split(".")[0] == lo.split(".")[0])]
        out.extend(inside or [lo, hi])
    return list(dict.fromkeys(out))


def _md_heading_protocol(text: str, pos: int) -> str | None:
    for m in reversed(list(_HEADING.finditer(text, 0, pos))):
        for disp, proto in DISPLAY.items():
            if disp in m.group(1):
                return proto
    return None


def _line_protocol(line: str) -> str | None:
    hits = {proto for disp, proto in DISPLAY.items() if re.search(rf"\b{re.escape(disp)}\b", line)}
    return hits.pop() if len(hits) == 1 else None


def render(targets: list[Target], rel: str, markdown: bool) -> str:
    if markdown:
        base = os.path.dirname(rel) or "."
        links = []
        for t in targets:
            href = os.path.relpath(t.path, base) + (f"#{t.anchor}" if t.anchor else "")
            links.append(f"[{t.title}]({href})")
        return ", ".join(links)
    parts: list[str] = []
    last = None
    for t in targets:
        if t.path == last and t.anchor:
            parts.append(f"#{t.anchor}")
        else:
            parts.append(t.path + (f"#{t.anchor}" if t.anchor else ""))
        last = t.path
    return ", ".join(parts)


def rewrite_text(text: str, rel: str, table: dict[tuple[str, str], Target],
                 findings: list[Finding] | None = None) -> str:
    """``text`` (the content of ``rel``) with every resolvable citation rewritten; problems go to ``findings``.

    In Python only comments and docstrings are rewritten: a citation inside another string literal may be a
    message a user sees or part of a model's fingerprint, so it is reported for a decision by hand.
    """
    markdown = rel.endswith(".md")
    default = file_protocol(rel)
    findings = [] if findings is None else findings
    allowed = _prose_regions(text) if rel.endswith(".py") else None
    lines = text.splitlines()
    out: list[str] = []
    pos = 0
    for m in CITATION.finditer(text):
        line_no = text.count("\n", 0, m.start()) + 1
        line = lines[line_no - 1]
        if allowed is not None and not any(a <= m.start() and m.end() <= b for a, b in allowed):
            findings.append(Finding(rel, line_no, m.group(0), "in a string literal or code: rewrite by hand"))
            continue
        proto = (m.group("name") or m.group("sname") or m.group("bname") or m.group("nname")
                 or DISPLAY.get(m.group("display") or ""))
        if proto is None:
            proto = next((p for suffix, needle, p in LINE_OVERRIDES if rel.endswith(suffix) and needle in line),
                         None)
        if proto is None:
            proto = default or _line_protocol(line) or (_md_heading_protocol(text, m.start()) if markdown else None)
        if proto is None:
            findings.append(Finding(rel, line_no, m.group(0), "no protocol (add a PATH_RULES or LINE_OVERRIDES row)"))
            continue
        refs = m.group("prefs") or m.group("srefs") or m.group("nrefs") or m.group("brefs")
        sections = expand_refs(refs, proto, table) if refs else ["-"]
        missing = [s for s in sections if (proto, s) not in table]
        if missing:
            findings.append(Finding(rel, line_no, m.group(0),
                                    f"{proto} section(s) {', '.join(missing)} not in {TABLE.name}"))
            continue
        targets = list(dict.fromkeys(table[(proto, s)] for s in sections))
        new = render(targets, rel, markdown)
        if m.group("colon"):
            new = "Protocol: " + new
        out.append(text[pos:m.start()])
        out.append(new)
        pos = m.end()
    out.append(text[pos:])
    result = "".join(out)
    if rel.endswith(".py") and result != text:
        result = reflow_long_lines(result, text, rel, findings)
    return result


def _tokens(source: str) -> list[tokenize.TokenInfo]:
    try:
        return list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return []


def _docstrings(toks: list[tokenize.TokenInfo]) -> list[tokenize.TokenInfo]:
    """String tokens that stand alone as a statement (module, class and function docstrings)."""
    out = []
    depth = 0
    prev: tokenize.TokenInfo | None = None
    for tok in toks:
        if tok.type == tokenize.OP and tok.string in "([{":
            depth += 1
        elif tok.type == tokenize.OP and tok.string in ")]}":
            depth -= 1
        if tok.type == tokenize.STRING and depth == 0 and (prev is None or prev.type in (
                tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.NL, tokenize.ENCODING)):
            out.append(tok)
        if tok.type != tokenize.COMMENT:
            prev = tok
    return out


def _prose_regions(source: str) -> list[tuple[int, int]]:
    """Character ranges of the comments and docstrings of a Python source."""
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def off(rc: tuple[int, int]) -> int:
        return starts[rc[0] - 1] + rc[1]
    toks = _tokens(source)
    regions = [(off(t.start), off(t.end)) for t in toks if t.type == tokenize.COMMENT]
    regions += [(off(t.start), off(t.end)) for t in _docstrings(toks)]
    return regions


#: lines that start a paragraph of their own: list items, table rows, field names, blank lines
_NEW_PARAGRAPH = re.compile(r"^\s*(?:#:?\s*)?(?:[-*|]\s|\d+[.)]\s|:\w|\w+:$|$)")
_RULER = re.compile(r"\s[-=]{3,}$")
_QUOTES = ('"""', "'''")


def reflow_long_lines(new: str, old: str, rel: str, findings: list[Finding], limit: int = LINE_LENGTH) -> str:
    """Reflow comment and docstring lines that the rewrite pushed past ``limit``.

    The words beyond the limit move to the start of the next line when it continues the same paragraph (same
    indentation and kind, not blank, not a list item), else onto a line of their own; a ``# ---- title ----``
    ruler is shortened. A trailing comment that no longer fits moves above its code line. Anything else is
    reported.
    """
    old_lines = set(old.splitlines())
    toks = _tokens(new)
    doc_lines: set[int] = set()
    for t in _docstrings(toks):
        doc_lines.update(range(t.start[0], t.end[0] + 1))
    trailing = {t.start[0]: t.start[1] for t in toks if t.type == tokenize.COMMENT and t.line[:t.start[1]].strip()}
    # (text, kind, leader, 1-based line in `new` or 0 for a line made here)
    lines: list[tuple[str, str, str, int]] = []
    for i, line in enumerate(new.splitlines(), 1):
        lead = re.match(r"\s*(#:?\s?)?", line)
        assert lead is not None
        kind = "#" if lead.group(1) else ("doc" if i in doc_lines else "code")
        lines.append((line, kind, lead.group(0) if kind == "#" else line[:len(line) - len(line.lstrip())], i))
    k = 0
    while k < len(lines):
        line, kind, leader, no = lines[k]
        if len(line) <= limit or line in old_lines:
            k += 1
            continue
        ruler = _RULER.search(line) if kind == "#" else None
        if ruler:
            bare = line[:ruler.start()]
            if len(bare) + 4 <= limit:
                lines[k] = (bare + " " + "-" * (limit - len(bare) - 1), kind, leader, no)
                continue
            line = bare
        if kind == "code" and no in trailing and len(line[:trailing[no]].rstrip()) <= limit:
            indent = line[:len(line) - len(line.lstrip())]
            comment = line[trailing[no]:].lstrip("#").strip()
            lines[k:k + 1] = [(f"{indent}# {comment}", "#", f"{indent}# ", 0),
                              (line[:trailing[no]].rstrip(), kind, indent, no)]
            continue
        cut = line.rfind(" ", len(leader) + 1, limit + 1)
        if kind == "code" or cut <= len(leader):
            findings.append(Finding(rel, no, line.strip()[:80], f"line longer than {limit}: wrap it by hand"))
            k += 1
            continue
        head, carry = line[:cut].rstrip(), line[cut + 1:].strip()
        lines[k] = (head, kind, leader, no)
        nxt = lines[k + 1] if k + 1 < len(lines) else None
        closes = kind == "doc" and carry.endswith(_QUOTES)
        if (nxt is not None and not closes and nxt[1] == kind and nxt[2] == leader and nxt[3] != 0
                and not _NEW_PARAGRAPH.match(nxt[0]) and not nxt[0].strip().startswith(_QUOTES)):
            lines[k + 1] = (leader + carry + " " + nxt[0][len(leader):].strip(), kind, leader, 0)
        else:
            lines.insert(k + 1, (leader + carry, kind, leader, 0))
        k += 1
    return "\n".join(t for t, *_ in lines) + ("\n" if new.endswith("\n") else "")


def generic_mentions(text: str, rel: str) -> list[Finding]:
    """Mentions of "the spec" without a number, in files about one protocol (elsewhere "spec" is a SuiteSpec)."""
    if file_protocol(rel) is None:
        return []
    return [Finding(rel, text.count("\n", 0, m.start()) + 1, m.group(0), "mention of the spec: reword by hand")
            for m in GENERIC.finditer(text)]


def tracked_files(paths: list[str]) -> list[str]:
    res = subprocess.run(["git", "ls-files", "--", *paths], cwd=ROOT, capture_output=True, text=True, check=True)
    return [p for p in res.stdout.split() if p.endswith((".py", ".md")) and p not in SKIP
            and not p.startswith(SKIP_DIRS)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="rewrite the files in place")
    mode.add_argument("--check", action="store_true", help="exit 1 while any spec citation is left")
    ap.add_argument("paths", nargs="*", default=list(DEFAULT_PATHS), help="files or directories (git-tracked)")
    args = ap.parse_args(argv)
    table = load_table()
    findings: list[Finding] = []
    generic: list[Finding] = []
    changed = 0
    for rel in tracked_files(args.paths):
        text = (ROOT / rel).read_text(encoding="utf-8")
        new = rewrite_text(text, rel, table, findings)
        generic.extend(generic_mentions(new, rel))
        if new == text:
            continue
        changed += 1
        if args.write:
            (ROOT / rel).write_text(new, encoding="utf-8")
        elif args.check:
            findings.append(Finding(rel, 0, "", "has spec citations: run tools/rewrite_spec_citations.py --write"))
        else:
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(keepends=True), new.splitlines(keepends=True),
                                                       f"a/{rel}", f"b/{rel}"))
    for f in findings:
        print(f"{f.path}:{f.line}: {f.problem}: {f.text!r}", file=sys.stderr)
    for f in generic:
        print(f"{f.path}:{f.line}: note: {f.problem}: {f.text!r}", file=sys.stderr)
    verb = "rewrote" if args.write else "would rewrite"
    print(f"{verb} {changed} file(s); {len(findings)} problem(s); {len(generic)} generic mention(s) of the spec",
          file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
