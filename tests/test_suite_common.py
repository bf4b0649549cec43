"""The common suite test (in the spirit of scikit-learn's ``check_estimator``): one set of checks that every
registered suite must pass, whatever its protocol.

For each suite, on the first groups of its real test items (tiny resampling, so the whole table runs in CI):

- gold predictions score perfectly (the suite's headline metric), with every file, the environment and the
  models sealed off while the score stage runs: it is a pure function of its arguments;
- a different confidence level changes the intervals (narrower at 50% than at 95%), not the values;
- a blank label (an empty cell of a predictions file) is a missing prediction: an error under
  ``--missing error``, and under ``--missing wrong`` exactly the score of leaving the prediction out;
- the same seed gives byte-identical results, in this process and in another one (another hash seed);
- predictions for unknown ids, labels outside the label set and duplicates are typed errors.
"""
from __future__ import annotations

import builtins
import dataclasses
import functools
import hashlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import sentiprobe.models as models
from sentiprobe.core import env
from sentiprobe.core.errors import PredictionError
from sentiprobe.core.types import Item, Prediction
from sentiprobe.suites import SUITES, Suite, get_suite
from sentiprobe.suites.spec import ScoreConfig, SuiteScore, alpha_of, derive

N_GROUPS = 30
N_BOOT = 30


def builtin_suites() -> list[str]:
    """Every suite sentiprobe registers (and every entry-point plug-in), not the ones tests register."""
    return sorted(s.name for s in SUITES
                  if s.name in SUITES.plugin_names or s.load_items.__module__.startswith("sentiprobe."))


TRIPLETS = [n for n in builtin_suites() if SUITES.get(n).task == "extract"]
KNOWN_GAPS: dict[tuple[str, str], str] = {}
"""(check, suite) -> why a suite is expected to fail a check (xfail, strict): none today."""


def _case(check: str, name: str) -> Any:
    why = KNOWN_GAPS.get((check, name))
    return pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=why)) if why else name


def _options(name: str, data_dir: Path) -> dict[str, str]:
    if name == "arts-custom":  # a user's enriched file: the released laptop set in that format
        return {"path": str(data_dir / "arts" / "arts_testset" / "laptop_test_enriched.json")}
    if name == "soul-jg":  # BERTScore is the metric stage's (tested on its own below), not the score stage's
        return {"bertscore": "0"}
    return {}


@functools.cache
def bound(name: str, data_dir: str) -> tuple[Suite, list[Item]]:
    """The suite and the items of its first N_GROUPS groups (a group is the suite's resampling unit)."""
    suite = get_suite(name, data_dir, _options(name, Path(data_dir)))
    items = suite.items("test")
    keep = set(list(dict.fromkeys(it.group_id for it in items))[:N_GROUPS])
    return suite, [it for it in items if it.group_id in keep]


# ---- predictions of every shape ------------------------------------------------------------------------------
def _one(suite: Suite, it: Item, right: bool) -> Prediction:
    if suite.task == "extract":
        return Prediction(it.item_id, None, meta={"triplets": [list(t) for t in it.meta["gold"]] if right else []})
    label = it.label if it.label is not None else suite.labels[len(suite.labels) // 2]  # no gold: a middle label
    if not right:
        if suite.name == "lexcomp-phrase-type":
            label = " ".join("O" for _ in it.tokens or ())
            label = label if label != it.label else " ".join("B-VPC" for _ in it.tokens or ())
        else:
            labels = list(suite.labels)
            label = labels[(labels.index(label) + 1) % len(labels)]
    text = it.meta.get("justification") if suite.name == "soul-jg" else None
    return Prediction(it.item_id, label, text=text)


def predictions(suite: Suite, items: list[Item], *, every_wrong: int = 0) -> list[Prediction]:
    """Gold predictions; with ``every_wrong=k`` every k-th item is answered wrongly (per seed of the suite)."""
    out = []
    for seed in range(suite.n_seeds):
        for k, it in enumerate(items):
            p = _one(suite, it, right=not (every_wrong and (k + seed) % every_wrong == 0))
            out.append(dataclasses.replace(p, seed=seed) if suite.n_seeds > 1 else p)
    return out


def blank(p: Prediction) -> Prediction:
    """What a predictions file's empty label cell reads as."""
    return Prediction(p.item_id, None, seed=p.seed, parse_ok=False, meta={"blank": True})


def outside_labels(suite: Suite, p: Prediction) -> Prediction:
    if suite.task == "extract":
        return dataclasses.replace(p, meta={"triplets": [[0, 0, 0, 0, "ecstatic"]]})
    return dataclasses.replace(p, label="<not a label>")


def score(suite: Suite, items: list[Item], preds: list[Prediction], **kw: Any) -> SuiteScore:
    return suite.score(items, preds, n_boot=kw.pop("n_boot", N_BOOT), seed=kw.pop("seed", 0), **kw)


def headline(suite: Suite, result: SuiteScore) -> list[str]:
    names = [m for m in suite.spec.headline if m in result.metrics] or [next(iter(result.metrics))]
    if suite.name == "noncompsst":  # correlations of constant-free ratings; its F1 is the perfect-score check
        names = ["macro_f1_all"]
    return names


def digest(result: SuiteScore) -> str:
    doc = {**result.to_dict(), "tables": result.tables}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


# ---- a sealed score stage ------------------------------------------------------------------------------------
class Sealed(AssertionError):
    """The score stage touched what it must not (a file, the environment, a model)."""


class _SealedEnviron(Mapping[str, str]):
    def __getitem__(self, key: str) -> str:
        raise Sealed(f"the score stage read the environment variable {key!r}")

    def __iter__(self) -> Iterator[str]:
        raise Sealed("the score stage listed the environment")

    def __len__(self) -> int:
        raise Sealed("the score stage read the environment")

    def get(self, key: str, default: Any = None) -> Any:
        raise Sealed(f"the score stage read the environment variable {key!r}")


@contextmanager
def sealed() -> Iterator[None]:
    """Files, the environment and model construction raise :class:`Sealed` inside the block."""
    def refuse(what: str):
        def boom(*args: Any, **kwargs: Any) -> Any:
            raise Sealed(f"the score stage called {what}{args[:1]!r}")
        return boom

    models.MODELS.names()  # entry-point plug-ins loaded before the seal (registry lookups read metadata)
    with pytest.MonkeyPatch.context() as mp:
        for target, name in [(builtins, "open"), (io, "open"), (os, "open"), (os, "stat"), (os, "lstat"),
                             (os, "listdir"), (os, "scandir"), (Path, "open"), (Path, "read_text"),
                             (Path, "read_bytes")]:
            mp.setattr(target, name, refuse(f"{getattr(target, '__name__', target)}.{name}"))
        mp.setattr(models, "create_model", refuse("create_model"))
        mp.setattr(os, "environ", _SealedEnviron())
        previous = env.install(_SealedEnviron())
        try:
            yield
        finally:
            env.install(previous)


# ---- the checks ------------------------------------------------------------------------------------------------
ALL = builtin_suites()


def test_the_table_covers_every_registered_suite():
    assert len(ALL) >= 18 and {"arts-custom", "noncompsst", "soul-jg", "lexcomp-phrase-type"} <= set(ALL)


@pytest.mark.parametrize("name", ALL)
def test_gold_predictions_score_perfectly_with_files_environment_and_models_sealed(name, data_dir):
    suite, items = bound(name, str(data_dir))
    preds = predictions(suite, items)
    context = suite.full_context(items, preds)  # the data and metric stages may read; the score stage may not
    config = ScoreConfig()
    engine = {"n_boot": N_BOOT, "seed": 0, "confidence": 0.95}
    # the score stage and the engine that derives its per-unit metrics (imports the libraries they use first)
    unsealed = derive(suite.spec.score(items, preds, suite.options, context, config), **engine)
    with sealed():
        result = derive(suite.spec.score(items, preds, suite.options, context, config), **engine)
    for m in headline(suite, result):
        assert result.metrics[m].value == pytest.approx(1.0), (m, result.metrics[m])
    assert digest(result) == digest(unsealed)


@pytest.mark.parametrize("name", ALL)
def test_the_confidence_level_sets_the_interval_width(name, data_dir):
    suite, items = bound(name, str(data_dir))
    preds = predictions(suite, items, every_wrong=3)
    wide, narrow = score(suite, items, preds), score(suite, items, preds, confidence=0.5)
    widths = []
    for m, w in wide.metrics.items():
        n = narrow.metrics[m]
        assert n.value == w.value, m  # the level moves the bounds, never the value
        if w.ci_low is not None and n.ci_low is not None:
            widths.append((m, w.ci_high - w.ci_low, n.ci_high - n.ci_low))
    assert widths, "no metric has an interval"
    assert all(nw <= ww + 1e-12 for _, ww, nw in widths), widths
    assert any(nw < ww for _, ww, nw in widths), widths


@pytest.mark.parametrize("name", [_case("blank", n) for n in ALL])
def test_a_blank_label_is_a_missing_prediction(name, data_dir):
    suite, items = bound(name, str(data_dir))
    preds = predictions(suite, items, every_wrong=3)
    with_blank = [blank(preds[1]), *preds[:1], *preds[2:]]
    without = preds[:1] + preds[2:]
    with pytest.raises(PredictionError, match="(?i)missing|blank"):
        score(suite, items, with_blank, missing="error")
    as_blank = score(suite, items, with_blank, missing="wrong", n_boot=0)
    as_missing = score(suite, items, without, missing="wrong", n_boot=0)
    assert {k: m.value for k, m in as_blank.metrics.items()} == {k: m.value for k, m in as_missing.metrics.items()}


@pytest.mark.parametrize("name", ALL)
def test_the_same_seed_gives_byte_identical_results(name, data_dir):
    suite, items = bound(name, str(data_dir))
    preds = predictions(suite, items, every_wrong=3)
    first = digest(score(suite, items, preds, seed=7))
    assert digest(score(suite, items, list(preds), seed=7)) == first
    assert digest(score(suite, items, preds, seed=8)) != first  # the seed is used


@pytest.mark.parametrize("name", [_case("unknown", n) for n in ALL])
def test_predictions_for_unknown_ids_are_typed_errors(name, data_dir):
    suite, items = bound(name, str(data_dir))
    preds = predictions(suite, items)
    with pytest.raises(PredictionError, match="not in"):
        score(suite, items, [*preds, dataclasses.replace(preds[0], item_id="no-such-item")], missing="wrong")


@pytest.mark.parametrize("name", ALL)
def test_labels_outside_the_label_set_are_typed_errors(name, data_dir):
    suite, items = bound(name, str(data_dir))
    preds = predictions(suite, items)
    with pytest.raises(PredictionError):
        score(suite, items, [outside_labels(suite, preds[0]), *preds[1:]], missing="wrong")


@pytest.mark.parametrize("name", ALL)
def test_duplicate_predictions_are_typed_errors(name, data_dir):
    suite, items = bound(name, str(data_dir))
    preds = predictions(suite, items)
    with pytest.raises(PredictionError, match="(?i)duplicate"):
        score(suite, items, [*preds, preds[0]], missing="wrong")


def digests(data_dir: str) -> dict[str, str]:
    """Every suite's result digest on the same imperfect predictions (what the other process computes)."""
    out = {}
    for name in ALL:
        suite, items = bound(name, data_dir)
        out[name] = digest(score(suite, items, predictions(suite, items, every_wrong=3), seed=3))
    return out


@pytest.fixture(scope="module")
def other_process(data_dir) -> dict[str, str]:
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); import test_suite_common as t; "
            "print(json.dumps(t.digests(sys.argv[2])))")
    envir = {**os.environ, "PYTHONHASHSEED": "12345"}  # another string hash order than this process'
    done = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent), str(data_dir)],
                          capture_output=True, text=True, env=envir, timeout=600, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", ALL)
def test_scores_are_the_same_in_another_process(name, data_dir, other_process):
    suite, items = bound(name, str(data_dir))
    assert digest(score(suite, items, predictions(suite, items, every_wrong=3), seed=3)) == other_process[name]


# ---- the metric stage: BERTScore, computed and cached outside the score stage ------------------------------
def test_bertscore_is_a_cached_metric_stage(data_dir, tmp_path, monkeypatch):
    pytest.importorskip("bert_score")
    from sentiprobe.run.cache import PredictionCache
    from sentiprobe.suites.soul import textmetrics

    suite = get_suite("soul-jg", data_dir)
    items = suite.items("test")[:6]
    preds = [Prediction(it.item_id, it.label, text=it.meta["justification"] if k % 2 else "Not said.")
             for k, it in enumerate(items)]
    cache = PredictionCache.open(tmp_path)
    first = suite.score(items, preds, n_boot=0, cache=cache)
    calls = []
    real = textmetrics.bertscore_values
    monkeypatch.setattr(textmetrics, "bertscore_values", lambda *a, **k: calls.append(a) or real(*a, **k))
    again = suite.score(items, preds, n_boot=0, cache=cache)
    assert calls == []  # every pair came from the cache
    assert again.metrics["bertscore_f1"] == first.metrics["bertscore_f1"]
    assert 0.0 < first.metrics["bertscore_f1"].value < 1.0
    cache.close()


def test_a_bertscore_model_that_is_not_a_directory_is_a_typed_error(data_dir, tmp_path):
    from sentiprobe.core.errors import ConfigError

    suite = get_suite("soul-jg", data_dir, {"bertscore_model": str(tmp_path / "absent")})
    items = suite.items("test")[:3]
    preds = [Prediction(it.item_id, it.label, text=it.meta["justification"]) for it in items]
    with pytest.raises(ConfigError, match="bertscore_model.*does not exist"):
        suite.score(items, preds, n_boot=0)


def test_confidence_is_checked(data_dir):
    from sentiprobe.core.errors import ConfigError

    for bad in (0, 1, 1.5, -0.1, float("nan")):
        with pytest.raises(ConfigError, match="--confidence"):
            alpha_of(bad)
    assert alpha_of(0.95) == 0.05 and alpha_of(0.9) == 0.1


# ---- one metric, one quantity: the engine's numbers are every output's numbers ----------------------------------
@pytest.mark.parametrize("name", ALL)
def test_each_metric_name_means_one_quantity_in_every_output(name, data_dir):
    """For gold, all-wrong and one-third-wrong predictions: the value, interval and ``n`` the engine derives from
    the per-unit scores are those of the suite's results (``Suite.score``), of the stored per-unit scores read
    back, and of a paired comparison's per-system entries (the comparison reuses the single-system draws)."""
    from sentiprobe.compare import compare_seeded
    from sentiprobe.stats.units import UnitScores, unit_metrics

    suite, items = bound(name, str(data_dir))
    cases = {"gold": predictions(suite, items), "third": predictions(suite, items, every_wrong=3),
             "wrong": predictions(suite, items, every_wrong=1)}
    scored = {k: score(suite, items, p, missing="wrong") for k, p in cases.items()}
    for case, result in scored.items():
        units = result.units
        assert units is not None and units.compared, (name, "the score stage returns no per-unit scores")
        engine = unit_metrics(units, n_boot=N_BOOT, seed=0, alpha=0.05)
        stored = unit_metrics(UnitScores.from_dict(json.loads(json.dumps(units.to_dict()))), n_boot=N_BOOT,
                              seed=0, alpha=0.05)
        for m, metric in engine.items():
            assert result.metrics[m] == metric == stored[m], (case, m)
            assert metric.n == (units.metrics[m].n_units if units.metrics[m].n_units is not None else units.n_units)
            assert metric.unit_name == units.unit
        for m, metric in result.metrics.items():  # every interval is the engine's: the stage computes none
            assert m in units.metrics or (metric.ci_low, metric.ci_high) == (None, None), (case, m)
    doc = compare_seeded(suite, {k: [(p, None)] for k, p in cases.items()}, items=items, missing="wrong",
                         n_boot=N_BOOT, seed=0, confidence=0.95)
    for case, result in scored.items():
        for m in doc["metrics"]:
            shown, ours = doc["systems"][case][m], result.metrics[m]
            assert (shown["value"], shown["ci_low"], shown["ci_high"], shown["n"]) == (
                ours.value, ours.ci_low, ours.ci_high, ours.n), (case, m)
