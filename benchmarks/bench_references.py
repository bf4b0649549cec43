"""What the reference systems add to a run: the same run with ``--reference none`` and ``--reference all``.

The reference systems (the ARTS paper's nine models on three suites, SENTiVENT's four released prediction sets) are
read, not run: each costs a file read, a validation against the suite's items, the score stage (bootstrap
included) and its share of the paired comparison (more systems, more pairs). To isolate that cost the models are
cheap stand-ins: ``majority`` under ``--labels`` labels (the main job runs three default models on the ARTS and
SENTiVENT suites: majority, tfidf-lr and minilm-lr), so the difference between the two runs is the references'
reading, scoring, pairing and report, on a cold cache each (a fresh cache directory per run). Wall and CPU seconds
of this process; compare the added CPU seconds with the main job's cold time (docs/performance.md).

    SENTIPROBE_DATA_DIR=../shared/data .venv/bin/python benchmarks/bench_references.py [--labels 3] [--n-boot 1000]
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from _common import report, require_data

SUITES = ("arts-laptop", "arts-rest", "arts-mams", "sentivent-polar", "sentivent-clause")


def _one(reference: str, labels: int, n_boot: int, root: Path) -> dict:
    from sentiprobe import api

    models = [f"m{k}=majority" for k in range(labels)]
    out, cache = root / f"run-{reference}", root / f"cache-{reference}"
    t0, c0 = time.perf_counter(), time.process_time()
    doc = api.run(list(SUITES), models, out=out, cache_dir=str(cache), n_boot=n_boot, progress=False,
                  reference=reference, jobs=1)
    return {"wall_s": round(time.perf_counter() - t0, 2), "cpu_s": round(time.process_time() - c0, 2),
            "references": len(doc.get("references") or {})}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--labels", type=int, default=3)
    ap.add_argument("--n-boot", type=int, default=1000)
    args = ap.parse_args()
    require_data()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _one("none", 1, 10, root / "warm")  # imports and the suites' first loads, outside the measurement
        none = _one("none", args.labels, args.n_boot, root)
        all_ = _one("all", args.labels, args.n_boot, root)
    report("references", {"suites": list(SUITES), "models": args.labels, "n_boot": args.n_boot,
                          "reference_none": none, "reference_all": all_,
                          "added_wall_s": round(all_["wall_s"] - none["wall_s"], 2),
                          "added_cpu_s": round(all_["cpu_s"] - none["cpu_s"], 2)})


if __name__ == "__main__":
    main()
