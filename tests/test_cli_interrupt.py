"""Ctrl-C at any moment ends the command line with status 130 and one line, never a traceback: also while it is
still importing (a KeyboardInterrupt there printed a traceback and the process died of SIGINT, status -2).

The interrupt is delivered deterministically: an import hook sends the process a SIGINT when a chosen module is
about to be imported, so the signal lands in the middle of the command line's imports.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import sentiprobe

SRC = str(Path(sentiprobe.__file__).resolve().parents[1])  # the sentiprobe under test, in the child too

HOOK = """
import os, signal, sys
class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == {target!r}:
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, Interrupt())
"""

ENTRIES = {
    # `python -m sentiprobe`
    "module": "import runpy\nsys.argv = ['sentiprobe', 'list', 'suites']\n"
              "runpy.run_module('sentiprobe', run_name='__main__', alter_sys=True)\n",
    # the console script `sentiprobe` (what pip writes for `sentiprobe = "sentiprobe.cli:main"`)
    "script": "sys.argv = ['sentiprobe', 'list', 'suites']\nfrom sentiprobe.cli import main\nsys.exit(main())\n",
}


def _run(code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize("entry", sorted(ENTRIES))
@pytest.mark.parametrize("target", ["sentiprobe.core.errors", "sentiprobe.cli.environment", "sentiprobe.cli.run_cmd",
                                    "sentiprobe.cli.sweep_cmd"])
def test_ctrl_c_while_importing_exits_130_without_a_traceback(entry, target):
    res = _run(HOOK.format(target=target) + ENTRIES[entry])
    assert res.returncode == 130, (res.returncode, res.stderr[-2000:])
    assert "Traceback" not in res.stderr and "KeyboardInterrupt" not in res.stderr, res.stderr[-2000:]
    assert "sentiprobe: interrupted" in res.stderr


def test_importing_the_cli_leaves_the_sigint_disposition_as_it_found_it():
    """A program importing ``sentiprobe.cli`` gets Python's handler back after the import, and a SIGINT the caller
    ignores stays ignored (a run started with ``&`` from a script)."""
    res = _run("import signal\nimport sentiprobe.cli\n"
               "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n"
               "signal.signal(signal.SIGINT, signal.SIG_IGN)\nimport importlib\n"
               "importlib.reload(sentiprobe.cli)\nprint(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)\n")
    assert res.returncode == 0 and res.stdout.split() == ["True", "True"], res.stderr[-2000:]
