"""Issue 16, items 5-8: a run that talks, conventional flags, run directories that never mix, export.

Each test names the defect it guards against; all of them failed on the code before (``--model a,b`` was one
unknown model name, ``--limit 0.5`` was not a number, a second run into ``--out`` mixed layouts...).
"""
from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path

import pytest

import toy
from sentiprobe import api
from sentiprobe.cli import main
from sentiprobe.core.errors import ConfigError
from sentiprobe.run.progress import Progress, compact_summary, results_table
from sentiprobe.run.config import parse_limit
from sentiprobe.suites import SUITES

toy.register()
TWO = ["--suite", "toy,toy2", "--n-boot", "20", "--no-progress"]


def _cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


# ---- 6. conventional flags ---------------------------------------------------------------------------------
def test_model_list_is_comma_separated_like_suite(tmp_path, capsys):
    out = tmp_path / "r"
    code, _, err = _cli(capsys, "run", *TWO, "--model", "majority,slow-lexicon", "--out", str(out))
    assert code == 0, err
    summary = json.loads((out / "summary.json").read_text())
    assert list(summary["runs"]) == ["majority", "slow-lexicon"]
    for m in ("majority", "slow-lexicon"):
        assert (out / m / "predictions" / "toy2.jsonl").is_file() and (out / m / "results.json").is_file()


@pytest.mark.parametrize("bad", ["0", "-5", "0.0", "1.5", "ten", "", "nan", "inf"])
def test_limit_rejects_zero_negative_and_junk(bad, tmp_path, capsys):
    out = tmp_path / "r"
    code, _, err = _cli(capsys, "run", "--suite", "toy", "--model", "majority", "--out", str(out), "--limit", bad)
    assert code == 1 and "--limit must be a positive number of items or a fraction in (0, 1]" in err
    assert not out.exists()  # refused before anything is written (--limit 0 used to write an empty run)


def test_limit_fraction_and_count():
    assert parse_limit("0.5") == 0.5 and parse_limit("1") == 1 and parse_limit(1.0) == 1.0 and parse_limit(7) == 7
    with pytest.raises(ConfigError):
        parse_limit(True)


def test_limit_fraction_takes_that_share_of_each_suite(tmp_path):
    doc = api.run(["toy"], ["majority"], out=tmp_path / "r", n_boot=0, progress=False, limit=0.25,
                  limit_mode="first")
    entry = doc["runs"]["majority"]["suites"]["toy"]
    assert entry["n_items"] == 15 and entry["limit"]["value"] == 0.25 and entry["limit"]["mode"] == "first"
    assert len((tmp_path / "r" / "majority" / "predictions" / "toy.jsonl").read_text().splitlines()) == 15
    # the default samples whole units (toy units hold two items): at least that share, never a unit cut in two
    doc = api.run(["toy"], ["majority"], out=tmp_path / "s", n_boot=0, progress=False, limit=0.25)
    entry = doc["runs"]["majority"]["suites"]["toy"]
    assert entry["n_items"] == 16 and entry["limit"]["mode"] == "sample" and entry["limit"]["n_units"] == 8


def test_model_arg_qualified_and_unqualified(tmp_path):
    doc = api.run(["toy"], ["majority", "slow-lexicon"], model_args={"slow-lexicon:batch_size": "7"},
                  out=tmp_path / "a", n_boot=0, progress=False)
    assert doc["runs"]["slow-lexicon"]["model"]["args"] == {"batch_size": "7"}
    assert doc["runs"]["majority"]["model"]["args"] == {}
    # unqualified: every selected model whose factory takes it (majority takes nothing)
    doc = api.run(["toy"], ["majority", "slow-lexicon"], model_args={"batch-size": "9"}, out=tmp_path / "b",
                  n_boot=0, progress=False)
    assert doc["runs"]["slow-lexicon"]["model"]["args"] == {"batch_size": "9"}
    assert doc["runs"]["majority"]["model"]["args"] == {}


def test_model_arg_errors_name_the_model_and_suggest(tmp_path, capsys):
    base = ["run", "--suite", "toy", "--model", "majority,slow-lexicon", "--out", str(tmp_path / "r")]
    code, _, err = _cli(capsys, *base, "--model-arg", "batch_sise=3")
    assert code == 1 and "did you mean 'batch_size'" in err
    code, _, err = _cli(capsys, *base, "--model-arg", "majority:batch_size=3")
    assert code == 1 and "model 'majority'" in err and "unknown argument" in err
    code, _, err = _cli(capsys, *base, "--model-arg", "tfidf-lr:C=3")
    assert code == 1 and "not among the selected models" in err
    code, _, err = _cli(capsys, *base, "--model-arg", "slow-lexicon:=3")
    assert code == 1 and "[LABEL:]KEY=VALUE" in err
    assert not (tmp_path / "r").exists()


def test_same_model_twice_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="more than once"):
        api.run(["toy"], ["majority", "majority"], out=tmp_path / "r", progress=False)


# ---- 7. run directories that never mix ---------------------------------------------------------------------
def test_one_layout_whatever_the_number_of_models(tmp_path):
    one = api.run(["toy"], ["majority"], out=tmp_path / "one", n_boot=0, progress=False)
    two = api.run(["toy"], ["majority", "slow-lexicon"], out=tmp_path / "two", n_boot=0, progress=False)
    for out, doc in ((tmp_path / "one", one), (tmp_path / "two", two)):
        assert (out / "summary.json").is_file() and (out / "report.html").is_file()
        assert not (out / "results.json").exists() and not (out / "predictions").exists()
        for m in doc["runs"]:
            assert {p.name for p in (out / m).iterdir()} == {"results.json", "predictions", "report.html", "run.log"}
        assert json.loads((out / "summary.json").read_text())["config_hash"] == doc["config_hash"]
    assert one["runs"]["majority"]["suites"]["toy"]["metrics"] == two["runs"]["majority"]["suites"]["toy"]["metrics"]


def test_other_configuration_refused_unless_overwrite_and_stale_files_never_mix(tmp_path, capsys):
    out = tmp_path / "r"
    assert _cli(capsys, "run", *TWO, "--model", "majority", "--out", str(out))[0] == 0
    (out / "notes.txt").write_text("mine")
    (out / "majority" / "keep.md").write_text("mine too")
    # a different configuration (one suite, another model): refused, nothing touched
    code, _, err = _cli(capsys, "run", "--suite", "toy", "--model", "slow-lexicon", "--out", str(out),
                        "--no-progress")
    assert code == 1 and "different configuration" in err and "--overwrite" in err
    assert (out / "majority" / "predictions" / "toy2.jsonl").is_file()
    # the same configuration resumes (default)
    assert _cli(capsys, "run", *TWO, "--model", "majority", "--out", str(out))[0] == 0
    # --overwrite replaces sentiprobe's files only
    code, _, err = _cli(capsys, "run", "--suite", "toy", "--model", "slow-lexicon", "--out", str(out),
                        "--no-progress", "--n-boot", "0", "--overwrite")
    assert code == 0, err
    assert (out / "notes.txt").read_text() == "mine" and (out / "majority" / "keep.md").read_text() == "mine too"
    assert not (out / "majority" / "predictions").exists() and not (out / "majority" / "results.json").exists()
    summary = json.loads((out / "summary.json").read_text())
    assert list(summary["runs"]) == ["slow-lexicon"] and summary["suites"] == ["toy"]
    assert [p.name for p in (out / "slow-lexicon" / "predictions").iterdir()] == ["toy.jsonl"]


def test_a_run_killed_while_writing_its_first_summary_resumes(tmp_path):
    # a sweep worker SIGKILLed inside the first atomic write of summary.json left only that write's temporary
    # file; the retry refused the directory as "files that are not a sentiprobe run" and the job failed
    out = tmp_path / "r"
    out.mkdir()
    (out / ".summary.json.k2x9_q.part").write_text('{"config_')
    (out / ".notes.txt.k2x9_q.part").write_text("not ours")  # not a run file's temporary: kept, and refused
    with pytest.raises(ConfigError, match="not a sentiprobe run"):
        api.run(["toy"], ["majority"], out=out, n_boot=0, progress=False)
    (out / ".notes.txt.k2x9_q.part").unlink()
    api.run(["toy"], ["majority"], out=out, n_boot=0, progress=False)
    assert sorted(p.name for p in out.iterdir()) == ["majority", "report.html", "summary.json"]
    # a model directory's own temporaries go with it on --overwrite; unknown files stay
    (out / "majority" / ".results.json.a1b2.part").write_text("{")
    (out / "majority" / "keep.part").write_text("mine")
    api.run(["toy2"], ["majority"], out=out, n_boot=0, progress=False, overwrite=True)
    assert not (out / "majority" / ".results.json.a1b2.part").exists()
    assert (out / "majority" / "keep.part").read_text() == "mine"


def test_old_single_model_layout_is_cleaned_by_overwrite(tmp_path):
    out = tmp_path / "r"
    (out / "predictions").mkdir(parents=True)
    (out / "predictions" / "stale.jsonl").write_text("{}\n")
    (out / "results.json").write_text("{}")
    with pytest.raises(ConfigError, match="--overwrite"):
        api.run(["toy"], ["majority"], out=out, n_boot=0, progress=False)
    api.run(["toy"], ["majority"], out=out, n_boot=0, progress=False, overwrite=True)
    assert not (out / "predictions").exists() and not (out / "results.json").exists()


def test_a_failed_run_log_holds_the_error(tmp_path):
    # an error outside the suite loop (the cache cannot be opened) used to leave run.log empty
    blocker = tmp_path / "cache-is-a-file"
    blocker.write_text("x")
    with pytest.raises(Exception) as info:
        api.run(["toy"], ["majority"], out=tmp_path / "r", cache_dir=str(blocker / "sub"), n_boot=0,
                progress=False)
    log = (tmp_path / "r" / "majority" / "run.log").read_text()
    assert "ERROR" in log and type(info.value).__name__ in log


# ---- 5. a run that talks ------------------------------------------------------------------------------------
def test_plain_progress_names_every_stage_once_when_not_a_tty(tmp_path):
    """Without a terminal each stage is one line, written when it ends (it used to be two: the stage named when it
    started and again when it ended)."""
    buf = io.StringIO()
    api.run(["toy"], ["slow-lexicon"], out=tmp_path / "r", n_boot=10, progress=Progress(buf, tty=False,
                                                                                          quiet_for=600))
    lines = buf.getvalue().splitlines()
    for stage in ("loading data", "fitting", "predicting", "scoring"):
        said = [ln for ln in lines if ln.startswith(f"toy · slow-lexicon · {stage}")]
        assert len(said) == 1 and "done in" in said[0] and said[0].endswith("s"), lines
    assert "\r" not in buf.getvalue() and "\x1b" not in buf.getvalue()


def test_plain_progress_says_a_long_stage_is_running():
    """A stage still running after ``quiet_for`` seconds is said when that time has passed (a log never looks
    stuck), and again when it ends."""
    buf = io.StringIO()
    progress = Progress(buf, tty=False, quiet_for=0.01)
    with progress.stage("m", "s", "fit"):
        deadline = time.monotonic() + 60  # bounded: the timer thread writes the line long before that
        while "s · m · fitting ..." not in buf.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
    assert buf.getvalue().splitlines()[0] == "s · m · fitting ..."
    assert buf.getvalue().splitlines()[1].startswith("s · m · fitting: done in")
    now = io.StringIO()
    with Progress(now, tty=False, quiet_for=0).stage("m", "s", "fit"):
        assert now.getvalue() == "s · m · fitting ...\n"  # quiet_for 0: said at once


def test_tty_progress_leaves_finished_stages_on_screen(tmp_path):
    buf = io.StringIO()
    api.run(["toy"], ["slow-lexicon"], out=tmp_path / "r", n_boot=10, progress=Progress(buf, tty=True))
    text = buf.getvalue()
    for stage in ("loading data", "fitting", "predicting", "scoring"):
        assert f"✓ toy · slow-lexicon · {stage}" in text
    assert "60/60" in text  # the prediction bar is kept (leave=True), not erased


def test_run_ends_with_a_results_table_on_stdout(tmp_path, capsys):
    out = tmp_path / "r"
    code, stdout, _ = _cli(capsys, "run", *TWO, "--model", "majority,slow-lexicon", "--out", str(out))
    assert code == 0
    lines = stdout.splitlines()
    # a heading per suite, naming what n counts
    assert [ln for ln in lines if ln.startswith("toy")] == ["toy  (n = items)", "toy2  (n = items)"]
    assert sum(1 for ln in lines if ln.startswith("  model ") and "accuracy (%)" in ln and "seconds" in ln) == 2
    rows = [ln for ln in lines if ln.startswith(("  majority ", "  slow-lexicon "))]
    assert len(rows) == 4 and all("[" in r and " 60 " in r for r in rows)  # value [CI], n
    assert max(len(ln) for ln in lines if str(out) not in ln) <= 100  # the paths are as long as --out
    assert f"report: {out}/report.html" in stdout
    assert "toy ·" not in stdout  # progress never goes to stdout


def test_json_is_compact_and_keeps_the_results_layout(tmp_path, capsys):
    out = tmp_path / "r"
    code, stdout, _ = _cli(capsys, "run", *TWO, "--model", "slow-lexicon", "--out", str(out), "--json")
    assert code == 0
    doc = json.loads(stdout)
    full = json.loads((out / "slow-lexicon" / "results.json").read_text())
    assert doc["suites"]["toy"]["metrics"]["accuracy"] == full["suites"]["toy"]["metrics"]["accuracy"]
    assert doc["results"] == f"{out}/slow-lexicon/results.json" and doc["report"] == f"{out}/report.html"
    assert '"details"' not in stdout and '"provenance"' not in stdout and '"config"' not in stdout  # was 21 KB
    _, stdout, _ = _cli(capsys, "run", *TWO, "--model", "majority,slow-lexicon", "--out", str(tmp_path / "m"),
                           "--json")
    doc = json.loads(stdout)
    assert set(doc["runs"]) == {"majority", "slow-lexicon"}
    assert set(doc["runs"]["majority"]["suites"]["toy2"]["metrics"]["accuracy"]) >= {"value", "ci_low", "ci_high", "n"}


def test_results_table_and_compact_read_a_summary_from_disk(tmp_path):
    api.run(["toy"], ["majority"], out=tmp_path / "r", n_boot=0, progress=False)
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert "toy" in results_table(summary)
    assert compact_summary(summary)["suites"]["toy"]["metrics"]


def test_every_suite_declares_real_headline_metrics():
    expected = {"arts-laptop": ("ars", "accuracy_original"), "noncompsst": ("pearson_maxabs", "macro_f1_all"),
                "sst7": ("macro_f1", "accuracy"), "sentivent-polar": ("macro_f1", "accuracy"),
                "soul-rc": ("accuracy",), "soul-jg": ("accuracy", "rougeL")}
    for name, headline in expected.items():
        assert SUITES.get(name).headline == headline


@pytest.mark.realdata
@pytest.mark.parametrize("suite", ["arts-laptop", "sentivent-polar", "soul-rc"])
def test_headline_metrics_are_produced(suite, data_dir, tmp_path):
    doc = api.run([suite], ["majority"], out=tmp_path / "r", data_dir=str(data_dir), n_boot=0, progress=False)
    metrics = doc["runs"]["majority"]["suites"][suite]["metrics"]
    assert set(SUITES.get(suite).headline) <= set(metrics)
    # the dump with gold/correct re-scores identically through each suite's own reader
    pfile = tmp_path / "r" / "majority" / "predictions" / f"{suite}.jsonl"
    assert '"gold"' in pfile.read_text()
    assert api.score(suite, pfile, data_dir=str(data_dir), n_boot=0)["metrics"] == metrics


# ---- 8. predictions files and export -----------------------------------------------------------------------
def _strip(path: Path, dest: Path) -> Path:
    """The predictions file as written before gold/correct existed."""
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    dest.write_text("".join(json.dumps({k: v for k, v in r.items() if k not in ("gold", "correct")}) + "\n"
                            for r in rows))
    return dest


def test_predictions_gain_gold_and_correct_and_rescore_identically(tmp_path, capsys):
    doc = api.run(["toy"], ["slow-lexicon"], out=tmp_path / "r", n_boot=50, progress=False)
    pfile = tmp_path / "r" / "slow-lexicon" / "predictions" / "toy.jsonl"
    rows = [json.loads(x) for x in pfile.read_text().splitlines()]
    assert all("gold" in r and r["correct"] == (r["label"] == r["gold"]) for r in rows)
    old = _strip(pfile, tmp_path / "old.jsonl")
    scores = []
    for f in (pfile, old):
        assert main(["score", "--suite", "toy", "--predictions", str(f), "--json", "--n-boot", "50"]) == 0
        scores.append(json.loads(capsys.readouterr().out)["metrics"])
    assert scores[0] == scores[1] == doc["runs"]["slow-lexicon"]["suites"]["toy"]["metrics"]


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_export_per_item_table(fmt, tmp_path, capsys):
    out = tmp_path / "r"
    api.run(["toy", "toy2"], ["majority", "slow-lexicon"], out=out, n_boot=0, progress=False)
    target = tmp_path / f"items.{fmt}"
    assert main(["export", str(out), "--format", fmt, "--out", str(target)]) == 0
    text = target.read_text()
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(text)))
        assert list(rows[0]) == ["model", "suite", "item_id", "group_id", "split", "kind", "text", "text_pair",
                                 "aspect", "gold", "prediction", "correct", "seed"]
        assert {r["correct"] for r in rows} <= {"true", "false"}
    else:
        rows = [json.loads(x) for x in text.splitlines()]
        assert all(r["correct"] == (r["prediction"] == r["gold"]) and r["text"] for r in rows)
    assert len(rows) == 2 * 2 * 60
    assert {(r["model"], r["suite"]) for r in rows} == {(m, s) for m in ("majority", "slow-lexicon")
                                                        for s in ("toy", "toy2")}
    # one model's directory, and old dumps without gold/correct, give the same rows
    pfile = out / "majority" / "predictions" / "toy.jsonl"
    _strip(pfile, pfile)
    assert main(["export", str(out / "majority"), "--format", fmt]) == 0
    again = capsys.readouterr().out
    assert again.strip().splitlines()[1 if fmt == "csv" else 0] in text
