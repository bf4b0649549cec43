"""The run's shortcuts give the very same bytes and numbers as the long way: results.json encoded suite by suite,
the schema check of per-unit arrays, the engine's repeated columns and its kept distributions."""
from __future__ import annotations

import json

import numpy as np
import pytest

from sentiprobe.core.io import json_text, write_json
from sentiprobe.core.results import ResultsSchemaError, validate_units
from sentiprobe.stats import units as U
from sentiprobe.stats.resampling import count_draw_blocks
from sentiprobe.stats.unit_builders import label_count_units


def _doc(n_suites: int) -> dict:
    return {"schema_version": 2, "command": "sentiprobe run \"x\"\n", "config": {"a": [1, 2.5, None]},
            "suites": {f"s-é{i}": {"metrics": {"m": {"value": i / 3, "n": 3}}, "units": {"arrays": {"a0": [0, 1, 2]}},
                                   "text": "line\nbreak \u0000 \"quoted\""} for i in range(n_suites)},
            "errors": {"x": {"type": "E", "message": "m"}}}


def test_json_text_is_write_json_text_at_every_step(tmp_path):
    parts: dict = {}
    full = _doc(4)
    doc = {**full, "suites": {}}
    for name, entry in [(None, None), *full["suites"].items()]:
        if name is not None:
            doc["suites"][name] = entry
        write_json(tmp_path / "r.json", doc)
        assert json_text(doc, "suites", parts) == (tmp_path / "r.json").read_text(encoding="utf-8")
    assert len(parts) == 4


def test_json_text_re_encodes_a_replaced_value():
    parts: dict = {}
    doc = _doc(2)
    json_text(doc, "suites", parts)
    doc["suites"]["s-é1"] = {"other": True}
    assert json.loads(json_text(doc, "suites", parts))["suites"]["s-é1"] == {"other": True}


def _units(array: list, correct: list | None = None) -> dict:
    m = {"aggregation": "mean", "arrays": {"values": "a0"}}
    if correct is not None:
        m["correct"] = correct
    return {"schema_version": 1, "unit": "item", "n_units": len(array), "n_items": len(array), "compared": [],
            "arrays": {"a0": array}, "metrics": {"acc": m}}


@pytest.mark.parametrize("bad", [[1, True, 0], [1.0, float("nan"), 0], [1, float("inf"), 0], [1, "1", 0],
                                 [1, None, 0], [1, [1], 0], [np.float64(1.0), float("nan"), 0]])
def test_per_unit_arrays_are_still_checked_element_by_element(bad):
    with pytest.raises(ResultsSchemaError, match="finite number"):
        validate_units(_units(bad), "units")


@pytest.mark.parametrize("bad", [[0, 2, 1], [0, 0.5, 1], [0, [1], 1], [0, "1", 1], [0, float("nan"), 1]])
def test_correctness_must_be_zero_or_one(bad):
    with pytest.raises(ResultsSchemaError, match="0/1"):
        validate_units(_units([0, 1, 1], bad), "units")


def test_plain_arrays_pass():
    validate_units(_units([0, 1.5, 2], [0, 1, True]), "units")


def _draws_without_shortcut(table: np.ndarray, n_boot: int, seed: int) -> np.ndarray:
    rows, inv = np.unique(table, axis=0, return_inverse=True)
    freq = np.bincount(inv.reshape(-1), minlength=rows.shape[0]).astype(np.float64)
    return np.concatenate([b @ rows for b in count_draw_blocks(freq, n_boot, seed, U.BLOCK)])


@pytest.mark.parametrize("whole", [True, False])
def test_repeated_columns_give_the_same_sums(whole):
    rng = np.random.default_rng(3)
    base = rng.integers(0, 4, size=(300, 5)).astype(np.float64)
    if not whole:
        base[:, 2] += rng.random(300)
    table = np.column_stack([base[:, 0], base[:, 1], base[:, 0], base[:, 2], base[:, 1], base[:, 3], base[:, 4],
                             base[:, 3]])
    got = np.concatenate(list(U.pattern_draws(table, 200, 7)))
    assert got.tobytes() == _draws_without_shortcut(table, 200, 7).tobytes()
    assert (U._distinct_columns(table)[1] is None) is not whole  # fractions: the table is left as it is


def test_a_report_of_label_counts_reads_its_columns_once():
    gold = ["a", "b", "c", "a", "b"] * 40
    pred = ["a", "c", "c", None, "b"] * 40
    groups = [f"g{i // 3}" for i in range(len(gold))]
    keys, metrics = label_count_units(gold, pred, ["a", "b", "c"], groups=groups)
    assert keys == list(dict.fromkeys(groups))
    us = U.UnitScores("review", len(keys), len(gold), metrics)
    table = np.column_stack([c for m in metrics.values() for c in m.columns()])
    reduced, spread = U._distinct_columns(table)
    assert spread is not None and reduced.shape[1] < table.shape[1]
    assert reduced[:, spread].tobytes() == table.tobytes()
    expect = {m: metrics[m].finish(_draws_without_shortcut(table, 300, 1)[:, a:b]) for m, a, b in _spans(metrics)}
    got = U.distributions(us, list(metrics), 300, 1)
    assert all(got[m].tobytes() == expect[m].tobytes() for m in metrics)


def _spans(metrics: dict) -> list:
    out, at = [], 0
    for name, m in metrics.items():
        c = len(m.columns())
        out.append((name, at, at + c))
        at += c
    return out


def test_kept_distributions_are_those_of_a_fresh_draw():
    values = np.array([0.0, 1.0, 1.0, 0.0, 1.0] * 20)
    us = U.UnitScores("item", 100, 100, {"accuracy": U.UnitMetric("mean", {"values": values}, correct=values)})
    U._DRAWN.clear()
    first = U.distributions(us, ["accuracy"], 500, 2)["accuracy"]
    again = U.distributions(U.UnitScores.from_dict(json.loads(json.dumps(us.to_dict()))), ["accuracy"], 500, 2)
    assert len(U._DRAWN) == 1 and again["accuracy"] is first and not first.flags.writeable
    other = U.distributions(us, ["accuracy"], 500, 3)["accuracy"]  # another seed: other draws
    assert len(U._DRAWN) == 2 and other.tobytes() != first.tobytes()
    U._DRAWN.clear()
    assert U.distributions(us, ["accuracy"], 500, 2)["accuracy"].tobytes() == first.tobytes()


def test_json_text_writes_the_named_members_on_one_line():
    doc = _doc(3)
    text = json_text(doc, "suites", {}, ("units",))
    assert json.loads(text) == doc and text.endswith("}\n")
    assert text.count('"units": {"arrays":{"a0":[0,1,2]}}') == 3
    assert '"metrics": {\n' in text  # the rest stays indented



def test_draws_of_fractions_run_on_one_blas_thread_in_every_process(monkeypatch):
    """A lane worker runs on one BLAS thread, the main process on the library's default: a system's interval
    must not depend on which process drew it (a product's sums of fractions may depend on how BLAS splits the
    work between threads), so the engine's products always run on one thread."""
    from threadpoolctl import threadpool_info, threadpool_limits

    seen: list[int] = []
    real = U.pattern_draws

    def spy(table, n_boot, seed):
        seen.extend(i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas")
        yield from real(table, n_boot, seed)

    monkeypatch.setattr(U, "pattern_draws", spy)
    rng = np.random.default_rng(11)
    metrics = {"r": U.UnitMetric("pearson", {"x": rng.random(400), "y": rng.random(400)}, kind="correlation")}
    us = U.UnitScores("phrase", 400, 400, metrics)
    U._DRAWN.clear()
    with threadpool_limits(limits=2, user_api="blas"):
        U.distributions(us, ["r"], 200, 5)
        U.distributions_of({"a": us, "b": us}, ["r"], 200, 5)
    U._DRAWN.clear()
    assert seen and set(seen) == {1}
