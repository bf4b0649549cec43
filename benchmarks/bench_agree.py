"""``agree`` memory and time: the sparse engine against the dense one it replaced (issue 22 goals: memory linear
in units + categories; 1,900 units with all-distinct values under 200 MB).

Baseline, in the same process: the dense engine of 83308b5 (``tests/agreement_dense_oracle.py``), whose
coincidence array grows with units x categories^2, on tables it can still hold (all-distinct values, so every
rating is its own category); then the sparse engine alone on the tables the dense one cannot hold (1,900 units:
204 GiB asked; 20,000 units x 60,000 categories). Peak memory is tracemalloc's peak of the call (Python and
numpy allocations), time the best of 3.

    .venv/bin/python benchmarks/bench_agree.py
"""
from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from pathlib import Path  # noqa: E402

from _common import report  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import agreement_dense_oracle as dense  # noqa: E402

from sentiprobe.stats import agreement as sparse  # noqa: E402


def table(units: int) -> list[list[str]]:
    return [[f"{i}.1", f"{i}.2", f"{i}.3"] for i in range(units)]


def measure(fn) -> tuple[float, float]:
    """(best-of-3 seconds, peak MiB of one call)."""
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    tracemalloc.start()
    try:
        fn()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return best, peak / 2**20


def all_coefficients(mod, rows, **kw):
    kw = {"alpha": 0.05, **kw}  # 95% intervals
    return [mod.krippendorff_alpha(rows, **kw), mod.fleiss_kappa(rows, **kw), mod.gwet_ac1(rows, **kw),
            mod.percent_agreement(rows, **kw)]


def main() -> None:
    out: dict = {"load": os.getloadavg()[0]}
    for units in (60, 150):
        rows = table(units)
        d_s, d_mb = measure(lambda rows=rows: all_coefficients(dense, rows, ci="bootstrap", n_boot=200))
        s_s, s_mb = measure(lambda rows=rows: all_coefficients(sparse, rows, ci="bootstrap", n_boot=200))
        out[f"{units}_units_all_distinct"] = {"dense_s": round(d_s, 3), "sparse_s": round(s_s, 3),
                                              "dense_peak_mib": round(d_mb, 1), "sparse_peak_mib": round(s_mb, 1),
                                              "memory_ratio_dense_over_sparse": round(d_mb / s_mb, 1),
                                              "time_ratio_dense_over_sparse": round(d_s / s_s, 2)}
    rows = table(1900)
    s_s, s_mb = measure(lambda: all_coefficients(sparse, rows, ci="bootstrap", n_boot=1000))
    out["1900_units_all_distinct_sparse"] = {"seconds": round(s_s, 3), "peak_mib": round(s_mb, 1)}
    big = [[f"c{3 * i}", f"c{3 * i + 1}", f"c{3 * i + 2}"] for i in range(20_000)]
    s_s, s_mb = measure(lambda: all_coefficients(sparse, big))
    out["20000_units_60000_categories_sparse"] = {"seconds": round(s_s, 3), "peak_mib": round(s_mb, 1)}
    report("agree", out)


if __name__ == "__main__":
    main()
