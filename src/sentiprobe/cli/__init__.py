"""Command-line interface: thin wrappers that parse arguments and call the Python API.

One module per subcommand, each exposing ``add_parser(subparsers)`` which registers the command
and sets ``func`` (a callable taking the parsed args and returning an exit code).
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
import tempfile
import traceback

from .. import __version__
from ..core.errors import SentiprobeError, UnknownNameError
from .environment import use_environment

COMMANDS = ("list_cmd", "data_cmd", "score_cmd", "run_cmd", "compare_cmd", "report_cmd", "agree_cmd", "judge_cmd",
            "export_cmd", "arts_cmd", "sweep_cmd")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sentiprobe",
        description="Measure what a sentiment model understands beyond polarity accuracy.")
    parser.add_argument("--version", action="version", version=f"sentiprobe {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in COMMANDS:
        try:
            m = importlib.import_module(f"{__name__}.{mod}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{mod}":
                continue  # optional command module not present in this build
            raise
        m.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns the exit status (0 fine, 1 a typed error, 2 a usage error such as an option out of
    range or an unknown suite or model name, 3 a bug, 130 interrupted)."""

    use_environment()  # the command line is where sentiprobe reads the environment (see sentiprobe.core.env)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # a usage error (exit 2, message printed) or --help/--version (0)
        return exc.code if isinstance(exc.code, int) else 0
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except SentiprobeError as exc:
        if getattr(args, "json", False):
            print(json.dumps({"error": type(exc).__name__, "message": str(exc)}), file=sys.stderr)
        print(f"sentiprobe: error: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, UnknownNameError) else 1  # a misspelt suite or model name is a usage error
    except KeyboardInterrupt:
        print("sentiprobe: interrupted (finished work is kept in the cache)", file=sys.stderr)
        return 130
    except Exception as exc:
        log = write_crash_log(exc)
        print(f"sentiprobe: internal error: {type(exc).__name__}: {exc}\n"
              f"sentiprobe: this is a bug; the traceback is in {log} - please report it with that file",
              file=sys.stderr)
        return 3


def write_crash_log(exc: BaseException) -> str:
    """Write the traceback of an unexpected exception to a file and return its path."""

    fd, path = tempfile.mkstemp(prefix="sentiprobe-crash-", suffix=".log")
    with open(fd, "w", encoding="utf-8") as f:
        f.write(f"sentiprobe {__version__}\nargv: {sys.argv}\n\n")
        f.write("".join(traceback.format_exception(exc)))
    return path


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
