"""ARTS scoring: unit tests on tiny fixtures, and golden tests on the published prediction CSVs.

Golden numbers (percentages, two decimals, from the paper / the issue):
laptop BERT-PT (``bert_pt``) Ori 78.53, ARS 53.29; restaurant MemNet Ori 75.18, ARS 21.52;
MAMS TD-LSTM ARS 49.25; the abstract's largest drop "up to 69.73%" (restaurant BERT-Sent,
Ori 80.63 -> ARS 10.89). Unit counts come from docs/protocols/arts.md#ars, #subset-accuracy.
"""
from __future__ import annotations

import csv
import json
import re
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sentiprobe.core.errors import ConfigError, DataError, PredictionError
from sentiprobe.core.types import Item, Prediction
from sentiprobe.suites import SUITES, get_suite
from sentiprobe.suites.arts.predictions import read_results
from sentiprobe.suites.arts.score import (build_arrays, format_percent, format_pp, predictions_from_mapping,
                                          round_half_up, welch)

SPACE = "33068425#562449#4 _0"


def it(item_id, group, kind, label, text="t"):
    return Item(item_id=item_id, group_id=group, split="test", text=text, label=label, aspect="a", kind=kind)


def tiny_items():
    return [
        it("A_0", "A_0", "original", "positive", "Nice screen, keyboard works great!"),
        it("A_0_adv1", "A_0", "revtgt", "negative", "Bad screen, but keyboard works great!"),
        it("A_0_adv2", "A_0", "revnon", "positive"),
        it("A_0_adv3", "A_0", "adddiff", "positive"),
        it("B_0", "B_0", "original", "negative"),
        it("B_0_adv3", "B_0", "adddiff", "negative"),
        it(SPACE, SPACE, "original", "neutral"),
        it(SPACE + "_adv1", SPACE, "revtgt", "neutral"),
        it(SPACE + "_adv3", SPACE, "adddiff", "neutral"),
    ]


def tiny_preds(**override):
    labels = {"A_0": "positive", "A_0_adv1": "negative", "A_0_adv2": "positive", "A_0_adv3": "positive",
              "B_0": "negative", "B_0_adv3": "positive",          # B: source right, AddDiff wrong
              SPACE: "positive", SPACE + "_adv1": "neutral", SPACE + "_adv3": "neutral"}  # source wrong
    labels.update(override)
    return predictions_from_mapping({k: v for k, v in labels.items() if v != "DROP"})


@pytest.fixture()
def suite(tmp_path):
    return get_suite("arts-laptop", data_dir=tmp_path)


def counts(res):
    return {k: (v["correct"], v["total"]) for k, v in res.details["counts"].items()}


# ---- unit tests -------------------------------------------------------------------------------------

def test_registered():
    for name in ("arts-laptop", "arts-rest", "arts-mams"):
        spec = SUITES.get(name)
        assert spec.family == "arts" and spec.labels == ("positive", "negative", "neutral")
        assert spec.input_kind == "text+aspect" and spec.task == "classify" and spec.version == "1"
        assert spec.groups_name == "source example"


def test_no_options_and_unknown_option_is_an_error(tmp_path):
    s = get_suite("arts-rest", data_dir=tmp_path)
    assert s.describe() == {"name": "arts-rest", "version": "1", "family": "arts", "options": {}}
    with pytest.raises(ConfigError, match="unknown option"):
        get_suite("arts-rest", tmp_path, missing="wrong")  # the missing policy is a score setting


def test_ars_groups_units_and_subset_accuracies(suite):
    res = suite.score(tiny_items(), tiny_preds(), n_boot=200, seed=1)
    assert counts(res) == {
        "accuracy_original": (2, 3), "ars": (1, 3),
        "accuracy_revtgt": (2, 2), "accuracy_revtgt_source": (1, 2),
        "accuracy_revnon": (1, 1), "accuracy_revnon_source": (1, 1),
        "accuracy_adddiff": (2, 3), "accuracy_adddiff_source": (2, 3),
    }
    m = res.metrics
    assert m["ars"].n == 3 and m["ars"].value == pytest.approx(1 / 3)
    assert m["accuracy_revtgt"].n == 2 and m["accuracy_revtgt_source"].n == 2
    for metric in m.values():
        assert 0 <= metric.ci_low <= metric.value <= metric.ci_high <= 1
    rows = {r["strategy"]: r for r in res.details["strategies"]}
    assert rows["revtgt"]["change_pp"] == "+50.00" and rows["adddiff"]["change_pp"] == "0.00"
    assert rows["adddiff"]["both_not_in_paper"]["correct"] == 1 and "not a paper metric" in \
        rows["adddiff"]["both_not_in_paper"]["note"]
    assert res.details["ars_minus_original_pp"] == "-33.33"
    ex = res.details["examples"]
    assert [(e["source"]["item_id"], e["variant"]["item_id"]) for e in ex] == [("B_0", "B_0_adv3")]
    assert res.details["missing"]["count"] == 0
    json.dumps(res.to_dict())  # JSON-able


def test_ars_bootstrap_resamples_groups(suite):
    res = suite.score(tiny_items(), tiny_preds(), n_boot=500, seed=3)
    # with 3 units the group-level bootstrap of a mean can only take values k/3
    assert res.metrics["ars"].ci_low * 3 == pytest.approx(round(res.metrics["ars"].ci_low * 3))
    again = suite.score(tiny_items(), tiny_preds(), n_boot=500, seed=3)
    assert again.metrics == res.metrics  # seeded, deterministic


def test_missing_policies(suite):
    items = tiny_items()
    with pytest.raises(PredictionError, match="missing") as ei:
        suite.score(items, tiny_preds(A_0_adv2="DROP"))
    assert ei.value.offenders == ["A_0_adv2"]
    res = suite.score(items, tiny_preds(A_0_adv2="DROP"), missing="wrong", n_boot=0)
    assert counts(res)["ars"] == (0, 3) and counts(res)["accuracy_revnon"] == (0, 1)
    miss = res.details["missing"]
    assert (miss["count"], miss["variants"], miss["first_ids"]) == (1, 1, ["A_0_adv2"])
    res = suite.score(items, tiny_preds(A_0_adv2="DROP"), missing="variants-wrong", n_boot=0)
    assert counts(res)["ars"] == (0, 3)
    with pytest.raises(PredictionError, match="source") as ei:
        suite.score(items, tiny_preds(B_0="DROP"), missing="variants-wrong")
    assert ei.value.offenders == ["B_0"]
    res = suite.score(items, tiny_preds(B_0="DROP"), missing="wrong", n_boot=0)
    assert counts(res)["accuracy_original"] == (1, 3) and res.details["missing"]["sources"] == 1
    with pytest.raises(ConfigError):
        suite.score(items, tiny_preds(), missing="ignore")


def test_unknown_ids_bad_labels_and_unparsed(suite):
    items = tiny_items()
    with pytest.raises(PredictionError, match="not in suite") as ei:
        suite.score(items, tiny_preds() + [Prediction("Z_0", "positive")])
    assert ei.value.offenders == ["Z_0"]
    with pytest.raises(PredictionError, match="label set") as ei:
        suite.score(items, tiny_preds(B_0="Positive"))
    assert ei.value.offenders == ["B_0=Positive"]
    with pytest.raises(PredictionError, match="duplicate"):
        suite.score(items, tiny_preds() + [Prediction("B_0", "negative")])
    preds = [p if p.item_id != "A_0_adv2" else Prediction("A_0_adv2", None, parse_ok=False) for p in tiny_preds()]
    res = suite.score(items, preds, n_boot=0)
    assert res.details["unparsed_predictions"] == 1 and counts(res)["accuracy_revnon"] == (0, 1)


def test_originals_only_items(suite):
    """Train-like items (every item its own unit): ARS equals accuracy, strategies are not computable."""
    items = [i for i in tiny_items() if i.kind == "original"]
    res = suite.score(items, [p for p in tiny_preds() if p.item_id in {i.item_id for i in items}], n_boot=10)
    assert counts(res)["ars"] == counts(res)["accuracy_original"] == (2, 3)
    assert res.metrics["accuracy_revtgt"].value is None and res.metrics["accuracy_revtgt"].n == 0
    assert res.details["strategies"][0]["change_pp"] is None
    json.dumps(res.to_dict())


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.lists(st.tuples(st.sampled_from(["revtgt", "revnon", "adddiff"]),
                                                          st.booleans()), max_size=3, unique_by=lambda t: t[0])),
                min_size=1, max_size=12), st.randoms(use_true_random=False))
def test_counts_match_naive_definition_in_any_order(units, rnd):
    """Property: counts equal the docs/protocols/arts.md#ars, #subset-accuracy definitions, whatever the item order."""
    items, preds = [], []
    for u, (src_ok, variants) in enumerate(units):
        g = f"{u}_0"
        items.append(it(g, g, "original", "positive"))
        preds.append(Prediction(g, "positive" if src_ok else "negative"))
        for kind, ok in variants:
            items.append(it(f"{g}_{kind}", g, kind, "neutral"))
            preds.append(Prediction(f"{g}_{kind}", "neutral" if ok else "positive"))
    rnd.shuffle(items)
    res = get_suite("arts-laptop", data_dir=".").score(items, preds, n_boot=0)
    c = counts(res)
    assert c["ars"] == (sum(s and all(ok for _, ok in v) for s, v in units), len(units))
    assert c["accuracy_original"] == (sum(s for s, _ in units), len(units))
    for kind in ("revtgt", "revnon", "adddiff"):
        has = [(s, ok) for s, v in units for k, ok in v if k == kind]
        assert c[f"accuracy_{kind}"] == (sum(ok for _, ok in has), len(has))
        assert c[f"accuracy_{kind}_source"] == (sum(s for s, _ in has), len(has))


def test_unit_without_source_is_a_data_error(suite):
    items = [i for i in tiny_items() if i.item_id != "B_0"]
    with pytest.raises(DataError, match="no original") as ei:
        suite.score(items, [p for p in tiny_preds() if p.item_id != "B_0"])
    assert ei.value.record == "B_0" and ei.value.field == "group_id"


def test_rounding_half_up_exact():
    assert format_percent(Fraction(147, 1120)) == "13.13"   # 13.125 -> half-up
    assert format_percent(Fraction(21, 160)) == "13.13"
    assert format(round(13.125, 2)) == "13.12"               # what float rounding would print
    assert format_pp(Fraction(-21, 160)) == "-13.13" and format_pp(Fraction(1, 200)) == "+0.50"
    assert format_percent(Fraction(2, 3)) == "66.67" and format_percent(Fraction(1)) == "100.00"
    assert str(round_half_up(Fraction(1, 8))) == "0.13" and format_percent(None) is None


def test_welch_matches_scipy():
    from scipy.stats import ttest_ind

    rng = np.random.default_rng(0)
    a, b = rng.random(300) < 0.8, rng.random(200) < 0.6
    ref = ttest_ind(a.astype(float), b.astype(float), equal_var=False)
    got = welch(a, b)
    assert got["t"] == pytest.approx(ref.statistic) and got["p"] == pytest.approx(ref.pvalue)
    assert welch(np.ones(5, bool), np.ones(5, bool)) is None and welch(a[:1], b) is None


def test_adv4_ids_map_to_adv3_in_label_files(suite, tmp_path):
    items = tiny_items()
    p = tmp_path / "preds.csv"
    rows = [(pr.item_id.replace("A_0_adv3", "A_0_adv4"), pr.label) for pr in tiny_preds()]
    p.write_text("item_id,label\n" + "".join(f'"{i}",{lab}\n' for i, lab in rows), encoding="utf-8")
    preds = suite.read_predictions(p)
    assert "A_0_adv3" in {x.item_id for x in preds} and SPACE in {x.item_id for x in preds}
    assert counts(suite.score(items, preds, n_boot=0))["ars"] == (1, 3)
    j = tmp_path / "preds.jsonl"
    j.write_text("".join(json.dumps({"item_id": i, "label": lab}) + "\n" for i, lab in rows), encoding="utf-8")
    assert {x.item_id for x in suite.read_predictions(j)} == {x.item_id for x in preds}


def _results_csv(tmp_path, items, gold_override=None):
    p = tmp_path / "laptop_results.csv"
    lines = ["id,sentence,term,gold_label,M1,M2"]
    for i in items:
        rid = i.item_id[:-1] + "4" if i.item_id.endswith("_adv3") else i.item_id
        gold = (gold_override or {}).get(i.item_id, i.label)
        lines.append(f'"{rid}","{i.text}",{i.aspect},{gold},{i.label},positive')
    p.write_bytes(("\r\n".join(lines) + "\r\n").encode())
    return p


def test_read_published_results_csv(suite, tmp_path):
    items = tiny_items()  # stand-in for the shipped test set

    def read(path, column=None):
        return read_results(path, column, items, suite.name)

    p = _results_csv(tmp_path, items)
    with pytest.raises(ConfigError, match=r"\['M1', 'M2'\]"):
        read(p)
    with pytest.raises(ConfigError, match="no model column 'M3'"):
        read(p, column="M3")
    res = suite.score(items, read(p, column="M1"), n_boot=0)
    assert counts(res)["ars"] == (3, 3)
    res = suite.score(items, read(p, column="M2"), n_boot=0)
    assert counts(res)["accuracy_original"] == (1, 3)
    bad = _results_csv(tmp_path, items, gold_override={"A_0_adv3": "negative"})
    with pytest.raises(DataError, match="disagree") as ei:
        read(bad, column="M1")
    assert ei.value.record == "A_0_adv4" and ei.value.field == "gold_label"


def test_scoring_100k_predictions_is_vectorised(suite):
    """25k units x 4 items = 100k predictions through the same code path (no timing assertion)."""
    n_units = 25_000
    rng = np.random.default_rng(7)
    gold = rng.integers(0, 3, size=(n_units, 4))
    hit = rng.random((n_units, 4)) < 0.85
    labels = np.array(["positive", "negative", "neutral"])
    pred = np.where(hit, gold, (gold + 1) % 3)
    kinds = ("original", "revtgt", "revnon", "adddiff")
    sfx = ("", "_adv1", "_adv2", "_adv3")
    items, preds = [], []
    for u in range(n_units):
        g = f"{u}:1_0"
        for k in range(4):
            items.append(Item(g + sfx[k], g, "test", "s", str(labels[gold[u, k]]), kind=kinds[k]))
            preds.append(Prediction(g + sfx[k], str(labels[pred[u, k]])))
    res = suite.score(items, preds, n_boot=200)
    c = counts(res)
    assert c["ars"] == (int(hit.all(axis=1).sum()), n_units)
    assert c["accuracy_original"] == (int(hit[:, 0].sum()), n_units)
    assert c["accuracy_revnon"] == (int(hit[:, 2].sum()), n_units)
    arr = build_arrays(items, {p.item_id: p for p in preds})
    assert arr.correct.dtype == bool and arr.group.max() == n_units - 1


# ---- golden tests on the published predictions ----------------------------------------------------------

DOMAINS = {"laptop": "arts-laptop", "rest": "arts-rest", "mams": "arts-mams"}
UNITS = {"laptop": (638, 466, 135, 638), "rest": (1120, 846, 444, 1120), "mams": (1336, 789, 402, 1336)}
MODELS = ("TD_LSTM", "GCAE", "ATAE_LSTM", "MemNet", "ASGCN", "bert_pair", "bert_sent", "bert_pt", "mams_capsnet")
GOLDEN = [  # (domain, column, metric, percent) from the paper / the issue
    ("laptop", "bert_pt", "accuracy_original", "78.53"),
    ("laptop", "bert_pt", "ars", "53.29"),
    ("rest", "MemNet", "accuracy_original", "75.18"),
    ("rest", "MemNet", "ars", "21.52"),
    ("mams", "TD_LSTM", "ars", "49.25"),
]


def naive_counts(path, column):
    """Independent re-computation straight from the CSV (plain loops, no sentiprobe code)."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    units, ori = defaultdict(list), []
    per = {s: ([], []) for s in ("1", "2", "4")}
    src_ok = {}
    for r in rows:
        m = re.search(r"_adv([1-4])$", r["id"])
        g = r["id"][: m.start()] if m else r["id"]
        ok = r[column] == r["gold_label"]
        units[g].append(ok)
        if m:
            per[m.group(1)][1].append((g, ok))
        else:
            ori.append(ok)
            src_ok[g] = ok
    out = {"accuracy_original": (sum(ori), len(ori)),
           "ars": (sum(all(v) for v in units.values()), len(units))}
    for s, name in (("1", "revtgt"), ("2", "revnon"), ("4", "adddiff")):
        vs = per[s][1]
        out[f"accuracy_{name}"] = (sum(ok for _, ok in vs), len(vs))
        gs = {g for g, _ in vs}
        out[f"accuracy_{name}_source"] = (sum(src_ok[g] for g in gs), len(gs))
    return out


@pytest.fixture(scope="module")
def scored(data_dir):
    """Every model column of the three published CSVs, scored by the suite (no bootstrap)."""
    out = {}
    for dom, name in DOMAINS.items():
        s = get_suite(name, data_dir=data_dir)
        items = s.items("test")
        path = data_dir / "arts" / "output" / f"{dom}_results.csv"
        for col in MODELS:
            out[dom, col] = (s.score(items, s.read_predictions(path, column=col), n_boot=0), path)
    return out


@pytest.mark.realdata
@pytest.mark.parametrize("dom,col,metric,percent", GOLDEN)
def test_paper_goldens(scored, dom, col, metric, percent):
    res, _ = scored[dom, col]
    assert res.details["counts"][metric]["percent"] == percent


@pytest.mark.realdata
def test_largest_drop_is_the_abstracts_69_73(scored):
    """Abstract: accuracy drops "by up to 69.73%" (Ori - ARS, restaurant BERT-Sent, over laptop and restaurant)."""
    drops = {(d, c): Fraction(r.details["counts"]["accuracy_original"]["correct"]
                              - r.details["counts"]["ars"]["correct"], r.details["n_units"])
             for (d, c), (r, _) in scored.items() if d in ("laptop", "rest")}
    worst = max(drops, key=drops.get)
    assert worst == ("rest", "bert_sent") and format_percent(drops[worst]) == "69.73"
    res = scored["rest", "bert_sent"][0]
    assert res.details["ars_minus_original_pp"] == "-69.73"
    assert (res.details["counts"]["accuracy_original"]["percent"], res.details["counts"]["ars"]["percent"]) == \
        ("80.63", "10.89")  # 903/1120 = 80.625 -> half-up


@pytest.mark.realdata
def test_half_way_case_rounds_half_up(scored):
    """Restaurant GatedCNN ARS is 147/1120 = 13.125%: printed 13.13 (half-up), not 13.12."""
    c = scored["rest", "GCAE"][0].details["counts"]["ars"]
    assert (c["correct"], c["total"], c["percent"]) == (147, 1120, "13.13")


@pytest.mark.realdata
@pytest.mark.parametrize("dom", list(DOMAINS))
@pytest.mark.parametrize("col", MODELS)
def test_every_model_column_matches_independent_count(scored, dom, col):
    res, path = scored[dom, col]
    assert counts(res) == naive_counts(path, col)
    n_units, n1, n2, n3 = UNITS[dom]
    c = counts(res)
    assert c["ars"][1] == n_units and res.metrics["ars"].n == n_units
    assert (c["accuracy_revtgt_source"][1], c["accuracy_revnon_source"][1], c["accuracy_adddiff_source"][1]) == \
        (n1, n2, n3)
    # AddDiff covers every unit (docs/protocols/arts.md#subset-accuracy)
    assert c["accuracy_adddiff_source"] == c["accuracy_original"]
    assert res.details["missing"]["count"] == 0 and res.details["unparsed_predictions"] == 0
    for m in res.metrics.values():
        assert 0.0 <= m.value <= 1.0
    assert c["ars"][0] <= min(c["accuracy_original"][0], c["accuracy_adddiff"][0])


def test_a_constant_neutral_answer_is_flagged_and_ars_polar_leaves_neutral_targets_out(suite):
    items = [it("A_0", "A_0", "original", "neutral"), it("A_0_adv1", "A_0", "revtgt", "neutral"),
             it("A_0_adv3", "A_0", "adddiff", "neutral"),
             it("B_0", "B_0", "original", "positive"), it("B_0_adv1", "B_0", "revtgt", "negative"),
             it("C_0", "C_0", "original", "negative"), it("C_0_adv3", "C_0", "adddiff", "negative")]
    neutral = [Prediction(i.item_id, "neutral") for i in items]
    res = suite.score(items, neutral, n_boot=20)
    assert res.metrics["ars"].value == pytest.approx(1 / 3)  # the neutral unit, right by construction
    assert res.metrics["ars_polar"].value == 0.0 and res.metrics["ars_polar"].n == 2
    flag = res.details["constant_label"]
    assert (flag["label"], flag["correct"], flag["total"]) == ("neutral", 1, 3) and "ars_polar" in flag["note"]
    gold = suite.score(items, [Prediction(i.item_id, i.label) for i in items], n_boot=0)
    assert gold.metrics["ars_polar"].value == 1.0 and gold.metrics["ars"].value == 1.0
