"""`run` with minilm-lr on arts-laptop + arts-rest vs a bare batched forward pass (goal: <= 1.15).

Both sides run in this process on the same loaded encoder (loaded once before timing):

- harness: ``sentiprobe.api.run(["arts-laptop", "arts-rest"], ["minilm-lr"])`` with a fresh,
  empty cache: loads and validates the data, encodes the train split and fits the logistic
  regression, predicts every test item (originals + variants) through the SQLite cache, scores
  with bootstrap CIs and writes predictions, results.json and report.html;
- bare: one batched forward pass of the same encoder over exactly the same input texts (the
  marked train and test sentences) with the adapter's backend, no store, and nothing else.

Also reports the process's peak resident memory. Re-measure:

    SENTIPROBE_DATA_DIR=../shared/data .venv/bin/python benchmarks/bench_run_minilm.py
"""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from _common import peak_rss_mib, report, require_data

SUITES = ["arts-laptop", "arts-rest"]


def main(repeat: int = 2) -> None:
    require_data()
    from sentiprobe import api
    from sentiprobe.models import create_model
    from sentiprobe.models import embed_store, encoder_models
    from sentiprobe.suites import get_suite

    model = create_model("minilm-lr")
    model.input_kind = "text+aspect"
    enc = model.encoder
    texts = []
    for name in SUITES:
        s = get_suite(name)
        for split in ("train", "test"):
            for it in s.items(split):
                texts.append(encoder_models.marked(it)[0])

    def bare() -> None:  # the adapter's backend, no store, no de-duplication
        enc._encode_pooled(texts, None)

    graphs = tempfile.TemporaryDirectory()  # the exported ONNX graph, made once like a cache directory's
    enc.export_dir = Path(graphs.name)

    def harness() -> None:
        embed_store._STORES.clear()  # no shared encodings between repeats
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "cache" / "checkpoints").mkdir(parents=True)
            (Path(tmp) / "cache" / "checkpoints" / "onnx").symlink_to(graphs.name)
            api.run(SUITES, ["minilm-lr"], out=f"{tmp}/run", cache_dir=f"{tmp}/cache", progress=False)

    bare()  # warm-up (thread pools, allocator; exports the ONNX graph of an onnx backend once)
    t_h, t_b = [], []
    for _ in range(repeat):  # interleaved, best of each
        t0 = time.perf_counter()
        harness()
        t_h.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        bare()
        t_b.append(time.perf_counter() - t0)
    h, b = min(t_h), min(t_b)
    report("run-minilm-arts", {
        "suites": SUITES, "n_texts_encoded": len(texts),
        "harness_seconds": round(h, 2), "bare_forward_seconds": round(b, 2),
        "ratio_harness_over_bare": round(h / b, 3), "goal_ratio_at_most_1.15": h / b <= 1.15,
        "bare_sentences_per_second": round(len(texts) / b, 1),
        "backend": model.backend, "peak_rss_mib": round(peak_rss_mib(), 1),
    })
    graphs.cleanup()


if __name__ == "__main__":
    main()
