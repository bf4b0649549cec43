"""Shared helpers for the benchmark scripts (timing, peak memory, output)."""
from __future__ import annotations

import json
import os
import resource
import sys
import time
from contextlib import contextmanager

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def _use_environment() -> None:
    """The benchmarks call the Python API as the command line would: SENTIPROBE_DATA_DIR / _CACHE_DIR apply."""
    from sentiprobe.cli.environment import use_environment

    use_environment()


_use_environment()


@contextmanager
def timer(store: dict, key: str):
    t0 = time.perf_counter()
    yield
    store[key] = time.perf_counter() - t0


def best_of(fn, repeat: int = 3) -> float:
    """Minimum wall time of ``repeat`` calls (robust to machine noise)."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def report(name: str, doc: dict) -> None:
    print(json.dumps({"benchmark": name, **doc}, indent=2))
    sys.stdout.flush()


def require_data() -> str:
    d = os.environ.get("SENTIPROBE_DATA_DIR")
    if not d:
        sys.exit("set SENTIPROBE_DATA_DIR to the datasets (e.g. ../shared/data)")
    return d
