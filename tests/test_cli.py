"""The CLI is a thin layer over the API: list, score, run on the toy suite."""
from __future__ import annotations

import json
import subprocess
import sys

import toy
from sentiprobe.cli import main

toy.register()


def test_list_json(capsys):
    assert main(["list", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    names = {s["name"] for s in doc["suites"]}
    assert "toy" in names
    assert any(m["name"] == "slow-lexicon" and "delay" in m["params"] for m in doc["models"])


def test_unknown_suite_is_a_clean_usage_error(capsys, tmp_path):
    assert main(["run", "--suite", "toi", "--model", "slow-lexicon", "--out", str(tmp_path)]) == 2
    assert "did you mean 'toy'" in capsys.readouterr().err
    assert main(["run", "--suite", "TOY", "--model", "slow-lexicon", "--out", str(tmp_path)]) == 2
    assert "did you mean 'toy'" in capsys.readouterr().err  # any case


def test_run_and_score_roundtrip(capsys, tmp_path):
    out = tmp_path / "r"
    assert main(["run", "--suite", "toy", "--model", "slow-lexicon", "--out", str(out), "--json",
                 "--n-boot", "100", "--no-progress"]) == 0
    doc = json.loads(capsys.readouterr().out)
    acc = doc["suites"]["toy"]["metrics"]["accuracy"]
    assert set(acc) >= {"value", "ci_low", "ci_high", "n"}
    preds = out / "slow-lexicon" / "predictions" / "toy.jsonl"
    assert main(["score", "--suite", "toy", "--predictions", str(preds), "--json", "--n-boot", "100"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert scored["metrics"]["accuracy"] == acc


def test_score_reports_missing_and_unknown(capsys, tmp_path):
    f = tmp_path / "p.csv"
    f.write_text("item_id,label\ntest-0,pos\nnope,neg\n")
    assert main(["score", "--suite", "toy", "--predictions", str(f)]) == 1
    err = capsys.readouterr().err
    assert "'nope'" in err and "not in suite toy" in err
    f.write_text("item_id,label\ntest-0,pos\n")
    assert main(["score", "--suite", "toy", "--predictions", str(f)]) == 1
    assert "missing predictions" in capsys.readouterr().err
    assert main(["score", "--suite", "toy", "--predictions", str(f), "--missing", "wrong", "--json"]) == 0
    f.write_text("item_id,label\ntest-0,maybe\n")
    assert main(["score", "--suite", "toy", "--predictions", str(f)]) == 1
    assert "test-0=maybe" in capsys.readouterr().err


def test_console_script_help():
    r = subprocess.run([sys.executable, "-m", "sentiprobe", "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "run" in r.stdout and "score" in r.stdout
