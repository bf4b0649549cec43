"""``sentiprobe data``: fetch, verify, list and describe the datasets.

    sentiprobe data fetch  [NAME ...] [--data-dir D] [--mirror URL_OR_DIR] [--force] [--include-unpublished]
                           [--timeout S] [--retries N] [--deadline S] [--total-deadline S]
                           [--stall-rate BYTES_PER_S] [--stall-window S] [--json]
    sentiprobe data verify [NAME ...] [--data-dir D] [--json]
    sentiprobe data list   [NAME ...] [--json]
    sentiprobe data stats  NAME [--data-dir D] [--json]
    sentiprobe data path   [FILE] [--data-dir D]

NAME is a data family (``arts``, ``noncompsst``, ``sst``, ``sentivent``, ``lexcomp``, ``soul``) or a suite name
(``arts-laptop``), which stands for its family. Exit codes: 0 fine, 1 problems (failed downloads, missing or
corrupted files), 2 bad arguments (unknown name). This module only parses arguments and calls
``sentiprobe.data`` (and, for ``stats``, ``sentiprobe.suites``).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..core.errors import ConfigError, SentiprobeError, UnknownNameError
from ..core.limits import FETCH_STALL_RATE as STALL_RATE
from ..core.limits import FETCH_STALL_WINDOW as STALL_WINDOW
from ..core.limits import MAX_FETCH_RETRIES
from ..core.limits import MAX_FETCH_STALL_RATE as MAX_STALL_RATE
from .argtypes import SECONDS, float_in, int_in


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``data`` and its sub-commands on an argparse ``subparsers`` object."""
    p = subparsers.add_parser("data", help="fetch, verify and describe the datasets",
                              description="Fetch, verify and describe the datasets (see `sentiprobe data CMD -h`).")
    sub = p.add_subparsers(dest="data_command", metavar="CMD")
    p.set_defaults(func=lambda args: _usage(p))

    def common(sp: argparse.ArgumentParser, names: str | None) -> None:
        sp.add_argument("names", nargs=names, metavar="NAME", help="data family or suite name (default: all)")
        sp.add_argument("--data-dir", help="data directory (default: $SENTIPROBE_DATA_DIR, then the user cache)")
        sp.add_argument("--json", action="store_true", help="print a JSON report on stdout")

    f = sub.add_parser("fetch", help="download missing files from their pinned URLs (or a mirror) and verify them")
    common(f, "*")
    f.add_argument("--mirror", metavar="URL_OR_DIR",
                   help="URL prefix or local directory laid out like the data directory (used instead of the "
                        "pinned upstream URLs)")
    f.add_argument("--force", action="store_true", help="download again even when a verified copy is present")
    f.add_argument("--include-unpublished", action="store_true",
                   help="also try optional files absent from the reference data (verified by git blob id)")
    f.add_argument("--timeout", type=SECONDS, default=30.0, help="socket timeout in seconds (default 30)")
    f.add_argument("--retries", type=int_in(0, MAX_FETCH_RETRIES), default=3,
                   help="retries on connection errors (default 3)")
    f.add_argument("--deadline", type=SECONDS, default=None, metavar="SECONDS",
                   help="overall limit per file, retries included (default: 600 s plus 1 s per 64 KiB)")
    f.add_argument("--total-deadline", type=SECONDS, default=None, metavar="SECONDS",
                   help="limit for the whole fetch (default: 600 s plus 1 s per 64 KiB to download)")
    f.add_argument("--stall-rate", type=float_in(0.0, MAX_STALL_RATE, open_lo=False, open_hi=False),
                   default=STALL_RATE, metavar="BYTES_PER_S",
                   help=f"a transfer slower than this over --stall-window fails as stalled and its host gets no "
                        f"more requests (default {STALL_RATE:.0f}; 0: no stall check)")
    f.add_argument("--stall-window", type=SECONDS, default=STALL_WINDOW, metavar="SECONDS",
                   help=f"seconds over which --stall-rate is measured (default {STALL_WINDOW:.0f})")
    f.set_defaults(func=cmd_fetch)

    v = sub.add_parser("verify", help="check presence, size and sha256 of every file (exit 1 on problems)")
    common(v, "*")
    v.set_defaults(func=cmd_verify)

    ls = sub.add_parser("list", help="list the manifest: files, status, size, source URL, licence")
    common(ls, "*")
    ls.set_defaults(func=cmd_list)

    st = sub.add_parser("stats", help="dataset statistics of a suite, or of every suite of a family")
    common(st, None)
    st.set_defaults(func=cmd_stats)

    pa = sub.add_parser("path", help="print the data directory, or the path of one of its files (checked)")
    pa.add_argument("file", nargs="?", metavar="FILE",
                    help="a file of the manifest, relative to the data directory "
                         "(e.g. arts/src_data/laptop/test_sent_towe.json; `sentiprobe data list` names them)")
    pa.add_argument("--data-dir", help="data directory (default: $SENTIPROBE_DATA_DIR, then the user cache)")
    pa.set_defaults(func=cmd_path)
    return p


def _usage(p: argparse.ArgumentParser) -> int:
    p.print_help(sys.stderr)
    return 2


def _fail(exc: Exception) -> int:
    """Print the error; exit code 2 for a bad name or argument, 1 for a data problem."""
    print(f"sentiprobe data: error: {exc}", file=sys.stderr)
    return 2 if isinstance(exc, (UnknownNameError, ConfigError)) else 1


def _dump(obj: Any) -> None:
    print(json.dumps(obj, indent=2, ensure_ascii=False))


# ---------------------------------------------------------------------------------------------
# commands
# ---------------------------------------------------------------------------------------------
def cmd_fetch(args: argparse.Namespace) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import data_fetch

    try:
        report = data_fetch(args.names, data_dir=args.data_dir, mirror=args.mirror, force=args.force,
                       progress=not args.json and sys.stderr.isatty(),
                       include_unpublished=args.include_unpublished, keep_going=True,
                       timeout=args.timeout, retries=args.retries, deadline=args.deadline,
                       total_deadline=args.total_deadline, stall_rate=args.stall_rate,
                       stall_window=args.stall_window, log=lambda line: print(f"sentiprobe data: {line}",
                                                                              file=sys.stderr, flush=True))
    except SentiprobeError as exc:
        return _fail(exc)
    if args.json:
        _dump(report.to_dict())
        return 0 if report.ok else 1
    print(f"data dir: {report.data_dir}" + (f" (mirror {report.mirror})" if report.mirror else ""))
    for f in report.files:
        if f.action in ("fetched", "derived"):
            print(f"  {f.action:<8} {f.path}  ({f.size:,} bytes) from {f.source}")
        elif f.action == "failed":
            print(f"  FAILED   {f.path}: {f.message}")
    for f in report.unpublished:
        print(f"  unpublished (optional) {f.path}")
    print(f"{len(report.fetched)} fetched, {len(report.skipped)} already present, {len(report.failed)} failed, "
          f"{len(report.unpublished)} unpublished (optional; `sentiprobe data list` says how to supply them)")
    return 0 if report.ok else 1


def cmd_verify(args: argparse.Namespace) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import data_verify

    try:
        report = data_verify(args.names, data_dir=args.data_dir)
    except SentiprobeError as exc:
        return _fail(exc)
    if args.json:
        _dump(report.to_dict())
        return 0 if report.ok else 1
    print(f"data dir: {report.data_dir}")
    for fam in report.families:
        mine = [f for f in report.files if f.path.startswith(fam + "/")]
        ok = sum(f.status == "ok" for f in mine)
        bad = sum(f.problem for f in mine)
        print(f"  {fam:<11} {ok} ok" + (f", {bad} PROBLEM(S)" if bad else ""))
    for f in report.problems:
        print(f"  {f.status.upper():<18} {f.path}: {f.message}")
    for f in report.files:
        if f.optional:
            label = {"unpublished": "unpublished (optional)", "unpublished-ok": "unpublished, supplied (ok)"
                     }.get(f.status, f.status)
            if not f.problem:
                print(f"  {label}: {f.path}")
    for u in report.unexpected:
        print(f"  not in the manifest (ignored): {u}")
    n_opt = sum(f.optional for f in report.files)
    print(f"{sum(f.status == 'ok' for f in report.files)} ok, {len(report.problems)} problem(s), "
          f"{n_opt} unpublished (optional)")
    if report.problems:
        print("repair with `sentiprobe data fetch --force NAME` (or supply the files by hand)")
    return 0 if report.ok else 1


def cmd_list(args: argparse.Namespace) -> int:
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import data_list

    try:
        listing = data_list(args.names)
    except UnknownNameError as exc:
        return _fail(exc)
    if args.json:
        _dump(listing)
        return 0
    for e in listing["files"]:
        size = f"{e['size']:>10,}" if e["size"] is not None else " " * 10
        print(f"{e['status']:<12} {size}  {e['path']}")
        if e["status"] == "unpublished":
            print(f"{'':24}instead: {e['substitute']}\n{'':24}supply: {e['how_to_supply']}")
    return 0


def cmd_path(args: argparse.Namespace) -> int:
    """One absolute path on stdout, nothing else, so that ``"$(sentiprobe data path FILE)"`` works in a shell."""
    from ..api import data_path

    try:
        print(data_path(args.file, data_dir=args.data_dir))
    except SentiprobeError as exc:
        return _fail(exc)
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    from ..api import data_stats

    try:
        doc = data_stats(args.names, data_dir=args.data_dir)
    except SentiprobeError as exc:
        return _fail(exc)
    out = doc["suites"]
    errors = _stat_errors(out)
    if args.json:
        _dump(doc)
    else:
        _print_tree(out, 0)
    if errors:
        # the statistics above are incomplete: say so and fail, so scripts do not take them as the whole data
        print(f"sentiprobe data: error: {len(errors)} part(s) could not be read: {', '.join(errors)}; "
              f"run `sentiprobe data verify {args.names}`", file=sys.stderr)
        return 1
    return 0


def _stat_errors(obj: Any, where: str = "") -> list[str]:
    """Dotted locations (``arts-laptop.test``) of the ``error`` entries suites put in their statistics."""
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "error" and isinstance(v, str):
                out.append(where or "(top)")
            else:
                out += _stat_errors(v, f"{where}.{k}" if where else str(k))
    return out


def _print_tree(obj: Any, depth: int) -> None:
    pad = "  " * depth
    for k, v in obj.items():
        if isinstance(v, dict):
            print(f"{pad}{k}:")
            _print_tree(v, depth + 1)
        else:
            print(f"{pad}{k}: {v}")
