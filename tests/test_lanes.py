"""Issue 12: the models of a run side by side in worker processes (``--jobs``), and suites loaded once per run.

The parallel run must give exactly the serial run's results (metrics and predictions files); a lane that fails
outside the suites must fail the run with the lane's error; ``--jobs`` is validated before any work.
"""
from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time

import pytest

import toy
from sentiprobe import api
from sentiprobe.cli import main
from sentiprobe.core.errors import ConfigError, SentiprobeError
from sentiprobe.run.lanes import default_jobs, parse_jobs, plan_lanes
from sentiprobe.suites import get_suite

toy.register()
MAIN_JOB = ["majority", "majority-first", "majority-last", "majority-word", "minilm-lr", "probe-minilm", "tfidf-lr",
            "triplet-rules", "triplet-rules-adj"]


def test_jobs_parse_auto_counts_and_refuse_junk():
    assert parse_jobs("auto", 6) == parse_jobs(None, 6) == default_jobs(6) >= 1
    assert parse_jobs("2", 6) == 2 and parse_jobs(3, 6) == 3
    assert parse_jobs(8, 2) == 2  # never more lanes than models
    assert default_jobs(1) == 1
    for bad in ("0", "-1", "two", "1.5", 0, True, 1.5):
        with pytest.raises(ConfigError, match="--jobs"):
            parse_jobs(bad, 4)


def test_the_main_job_is_the_default_models():
    from sentiprobe.models import MODELS

    assert MODELS.names(tag="default") == MAIN_JOB


def test_lanes_balance_the_main_job_by_registered_cost():
    from sentiprobe.run.lanes import model_cost

    # longest first onto the least loaded lane: the encoder model (190) in one lane, tf-idf (100), the LexComp
    # probe (70) and the light models in the other, until it is as loaded as the first
    assert plan_lanes(MAIN_JOB, 2) == [["majority-first", "majority-word", "minilm-lr"],
                                       ["majority", "majority-last", "probe-minilm", "tfidf-lr", "triplet-rules",
                                        "triplet-rules-adj"]]
    loads = [sum(model_cost(m) for m in lane) for lane in plan_lanes(MAIN_JOB, 2)]
    assert abs(loads[0] - loads[1]) <= max(model_cost(m) for m in MAIN_JOB if model_cost(m) < 50)
    assert plan_lanes(MAIN_JOB, 1) == [MAIN_JOB]
    three = plan_lanes(MAIN_JOB, 3)
    assert three[0] == ["minilm-lr"] and "tfidf-lr" in three[1] and "probe-minilm" in three[2]
    assert plan_lanes(["tfidf-lr", "majority"], 4) == [["tfidf-lr"], ["majority"]]
    # a model registered without a cost: by its tags (no ``baseline`` tag: heavy)
    assert model_cost("probe-glove") > model_cost("majority-target")


def test_lanes_share_the_cores_through_omp_num_threads(monkeypatch, tmp_path):
    """Each of n lanes gets the lane's share of the cores as OMP_NUM_THREADS, set by the worker before torch
    loads; a value the user set wins; one lane keeps torch's default."""
    import sentiprobe.run.lanes as lanes
    from sentiprobe.cli import lane

    assert lanes.lane_threads(1) is None
    assert lanes.lane_threads(2) == max(1, (os.cpu_count() or 1) // 2)
    seen = []
    monkeypatch.setattr(lanes, "run_lane", lambda spec, err: seen.append(os.environ.get("OMP_NUM_THREADS")) or 0)
    spec = tmp_path / "lane.json"
    spec.write_text(json.dumps({"threads": 2, "configs": []}))
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    assert lane.main(str(spec), str(tmp_path / "err.json")) == 0
    monkeypatch.setenv("OMP_NUM_THREADS", "3")  # the caller's choice wins
    assert lane.main(str(spec), str(tmp_path / "err.json")) == 0
    assert seen == ["2", "3"]


def test_a_shared_suite_reads_once_for_every_use():
    calls = []
    first = get_suite("toy")
    original = first.spec.load_items

    def counting(suite, split):
        calls.append(split)
        return original(suite, split)

    first.spec = dataclasses.replace(first.spec, load_items=counting)
    twin = first.shared()
    assert first.items("test") is twin.items("test")
    first.training()
    assert twin.train_fingerprint() == first.train_fingerprint()
    assert twin.score_context(trained=True) is first.score_context(trained=True)  # built once, frozen
    assert sorted(calls) == ["dev", "test", "train"]  # each split read once for both uses


def _metrics(doc):
    return {m: {s: {k: v["value"] for k, v in e["metrics"].items()} for s, e in r["suites"].items()}
            for m, r in doc["runs"].items()}


def test_parallel_lanes_give_the_serial_results(data_dir, tmp_path):
    kw = dict(suites=["arts-laptop", "lexcomp-nc-literality"], models=["majority", "tfidf-lr"], n_boot=50,
              limit=300, progress=False, data_dir=str(data_dir))
    serial = api.run(out=tmp_path / "serial", cache_dir=str(tmp_path / "c1"), jobs=1, **kw)
    parallel = api.run(out=tmp_path / "parallel", cache_dir=str(tmp_path / "c2"), jobs=2, **kw)
    assert _metrics(parallel) == _metrics(serial)
    assert all(e["cache"]["computed"] > 0 for e in parallel["runs"]["tfidf-lr"]["suites"].values())  # fitted anew
    for m in ("majority", "tfidf-lr"):
        for s in kw["suites"]:
            rel = f"{m}/predictions/{s}.jsonl"
            assert (tmp_path / "parallel" / rel).read_bytes() == (tmp_path / "serial" / rel).read_bytes()
    summary = json.loads((tmp_path / "parallel" / "summary.json").read_text())
    assert set(summary["runs"]) == {"majority", "tfidf-lr"}
    assert (tmp_path / "parallel" / "report.html").is_file() and (tmp_path / "parallel" / "comparison.json").is_file()


def test_a_failed_lane_fails_the_run_with_its_error(data_dir, tmp_path):
    blocker = tmp_path / "cache-is-a-file"
    blocker.write_text("x")
    with pytest.raises(SentiprobeError, match=r"(majority|tfidf-lr).*is a file"):
        api.run(["arts-laptop"], ["majority", "tfidf-lr"], out=tmp_path / "r", cache_dir=str(blocker / "sub"),
                n_boot=0, progress=False, data_dir=str(data_dir), jobs=2)
    log = (tmp_path / "r" / "majority" / "run.log").read_text()
    assert "ERROR" in log and "is a file" in log


def test_cli_refuses_bad_jobs_before_any_work(tmp_path, capsys):
    code = main(["run", "--suite", "toy", "--model", "majority,slow-lexicon", "--jobs", "0", "--out",
                 str(tmp_path / "r"), "--no-progress"])
    assert code == 1 and "--jobs" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def _lanes(tmp_path) -> list[str]:
    found = subprocess.run(["pgrep", "-f", f"sentiprobe.cli.lane.*{tmp_path.name}"], capture_output=True, text=True,
                           check=False)
    return found.stdout.split()


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _start_two_lanes(data_dir, tmp_path, ignore_sigint: bool = False) -> subprocess.Popen:
    """``ignore_sigint``: as a run started with ``&`` from a non-interactive script (the shell ignores SIGINT in
    it, and the workers inherit that)."""
    env = {**os.environ, "SENTIPROBE_DATA_DIR": str(data_dir), "TMPDIR": str(tmp_path)}  # lane specs under tmp_path
    proc = subprocess.Popen([sys.executable, "-m", "sentiprobe", "run", "--suite", "arts-mams,noncompsst", "--model",
                             "majority,tfidf-lr", "--out", str(tmp_path / "o"), "--cache-dir", str(tmp_path / "c"),
                             "--jobs", "2"], env=env, start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            preexec_fn=_ignore_sigint if ignore_sigint else None)
    deadline = time.monotonic() + 60
    while not _lanes(tmp_path) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(2)  # inside a fit
    assert proc.poll() is None, proc.communicate()[0][-2000:]
    return proc


def test_ctrl_c_stops_every_lane_and_exits_130(data_dir, tmp_path):
    proc = _start_two_lanes(data_dir, tmp_path)
    t0 = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole foreground group
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130, out[-2000:]
    assert time.monotonic() - t0 < 10 and "interrupted" in out and "Traceback" not in out
    time.sleep(0.5)
    assert _lanes(tmp_path) == []  # no worker left behind


@pytest.mark.parametrize("ignore_sigint", [False, True], ids=["interactive", "sigint-ignored"])
def test_a_killed_run_leaves_no_lane_computing(data_dir, tmp_path, ignore_sigint):
    """SIGKILL to the parent: its workers end within seconds, also when they ignore SIGINT (a run started with
    ``&`` from a script), where the watchdog's SIGINT used to do nothing and the workers went on computing."""
    proc = _start_two_lanes(data_dir, tmp_path, ignore_sigint)
    assert _lanes(tmp_path)
    proc.kill()  # the parent only: its lanes notice within a second or two and stop
    proc.communicate(timeout=30)
    deadline = time.monotonic() + 20
    while _lanes(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _lanes(tmp_path) == []
