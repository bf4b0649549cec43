"""Shared test fixtures.

Real-data tests read the shipped datasets from ``$SENTIPROBE_DATA_DIR``; they fail (not skip)
when it is missing, so CI cannot go green without the data.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

try:  # deterministic property tests: the same examples on every run (no flaky CI)
    from hypothesis import settings as _hyp_settings

    _hyp_settings.register_profile("sentiprobe", derandomize=True, deadline=None, print_blob=True)
    _hyp_settings.load_profile("sentiprobe")
except ImportError:  # pragma: no cover
    pass

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

# the tests stand where the command line does: the library sees the process environment (SENTIPROBE_DATA_DIR,
# the per-test SENTIPROBE_CACHE_DIR below, the LLM variables a test sets) only because this installs it
from sentiprobe.cli.environment import use_environment

use_environment()


@pytest.fixture(scope="session")
def data_dir() -> Path:
    env = os.environ.get("SENTIPROBE_DATA_DIR")
    if not env:
        pytest.fail("SENTIPROBE_DATA_DIR is not set: real-data tests need the shipped datasets")
    p = Path(env)
    if not p.is_dir():
        pytest.fail(f"SENTIPROBE_DATA_DIR={env} does not exist")
    return p


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    """Each test gets its own prediction cache directory (never the user's)."""
    monkeypatch.setenv("SENTIPROBE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
