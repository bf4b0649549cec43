"""The main job (default models on every suite): `make run` cold and cached, and per suite x model rows.

Goals on the 2-core machine: cold main job <= 4 min, soul-rc with minilm-lr <= 90 s, cached re-run
<= 10 s, harness <= 1.15x the floor.

Whole job (the default): the command ``make run`` runs, ``sentiprobe run --out DIR --cache-dir FRESH`` (every
suite with data, the default models: the registry's ``default`` tag, ``--jobs auto``: the models spread over one
worker process per core by their registered cost, see ``sentiprobe.run.lanes``), timed cold, then again on the
same cache and run directory (the cached re-run); CPU seconds of the command and its worker processes; the per
suite x model stage seconds from each ``results.json`` and their sum per model and per lane. ``--serial-baseline``
also runs the same cold job with ``--jobs 1`` in this session (a fresh cache) and prints the ratio, so the two
figures share the machine's load.

On a shared machine the wall time measures the other users too: the script prints the 1-minute load average
before and after, and ``quiet_wall_estimate_s`` = CPU seconds x wall/CPU of the last quiet measurement
(``--quiet-ratio``, docs/performance.md, "The main job"), the figure to compare with the goal when the load was high.

Rows (``--rows``): ``api.run(suite, model)`` one suite x model at a time in this process, on one fresh cache.
Per row: test items, fit / predict / score seconds, the process CPU seconds, prediction-cache hits and the
embedding-store hits/misses. The floor of a minilm-lr row is the time spent inside the encoder's bare batched
forward pass (``TextEncoder._encode_pooled``: tokenise, pad, forward, pool) for the distinct texts it had to
encode; the harness ratio is (fit + predict) / floor.

Re-measure (the machine's load changes every figure; compare ratios measured in one session):

    SENTIPROBE_DATA_DIR=../shared/data .venv/bin/python benchmarks/bench_main_job.py [--serial-baseline]
    SENTIPROBE_DATA_DIR=../shared/data .venv/bin/python benchmarks/bench_main_job.py --rows [--suites a,b] \
        [--models majority,tfidf-lr,minilm-lr] [--model-arg backend=onnx]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import peak_rss_mib, report, require_data


def _cli(out: Path, cache: Path, jobs: str) -> dict:
    """One ``sentiprobe run`` as ``make run`` calls it; wall and CPU seconds (the command and its workers)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "sentiprobe", "run", "--out", str(out), "--cache-dir", str(cache),
                           "--jobs", jobs, "--no-progress", "--json"], capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"sentiprobe run failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1)}


def _stage_rows(out: Path) -> list[dict]:
    rows = []
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    for model, run in summary["runs"].items():
        for suite, entry in run["suites"].items():
            sec = entry.get("seconds", {})
            rows.append({"suite": suite, "model": model, **{f"{k}_s": round(v, 1) for k, v in sec.items()},
                         "total_s": round(sum(sec.values()), 1)})
    return rows


def _per_model(rows: list[dict]) -> dict[str, float]:
    """Seconds of each model's suites (load + fit + predict + score), the lanes' composition."""
    out: dict[str, float] = {}
    for r in rows:
        out[r["model"]] = round(out.get(r["model"], 0.0) + r["total_s"], 1)
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def whole(serial_baseline: bool, quiet_ratio: float) -> None:
    from sentiprobe.models import MODELS
    from sentiprobe.run.lanes import default_jobs, plan_lanes

    require_data()
    models = MODELS.names(tag="default")
    load_before = round(os.getloadavg()[0], 2)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        cold = _cli(root / "out", root / "cache", "auto")
        print(f"cold main job (--jobs auto): {cold['wall_s']} s wall, {cold['cpu_s']} CPU s "
              f"(load average {load_before} before, {os.getloadavg()[0]:.2f} after)", flush=True)
        rows = _stage_rows(root / "out")  # before the re-run rewrites results.json
        cached = _cli(root / "out", root / "cache", "auto")
        print(f"cached re-run: {cached['wall_s']} s wall", flush=True)
        serial = None
        if serial_baseline:
            serial = _cli(root / "serial", root / "cache-serial", "1")
            print(f"cold main job (--jobs 1): {serial['wall_s']} s wall, {serial['cpu_s']} CPU s", flush=True)
    cols = ["suite", "model", "load_s", "fit_s", "predict_s", "score_s", "total_s"]
    print("cold, seconds per stage (results.json):")
    print("| " + " | ".join(cols) + " |\n|" + "---|" * len(cols))
    for r in sorted(rows, key=lambda r: (r["model"], r["suite"])):
        print("| " + " | ".join(str(r.get(c, "")) for c in cols) + " |")
    per_model = _per_model(rows)
    lanes = plan_lanes(models, default_jobs(len(models)))
    estimate = round(cold["cpu_s"] * quiet_ratio, 1)
    doc = {"models": models, "lanes": lanes, "cold": cold, "goal_cold_at_most_240": cold["wall_s"] <= 240,
           "quiet_ratio": quiet_ratio, "quiet_wall_estimate_s": estimate,
           "cached_rerun": cached, "goal_cached_at_most_10": cached["wall_s"] <= 10,
           "seconds_per_model": per_model,
           "seconds_per_lane": [round(sum(per_model.get(m, 0.0) for m in lane), 1) for lane in lanes],
           "cold_rows": rows, "cpus": os.cpu_count(), "load_average_1m_before": load_before,
           "load_average_1m_at_end": round(os.getloadavg()[0], 2)}
    if serial is not None:
        doc["serial_jobs_1"] = serial
        doc["serial_over_parallel"] = round(serial["wall_s"] / cold["wall_s"], 2)
    report("main-job", doc)


def _table(rows: list[dict]) -> str:
    cols = ["suite", "model", "items", "fit_s", "predict_s", "score_s", "total_s", "cpu_s", "cache_hits",
            "store_hits", "store_misses", "floor_s", "harness_over_floor"]
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        out.append("| " + " | ".join(str(r.get(c, "")) for c in cols) + " |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", action="store_true", help="per suite x model rows in this process (with floors)")
    ap.add_argument("--serial-baseline", action="store_true", help="also the cold job with --jobs 1")
    ap.add_argument("--quiet-ratio", type=float, default=0.527,
                    help="wall / CPU seconds of the last quiet cold run (README), for quiet_wall_estimate_s")
    ap.add_argument("--suites", default=None, help="--rows: comma-separated (default: every suite with data)")
    ap.add_argument("--models", default=None, help="--rows: comma-separated (default: the default models)")
    ap.add_argument("--model-arg", action="append", default=[], help="--rows: KEY=VALUE for minilm-lr")
    args = ap.parse_args()
    if not args.rows:
        whole(args.serial_baseline, args.quiet_ratio)
        return
    data_dir = require_data()
    from sentiprobe import api
    from sentiprobe.models import MODELS, embed_store, encoders

    suites = args.suites.split(",") if args.suites else api.available_suite_names(data_dir)
    models = args.models.split(",") if args.models else MODELS.names(tag="default")
    margs = dict(a.split("=", 1) for a in args.model_arg)

    floor = {"s": 0.0, "n": 0}
    bare = encoders.TextEncoder._encode_pooled

    def timed(self, texts, pairs):  # the bare forward pass, timed where the harness calls it
        t0 = time.perf_counter()
        try:
            return bare(self, texts, pairs)
        finally:
            floor["s"] += time.perf_counter() - t0
            floor["n"] += len(texts)

    encoders.TextEncoder._encode_pooled = timed
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        cache = os.path.join(tmp, "cache")
        t_cold = time.perf_counter()
        for model in models:
            for suite in suites:
                floor["s"], floor["n"] = 0.0, 0
                stores = list(embed_store._STORES.values())
                h0 = sum(s.hits for s in stores), sum(s.misses for s in stores)
                t0, c0 = time.perf_counter(), time.process_time()
                doc = api.run([suite], [model], model_args=margs if model == "minilm-lr" else None,
                              out=os.path.join(tmp, "cold", model, suite), cache_dir=cache,
                              progress=False)["runs"][model]
                total, cpu = time.perf_counter() - t0, time.process_time() - c0
                stores = list(embed_store._STORES.values())
                e = doc["suites"].get(suite)
                if e is None:
                    print(f"{suite} {model}: {doc.get('errors') or doc.get('skipped')}", flush=True)
                    continue
                sec = e["seconds"]
                row = {"suite": suite, "model": model, "items": e["n_items"], "fit_s": round(sec["fit"], 1),
                       "predict_s": round(sec["predict"], 1), "score_s": round(sec["score"], 1),
                       "total_s": round(total, 1), "cpu_s": round(cpu, 1), "cache_hits": e["cache"]["hits"],
                       "seeds_identical": e.get("seeds_identical_by_construction")}
                if model == "minilm-lr":
                    row["store_hits"] = sum(s.hits for s in stores) - h0[0]
                    row["store_misses"] = sum(s.misses for s in stores) - h0[1]
                    row["floor_s"] = round(floor["s"], 1)
                    row["texts_encoded"] = floor["n"]
                    if floor["s"] > 0:
                        row["harness_over_floor"] = round((sec["fit"] + sec["predict"]) / floor["s"], 2)
                row["metrics"] = {k: [round(m["value"], 4) if m["value"] is not None else None,
                                      m["ci_low"], m["ci_high"]] for k, m in e["metrics"].items()}
                rows.append(row)
                print(f"{suite} {model}: {row['total_s']} s", flush=True)
        cold = time.perf_counter() - t_cold
        t0 = time.perf_counter()
        for model in models:
            api.run(suites, [model], model_args=margs if model == "minilm-lr" else None,
                    out=os.path.join(tmp, "cached", model), cache_dir=cache, progress=False)
        cached = time.perf_counter() - t0
    encoders.TextEncoder._encode_pooled = bare
    minilm = [r for r in rows if r["model"] == "minilm-lr" and "floor_s" in r]
    print(_table(rows))
    report("main-job", {
        "suites": suites, "models": models, "model_args": margs, "rows": rows,
        "cold_seconds": round(cold, 1), "goal_cold_at_most_240": cold <= 240,
        "cached_rerun_seconds": round(cached, 2), "goal_cached_at_most_10": cached <= 10,
        "minilm_floor_seconds": round(sum(r["floor_s"] for r in minilm), 1),
        "minilm_fit_predict_seconds": round(sum(r["fit_s"] + r["predict_s"] for r in minilm), 1),
        "load_average_1m_at_end": round(os.getloadavg()[0], 2), "cpus": os.cpu_count(),
        "peak_rss_mib": round(peak_rss_mib(), 1),
    })


if __name__ == "__main__":
    main()
