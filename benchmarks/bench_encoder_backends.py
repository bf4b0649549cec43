"""The packaged MiniLM's batched forward pass with each backend: torch, ONNX Runtime fp32 and dynamic int8.

384 sentences of 8-40 words drawn (seeded) from the words of this repository's README, layer 5 of 6
(minilm-lr's default), mean pooling, batches of 64 sorted by length, no store. Each backend is warmed up
(the ONNX graph exported) first, then the three are timed in turn, twice. Re-measure:

    .venv/bin/python benchmarks/bench_encoder_backends.py
"""
from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from _common import report


def main(repeat: int = 2) -> None:
    from sentiprobe.models.encoders import TextEncoder

    rng = random.Random(0)
    words = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8").split()
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(8, 40))) for _ in range(384)]
    times: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        encs = {}
        for b in ("torch", "onnx", "onnx-int8"):
            e = TextEncoder(None, layer=-2, backend=b)
            e.export_dir = Path(tmp)
            e._encode_pooled(texts[:8], None)
            encs[b] = e
        for _ in range(repeat):
            for b, e in encs.items():
                t0 = time.perf_counter()
                e._encode_pooled(texts, None)
                times.setdefault(b, []).append(time.perf_counter() - t0)
    best = {b: min(v) for b, v in times.items()}
    report("encoder-backends", {"sentences": len(texts), "seconds": {b: round(v, 2) for b, v in best.items()},
                                "speedup_onnx": round(best["torch"] / best["onnx"], 2),
                                "speedup_onnx_int8": round(best["torch"] / best["onnx-int8"], 2)})


if __name__ == "__main__":
    main()
