"""Runner, cache and kill-and-resume tests on the toy suite."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import toy
from sentiprobe import api
from sentiprobe.run.cache import PredictionCache

toy.register()
TESTS = Path(__file__).parent


def _metrics(out: Path) -> dict:
    doc = json.loads((out / "slow-lexicon" / "results.json").read_text())
    return {s: {k: (m["value"], m["ci_low"], m["ci_high"], m["n"]) for k, m in e["metrics"].items()}
            for s, e in doc["suites"].items()}


def test_run_writes_run_dir_and_caches(tmp_path):
    out = tmp_path / "run"
    doc = api.run(["toy"], ["slow-lexicon"], out=out, n_boot=200, progress=False)["runs"]["slow-lexicon"]
    assert (out / "slow-lexicon" / "predictions" / "toy.jsonl").exists()
    assert (out / "slow-lexicon" / "report.html").read_text().startswith("<!DOCTYPE html>")
    lines = (out / "slow-lexicon" / "predictions" / "toy.jsonl").read_text().splitlines()
    assert len(lines) == 60
    entry = doc["suites"]["toy"]
    assert entry["cache"] == {"hits": 0, "computed": 60, "score_from_cache": False}
    assert 0 <= entry["metrics"]["accuracy"]["value"] <= 1
    assert entry["fit"][0]["restored_from_cache"] is False
    doc2 = api.run(["toy"], ["slow-lexicon"], out=tmp_path / "run2", n_boot=200, progress=False)["runs"]["slow-lexicon"]
    e2 = doc2["suites"]["toy"]
    assert e2["cache"] == {"hits": 60, "computed": 0, "score_from_cache": True}  # same predictions: same scores
    assert e2["fit"][0]["restored_from_cache"] is True
    assert e2["metrics"] == entry["metrics"] and e2["details"] == entry["details"]
    e3 = api.run(["toy"], ["slow-lexicon"], out=tmp_path / "run3", n_boot=100, progress=False,
                 )["runs"]["slow-lexicon"]["suites"]["toy"]
    assert e3["cache"]["score_from_cache"] is False  # other resampling settings: scored anew
    assert (tmp_path / "run2" / "slow-lexicon" / "predictions" / "toy.jsonl").read_text() == "\n".join(lines) + "\n"


def test_no_cache_recomputes(tmp_path):
    api.run(["toy"], ["slow-lexicon"], out=tmp_path / "a", n_boot=50, progress=False)
    doc = api.run(["toy"], ["slow-lexicon"], out=tmp_path / "b", n_boot=50, progress=False,
                  use_cache=False)["runs"]["slow-lexicon"]
    assert doc["suites"]["toy"]["cache"]["computed"] == 60


def test_fingerprint_depends_on_model_config(tmp_path):
    d1 = api.run(["toy"], ["slow-lexicon"], out=tmp_path / "a", n_boot=10, progress=False)["runs"]["slow-lexicon"]
    d2 = api.run(["toy"], ["slow-lexicon"], model_args={"batch_size": "7"}, out=tmp_path / "b", n_boot=10,
                 progress=False)["runs"]["slow-lexicon"]
    assert d1["suites"]["toy"]["model_fingerprints"] != d2["suites"]["toy"]["model_fingerprints"]
    assert d2["suites"]["toy"]["cache"]["computed"] == 60


def test_cache_state_roundtrip_without_pickle(tmp_path):
    import numpy as np

    c = PredictionCache.open(tmp_path)
    c.put_state("k", ({"a": [1, 2]}, {"w": np.eye(2)}))
    meta, arrays = c.get_state("k")
    assert meta == {"a": [1, 2]} and (arrays["w"] == np.eye(2)).all()
    c.put_many("fp", {"x": {"label": "pos"}})
    assert c.get_many("fp", ["x", "y"]) == {"x": {"label": "pos"}}


def test_unknown_names_suggest(tmp_path):
    from sentiprobe.core.errors import UnknownNameError

    with pytest.raises(UnknownNameError, match="did you mean 'toy'"):
        api.run(["toi"], ["slow-lexicon"], out=tmp_path, progress=False)
    with pytest.raises(UnknownNameError, match="slow-lexicon"):
        api.run(["toy"], ["slow-lexicn"], out=tmp_path, progress=False)


SCRIPT = textwrap.dedent("""
    import sys
    sys.path.insert(0, {tests!r})
    import toy
    toy.register()
    from sentiprobe import api
    api.run(["toy", "toy2"], ["slow-lexicon"], model_args={{"delay": "0.01", "fit_delay": "{fit_delay}"}},
            out={out!r}, n_boot=100, progress=False)
""")


def _start(out: Path, cache: Path, fit_delay: float = 0.0) -> subprocess.Popen:
    env = {**os.environ, "SENTIPROBE_CACHE_DIR": str(cache), "TOY_N": "200"}
    code = SCRIPT.format(tests=str(TESTS), out=str(out), fit_delay=fit_delay)
    return subprocess.Popen([sys.executable, "-c", code], env=env)


def _count(cache: Path, table: str) -> int:
    db = cache / "cache.sqlite"
    if not db.exists():
        return 0
    try:
        con = sqlite3.connect(str(db), timeout=5)
        try:
            return con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
        finally:
            con.close()
    except sqlite3.OperationalError:
        return 0


@pytest.mark.parametrize("when", ["during-fit", "during-predict", "between-suites"])
def test_sigkill_and_resume_recomputes_nothing_finished(tmp_path, when):
    # reference: an uninterrupted run with its own cache
    ref_cache, ref_out = tmp_path / "ref-cache", tmp_path / "ref"
    p = _start(ref_out, ref_cache)
    assert p.wait(timeout=120) == 0

    cache, out = tmp_path / "cache", tmp_path / "out"
    p = _start(out, cache, fit_delay=1.0 if when == "during-fit" else 0.0)
    deadline = time.time() + 60
    target = {"during-fit": 0, "during-predict": 40, "between-suites": 200}[when]
    while time.time() < deadline:
        if when == "during-fit" and time.time() > deadline - 59.5:
            break
        if when != "during-fit" and _count(cache, "predictions") >= target:
            break
        time.sleep(0.02)
    p.send_signal(signal.SIGKILL)
    p.wait(timeout=30)
    done_before = _count(cache, "predictions")
    states_before = _count(cache, "states")
    assert done_before < 400, "the run finished before it could be killed"

    # resume in-process with the same cache: only the unfinished items are computed
    os.environ["TOY_N"] = "200"
    try:
        doc = api.run(["toy", "toy2"], ["slow-lexicon"], model_args={"delay": "0", "fit_delay": "0"},
                      out=out, n_boot=100, progress=False, cache_dir=str(cache))["runs"]["slow-lexicon"]
    finally:
        del os.environ["TOY_N"]
    # model args differ only in delays, which are not part of the fingerprint (config excludes them)
    computed = sum(e["cache"]["computed"] for e in doc["suites"].values())
    hits = sum(e["cache"]["hits"] for e in doc["suites"].values())
    assert computed == 400 - done_before
    assert hits == done_before
    restored = [f["restored_from_cache"] for e in doc["suites"].values() for f in e["fit"]]
    assert sum(restored) == states_before
    assert _metrics(out) == _metrics(ref_out)
    for s in ("toy", "toy2"):
        assert ((out / "slow-lexicon" / "predictions" / f"{s}.jsonl").read_text()
                == (ref_out / "slow-lexicon" / "predictions" / f"{s}.jsonl").read_text())


def test_report_escapes_every_text():
    from sentiprobe.report.html import render_comparison, render_report

    evil = "<script>alert(1)</script>"
    doc = {"schema_version": 2, "sentiprobe_version": evil, "config": {}, "model": {"name": evil, "args": {"x": evil}},
           "command": evil, "seed": 0, "created": evil,
           "provenance": {"platform": evil, "packages": {evil: evil}, "git_commit": evil, "data_dir": evil},
           "suites": {"toy": {"suite": {"name": "toy", "version": evil, "family": evil, "options": {evil: evil}},
                              "items_hash": evil, "details": {}, "model_fingerprints": [evil], "seconds": {},
                              "n_items": 1, "metrics": {evil: {"value": 0.5, "ci_low": 0.1, "ci_high": 0.9, "n": 1,
                                                             "note": evil}},
                              "data_files": {evil: evil}}},
           "errors": {evil: {"type": evil, "message": evil, "kind": "bug"}}}
    for html in (render_report(doc), render_comparison({evil: doc})):
        assert "<script>" not in html and "&lt;script&gt;" in html
