"""The Python API is the command line's API: every command module calls ``sentiprobe.api`` and no lower layer,
and each command's options are parameters of its API function (same names, so the same documentation)."""
from __future__ import annotations

import argparse
import ast
import inspect
from pathlib import Path

import pytest

from sentiprobe import api
from sentiprobe.cli import build_parser

CLI = Path(__file__).resolve().parents[1] / "src" / "sentiprobe" / "cli"
LOWER = ("run", "compare", "report", "suites", "models", "protocols", "stats", "data", "render")


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 2:  # from ..X import
            out.add((node.module or "").split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("sentiprobe."):
            out.add(node.module.split(".")[1])
    return out


@pytest.mark.parametrize("path", sorted(CLI.glob("*_cmd.py")), ids=lambda p: p.name)
def test_every_command_module_calls_the_api_and_no_lower_layer(path):
    got = _imports(path)
    assert "api" in got, f"{path.name} does not call sentiprobe.api"
    assert not got & set(LOWER), f"{path.name} imports {sorted(got & set(LOWER))}"


def _sub(parser: argparse.ArgumentParser, *names: str) -> argparse.ArgumentParser:
    for name in names:
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = action.choices[name]
    return parser


# command -> (API function, CLI options that are the command line's own: output format, a former name)
COMMANDS = {
    ("run",): (api.run, {"suite", "model", "suite_arg", "model_arg", "no_cache", "no_progress", "json"}),
    ("score",): (api.score, {"suite_arg", "json"}),
    ("compare",): (api.compare, {"suite_arg", "json", "alpha"}),
    ("report",): (api.report, {"json"}),
    ("export",): (api.export, set()),
    ("sweep",): (api.sweep, {"json"}),
    ("judge",): (api.judge, {"run", "model_arg", "no_cache", "no_update", "json"}),
    ("judge-agreement",): (api.judge_agreement, {"judge", "human", "json"}),
    ("agree",): (api.agree, {"file", "missing_values", "ignore_columns", "raters", "categories", "json"}),
    ("data", "fetch"): (api.data_fetch, {"json"}),
    ("data", "verify"): (api.data_verify, {"json"}),
    ("data", "list"): (api.data_list, {"json", "data_dir"}),  # the manifest's listing: no data directory read
    ("data", "stats"): (api.data_stats, {"names", "json"}),
    ("data", "path"): (api.data_path, set()),
    ("arts", "audit-sample"): (api.arts_audit_sample, set()),
    ("arts", "audit-score"): (api.arts_audit_score, {"file", "alpha", "json"}),
    ("arts", "fidelity"): (api.arts_fidelity, {"json"}),
}


@pytest.mark.parametrize("command", list(COMMANDS), ids=" ".join)
def test_each_commands_options_are_its_api_functions_parameters(command):
    fn, own = COMMANDS[command]
    assert fn.__doc__, f"{fn.__name__} is undocumented"
    params = set(inspect.signature(fn).parameters)
    dests = {a.dest for a in _sub(build_parser(), *command)._actions
             if a.dest not in ("help",) and not isinstance(a, argparse._SubParsersAction)}
    renamed = {"runs": "run_dirs", "format": "fmt"}  # positional in the API, named so before the CLI had them
    missing = sorted(d for d in dests - own if d not in params and renamed.get(d) not in params)
    assert missing == [], f"sentiprobe {' '.join(command)}: options without an API parameter: {missing}"
