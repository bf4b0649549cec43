"""The run spec (core/runspec.py) is the one declaration of a run's settings: the command-line flags, the API's
keyword arguments and sweep configs are derived from it, and a sweep takes every setting a run takes."""
from __future__ import annotations

import argparse
import inspect
import json
from dataclasses import MISSING

import pytest

import toy
from sentiprobe import api
from sentiprobe.cli import build_parser
from sentiprobe.core.errors import ConfigError
from sentiprobe.core.runspec import RunSettings, setting_fields, setting_names
from sentiprobe.run.config import RunConfig
from sentiprobe.run.executors import LocalExecutor
from sentiprobe.run.sweep import parse_config, run_sweep
from sentiprobe.run.sweep_plan import TOP_KEYS

toy.register()


def _run_parser() -> argparse.ArgumentParser:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices["run"]


def test_every_setting_is_a_run_flag_with_the_specs_default_and_help():
    actions = {a.dest: a for a in _run_parser()._actions}
    for f in setting_fields():
        a = actions[f.name]
        assert a.option_strings == ["--" + f.name.replace("_", "-")]
        assert a.default == f.default and a.help == f.metadata["setting"].help
        assert tuple(a.choices or ()) == f.metadata["setting"].choices


def test_api_run_takes_every_setting_with_the_specs_default():
    params = inspect.signature(api.run).parameters
    for f in setting_fields():
        assert f.name in params, f.name
        assert params[f.name].kind is inspect.Parameter.KEYWORD_ONLY
        assert params[f.name].default == f.default, f.name


def test_run_config_is_the_spec_plus_where_it_runs():
    cfg = RunConfig(suites=("toy",), model="majority", limit="0.3", confidence=0.9, limit_mode="first")
    assert cfg.settings == RunSettings(limit=0.3, confidence=0.9, limit_mode="first")
    assert all(f.default is not MISSING for f in setting_fields())


def test_sweep_config_takes_every_setting_but_the_seed_which_is_its_grid():
    assert set(setting_names()) - {"seed"} <= set(TOP_KEYS) and "seed" not in TOP_KEYS


@pytest.mark.parametrize("doc, expect", [
    ({"limit": 1.5}, "'limit' must be a positive number of items or a fraction"),
    ({"confidence": 1.0}, "'confidence' must be a number in (0, 1)"),
    ({"limit_mode": "last"}, "'limit_mode' must be one of sample, first"),
    ({"limit_seed": -1}, "'limit_seed' must be an integer"),
    ({"missing": "skip"}, "'missing' must be one of error, wrong, variants-wrong"),
])
def test_sweep_setting_errors_name_the_file_and_key(doc, expect):
    with pytest.raises(ConfigError) as ei:
        parse_config({"models": ["majority"], "suites": ["toy"], **doc}, "s.yaml")
    assert str(ei.value).startswith("s.yaml: ") and expect in str(ei.value)


def test_sweep_with_fractional_limit_confidence_and_limit_mode_runs_and_records_them(tmp_path):
    cfg = parse_config({"models": ["majority", "slow-lexicon"], "suites": ["toy"], "seeds": [3],
                        "limit": 0.3, "confidence": 0.9, "limit_mode": "first", "n_boot": 40}, "s.yaml")
    assert cfg.settings == RunSettings(seed=3, limit=0.3, confidence=0.9, limit_mode="first", n_boot=40)
    out = tmp_path / "sweep"
    index = run_sweep(cfg, out, LocalExecutor())
    assert {r["status"] for r in index["jobs"].values()} == {"done"}
    assert {k: index["config"][k] for k in ("limit", "confidence", "limit_mode")} == \
        {"limit": 0.3, "confidence": 0.9, "limit_mode": "first"}
    for label in ("majority", "slow-lexicon"):
        doc = json.loads((out / "jobs" / label / "toy" / "seed3" / "run" / label / "results.json").read_text())
        assert {k: doc["config"][k] for k in ("limit", "confidence", "limit_mode", "seed")} == \
            {"limit": 0.3, "confidence": 0.9, "limit_mode": "first", "seed": 3}
        entry = doc["suites"]["toy"]
        assert entry["limit"]["value"] == 0.3 and entry["limit"]["mode"] == "first"
        assert entry["limit"]["n_items"] < entry["limit"]["of_items"]
    # the sweep's own comparison uses its confidence, not the default
    comparison = json.loads((out / "comparison.json").read_text())
    assert comparison["suites"]["toy"]["confidence"] == 0.9


def test_sweep_job_key_changes_with_every_setting():
    base = {"models": ["majority"], "suites": ["toy"]}
    key = parse_config(base).jobs()[0].key
    for k, v in {"limit": 0.3, "confidence": 0.9, "limit_mode": "first", "limit_seed": 1, "n_boot": 5,
                 "missing": "wrong"}.items():
        assert parse_config({**base, k: v}).jobs()[0].key != key, k


def test_sweeps_finished_before_the_run_spec_keep_their_job_keys():
    """A job at the defaults of the settings sweeps gained hashes as before (no re-run of a finished sweep)."""
    from sentiprobe.core.hashing import stable_hash

    job = parse_config({"models": ["majority"], "suites": ["toy"], "seeds": [1], "limit": 5, "n_boot": 9}).jobs()[0]
    legacy = {"model": "majority", "label": "majority", "model_args": {}, "suite": "toy", "suite_args": {},
              "seed": 1, "limit": 5, "n_boot": 9, "missing": "error", "out_dir": ""}
    assert job.key == stable_hash(legacy, 24)
