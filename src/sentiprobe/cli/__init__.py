"""Command-line interface: thin wrappers that parse arguments and call the Python API.

One module per subcommand, each exposing ``add_parser(subparsers)`` which registers the command
and sets ``func`` (a callable taking the parsed args and returning an exit code).

Ctrl-C at any moment ends the command with status 130 and one line, never a traceback: while this package is
still importing (half a second, several under load) a SIGINT exits at once (:func:`_interrupted_while_starting`,
installed before any other import and only where Python's own handler is in place: a SIGINT the caller ignores
stays ignored, and a program importing this package gets its handler back once the import is done); from then on
:func:`main` turns the KeyboardInterrupt into 130.
"""
from __future__ import annotations

import signal as _signal
import sys as _sys
import threading as _threading


def _interrupted_while_starting(signum: int, frame: object) -> None:
    """SIGINT while the command line is still importing: exit 130 with one line (a KeyboardInterrupt there would
    print a traceback of whichever import it hit)."""
    _sys.stderr.write("sentiprobe: interrupted\n")
    raise SystemExit(130)


_STARTING = (_threading.current_thread() is _threading.main_thread()
             and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler)
if _STARTING:
    _signal.signal(_signal.SIGINT, _interrupted_while_starting)

# Intel MKL's float32 matrix products take another code path in a process started with one OpenMP thread
# (OMP_NUM_THREADS=1) than with more, and on AVX-512 CPUs the two differ in the last bits: enough to move a fluency
# score of ARTS generation by 1e-4 and so the bytes a command writes. STRICT conditional numerical reproducibility
# gives the same results whatever the thread count (about 10 % more CPU time in the fluency model); AUTO keeps the
# CPU's fastest instruction set. Set here, before anything loads torch (and with it MKL), for every command and the
# worker processes commands start; a value the user set wins. A program using the Python API sets it itself.
import os as _os  # noqa: E402

_os.environ.setdefault("MKL_CBWR", "AUTO,STRICT")

import argparse  # noqa: E402 - after the SIGINT handler, on purpose
import importlib  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import traceback  # noqa: E402

from .. import __version__  # noqa: E402
from ..core.errors import SentiprobeError, UnknownNameError  # noqa: E402
from .environment import use_environment  # noqa: E402

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
    try:
        return _main(argv)
    except KeyboardInterrupt:  # while the parser is built or the arguments read (the command's own is below)
        print("sentiprobe: interrupted", file=sys.stderr)
        return 130


def _main(argv: list[str] | None) -> int:
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


if _STARTING and _signal.getsignal(_signal.SIGINT) is _interrupted_while_starting:
    _signal.signal(_signal.SIGINT, _signal.default_int_handler)  # imported: Ctrl-C is a KeyboardInterrupt again

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
