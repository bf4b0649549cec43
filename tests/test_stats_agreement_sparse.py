"""``agree`` in memory linear in units + categories (issue 22): the sparse engine gives the values and intervals of
the dense one it replaced (``agreement_dense_oracle.py``, the module at 83308b5), and the tables that used to
allocate gigabytes run in megabytes."""
from __future__ import annotations

import json
import tracemalloc

import agreement_dense_oracle as dense
import numpy as np
import pytest

from sentiprobe.cli import main
from sentiprobe.core.errors import ConfigError
from sentiprobe.stats import agreement as ag
from sentiprobe.stats.resampling import count_draw_blocks, count_draws, group_weight_blocks, group_weights

FIELDS = ("value", "se", "ci_low", "ci_high", "pa", "pe", "n_units", "n_units_single", "n_units_unrated",
          "ci_method", "categories")


def _table(seed: int, units: int = 70, raters: int = 4, q: int = 6, labels=None):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, q, size=units)
    vals = np.where(rng.random((units, raters)) < 0.6, truth[:, None], rng.integers(0, q, size=(units, raters)))
    names = labels or [str(v) for v in (np.arange(q) * 1.5 + 2)]
    rows = [[None if rng.random() < 0.2 else names[v] for v in r] for r in vals]
    rows[0] = [None] * raters  # an unrated unit
    rows[1] = [names[0]] + [None] * (raters - 1)  # a single rating
    return rows


def _same(a, b):
    for f in FIELDS:
        x, y = getattr(a, f), getattr(b, f)
        if isinstance(x, float) and isinstance(y, float):
            assert x == pytest.approx(y, rel=1e-9, abs=1e-12), (f, x, y)
        else:
            assert x == y, (f, x, y)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("ci", ["analytic", "bootstrap"])
@pytest.mark.parametrize("weights", [None, "linear", "quadratic", "matrix"])
@pytest.mark.parametrize("kind", ["percent_agreement", "fleiss_kappa", "gwet_ac1"])
def test_gwet_family_matches_the_dense_engine(seed, ci, weights, kind):
    rows = _table(seed)
    w = np.random.default_rng(seed).random((6, 6)) if weights == "matrix" else weights
    if weights == "matrix":
        np.fill_diagonal(w, 1.0)
    kw = dict(weights=w, ci=ci, n_boot=200, seed=seed, alpha=0.05)
    _same(getattr(ag, kind)(rows, **kw), getattr(dense, kind)(rows, **kw))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("ci", ["analytic", "bootstrap"])
@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_alpha_matches_the_dense_engine(seed, ci, level):
    rows = _table(seed)
    kw = dict(level=level, ci=ci, n_boot=200, seed=seed, alpha=0.05)
    _same(ag.krippendorff_alpha(rows, **kw), dense.krippendorff_alpha(rows, **kw))
    cats = ["3.5", "2.0", "9.5", "5.0", "8.0", "6.5"]  # a given order that is not the numeric one
    _same(ag.krippendorff_alpha(rows, categories=cats, **kw), dense.krippendorff_alpha(rows, categories=cats, **kw))


@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.parametrize("ci", ["analytic", "bootstrap"])
@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_cohen_matches_the_dense_engine(seed, ci, weights):
    rows = _table(seed, raters=2, q=5)
    a, b = [r[0] for r in rows], [r[1] for r in rows]
    kw = dict(weights=weights, ci=ci, n_boot=300, seed=seed, alpha=0.05)
    _same(ag.cohen_kappa(a, b, **kw), dense.cohen_kappa(a, b, **kw))


def test_blocks_of_resamples_are_the_same_draws():
    full = group_weights(37, 50, 4)
    assert np.array_equal(np.concatenate(list(group_weight_blocks(37, 50, 4, 7))), full)
    cells = np.array([0, 5, 0, 0, 3, 1, 0, 9, 0])
    blocks = np.concatenate(list(count_draw_blocks(np.r_[cells[cells > 0], 0], 60, 2, 11)))
    assert np.array_equal(blocks[:, :-1], count_draws(cells, 60, 2)[:, cells > 0])  # empty cells draw nothing


def _peak(fn):
    tracemalloc.start()
    try:
        out = fn()
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_1900_units_all_distinct_run_in_under_200_mb():
    """The case that asked for 204 GiB: every coefficient, nominal level (the default), bootstrap too."""
    from sentiprobe.stats.agreement_report import RatingTable, agreement_report

    table = RatingTable(("a", "b", "c"), tuple(f"u{i}" for i in range(1900)),
                        tuple((f"{i}.1", f"{i}.2", f"{i}.3") for i in range(1900)))
    doc, peak = _peak(lambda: agreement_report(table, ci="bootstrap", n_boot=200, alpha=0.05))
    assert peak < 200e6, peak
    assert doc["metrics"]["krippendorff_alpha"]["value"] == pytest.approx(0.0, abs=1e-12)  # every pair disagrees
    assert len(doc["details"]["coefficients"]["fleiss_kappa"]["categories"]) == 5700


def test_20000_units_60000_categories_and_5000_ordinal_categories():
    rng = np.random.default_rng(0)
    big = [[f"c{3 * i + j}" if j or i % 2 else f"c{3 * i + 1}" for j in range(3)] for i in range(20_000)]
    cats = [f"c{k}" for k in range(60_000)]  # 50,000 in use
    (fk, alpha), peak = _peak(lambda: (ag.fleiss_kappa(big, categories=cats, alpha=0.05),
                                       ag.krippendorff_alpha(big, categories=cats, ci="bootstrap", n_boot=100,
                                                             alpha=0.05)))
    assert peak < 300e6, peak
    assert len(fk.categories) == 60_000 and fk.pa == pytest.approx(1 / 6)  # half the units: 1 agreeing pair of 3
    assert fk.value == pytest.approx(1 / 6, abs=1e-3)
    assert alpha.ci_low < alpha.value < alpha.ci_high
    cats = [str(i) for i in range(5000)]
    ordinal = [[str(v), str(min(4999, v + 1)), None] for v in rng.integers(0, 5000, size=3000)]
    (a5, ck), peak = _peak(lambda: (ag.krippendorff_alpha(ordinal, level="ordinal", categories=cats, n_boot=100,
                                                          alpha=0.05),
                                    ag.cohen_kappa([r[0] for r in ordinal], [r[1] for r in ordinal],
                                                   weights="quadratic", categories=cats, alpha=0.05)))
    assert peak < 300e6, peak
    assert a5.value > 0.99 and ck.value > 0.99 and a5.ci_low is not None


def test_ratio_level_refuses_negative_values_and_keeps_the_math(tmp_path, capsys):
    """Raters who disagree on half the units (-1 vs 1) used to get alpha 1.000 [1.000, 1.000] at the ratio level:
    -1 + 1 = 0 made their difference 0. Negative values are refused; on non-negative values alpha matches the
    krippendorff package (the GPL oracle, tests only)."""
    kd = pytest.importorskip("krippendorff")
    f = tmp_path / "r.csv"
    f.write_text("unit,a,b\n" + "".join(f"{i},{-1 if i % 2 else 1},1\n" for i in range(20)))
    assert main(["agree", str(f), "--level", "ratio"]) == 1
    err = capsys.readouterr().err
    assert "negative" in err and str(f) in err and "record '1'" in err and "field 'a'" in err
    with pytest.raises(ConfigError, match="non-negative"):
        ag.krippendorff_alpha([[-1, 1], [1, 1]], level="ratio", alpha=0.05)
    data = np.array([[1, 2, 3, 3, 2, 1, 4, 1, 2, np.nan], [1, 2, 3, 3, 2, 2, 4, 1, 2, 5], [np.nan, 3, 3, 3, 2, 3, 4, 2,
                                                                                             2, 5.]])
    rows = [[None if np.isnan(v) else float(v) for v in col] for col in data.T]
    assert ag.krippendorff_alpha(rows, level="ratio", alpha=0.05).value == pytest.approx(
        kd.alpha(reliability_data=data, level_of_measurement="ratio"), abs=1e-12)


def test_categories_with_5000_entries_and_a_huge_n_boot(tmp_path, capsys):
    f = tmp_path / "r.csv"
    f.write_text("unit,a,b\n" + "".join(f"{i},{i % 50},{(i + 1) % 50}\n" for i in range(400)))
    cats = ",".join(str(i) for i in range(5000))
    assert main(["agree", str(f), "--level", "ordinal", "--categories", cats, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["metrics"]["krippendorff_alpha"]["value"] is not None
    assert main(["agree", str(f), "--ci", "bootstrap", "--n-boot", "1000000000"]) == 2  # refused at parse time
    assert "argument --n-boot: must be an integer from 0 to 100,000" in capsys.readouterr().err
    with pytest.raises(ConfigError, match="n_boot"):
        ag.fleiss_kappa([["a", "b"]], ci="bootstrap", n_boot=10**9, alpha=0.05)


def test_jsonl_rater_table(tmp_path, capsys):
    f = tmp_path / "r.jsonl"
    f.write_text('{"unit": "u1", "a": "pos", "b": "pos"}\n{"unit": "u2", "a": "neg", "b": null}\n'
                 '{"unit": "u3", "a": "neg", "b": "neg"}\n{"unit": "u4", "b": "pos", "a": "neg"}\n')
    assert main(["agree", str(f), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["details"]["raters"] == ["a", "b"] and doc["details"]["id_column"] == "unit"
    assert doc["details"]["n_units_used"] == 3
    f.write_text('{"unit": "u1", "a": ["pos"], "b": "pos"}\n')
    assert main(["agree", str(f)]) == 1
    err = capsys.readouterr().err
    assert "line 1" in err and "field 'a'" in err and str(f) in err
