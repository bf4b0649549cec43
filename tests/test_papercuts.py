"""First-hour papercuts: each test failed before its fix (README quick starts, usage errors, hints)."""
from __future__ import annotations

import pytest

from sentiprobe.core.errors import ConfigError


def test_finetune_save_to_needs_a_checkpoint_hf_classifier_loads(tmp_path):
    from sentiprobe.models import MODELS

    with pytest.raises(ConfigError, match="save_to .*head=auto"):
        MODELS.create("hf-finetune", head="noncompsst", save_to=str(tmp_path / "ckpt"))
    model = MODELS.create("hf-finetune", save_to=str(tmp_path / "ckpt"), train_limit="8")
    assert model.config()["train_limit"] == 8


def test_finetune_save_to_writes_a_checkpoint_hf_classifier_reads_with_the_suite_labels(tmp_path):
    """``save_to`` holds the fine-tuned weights and a config naming the suite's labels; a second suite fine-tuned
    into the same directory by the same process is refused; ``train_limit`` trains on that many items."""
    pytest.importorskip("transformers")
    from sentiprobe.models import create_model
    from test_models_hf import LABELS, absa, build_tiny

    base = build_tiny(tmp_path / "anon", {0: "LABEL_0", 1: "LABEL_1"}, seed=1)
    kw = {"path": str(base), "epochs": "1", "batch_size": "4", "max_length": "32", "threads": "1",
          "save_to": str(tmp_path / "mine"), "train_limit": "5"}
    tuned = create_model("hf-finetune", **kw)
    tuned.set_workdir(tmp_path / "wd")
    tuned.fit(absa(12), [], LABELS, input_kind="text+aspect", seed=0)
    assert tuned.get_state()[0]["n_train"] == 5
    clf = create_model("hf-classifier", path=str(tmp_path / "mine"), max_length="32")
    mapping = clf.label_mapping(LABELS)
    assert mapping["to_suite"] == dict(zip(LABELS, LABELS)) and mapping["never_predicted"] == []
    assert [p.label in LABELS for p in clf.classify(absa(3, "test"), LABELS, "text+aspect")] == [True] * 3
    other = create_model("hf-finetune", **{**kw, "epochs": "0"})
    other.set_workdir(tmp_path / "wd")
    with pytest.raises(ConfigError, match="already holds"):
        other.fit(absa(12), [], LABELS, input_kind="text", seed=0)


def test_label_map_hint_names_the_model_and_a_binary_head_is_noted_on_the_console(tmp_path, data_dir, capsys):
    """Two checkpoints: the hint of the one with LABEL_0... is addressed to its label, so pasting it leaves the
    other alone; the 2-way head on a 3-label suite gets a console note, not only a line in its report."""
    pytest.importorskip("transformers")
    from sentiprobe.cli import main
    from test_models_hf import build_tiny

    anon = build_tiny(tmp_path / "anon", {0: "LABEL_0", 1: "LABEL_1"}, seed=1)
    binary = build_tiny(tmp_path / "binary", {0: "negative", 1: "positive"}, seed=3)
    argv = ["run", "--suite", "arts-laptop", "--model", "anon=hf-classifier,binary=hf-classifier",
            "--model-arg", f"anon:path={anon}", "--model-arg", f"binary:path={binary}", "--model-arg", "max_length=32",
            "--limit", "4", "--n-boot", "0", "--no-progress", "--data-dir", str(data_dir), "--jobs", "1"]
    assert main([*argv, "--out", str(tmp_path / "r1")]) == 1
    err = capsys.readouterr().err
    hint = err[err.index("--model-arg anon:label_map="):].split()[1]
    assert "binary:label_map" not in err
    assert "arts-laptop (binary): no model label maps to the suite label(s) neutral" in err
    # pasting the hint as printed (placeholders filled in) fixes the one model and leaves the other alone
    fixed = hint.replace("<positive|negative|neutral|none>", "positive", 1).replace(
        "<positive|negative|neutral|none>", "negative")
    assert main([*argv, "--model-arg", fixed, "--out", str(tmp_path / "r2")]) == 0


def test_a_data_dir_that_does_not_exist_is_refused_before_any_run_folder(tmp_path, monkeypatch, capsys):
    from sentiprobe.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["run", "--suite", "arts-laptop", "--model", "majority", "--data-dir", "absent", "--out", "r",
                 "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert f"the data directory {tmp_path / 'absent'} does not exist" in err and "arts-laptop" in err
    assert not (tmp_path / "r").exists()


def test_a_relative_data_dir_variable_is_read_against_the_current_directory(tmp_path, monkeypatch, capsys):
    from sentiprobe.cli import main
    from sentiprobe.core import paths

    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    monkeypatch.setenv("SENTIPROBE_DATA_DIR", "../data")
    assert paths.data_dir() == tmp_path / "data"  # absolute, as the reader meant it
    assert main(["run", "--suite", "arts-laptop", "--model", "majority", "--out", "r", "--no-progress"]) == 1
    assert f"the data directory {tmp_path / 'data'} does not exist" in capsys.readouterr().err


def test_the_bare_run_does_not_tell_you_to_fetch_arts_custom(tmp_path):
    from sentiprobe.api import plan_run

    logged: list[str] = []
    empty = tmp_path / "data"
    (empty / "soul").mkdir(parents=True)
    try:  # (a test module's toy suite, registered in this process, needs no data)
        plan_run(None, ["majority"], data_dir=str(empty), log=logged.append)
    except ConfigError as exc:
        assert f"no suite has its data available in {empty}" in str(exc)
    assert logged and "arts-laptop" in logged[0] and "arts-custom" not in logged[0]


def test_skip_unsupported_skips_the_pairs_of_an_explicit_list_that_cannot_run(tmp_path, data_dir, capsys):
    from sentiprobe.cli import main

    argv = ["run", "--suite", "arts-laptop,lexcomp-vpc", "--model", "majority,majority-first", "--limit", "4",
            "--n-boot", "0", "--no-progress", "--data-dir", str(data_dir), "--jobs", "1"]
    assert main([*argv, "--out", str(tmp_path / "a")]) == 1  # the default: an explicit pair that cannot run fails
    assert "FAILED" in capsys.readouterr().out
    assert main([*argv, "--skip-unsupported", "--out", str(tmp_path / "b")]) == 0
    out = capsys.readouterr()
    assert "FAILED" not in out.out
    assert out.err.count("sentiprobe: skipped ") == 1 and "skipped arts-laptop (majority-first)" in out.err
    # a generation suite named with --suite runs for a classifier (only the bare run leaves it out)
    assert main(["run", "--suite", "soul-jg", "--suite-arg", "bertscore=0", "--model", "majority", "--limit", "4",
                 "--n-boot", "0", "--no-progress", "--data-dir", str(data_dir), "--skip-unsupported",
                 "--out", str(tmp_path / "c")]) == 0
    assert "skipped" not in capsys.readouterr().err


def test_compare_of_a_full_and_a_limited_run_says_the_limit_compares_nothing(tmp_path, data_dir, capsys):
    from sentiprobe.cli import main

    base = ["run", "--suite", "sentivent-polar", "--n-boot", "0", "--no-progress", "--data-dir", str(data_dir)]
    assert main([*base, "--model", "majority", "--out", str(tmp_path / "full")]) == 0
    assert main([*base, "--model", "lexicon-score", "--limit", "10", "--out", str(tmp_path / "lim")]) == 0
    capsys.readouterr()
    code = main(["compare", "--runs", str(tmp_path / "full" / "majority"), str(tmp_path / "lim" / "lexicon-score")])
    out = capsys.readouterr()
    assert code == 1 and "nothing was compared" in out.err
    assert "--limit 10 (sample): 10 items" in out.out and "--limit differs" in out.out


def test_compare_runs_of_a_run_root_names_the_run_directories_below_it(tmp_path, data_dir, capsys):
    from sentiprobe.cli import main

    assert main(["run", "--suite", "sentivent-polar", "--model", "majority,lexicon-score", "--limit", "6",
                 "--n-boot", "0", "--no-progress", "--data-dir", str(data_dir), "--jobs", "1",
                 "--out", str(tmp_path / "root")]) == 0
    capsys.readouterr()
    assert main(["compare", "--runs", str(tmp_path / "root"), str(tmp_path / "root" / "majority")]) == 1
    err = capsys.readouterr().err
    assert "--runs takes the directory of each model" in err and str(tmp_path / "root" / "lexicon-score") in err
    assert "comparison.json" in err


def test_a_suite_every_model_skipped_is_named_in_the_comparison_report(tmp_path, data_dir):
    """The bare run's soul-jg (no model generates) is in summary.json; the report says why nobody ran it."""
    from sentiprobe import api
    from sentiprobe.report.comparison import render_comparison

    doc = api.run(["soul-rc"], ["majority", "tfidf-lr"], out=tmp_path / "r", data_dir=str(data_dir), limit=4,
                  n_boot=0, progress=False)
    docs = {m: {**r, "skipped": {"soul-jg": f"model {m!r} cannot generate"}} for m, r in doc["runs"].items()}
    html = render_comparison(docs)
    assert "Not run by any model" in html and "<strong>soul-jg</strong>" in html and "cannot generate" in html
    assert "2 models on 1 suite;" in html  # and the counts read as English


def test_test_notes_have_a_subject_and_one_test_is_singular():
    from sentiprobe.report.comparison import _tests_note

    comp = {"pairs": [{"metrics": {"r": {"test": "none: r is undefined for majority"}}}], "tests": {"n_tests": 1}}
    note = _tests_note(comp, "r")
    assert note.startswith("No test where r is undefined for majority") and "None:" not in note
    assert "the 1 tests" not in note and "One test on the suite" in note


@pytest.mark.parametrize("what", [[], ["matrix"], ["matrix", "--model", "majority,minilm-lr,probe-minilm,tfidf-lr,"
                                                              "triplet-rules,triplet-rules-adj,lexicon-score,vader"]])
def test_list_fits_in_100_columns(what, capsys):
    from sentiprobe.cli import main

    assert main(["list", *what]) == 0
    out = capsys.readouterr().out
    assert "arts-laptop" in out
    wide = [line for line in out.splitlines() if len(line) > 100]
    assert not wide, f"{len(wide)} lines wider than 100 columns, e.g. {wide[0]!r}"


@pytest.mark.realdata
@pytest.mark.parametrize("suites,models", [(None, ["majority"]), (["arts-laptop"], None), (None, None)])
def test_a_bare_run_planned_with_skip_unsupported_false(suites, models, tmp_path, data_dir):
    """``api.run`` always passes ``skip_unsupported`` on: a bare run (no suites or no models) skips what a model
    cannot run whatever that flag says, and planning it must not pass the setting twice (it did: `make run` ended
    in an internal error)."""
    from sentiprobe.run.config import plan_run

    _, base = plan_run(suites, models, out=str(tmp_path / "r"), data_dir=str(data_dir), skip_unsupported=False)
    assert base.skip_unsupported is True
    assert base.bare is (suites is None)
