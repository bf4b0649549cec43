"""Every numeric option of every command is range-checked at parse time (issue 22): a walk over the whole parser
finds no bare ``type=int``/``type=float``, and out-of-range numbers are usage errors (exit 2) naming the option."""
from __future__ import annotations

import argparse

import pytest

from sentiprobe.cli import build_parser, main


def _actions(parser: argparse.ArgumentParser, path: str = "sentiprobe"):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _actions(sub, f"{path} {name}")
        else:
            yield path, action


def test_no_numeric_option_is_unchecked():
    unchecked = [f"{path} {'/'.join(a.option_strings) or a.dest}" for path, a in _actions(build_parser())
                 if a.type in (int, float)]
    assert not unchecked, f"use a range-checked type from sentiprobe.cli.argtypes: {unchecked}"
    checked = [a for _, a in _actions(build_parser()) if getattr(a.type, "__module__", "") == "sentiprobe.cli.argtypes"]
    assert len(checked) >= 20


@pytest.mark.parametrize("argv, option", [
    (["data", "fetch", "soul", "--timeout", "-1"], "--timeout"),
    (["data", "fetch", "soul", "--timeout", "0"], "--timeout"),
    (["data", "fetch", "soul", "--retries", "-2"], "--retries"),
    (["data", "fetch", "soul", "--deadline", "inf"], "--deadline"),
    (["run", "--suite", "soul-rc", "--seed", "-1"], "--seed"),
    (["run", "--suite", "soul-rc", "--n-boot", "1000000000000"], "--n-boot"),
    (["score", "--suite", "soul-rc", "--predictions", "p.csv", "--seed", "4294967296"], "--seed"),
    (["compare", "--suite", "soul-rc", "--alpha", "2"], "--alpha"),
    (["compare", "--suite", "soul-rc", "--confidence", "1"], "--confidence"),
    (["agree", "r.csv", "--n-boot", "1e9"], "--n-boot"),
    (["judge", "--run", "r", "--model", "m", "--n", "0"], "--n"),
    (["arts", "audit-sample", "--generated", "g.json", "--out", "s.csv", "--per-strategy", "-1"], "--per-strategy"),
    (["arts", "audit-score", "s.csv", "--alpha", "2"], "--alpha"),
    (["report", "r", "--out", "x.html", "--n-boot", "-5"], "--n-boot"),
])
def test_out_of_range_numbers_are_usage_errors(argv, option, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"argument {option}: must be" in err and "Traceback" not in err
