"""The architecture of docs/architecture.md holds and is enforced.

- The import-linter contract (``[tool.importlinter]`` in pyproject.toml, run by ``make lint``) passes on the
  source tree, and it *fails* on a copy of the tree with one upward import injected (at module level, inside a
  function, and between two independent siblings): the check can fail, so a green ``make lint`` means something.
- Every module of ``sentiprobe`` imports on its own in a fresh interpreter (no hidden import cycle, no module
  that works only when something else was imported first). A module may be skipped only when a heavy optional
  dependency it needs at import is not installed.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import sentiprobe

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(sentiprobe.__file__).resolve().parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

#: heavy optional dependencies: a module needing one of them at import may be skipped where it is not installed
OPTIONAL = {"torch", "transformers", "spacy", "onnxruntime", "onnxscript", "ray", "optuna", "sentence_transformers",
            "safetensors", "bert_score", "gguf", "openai", "httpx", "nltk", "wn"}


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the project's contract on the package copy under ``tree``."""
    assert LINT_IMPORTS.exists(), "lint-imports is missing: install the dev extra (import-linter)"
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    return subprocess.run([str(LINT_IMPORTS), "--config", str(tree / "pyproject.toml"), "--no-cache"], cwd=tree,
                          env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """A copy of the package and the contract, analysed instead of the installed package (PYTHONPATH first)."""
    root = tmp_path_factory.mktemp("arch")
    shutil.copytree(PACKAGE, root / "src" / "sentiprobe", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


def test_the_contract_is_kept_on_the_source(tree):
    res = _lint(tree)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "KEPT" in res.stdout and "BROKEN" not in res.stdout


@pytest.mark.parametrize("module, line, in_function, broken", [
    # module level: the bottom layer importing the models
    ("core/hashing.py", "from ..models import MODELS", False, "sentiprobe.core.hashing -> sentiprobe.models"),
    # inside a function (where most upward imports hid): a model adapter importing the runner
    ("models/baselines.py", "from ..run.runner import run_models", True,
     "sentiprobe.models.baselines -> sentiprobe.run.runner"),
    # independent siblings of one layer: stats may not import data
    ("stats/bootstrap.py", "from ..data import names", False, "sentiprobe.stats.bootstrap -> sentiprobe.data.names"),
    # the protocol layer may not import the suites above it
    ("protocols/triplets/grid.py", "from ...suites import SUITES", True,
     "sentiprobe.protocols.triplets.grid -> sentiprobe.suites"),
])
def test_an_upward_import_breaks_the_contract(tree, module, line, in_function, broken):
    path = tree / "src" / "sentiprobe" / module
    original = path.read_text(encoding="utf-8")
    if in_function:
        changed = original + f"\n\ndef _injected():\n    {line}  # noqa\n    return None\n"
    else:  # right after the `from __future__` line
        head, sep, tail = original.partition("from __future__ import annotations\n")
        assert sep, module
        changed = head + sep + f"{line}  # noqa\n" + tail
    compile(changed, str(path), "exec")  # the injection itself is valid Python
    path.write_text(changed, encoding="utf-8")
    try:
        res = _lint(tree)
    finally:
        path.write_text(original, encoding="utf-8")
    assert res.returncode != 0, res.stdout
    assert "BROKEN" in res.stdout and broken in res.stdout, res.stdout


def _modules() -> list[str]:
    out = []
    for f in sorted(PACKAGE.rglob("*.py")):
        rel = f.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts[-1] == "__main__":  # the program itself: importing it runs the command line
            continue
        out.append(".".join(parts))
    return out


_CHILD = """
import importlib, json, sys
try:
    importlib.import_module(sys.argv[1])
except ModuleNotFoundError as exc:
    print(json.dumps({"missing": exc.name}))
    raise
"""


def _import_alone(module: str) -> tuple[str, int, str]:
    res = subprocess.run([sys.executable, "-c", _CHILD, module], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    return module, res.returncode, res.stdout + res.stderr


def test_every_module_imports_alone_in_a_fresh_interpreter():
    import importlib.util

    modules = _modules()
    assert len(modules) > 150 and "sentiprobe.protocols.triplets.grid" in modules
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        results = list(pool.map(_import_alone, modules))
    failed = []
    for module, rc, output in results:
        if rc == 0:
            continue
        first = output.splitlines()[0] if output.startswith("{") else ""
        missing = json.loads(first).get("missing", "") if first else ""
        top = (missing or "").split(".")[0]
        if top in OPTIONAL and importlib.util.find_spec(top) is None:
            continue  # a heavy optional dependency that is not installed here
        failed.append(f"{module}:\n{output[-1500:]}")
    assert not failed, "\n\n".join(failed)
