"""Agreement coefficients: published reference values, the krippendorff package as a test-only oracle,
rater-table reading and the ``sentiprobe agree`` command (golden values of the SENTiVENT paper)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from sentiprobe.cli import main
from sentiprobe.core.errors import ConfigError, DataError
from sentiprobe.stats.agreement import (cohen_kappa, fleiss_kappa, gwet_ac1, krippendorff_alpha, landis_koch,
                                        percent_agreement)
from sentiprobe.stats.agreement_report import agree, read_rating_table

N = None
# Gwet (2014) Handbook, irrCAC dataset cac.raw4raters: 12 subjects, 4 raters, 5 categories, missing ratings
RAW4 = [[1, 1, N, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4], [4, 4, 4, 4],
        [1, 1, 2, 1], [2, 2, 2, 2], [N, 5, 5, 5], [N, N, 1, 1], [N, N, 3, N]]


def test_irrcac_published_table():
    """Values printed in the irrCAC README for cac.raw4raters (coefficients and standard errors)."""
    pa = percent_agreement(RAW4, alpha=0.05)
    assert pa.value == pytest.approx(0.8181818, abs=1e-7) and pa.se == pytest.approx(0.12561, abs=5e-6)
    ac1 = gwet_ac1(RAW4, alpha=0.05)
    assert ac1.value == pytest.approx(0.77544, abs=5e-6) and ac1.se == pytest.approx(0.14295, abs=5e-6)
    assert ac1.pe == pytest.approx(0.1903212, abs=1e-7)
    fk = fleiss_kappa(RAW4, alpha=0.05)
    assert fk.value == pytest.approx(0.76117, abs=5e-6) and fk.se == pytest.approx(0.15302, abs=5e-6)
    assert fk.pe == pytest.approx(0.2387153, abs=1e-7)
    al = krippendorff_alpha(RAW4, alpha=0.05)
    assert al.value == pytest.approx(0.74342, abs=5e-6)
    assert (al.pa, al.pe) == (pytest.approx(0.805), pytest.approx(0.24))
    # the README (an older irrCAC) prints 0.14557; the current irrCAC variance formula gives 0.14548
    assert al.se == pytest.approx(0.14557, abs=2e-4)
    assert (fk.n_units, fk.n_units_single, fk.n_units_unrated) == (11, 1, 0)
    assert fk.ci_low == pytest.approx(0.424, abs=5e-4) and fk.ci_high == 1.0


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_alpha_matches_krippendorff_package(level):
    kd = pytest.importorskip("krippendorff")  # GPL: test-only oracle
    rng = np.random.default_rng(7)
    truth = rng.integers(1, 6, size=60)
    data = np.where(rng.random((60, 4)) < 0.7, truth[:, None], rng.integers(1, 6, size=(60, 4))).astype(float)
    data[rng.random((60, 4)) < 0.25] = np.nan
    rows = [[None if np.isnan(v) else int(v) for v in r] for r in data]
    ref = kd.alpha(reliability_data=data.T, level_of_measurement=level)
    assert krippendorff_alpha(rows, level=level, alpha=0.05).value == pytest.approx(ref, abs=1e-10)
    assert krippendorff_alpha(RAW4, level=level, alpha=0.05).value == pytest.approx(
        kd.alpha(reliability_data=np.array([[np.nan if v is None else v for v in r] for r in RAW4]).T,
                 level_of_measurement=level), abs=1e-10)


def test_bootstrap_ci_and_text_categories_order():
    rows = [["neg", "neg", "neu"], ["pos", "pos", "pos"], ["neu", "neu", None], ["neg", "neu", "neg"],
            ["pos", "neu", "pos"], ["pos", "pos", None]] * 5
    with pytest.raises(ConfigError, match="category order"):
        krippendorff_alpha(rows, level="ordinal", alpha=0.05)
    r = krippendorff_alpha(rows, level="ordinal", categories=["neg", "neu", "pos"], n_boot=300, seed=1, alpha=0.05)
    assert r.ci_method == "bootstrap-percentile" and r.ci_low < r.value < r.ci_high and r.se > 0
    again = krippendorff_alpha(rows, level="ordinal", categories=["neg", "neu", "pos"], n_boot=300, seed=1, alpha=0.05)
    assert again == r  # seeded
    b = gwet_ac1(rows, ci="bootstrap", n_boot=300, alpha=0.05)
    assert b.ci_method == "bootstrap-percentile" and b.ci_low <= b.value <= b.ci_high
    with pytest.raises(ConfigError, match="not among the given categories"):
        fleiss_kappa(rows, categories=["neg", "pos"], alpha=0.05)


def test_units_with_fewer_than_two_ratings_are_counted():
    rows = [["a", "a"], ["a", None], [None, None], ["b", "b"], ["b", "a"]]
    for f in (fleiss_kappa, gwet_ac1, krippendorff_alpha, percent_agreement):
        r = f(rows, alpha=0.05)
        assert (r.n_units, r.n_units_single, r.n_units_unrated) == (3, 1, 1), r.name
    ck = cohen_kappa([r[0] for r in rows], [r[1] for r in rows], alpha=0.05)
    assert (ck.n_units, ck.n_units_single, ck.n_units_unrated) == (3, 1, 1)
    assert fleiss_kappa([["a", None], [None, "b"]], alpha=0.05).value is None  # no unit with two ratings: defined, None


def test_landis_koch():
    assert [landis_koch(v) for v in (-0.1, 0.1, 0.3, 0.5, 0.7, 0.9, None)] == [
        "poor", "slight", "fair", "moderate", "substantial", "almost perfect", None]


# ---- rater tables and the CLI -------------------------------------------------------------------
def test_read_table_extra_columns_and_errors(tmp_path):
    p = tmp_path / "t.csv"
    p.write_text("unit,r1,r2,r3,comment\nu1,pos,pos,,ok\nu2,neg,pos,neg,\nu3,,,pos,x\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not in the header"):
        read_rating_table(p, ignore=["nope"])
    t = read_rating_table(p, ignore=["comment"])
    assert t.raters == ("r1", "r2", "r3") and t.id_column == "unit" and t.ignored == ("comment",)
    assert t.ratings[2] == (None, None, "pos") and t.unit_ids == ("u1", "u2", "u3")
    doc = agree(p, ignore=["comment"], alpha=0.05)
    d = doc["details"]
    assert d["n_units_excluded_single_rating"] == 1 and d["excluded_units_first"] == ["u3"]
    assert set(doc["metrics"]) >= {"fleiss_kappa", "krippendorff_alpha", "gwet_ac1", "percent_agreement"}
    one = tmp_path / "one.csv"
    one.write_text("r1\npos\nneg\n", encoding="utf-8")
    with pytest.raises(DataError, match="at least two raters"):
        read_rating_table(one)
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("r1,r2\npos,neg\npos\n", encoding="utf-8")
    with pytest.raises(DataError, match="row 2"):
        read_rating_table(ragged)
    na = tmp_path / "na.csv"
    na.write_text("r1,r2\npos,NA\npos,pos\nneg,neg\n", encoding="utf-8")
    assert read_rating_table(na, missing=("", "NA")).ratings[0] == ("pos", None)


def test_agree_cli_single_rater_is_an_error(tmp_path, capsys):
    one = tmp_path / "one.csv"
    one.write_text("r1\npos\nneg\n", encoding="utf-8")
    assert main(["agree", str(one), "--json"]) == 1
    assert "at least two raters" in capsys.readouterr().err


@pytest.mark.realdata
def test_sentivent_iaa_golden(data_dir, capsys):
    """Paper (Jacobs & Hoste 2021): Fleiss 0.778, Krippendorff 0.782, Gwet AC1 0.849 on polar expressions."""
    path = data_dir / "sentivent" / "iaa" / "sentiment_expressions-polarity_sentiment.csv"
    assert main(["agree", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    m = doc["metrics"]
    assert round(m["fleiss_kappa"]["value"], 3) == 0.778
    assert round(m["krippendorff_alpha"]["value"], 3) == 0.782
    assert round(m["gwet_ac1"]["value"], 3) == 0.849
    assert m["percent_agreement"]["value"] == pytest.approx(m["gwet_ac1"]["value"], abs=0.1)
    d = doc["details"]
    assert d["raters"] == ["elinevandewalle", "haiyanhuang", "jefdhondt"] and d["ignored_columns"] == []
    assert d["n_units_total"] == d["n_units_used"] + d["n_units_excluded_single_rating"]
    for name in ("fleiss_kappa", "krippendorff_alpha", "gwet_ac1"):
        assert m[name]["ci_low"] < m[name]["value"] < m[name]["ci_high"] and m[name]["se"] > 0
    # the krippendorff package (test-only oracle) agrees on the same table
    kd = pytest.importorskip("krippendorff")
    t = read_rating_table(path)
    cats = sorted({v for r in t.ratings for v in r if v})
    data = np.array([[np.nan if v is None else cats.index(v) for v in r] for r in t.ratings]).T
    assert m["krippendorff_alpha"]["value"] == pytest.approx(kd.alpha(reliability_data=data,
                                                                      level_of_measurement="nominal"))


def test_interval_alpha_memory_is_linear_in_the_table():
    """1,900 units with ~5,700 distinct values once tried to allocate 51 GiB (units x values x values)."""
    import tracemalloc

    from sentiprobe.stats.agreement import krippendorff_alpha

    big = [[f"{i}.{j}" for j in (1, 2, 3)] for i in range(1900)]
    tracemalloc.start()
    try:
        r = krippendorff_alpha(big, level="interval", n_boot=200, alpha=0.05)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert r.value is not None and r.ci_low is not None and r.ci_low <= r.value <= r.ci_high
    assert peak < 200e6, peak
