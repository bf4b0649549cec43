"""Sweep config validation and the local executor (toy suites: no data files, no Ray)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import toy
from sentiprobe.cli import main
from sentiprobe.core.errors import ConfigError
from sentiprobe.run.executors import LocalExecutor, make_executor
from sentiprobe.run.sweep import Resources, execute_job, load_config, parse_config, run_sweep

toy.register()

GRID = {"models": ["majority", {"name": "slow-lexicon", "label": "lex", "args": {"batch_size": 7}}],
        "suites": ["toy", "toy2"], "seeds": [0, 1], "n_boot": 50}


def _metrics(out: Path) -> dict:
    summary = json.loads((out / "summary.json").read_text())
    return {j: r["metrics"] for j, r in summary["runs"].items()}


def test_minimal_config_and_defaults(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text("models: [majority, tfidf-lr]\nsuites: [arts-laptop, sentivent-polar]\nseeds: [0]\n")
    cfg = load_config(p)
    assert [m.label for m in cfg.models] == ["majority", "tfidf-lr"]
    assert [j.job_id for j in cfg.jobs()] == ["majority/arts-laptop/seed0", "majority/sentivent-polar/seed0",
                                              "tfidf-lr/arts-laptop/seed0", "tfidf-lr/sentivent-polar/seed0"]
    assert cfg.resources == Resources() and cfg.retries == 2 and cfg.limit is None


@pytest.mark.parametrize("doc, expect", [
    ({"models": ["majority"], "suites": ["toy"], "seed": [0]}, "unknown key(s) in the sweep config: 'seed' "
                                                                "(did you mean 'seeds'?)"),
    ({"models": [{"name": "majority", "arg": {}}], "suites": ["toy"]}, "'arg' (did you mean 'args'?)"),
    ({"models": ["majorty"], "suites": ["toy"]}, "did you mean 'majority'"),
    ({"models": ["majority"], "suites": ["toyy"]}, "did you mean 'toy'"),
    ({"models": [{"name": "tfidf-lr", "args": {"max_iters": 9}}], "suites": ["toy"]}, "(did you mean 'max_iter'?)"),
    ({"models": ["majority"], "suites": ["toy"], "resources": {"cpus": 2}}, "(did you mean 'num_cpus'?)"),
    ({"models": ["majority", "majority"], "suites": ["toy"]}, "distinct 'label'"),
    ({"models": ["majority"], "suites": ["toy"], "seeds": [0, "1"]}, "every seed must be an integer"),
    ({"models": ["majority"], "suites": ["toy"], "seeds": [1, 1]}, "a seed appears twice"),
    ({"models": [], "suites": ["toy"]}, "'models' must be a non-empty list"),
    ({"suites": ["toy"]}, "'models' is required"),
    ({"models": ["majority"], "suites": ["toy"], "limit": 0}, "'limit' must be a positive number of items"),
    ({"models": [{"name": "majority", "label": "a/b"}], "suites": ["toy"]}, "models[0].label 'a/b' may hold only"),
    ({"models": [{"name": "tfidf-lr", "args": {"C": [1, 2]}}], "suites": ["toy"]}, "must be a scalar"),
    ({"models": ["majority"], "suites": ["toy"], "resources": {"num_cpus": -1}}, "resources.num_cpus"),
    (["majority"], "a sweep config is a mapping"),
    ({"models": [{"name": "tfidf-lr", "args": {"C": float("nan")}}], "suites": ["toy"]}, "must be a scalar"),
])
def test_config_errors_name_the_key(doc, expect):
    with pytest.raises(ConfigError) as ei:
        parse_config(doc, "s.yaml")
    assert expect in str(ei.value) and "s.yaml" in str(ei.value)


def test_bad_yaml_names_the_file(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("models: [majority\n")
    with pytest.raises(ConfigError, match=r"bad\.yaml: not valid YAML"):
        load_config(p)


def test_local_sweep_writes_index_summary_report_and_resumes(tmp_path):
    cfg = parse_config(GRID)
    out = tmp_path / "sweep"
    index = run_sweep(cfg, out, LocalExecutor())
    assert len(index["jobs"]) == 8
    assert {r["status"] for r in index["jobs"].values()} == {"done"}
    assert all(r["attempts"] == 1 for r in index["jobs"].values())
    assert json.loads((out / "sweep.json").read_text())["jobs"] == index["jobs"]
    first = _metrics(out)
    assert set(first["lex/toy2/seed1"]) == {"accuracy", "macro_f1"}  # the toy suite's per-unit metrics
    summary = json.loads((out / "summary.json").read_text())
    assert summary["aggregate"]["lex"]["toy"]["accuracy"]["n_seeds"] == 2
    assert summary["failed"] == []
    html = (out / "report.html").read_text()
    assert 'id="toy2"' in html and "jobs/lex/toy/seed0" in html  # a row per model, linking a job's report
    assert "2 models on 2 suites" in html and html.count('class="pairwise"') == 4  # 2 suites x 2 metrics
    comparison = json.loads((out / "comparison.json").read_text())
    assert comparison["systems"] == ["majority", "lex"]
    assert comparison["suites"]["toy"]["seeds_per_system"] == {"majority": 2, "lex": 2}
    assert set(summary["models"]) == {"majority", "lex"} and summary["models"]["lex"]["suites"]["toy"]["metrics"]
    # resume: every job is finished on disk, nothing runs (an executor that would run something fails the test)
    calls = []
    again = run_sweep(cfg, out, LocalExecutor(job_fn=lambda p: calls.append(p) or {"status": "failed"}))
    assert calls == [] and {r["status"] for r in again["jobs"].values()} == {"cached"}
    assert _metrics(out) == first


def test_changed_job_or_damaged_results_is_rerun(tmp_path):
    out = tmp_path / "sweep"
    run_sweep(parse_config(GRID), out, LocalExecutor())
    (out / "jobs/majority/toy/seed0/run/majority/results.json").write_text("{truncated")
    grid = {**GRID, "models": ["majority", {"name": "slow-lexicon", "label": "lex", "args": {"batch_size": 3}}]}
    ran = []

    def spy(payload):
        ran.append(payload["label"] + "/" + payload["suite"] + "/seed" + str(payload["seed"]))
        return execute_job(payload)

    index = run_sweep(parse_config(grid), out, LocalExecutor(job_fn=spy))
    assert sorted(ran) == ["lex/toy/seed0", "lex/toy/seed1", "lex/toy2/seed0", "lex/toy2/seed1",
                           "majority/toy/seed0"]
    assert index["jobs"]["majority/toy2/seed0"]["status"] == "cached"


def test_failed_job_is_recorded_and_others_finish(tmp_path):
    grid = {**GRID, "models": ["majority", {"name": "slow-lexicon", "label": "bad", "args": {"delay": "-x"}}]}
    out = tmp_path / "sweep"
    index = run_sweep(parse_config(grid), out, LocalExecutor())
    bad = [j for j, r in index["jobs"].items() if r["status"] == "failed"]
    assert bad == ["bad/toy/seed0", "bad/toy/seed1", "bad/toy2/seed0", "bad/toy2/seed1"]
    assert index["jobs"]["bad/toy/seed0"]["error"]["type"]
    assert all(r["status"] == "done" for j, r in index["jobs"].items() if j.startswith("majority/"))
    summary = json.loads((out / "summary.json").read_text())
    assert summary["failed"] == bad and "metrics" in summary["jobs"]["majority/toy/seed1"]
    assert summary["models"]["bad"]["errors"]["toy"]["type"] and not summary["models"]["bad"]["suites"]


def test_cli_sweep_local(tmp_path, capsys):
    cfg = tmp_path / "s.yaml"
    cfg.write_text("models: [majority]\nsuites: [toy]\nseeds: [0, 3]\nn_boot: 20\n")
    assert main(["sweep", str(cfg), "--out", str(tmp_path / "o"), "--json"]) == 0
    index = json.loads(capsys.readouterr().out)
    assert index["executor"] == "local" and set(index["jobs"]) == {"majority/toy/seed0", "majority/toy/seed3"}
    assert main(["sweep", str(cfg), "--out", str(tmp_path / "o"), "--address", "auto"]) == 1
    assert "--address applies to --executor ray" in capsys.readouterr().err


def test_executor_names():
    assert make_executor("local").name == "local"
    with pytest.raises(ConfigError, match="unknown executor"):
        make_executor("dask")
