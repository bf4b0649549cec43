"""ARTS suites on the shipped data: item counts, label counts, file counts, docs/protocols/arts.md#dataset-statistics
statistics, docs/protocols/arts.md#data-irregularities cases.

Every expected number comes from the protocol definition (docs/protocols/arts.md#towe-files, #enriched-sets,
#aspectset, #results-csv, #dataset-statistics, #data-irregularities).
"""
from __future__ import annotations

import json
from collections import Counter

import pytest

from sentiprobe.core.errors import ConfigError, PredictionError
from sentiprobe.suites import get_suite
from sentiprobe.suites.arts import load
from sentiprobe.suites.arts.data import data_warnings

pytestmark = pytest.mark.realdata

COUNTS = {  # originals / _adv1 / _adv2 / _adv3 (docs/protocols/arts.md#enriched-sets)
    "arts-laptop": (638, 466, 135, 638, 1877),
    "arts-rest": (1120, 846, 444, 1120, 3530),
    "arts-mams": (1336, 789, 402, 1336, 3863),
}
TEST_LABELS = {"arts-laptop": (341, 128, 169), "arts-rest": (728, 196, 196), "arts-mams": (400, 329, 607)}
ENRICHED_LABELS = {"arts-laptop": (883, 587, 407), "arts-rest": (1953, 1104, 473)}
FLAT = {"arts-laptop": (2163, 150), "arts-rest": (3452, 150), "arts-mams": (11186, 1332)}


@pytest.fixture(scope="module")
def suites(data_dir):
    return {name: get_suite(name, data_dir=data_dir) for name in COUNTS}


@pytest.mark.parametrize("name", list(COUNTS))
def test_test_items(suites, name):
    s = suites[name]
    items = s.items("test")
    kinds = Counter(i.kind for i in items)
    o, r1, r2, r3, total = COUNTS[name]
    assert (kinds["original"], kinds["revtgt"], kinds["revnon"], kinds["adddiff"], len(items)) == (o, r1, r2, r3, total)
    assert len({i.group_id for i in items}) == o and len({i.item_id for i in items}) == total
    assert all(i.split == "test" and i.aspect and i.label in s.labels for i in items)
    assert not any(i.item_id.endswith("_adv4") for i in items)
    orig = Counter(i.label for i in items if i.kind == "original")
    assert (orig["positive"], orig["negative"], orig["neutral"]) == TEST_LABELS[name]
    if name in ENRICHED_LABELS:
        allc = Counter(i.label for i in items)
        assert (allc["positive"], allc["negative"], allc["neutral"]) == ENRICHED_LABELS[name]
    # spans point at the item's own term except for the documented cases (span None or re-located)
    bad = [i.item_id for i in items if i.span is not None and i.text[i.span[0]:i.span[1]].lower() != i.aspect.lower()]
    assert bad == []
    tr, dv = FLAT[name]
    assert (len(s.items("train")), len(s.items("dev"))) == (tr, dv)
    assert s.items("nonexistent") == []


def test_ids_with_a_space_are_kept(suites):
    ids = {i.item_id for i in suites["arts-rest"].items("test")}
    assert {"33068425#562449#4 _0", "33068425#562449#4 _0_adv1", "33068425#562449#4 _0_adv3"} <= ids


def test_section6_cases_warn_not_crash(suites):
    lap = {(w.record, w.field) for w in data_warnings(suites["arts-laptop"])}
    assert {("29:1175_0_adv1", "from/to"), ("933:1_0_adv1", "from/to"), ("279:2_0_adv1", "from/to"),
            ("349:1_0_adv1", "term"), ("792:2_0_adv1", "term")} <= lap
    assert sum(f == "term" for _, f in lap) == 4 and sum(f == "from/to" for _, f in lap) == 3
    rest = {(w.record, w.field) for w in data_warnings(suites["arts-rest"])}
    assert {("11350539#680470#2_0_adv1", "from/to"), ("11359613#884374#3_0_adv1", "from/to"),
            ("32889544#0#4_1_adv3", "from/to"), ("11351628#404492#3_3_adv1", "term"),
            ("11359618#788741#2_0_adv3", "term"), ("35170181#0#3_0_adv1", "term")} <= rest
    assert sum(f == "term" for _, f in rest) == 5 and sum(f == "from/to" for _, f in rest) == 3
    by_id = {i.item_id: i for i in suites["arts-rest"].items("test")}
    assert by_id["11350539#680470#2_0_adv1"].span == (55, 60)  # the target pizza, not "pizza joint"
    assert by_id["11359618#788741#2_0_adv3"].aspect == "service"  # the variant's own term
    assert by_id["11359613#884374#3_0_adv1"].meta["data_warnings"]
    mams = {w.record: w for w in data_warnings(suites["arts-mams"])}
    assert {"341_0_adv1", "50_0_adv1"} <= set(mams)
    mitems = {i.item_id: i for i in suites["arts-mams"].items("test")}
    assert mitems["341_0_adv1"].span is None and mitems["50_0_adv1"].span is None
    dev = {(w.record, w.field) for w in data_warnings(suites["arts-laptop"], "dev")}
    assert dev == {("1878_2", "from/to")}
    assert {i.item_id: i for i in suites["arts-laptop"].items("dev")}["1878_2"].span == (46, 64)


def test_source_file_counts(data_dir):
    base = data_dir / "arts" / "src_data"
    expected = {  # (sentences, aspects) docs/protocols/arts.md#towe-files
        ("laptop", "train_sent"): (1365, 2163), ("laptop", "dev_sent"): (98, 150), ("laptop", "test_sent"): (411, 638),
        ("rest", "train_sent"): (1895, 3452), ("rest", "dev_sent"): (84, 150), ("rest", "test_sent"): (600, 1120),
        ("mams", "train_sent"): (4297, 11186), ("mams", "dev_sent"): (500, 1332), ("mams", "test_sent"): (500, 1336),
        ("laptop", "train_sent_towe"): (1039, 1480), ("laptop", "dev_sent_towe"): (82, 112),
        ("laptop", "test_sent_towe"): (331, 466), ("rest", "train_sent_towe"): (1523, 2483),
        ("rest", "dev_sent_towe"): (52, 80), ("rest", "test_sent_towe"): (492, 847),
        ("mams", "test_sent_towe"): (494, 789),
    }
    for (dom, f), (n_sent, n_asp) in expected.items():
        warns = []
        recs = load.load_sent(base / dom / f"{f}.json", towe=f.endswith("towe") or None, warnings_out=warns)
        assert (len(recs), sum(len(r.terms) for r in recs.values())) == (n_sent, n_asp), (dom, f)
        if f.endswith("towe"):
            assert all(1 <= len(t.opinion_words) <= 5 for r in recs.values() for t in r.terms)
    assert len(load.load_flat(base / "rest" / "test.json")) == 1120


def test_aspectset_counts(data_dir):
    for dom, (n, uniq) in {"laptop": (968, 939), "rest": (1648, 1567)}.items():
        phrases = load.load_aspectset(data_dir / "arts" / "aspectset" / f"aspectset_{dom}.txt")
        assert (len(phrases), len(set(phrases))) == (n, uniq)


def test_results_csv_blocks(data_dir):
    t = load.load_results_csv(data_dir / "arts" / "output" / "laptop_results.csv")
    assert len(t.models) == 9 and t.models[0] == "TD_LSTM" and t.models[-1] == "mams_capsnet"
    order = [r.kind for r in t.rows]
    assert order == sorted(order, key=["original", "revtgt", "revnon", "adddiff"].index)  # blocks
    assert sum(r.id.endswith("_adv4") for r in t.rows) == 638


@pytest.mark.parametrize("name,golden", [
    ("arts-laptop", ("2.05", "16", "9", "0.23", "83.9", 59)),
    ("arts-rest", ("2.57", "20", "11", "0.27", "79.6", 122)),
])
def test_dataset_statistics(suites, name, golden):
    st = suites[name].stats()
    json.dumps(st)
    d = st["dataset_statistics"]["original_test"]
    got = (d["aspects_per_sent"]["rounded"], f"{float(d['opp_nontgt_ge1']['percent']):.0f}",
           f"{float(d['opp_nontgt_all']['percent']):.0f}", d["opp_nontgt_per_sent"]["rounded"],
           f"{float(d['no_differing_nontgt']['percent']):.1f}", d["opp_nontgt_all"]["count"])
    assert got == golden
    o, r1, r2, r3, total = COUNTS[name]
    assert st["test"]["items"] == total and st["test"]["groups"] == o
    assert st["test"]["kinds"] == {"original": o, "revtgt": r1, "revnon": r2, "adddiff": r3}
    assert st["train"]["items"] == FLAT[name][0] and st["data_warnings"]


def test_read_predictions_errors_on_real_csvs(suites, data_dir):
    lap = suites["arts-laptop"]
    with pytest.raises(ConfigError, match="bert_pt"):
        lap.read_predictions(data_dir / "arts" / "output" / "laptop_results.csv")
    preds = lap.read_predictions(data_dir / "arts" / "output" / "rest_results.csv", column="bert_pt")
    with pytest.raises(PredictionError, match="not in suite arts-laptop"):
        lap.score(lap.items("test"), preds)


def test_data_warnings_of_the_load_and_in_scored_details(suites):
    """Warnings of a loaded split come with its load; scoring reports them from the items' meta."""
    from sentiprobe.core.types import Prediction

    s = suites["arts-laptop"]
    items = s.items("test")
    assert len(data_warnings(s)) >= 7
    res = s.score(items, [Prediction(i.item_id, i.label) for i in items], n_boot=0)
    warned = [i.item_id for i in items if i.meta.get("data_warnings")]
    assert [w["item_id"] for w in res.details["data_warnings"]] == warned and len(warned) == 7
    assert all(w["messages"] for w in res.details["data_warnings"])
