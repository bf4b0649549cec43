"""The bad-input corpus (``tests/badinput/corpus.py``) through the CLI: expected exit status, an error message
that names the input file, and never a traceback or a silent result."""
from __future__ import annotations

import functools
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "badinput"))
import corpus

from sentiprobe.cli import main

CASES = corpus.all_cases()


def test_corpus_is_large_and_covers_every_command_and_family():
    assert len(CASES) >= 120
    commands = {c.args[0] for c in CASES}
    assert commands >= {"score", "run", "compare", "agree", "data", "judge", "judge-agreement"}
    families = {c.tags[0].split("-")[0] for c in CASES if c.tags}
    assert families >= {"arts", "sentivent", "soul", "noncompsst", "sst7"}


@functools.cache
def _first(suite: str, data_dir: str) -> str:
    return corpus.first_key(suite, Path(data_dir))


@pytest.mark.realdata
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input(case, tmp_path, data_dir, capsys):
    args, main_file = corpus.materialise(case, tmp_path / case.id, data_dir, lambda s: _first(s, str(data_dir)))
    code = main(args)
    cap = capsys.readouterr()
    text = cap.err if case.exit else cap.out + cap.err
    assert "Traceback" not in cap.err + cap.out, cap.err
    assert "internal error" not in cap.err, cap.err
    assert code == case.exit, f"exit {code}, expected {case.exit}; stderr: {cap.err[-2000:]}"
    for e in case.expect:
        want = e.replace("{file}", str(main_file))
        assert want in text, f"{want!r} not in: {text[-2000:]}"
