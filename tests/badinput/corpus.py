"""The bad-input corpus: hostile but fair single-command cases over every command, suite and model.

The cases are generated from the registries, never from a hand list: every registered suite gets the battery of
its kind of predictions (:mod:`cases.predictions` for labels, :mod:`cases.triplets` for triplets), every registered
model the argument checks of :mod:`cases.models`, and ``tests/test_badinput.py`` fails when a suite, a model or a
CLI command (every leaf of ``sentiprobe``'s parser, e.g. ``data fetch``) has no case. A new suite or command
therefore gets its cases, or a failing test saying where to add them.

Where cases live: one module per command or family under ``tests/badinput/cases/``, each with a ``cases()``
function returning :class:`Case` objects; :func:`all_cases` imports every module of that folder, so a new family
is a new file (no shared list to edit, nothing to merge).

Each :class:`Case` writes its input files into a fresh directory and names the CLI arguments, the expected exit
status and the text the output must contain (``{file}`` stands for the case's main input file, so every file
error is checked to name the file). ``tests/badinput/runner.py`` runs each case in a forked child with an address
space cap (RLIMIT_AS) and a time limit, so a blow-up fails the case instead of the machine.
``python tests/badinput/corpus.py OUT_DIR [DATA_DIR]`` writes every case's files and a ``cases.json`` index.
"""
from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

Build = Callable[[Path], None]
HERE = Path(__file__).resolve().parent

FIRST = "@@FIRST@@"
"""Stands for the id of the first test item of the case's suite (``tags[0]``), in files and arguments."""
GOLD = "@@GOLD@@"
"""Stands for the gold label of that item."""


@dataclass(frozen=True)
class Case:
    """One bad-input case.

    Attributes:
        id: stable case id (``score-arts-laptop-latin1``).
        args: CLI arguments; ``{dir}`` is the case directory, ``{data}`` the data dir, ``{file}`` the main file,
            ``{server}`` the URL of the case's server (with ``server``).
        build: writes the case's files into its directory.
        exit: expected exit status (0: accepted and correct; 1: a typed error; 2: a usage error).
        expect: substrings the stderr (stdout too for exit 0) must contain; ``{file}`` is replaced by the path.
        file: the main input file's name inside the case directory.
        tags: the suite (first) and model names the case exercises.
        suite_options: options of the case's suite needed to resolve ``@@FIRST@@`` (as ``--suite-arg``).
        timeout: seconds the case may run (the runner kills it after that).
        memory_mb: address space the case may add to the runner's (RLIMIT_AS); a blow-up is a MemoryError.
        server: the case needs ``{server}``: True (or ``"silent"``) a server that accepts connections and never
            answers, ``"trickle"`` one that answers every GET with 200 and a large Content-Length, then sends one
            byte every half second.
        llm: the case needs ``{server}`` to be a fake OpenAI-compatible server with this behaviour
            (:data:`llm_servers.SERVERS`, e.g. ``500``: HTTP 500 to every request).
        env: environment variables of the case (e.g. the API key a fake server echoes).
        forbid: texts that no file the case writes, and neither of its outputs, may contain (any letter case).
    """

    id: str
    args: tuple[str, ...]
    build: Build
    exit: int = 1
    expect: tuple[str, ...] = ()
    file: str = "p.csv"
    tags: tuple[str, ...] = field(default=())
    suite_options: tuple[tuple[str, str], ...] = ()
    timeout: float = 120.0
    memory_mb: int = 1500
    server: bool | str = False
    llm: str = ""
    env: tuple[tuple[str, str], ...] = ()
    forbid: tuple[str, ...] = ()


def write(name: str, data: bytes | str) -> Build:
    def build(d: Path) -> None:
        p = d / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)

    return build


def mkdir(name: str) -> Build:
    return lambda d: (d / name).mkdir(parents=True, exist_ok=True)


def nothing(d: Path) -> None:
    return None


def both(*builds: Build) -> Build:
    def build(d: Path) -> None:
        for b in builds:
            b(d)

    return build


def nested(depth: int, inner: str = "0") -> str:
    """A JSON array nested ``depth`` deep (100,000 levels is 200 kB)."""
    return "[" * depth + inner + "]" * depth


def _modules() -> list:
    mods = []
    for path in sorted((HERE / "cases").glob("*.py")):
        if path.name.startswith("_"):
            continue
        spec = importlib.util.spec_from_file_location(f"badinput_cases_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mods.append(mod)
    return mods


def all_cases() -> list[Case]:
    """Every case of every module of ``cases/`` (ids unique)."""
    out: list[Case] = []
    for mod in _modules():
        out += mod.cases()
    ids = [c.id for c in out]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    assert not dup, f"case ids must be unique: {dup}"
    return out


def suites() -> list[str]:
    """The suites sentiprobe registers (not those tests or plug-ins add: ``toy`` and the like)."""
    from sentiprobe.suites import SUITES

    return [n for n in SUITES.names() if SUITES.get(n).load_items.__module__.startswith("sentiprobe.")]


def models() -> list[str]:
    """The models sentiprobe registers (not those tests or plug-ins add)."""
    from sentiprobe.models import MODELS

    def module(f: object) -> str:
        return str(getattr(getattr(f, "func", f), "__module__", ""))  # a functools.partial: its function's

    return [e.name for e in MODELS if module(e.factory).startswith("sentiprobe.")]


def leaf_commands() -> list[tuple[str, ...]]:
    """Every command path of the CLI (``("data", "fetch")``, ``("run",)``...), from the parser itself."""
    import argparse

    from sentiprobe.cli import build_parser

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> Iterable[tuple[str, ...]]:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            yield path
            return
        for action in subs:
            for name, sub in action.choices.items():
                yield from walk(sub, (*path, name))

    return sorted(walk(build_parser(), ()))


def first_item(suite: str, data_dir: Path, options: dict[str, str] | None = None):
    """The first test item of a suite (resolves ``@@FIRST@@`` and ``@@GOLD@@``)."""
    from sentiprobe.suites import get_suite

    return get_suite(suite, data_dir, options or None).items("test")[0]


def _fill(text: str, root: Path, data_dir: Path, main_file: str, server: str) -> str:
    return (text.replace("{dir}", str(root)).replace("{data}", str(data_dir)).replace("{file}", main_file)
            .replace("{server}", server))


def materialise(case: Case, root: Path, data_dir: Path, item: Callable[[str, dict[str, str]], object],
                server: str = "") -> tuple[list[str], Path, list[str]]:
    """Write the case's files under ``root``; returns (CLI arguments, main file path, expected texts).

    ``@@FIRST@@`` / ``@@GOLD@@`` in the case's files, arguments and expected texts become the id and gold label
    of the first test item of its suite (``item(suite, options)`` returns it); ``{file}`` in expected texts the
    main file's path.
    """
    root.mkdir(parents=True, exist_ok=True)
    case.build(root)
    args = [_fill(a, root, data_dir, case.file, server) for a in case.args]
    expect = [e.replace("{file}", str(root / case.file)).replace("{server}", server) for e in case.expect]
    files = [p for p in root.rglob("*") if p.is_file() and p.stat().st_size < 50_000_000]
    needs = any(FIRST in a or GOLD in a for a in args) or any(
        FIRST.encode() in p.read_bytes() or GOLD.encode() in p.read_bytes() for p in files)
    if needs:
        options = {k: _fill(v, root, data_dir, case.file, server) for k, v in case.suite_options}
        it = item(case.tags[0], options)
        first, gold = str(it.item_id).encode(), str(it.label).encode()  # type: ignore[attr-defined]
        for p in files:
            raw = p.read_bytes()
            if FIRST.encode() in raw or GOLD.encode() in raw:
                p.write_bytes(raw.replace(FIRST.encode(), first).replace(GOLD.encode(), gold))
        args = [a.replace(FIRST, first.decode()).replace(GOLD, gold.decode()) for a in args]
        expect = [e.replace(FIRST, first.decode()).replace(GOLD, gold.decode()) for e in expect]
    return args, root / case.file, expect


if __name__ == "__main__":  # pragma: no cover - a tool for running the corpus by hand
    out = Path(sys.argv[1])
    data = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("../shared/data")
    index = []
    for c in all_cases():
        args, _, expect = materialise(c, out / c.id, data, lambda s, o: first_item(s, data, o),
                                      "http://127.0.0.1:9/")
        index.append({"id": c.id, "args": args, "exit": c.exit, "expect": expect})
    (out / "cases.json").write_text(json.dumps(index, indent=2))
    print(f"{len(index)} cases written to {out}")
