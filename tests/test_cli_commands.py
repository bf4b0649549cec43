"""Every subcommand: a success path and a failure path through ``sentiprobe.cli.main`` (exit code, message,
never a traceback). Real-data paths use the shipped data; the rest the toy suite."""
from __future__ import annotations

import json

import pytest

import toy
from sentiprobe.cli import main

toy.register()


def _run_toy(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["run", "--suite", "toy", "--model", "slow-lexicon", "--out", str(out), "--n-boot", "50",
                 "--no-progress"]) == 0
    capsys.readouterr()
    return out


def _no_traceback(capsys) -> str:
    cap = capsys.readouterr()
    assert "Traceback" not in cap.err and "Traceback" not in cap.out
    return cap.err


def test_list(capsys):
    assert main(["list", "suites"]) == 0
    assert "arts-laptop" in capsys.readouterr().out
    assert main(["list", "everything"]) == 2  # a usage error: argparse's exit status, returned


def test_data_list_verify_stats(capsys, data_dir, tmp_path):
    assert main(["data", "list", "--data-dir", str(data_dir), "sentivent"]) == 0
    assert "sentivent/" in capsys.readouterr().out
    assert main(["data", "verify", "soul", "--data-dir", str(data_dir)]) == 0
    _no_traceback(capsys)
    assert main(["data", "verify", "soul", "--data-dir", str(tmp_path)]) == 1
    _no_traceback(capsys)
    assert main(["data", "stats", "soul-rc", "--data-dir", str(data_dir), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)
    assert main(["data", "stats", "no-such-suite", "--data-dir", str(data_dir)]) != 0
    assert "unknown" in _no_traceback(capsys)


def test_data_path_prints_one_checked_path(capsys, data_dir, tmp_path):
    """``"$(sentiprobe data path FILE)"`` names a shipped file in a shell command: stdout is the path alone."""
    rel = "arts/src_data/laptop/test_sent_towe.json"
    assert main(["data", "path", rel, "--data-dir", str(data_dir)]) == 0
    assert capsys.readouterr().out == f"{(data_dir / rel).absolute()}\n"
    assert main(["data", "path", "--data-dir", str(data_dir)]) == 0
    assert capsys.readouterr().out == f"{data_dir.absolute()}\n"
    assert main(["data", "path", rel.replace("towe", "tow"), "--data-dir", str(data_dir)]) == 2  # not in the manifest
    assert f"did you mean {rel!r}" in _no_traceback(capsys)
    assert main(["data", "path", rel, "--data-dir", str(tmp_path)]) == 1  # absent: how to fetch it
    assert "sentiprobe data fetch arts" in _no_traceback(capsys)


def test_data_fetch_failure_is_clean(capsys, tmp_path):
    # a mirror directory that has none of the files: a typed error, not a traceback
    assert main(["data", "fetch", "soul", "--data-dir", str(tmp_path / "d"), "--mirror", str(tmp_path / "m")]) != 0
    _no_traceback(capsys)


def test_score_success_and_unknown_option(capsys, tmp_path):
    out = _run_toy(tmp_path, capsys)
    preds = out / "slow-lexicon" / "predictions" / "toy.jsonl"
    assert main(["score", "--suite", "toy", "--predictions", str(preds)]) == 0
    assert "accuracy" in capsys.readouterr().out
    assert main(["score", "--suite", "toy", "--predictions", str(preds), "--suite-arg", "x=1"]) == 1
    assert "no option 'x'" in _no_traceback(capsys)
    assert main(["score", "--suite", "toy", "--predictions", str(preds), "--tables-out", str(tmp_path)]) == 1
    assert "no extra tables" in _no_traceback(capsys)


def test_run_unknown_model(capsys, tmp_path):
    assert main(["run", "--suite", "toy", "--model", "slow-lexicn", "--out", str(tmp_path)]) == 2  # usage error
    assert "did you mean 'slow-lexicon'" in _no_traceback(capsys)


def test_compare(capsys, tmp_path):
    out = _run_toy(tmp_path, capsys)
    preds = out / "slow-lexicon" / "predictions" / "toy.jsonl"
    other = tmp_path / "other.csv"
    other.write_text("item_id,label\n" + "".join(f"test-{i},pos\n" for i in range(60)))
    assert main(["compare", "--suite", "toy", "--predictions", str(preds), str(other), "--json",
                 "--n-boot", "50"]) == 0
    assert json.loads(capsys.readouterr().out)["pairs"]
    assert main(["compare", "--suite", "toy", "--predictions", str(preds)]) == 1
    assert "at least two" in _no_traceback(capsys)


def test_agree(capsys, tmp_path):
    f = tmp_path / "r.csv"
    f.write_text("unit,a,b\n1,x,x\n2,y,y\n3,x,y\n4,y,y\n")
    assert main(["agree", str(f), "--json"]) == 0
    assert "fleiss" in capsys.readouterr().out.lower()
    assert main(["agree", str(tmp_path / "absent.csv")]) == 1
    _no_traceback(capsys)


def test_judge_failures(capsys, tmp_path):
    assert main(["judge", "--run", str(tmp_path / "absent"), "--model", "majority"]) == 1
    _no_traceback(capsys)
    assert main(["judge-agreement", "--judge", str(tmp_path / "absent.jsonl"), "--human",
                 str(tmp_path / "h.csv")]) == 1
    _no_traceback(capsys)


@pytest.mark.parametrize("extra,message,code", [
    (["--reference", "zz"], "--reference 'zz' is not one of the systems", 1),
    (["--confidence", "nan"], "argument --confidence: must be a number in (0, 1)", 2),  # usage errors, at parse time
    (["--confidence", "1.5"], "argument --confidence: must be a number in (0, 1)", 2),
    (["--confidence", "0"], "argument --confidence: must be a number in (0, 1)", 2),
    (["--alpha", "1.5"], "argument --alpha: must be a number in (0, 1)", 2),  # the former option
    (["--n-boot", "-5"], "argument --n-boot: must be an integer from 0 to 100,000", 2),
])
def test_compare_refuses_bad_settings(capsys, tmp_path, extra, message, code):
    out = _run_toy(tmp_path, capsys)
    preds = out / "slow-lexicon" / "predictions" / "toy.jsonl"
    assert main(["compare", "--suite", "toy", "--predictions", str(preds), str(preds), *extra]) == code
    assert message in _no_traceback(capsys)


def test_compare_noncompsst_by_phrase(capsys, data_dir, tmp_path):
    """NonCompSST has no gold label per stimulus: systems are compared on phrase resamples of the correlation."""
    import numpy as np

    rng = np.random.default_rng(0)
    files = []
    for k in range(2):
        f = tmp_path / f"sys{k}.csv"
        f.write_text("line,label\n" + "".join(f"{i},{rng.integers(0, 7)}\n" for i in range(1813)))
        files.append(str(f))
    assert main(["compare", "--suite", "noncompsst", "--data-dir", str(data_dir), "--predictions", *files,
                 "--n-boot", "50", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["unit"] == "phrase" and doc["n_units"] == 259 and doc["metrics"][0] == "pearson_maxabs"
    pm = doc["pairs"][0]["metrics"]["pearson_maxabs"]
    assert pm["unit"] == "r" and pm["ci_low"] <= pm["difference"] <= pm["ci_high"]
    f = tmp_path / "one.csv"
    f.write_text("line,label\n0,3\n")
    assert main(["compare", "--suite", "noncompsst", "--data-dir", str(data_dir), "--predictions", str(f),
                 str(f)]) == 1
    assert "missing" in _no_traceback(capsys)


def test_out_pointing_at_a_file(capsys, tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    assert main(["run", "--suite", "toy", "--model", "majority", "--out", str(f / "sub")]) == 1
    assert "exists and is not a directory" in _no_traceback(capsys)
