"""Training throughput (examples/s) and peak memory of each model recipe on CPU, with tiny random models.

Recipes: ``hf-finetune`` (default head: the baseline), ``hf-finetune recipe=noncompsst`` (reference head,
cosine warm-up, dev-accuracy selection: one dev pass per epoch), ``hf-finetune lexicon_features=all``
(SENTiVENT lexicon head), ``hf-seq2seq`` task rc and jg (SOUL text-to-text), and ``hf-nli`` (inference
only: examples/s of classification). Each recipe runs in its own child process, so its peak RSS is its
own; an import-only child gives the floor (Python + torch + transformers). Throughput ratios are against
the baseline measured in the same run; figures go in the README (no timing assertions anywhere).

    PYTHONPATH=src python benchmarks/bench_recipes.py [--n 256] [--epochs 2] [--threads 1]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the tiny-model builders of the tests

from _common import peak_rss_mib, report

RECIPES = {
    "import-only": None,
    "hf-finetune": ("bert", {}),
    "hf-finetune/noncompsst": ("bert", {"recipe": "noncompsst", "lr": "1e-4"}),
    "hf-finetune/lexicon-all": ("bert", {"lexicon_features": "all"}),
    "hf-seq2seq/rc": ("t5", {"task": "rc"}),
    "hf-seq2seq/jg": ("t5", {"task": "jg"}),
    "hf-nli (inference)": ("nli", {}),
}


def _items(n: int, split: str):
    from sentiprobe.core.types import Item

    words = ["great", "awful", "fine", "dull", "bright", "slow", "cheap", "loud"]
    out = []
    for i in range(n):
        w = words[i % len(words)]
        lab = ("true", "false", "not-given")[i % 3]
        text = f"the food was {w} and the staff number {i % 17} said the room was {words[(i * 3) % 8]} " * 3
        out.append(Item(f"{split}{i}", f"{split}{i}", split, text.strip(), lab, text_pair=f"the food was {w}",
                        meta={"justification": f"the reviewer says the food was {w}"},
                        features={f"lm_polarity-f{k}": float((i * k) % 5) for k in range(12)}))
    return out


def child(name: str, n: int, epochs: int, threads: int, root: Path) -> dict:
    import torch

    torch.set_num_threads(threads)
    from sentiprobe.models import create_model

    if RECIPES[name] is None:
        return {"peak_rss_mib": round(peak_rss_mib(), 1)}
    kind, extra = RECIPES[name]
    from recipes_tiny import tiny_bert, tiny_t5

    train, dev = _items(n, "train"), _items(max(8, n // 8), "dev")
    texts = [f"{it.text} {it.text_pair} {it.meta['justification']}" for it in train]
    labels = ("true", "false", "not-given")
    if kind == "t5":
        path = tiny_t5(root / "t5", texts, d_model=64)
        m = create_model("hf-seq2seq", path=str(path), epochs=epochs, batch_size=16, max_length=128, device="cpu",
                         output_dir=str(root / "out"), **extra)
    elif kind == "nli":
        path = tiny_bert(root / "nli", texts, {0: "contradiction", 1: "entailment", 2: "neutral"}, hidden=64)
        m = create_model("hf-nli", path=str(path), batch_size=16, max_length=128, device="cpu")
        m.classify(train[:16], labels, "text-pair")  # load outside the timed part, like fit's own loading
        t0 = time.perf_counter()
        m.classify(train, labels, "text-pair")
        dt = time.perf_counter() - t0
        return {"examples_per_s": round(n / dt, 1), "seconds": round(dt, 3), "peak_rss_mib": round(peak_rss_mib(), 1)}
    else:
        path = tiny_bert(root / "bert", texts, {0: "x"}, hidden=64)
        m = create_model("hf-finetune", path=str(path), epochs=epochs, batch_size=16, max_length=128, device="cpu",
                         output_dir=str(root / "out"), **extra)
    t0 = time.perf_counter()
    m.fit(train, dev, labels, input_kind="text-pair", seed=0)
    dt = time.perf_counter() - t0
    return {"examples_per_s": round(n * epochs / dt, 1), "seconds": round(dt, 3),
            "peak_rss_mib": round(peak_rss_mib(), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=256, help="training examples")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        with tempfile.TemporaryDirectory() as d:
            print(json.dumps(child(a.child, a.n, a.epochs, a.threads, Path(d))))
        return
    out = {}
    for name in RECIPES:
        res = subprocess.run([sys.executable, __file__, "--child", name, "--n", str(a.n), "--epochs", str(a.epochs),
                              "--threads", str(a.threads)], capture_output=True, text=True, check=True)
        out[name] = json.loads(res.stdout.strip().splitlines()[-1])
    base = out["hf-finetune"]["examples_per_s"]
    for r in out.values():
        if "examples_per_s" in r:
            r["throughput_vs_hf_finetune"] = round(r["examples_per_s"] / base, 2)
    report("recipes", {"n_train": a.n, "epochs": a.epochs, "threads": a.threads, "device": "cpu",
                       "models": "tiny random BERT (hidden 64, 1 layer) / T5 (d_model 64, 1+1 layers)",
                       "recipes": out})


if __name__ == "__main__":
    main()
