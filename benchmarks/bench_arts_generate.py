"""ARTS generation speed with the language-model ranking, cold and warm (issue 23; goal: >= 20 variants/s on 2 cores,
a 3,000-variant set in under 3 minutes).

Input: the MAMS and restaurant TOWE test files (986 sentences, 1,636 targets), each with its training split as the
AddDiff clause pool (MAMS: ``train_sent.json`` with the restaurant training opinions as in-domain lexicon), default
corrected mode (RevTgt + RevNon + AddDiff). Everything runs in one process on ``--threads`` (default 2) torch
threads, so every figure has same-process baselines:

- ``rules``: the corrected generator without the language model (``--rank rules``);
- ``lm_cold``: ``--rank lm`` with an empty fluency-score cache and the model loaded in the timed run (its float32
  copy already converted from the GGUF, which a first install pays once, ~17 s);
- ``lm_warm``: the same run again: every score read from the cache, the model never loaded;
- ``lm_forward``: SmolLM2 scoring 256 fixed 10-word texts (batch 32), the reference for the machine's speed;
- ``bare_parse``: spaCy's ``nlp.pipe`` over the raw sentences (the old floor).

The machine is shared, so the report gives wall and CPU seconds, CPU seconds per variant, and the ratios
``lm_cold / rules``, ``lm_warm / rules`` and ``variants per reference forward-second`` (cold variants/s divided by
the reference's texts/s), which carry over between machines better than raw rates; ``uptime``'s load is printed
beside them, and so are the CPU's model, its vector and bfloat16 flags, the vector width PyTorch uses and the fluency
model's dtype (``--dtype auto``: float32 on every CPU), which decide the cold cost. A CPU with AVX2 only can be
approximated on a newer one by capping PyTorch and MKL at AVX2 (``ATEN_CPU_CAPABILITY=avx2
MKL_ENABLE_INSTRUCTIONS=AVX2``); the capability printed says which was in effect.

    SENTIPROBE_DATA_DIR=../shared/data .venv/bin/python benchmarks/bench_arts_generate.py [--threads 2] \
        [--domains mams,rest] [--dtype auto|bfloat16|float32] [--limit N]

``--lm-only`` times only the language model's cold scoring: the texts the fluency model receives in one generation
run (captured with the model faked out; ``--lm-every K`` keeps every K-th source sentence with its candidates and
every K-th clause) scored from an empty cache by the same loaded model under ``serial1`` (one batch at a time on
1 torch thread), ``serial2`` (one batch at a time on 2 threads) and ``pool2x1`` (2 workers, each batch on 1
thread), in the order A B C C B A so that a drift of the machine's load falls on all alike; it prints CPU and wall
seconds per mode, their ratios, and whether the three gave the same scores (rounded to 1e-4).
"""
from __future__ import annotations

import argparse
import os
import sys

_THREADS = next((sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--threads"), "2")
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = _THREADS  # before numpy/torch/thinc load
os.environ.setdefault("MKL_CBWR", "AUTO,STRICT")  # as the sentiprobe command sets it (sentiprobe.cli)

import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from _common import report, require_data  # noqa: E402

from sentiprobe.models.fluency_lm import FluencyLM, cpu_flags  # noqa: E402
from sentiprobe.generate.arts.inputs import Loaded, read_input  # noqa: E402
from sentiprobe.generate.arts.pipeline import GenerateConfig, Toolkit, generate  # noqa: E402
from sentiprobe.generate.arts.text import _tokenize  # noqa: E402


def _load() -> str:
    return open("/proc/loadavg").read().split()[0] if Path("/proc/loadavg").exists() else "n/a"


def _cpu() -> dict:
    """The CPU's model name and the flags that decide the fluency model's speed."""
    model = "n/a"
    if Path("/proc/cpuinfo").exists():
        lines = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines()
        model = next((ln.split(":", 1)[1].strip() for ln in lines if ln.startswith("model name")), "n/a")
    flags = cpu_flags()
    keep = sorted(f for f in flags if f.startswith(("avx", "amx")) or f in ("fma", "f16c"))
    return {"model": model, "flags": keep, "cores": os.cpu_count()}


DOMAINS = {"mams": ("mams/train_sent.json", ("rest/train_sent_towe.json",)), "rest": ("rest/train_sent_towe.json", ()),
           "laptop": ("laptop/train_sent_towe.json", ())}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--limit", type=int, default=0, help="first N sentences of each test file (0: all)")
    ap.add_argument("--models-dir", default=None, help="converted SmolLM2 weights (default: the sentiprobe cache)")
    ap.add_argument("--domains", default="mams,rest", help="comma-separated test files: mams, rest, laptop")
    ap.add_argument("--dtype", default="auto", choices=("auto", "bfloat16", "float32"), help="fluency model dtype")
    ap.add_argument("--lm-only", action="store_true", help="time only the fluency model's cold scoring (see above)")
    ap.add_argument("--lm-every", type=int, default=4, help="with --lm-only: every K-th sentence of the workload")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    src = Path(require_data()) / "arts" / "src_data"
    jobs = []
    for dom in [d.strip() for d in args.domains.split(",") if d.strip()]:
        pool, lex = DOMAINS[dom]
        lo = read_input(src / dom / "test_sent_towe.json")
        sents = lo.sentences[:args.limit] if args.limit else lo.sentences
        jobs.append((dom, Loaded(sents, [], "towe", True), str(src / pool), tuple(str(src / x) for x in lex)))
    work = Path(tempfile.mkdtemp(prefix="bench-arts-"))
    kit = Toolkit(work)
    if args.models_dir:
        kit.models_dir = Path(args.models_dir)
    else:
        from sentiprobe.run.cache import default_cache_dir

        kit.models_dir = default_cache_dir() / "models"
    texts = [s.text for _, lo, _, _ in jobs for s in lo.sentences]
    kit.parser.parse_texts(texts[:50])  # warm-up: spaCy's first call
    lm = kit.fluency(args.dtype)
    lm._ensure()  # conversion (first install) outside the timings; the cold run loads it again below
    cpu = {**_cpu(), "torch_capability": torch.backends.cpu.get_cpu_capability()}
    out: dict = {"threads": args.threads, "domains": args.domains, "cpu": cpu,
                 "fluency_dtype": lm.dtype, "fluency_dtype_reason": lm.dtype_reason,
                 "load_average_start": _load(), "sentences": len(texts)}
    print(f"CPU: {cpu['model']}, {cpu['cores']} cores; flags: {' '.join(cpu['flags'])}; PyTorch uses "
          f"{cpu['torch_capability']}; fluency model dtype: {lm.dtype} ({lm.dtype_reason})", flush=True)

    def clear() -> None:
        kit.parser._cache.clear()
        _tokenize.cache_clear()
        for wn in kit.wordnet.values():
            wn._cache.clear()

    def run(name: str, rank: str, drop_scores: bool = False, unload: bool = False) -> None:
        clear()
        if drop_scores:
            lm.close()
            (work / "fluency.sqlite").unlink(missing_ok=True)
        if unload:
            lm._model = lm._tok = None
            from sentiprobe.models import local_lm

            local_lm._LOADED.clear()
        before = dict(lm.stats)
        t0, c0 = time.perf_counter(), time.process_time()
        n = 0
        for _dom, lo, pool, lex in jobs:
            gen = generate(lo, GenerateConfig(rank=rank, pool_file=pool, lexicon_files=lex, lm_dtype=args.dtype),
                           kit)
            n += len(gen.variants)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        out[name] = {"variants": n, "wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
                     "variants_per_s": round(n / wall, 2), "variants_per_cpu_s": round(n / cpu, 2),
                     "cpu_s_per_variant": round(cpu / n, 4) if n else None,
                     "lm_texts_scored": lm.stats["scored"] - before["scored"],
                     "lm_load_s": round(lm.stats["load_s"] - before["load_s"], 2), "load_average": _load()}

    if args.lm_only:
        return lm_only(args, jobs, kit, lm, out)
    t0 = time.perf_counter()
    kit.parser.parse_texts(texts)
    out["bare_parse"] = {"wall_s": round(time.perf_counter() - t0, 2)}
    run("rules", "rules")
    run("lm_cold", "lm", drop_scores=True, unload=True)
    run("lm_warm", "lm", unload=True)
    ref = [" ".join(t.split()[2:12]) for t in texts][:256]
    ref_lm = type(lm)(Path(tempfile.mkdtemp(prefix="bench-ref-")), dtype=args.dtype, convert_dir=kit.models_dir)
    ref_lm._ensure()
    t0, c0 = time.perf_counter(), time.process_time()
    ref_lm.mean(ref)
    rw, rc = time.perf_counter() - t0, time.process_time() - c0
    out["lm_forward"] = {"texts": len(ref), "texts_per_s": round(len(ref) / rw, 2),
                         "texts_per_cpu_s": round(len(ref) / rc, 2)}
    cold, warm, rules = out["lm_cold"], out["lm_warm"], out["rules"]
    out["ratios"] = {
        "lm_cold_over_rules_wall": round(cold["wall_s"] / rules["wall_s"], 2),
        "lm_warm_over_rules_wall": round(warm["wall_s"] / rules["wall_s"], 2),
        "lm_cold_variants_per_reference_text": round(cold["variants_per_s"] / out["lm_forward"]["texts_per_s"], 3),
        "seconds_for_3000_variants_cold": round(3000 / cold["variants_per_s"], 1),
    }
    out["load_average_end"] = _load()
    out["goals"] = {"variants_per_s_cold": ">= 20 (2 cores)", "seconds_for_3000_variants_cold": "< 180",
                    "cpu_s_per_variant_cold": "<= 0.1"}
    report("arts_generate", out)


def lm_only(args: argparse.Namespace, jobs: list, kit: Toolkit, lm: FluencyLM, out: dict) -> None:
    """The fluency model's cold scoring of one generation run's texts, serial and concurrent (see the docstring)."""
    import torch

    groups: dict[str, set[str]] = {}
    clauses: list[str] = []

    def fake_sentences(self: FluencyLM, g: dict) -> dict:
        for src, vs in g.items():
            groups.setdefault(src, set()).update(vs)
        return {t: (-20.0, 10) for t in {*g, *(v for vs in g.values() for v in vs)}}

    def fake_logprob(self: FluencyLM, texts: list) -> list:
        clauses.extend(texts)
        return [(-20.0, 10)] * len(texts)

    real = FluencyLM.sentences, FluencyLM.logprob
    FluencyLM.sentences, FluencyLM.logprob = fake_sentences, fake_logprob  # type: ignore[assignment]
    try:
        for _dom, lo, pool, lex in jobs:
            generate(lo, GenerateConfig(rank="lm", pool_file=pool, lexicon_files=lex, lm_dtype=args.dtype), kit)
    finally:
        FluencyLM.sentences, FluencyLM.logprob = real  # type: ignore[method-assign]
    k = max(1, args.lm_every)
    work = {s: sorted(groups[s]) for s in sorted(groups)[::k]}
    pool_texts = sorted(set(clauses))[::k]
    out["workload"] = {"every": k, "sources": len(work), "candidates": sum(map(len, work.values())),
                       "clauses": len(pool_texts)}
    print(f"workload: {out['workload']}", flush=True)
    modes = {"serial1": (1, 1), "serial2": (2, 1), "pool2x1": (2, 2)}  # (torch threads, workers)
    runs: dict[str, list[tuple[float, float]]] = {m: [] for m in modes}
    scores: dict[str, dict] = {}
    for mode in ["serial1", "serial2", "pool2x1", "pool2x1", "serial2", "serial1"]:
        threads, workers = modes[mode]
        torch.set_num_threads(threads)
        fresh = FluencyLM(Path(tempfile.mkdtemp(prefix="bench-lm-")), dtype=args.dtype, convert_dir=kit.models_dir,
                          workers=workers)
        fresh._ensure()  # the model is loaded once per process (shared); only the scoring is timed
        t0, c0 = time.perf_counter(), time.process_time()
        got = fresh.sentences(work)
        got.update(zip(pool_texts, fresh.logprob(pool_texts)))
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        fresh.close()
        runs[mode].append((cpu, wall))
        rounded = {t: round(x / n, 4) if n else 0.0 for t, (x, n) in got.items()}
        scores.setdefault(mode, rounded)
        print(f"{mode}: {cpu:.1f} CPU s, {wall:.1f} s wall, load {_load()}", flush=True)
    mean = {m: (sum(c for c, _ in r) / len(r), sum(w for _, w in r) / len(r)) for m, r in runs.items()}
    out["lm_only"] = {m: {"cpu_s": round(c, 2), "wall_s": round(w, 2), "runs": [[round(a, 2), round(b, 2)] for a, b
                                                                                 in runs[m]]}
                      for m, (c, w) in mean.items()}
    out["lm_only_ratios"] = {f"{a}_over_{b}_{kind}": round(mean[a][i] / mean[b][i], 3)
                             for a, b in (("pool2x1", "serial2"), ("pool2x1", "serial1"), ("serial2", "serial1"))
                             for i, kind in ((0, "cpu"), (1, "wall"))}
    out["lm_only_same_scores"] = scores["serial1"] == scores["serial2"] == scores["pool2x1"]
    out["load_average_end"] = _load()
    report("arts_generate_lm_only", out)


if __name__ == "__main__":
    main()
