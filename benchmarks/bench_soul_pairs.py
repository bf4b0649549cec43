"""soul-rc minilm-lr features, before vs after issue 12, in one process (ratios survive a loaded machine).

Before: torch, every item's review and statement encoded (one review per statement). After: the default
ONNX Runtime fp32 backend through an embedding store (each distinct text once). Both encode the same
first ``N`` training items (dev stands in for SOUL train); the ONNX graph is exported before timing.
Re-measure:

    SENTIPROBE_DATA_DIR=../shared/data .venv/bin/python benchmarks/bench_soul_pairs.py [N]
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from _common import report, require_data


def main(n: int = 600) -> None:
    require_data()
    from sentiprobe.models.embed_store import EmbeddingStore
    from sentiprobe.models.encoders import TextEncoder
    from sentiprobe.suites import get_suite

    items = get_suite("soul-rc").training()[0][:n]
    texts = [it.text for it in items] + [it.text_pair or "" for it in items]
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        old = TextEncoder(None, layer=-2, backend="torch")
        new = TextEncoder(None, layer=-2, backend="onnx")
        new.set_store(EmbeddingStore(None), Path(tmp))
        old._encode_pooled(["warm up"], None)
        new._encode_pooled(["warm up"], None)  # exports the graph
        for name, fn in (("before", lambda: old._encode_pooled(texts, None)), ("after", lambda: new.encode(texts))):
            t0, c0 = time.perf_counter(), time.process_time()
            fn()
            out[f"{name}_wall_s"] = round(time.perf_counter() - t0, 1)
            out[f"{name}_cpu_s"] = round(time.process_time() - c0, 1)
    report("soul-pairs", {"items": len(items), "texts": len(texts), "distinct_texts": len(set(texts)), **out,
                          "wall_ratio": round(out["before_wall_s"] / out["after_wall_s"], 2),
                          "cpu_ratio": round(out["before_cpu_s"] / out["after_cpu_s"], 2)})


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 600)
