"""ARTS loaders on tiny hand-written fixtures (no shipped data needed)."""
from __future__ import annotations

import json
import logging

import pytest

from sentiprobe.core.errors import DataError
from sentiprobe.suites.arts import load
from sentiprobe.suites.arts.formats import (is_example_id, locate_term, normalise_key, parse_key,
                                            split_example_id)
from sentiprobe.suites.arts.items import enriched_items, results_items

SPACE_ID = "33068425#562449#4 _0"


def rec(sentence, term, polarity, rid, start=None):
    start = sentence.index(term) if start is None else start
    return {"sentence": sentence, "term": term, "polarity": polarity, "id": rid, "from": start,
            "to": start + len(term)}


def write_json(path, obj):
    path.write_text(json.dumps(obj, indent=4), encoding="ascii")
    return path


def enriched_fixture():
    s = "Nice screen, keyboard works great!"
    return {
        "1094:1_1": rec(s, "screen", "positive", "1094:1_1"),
        "1094:1_1_adv1": rec("Bad screen, but keyboard works great!", "screen", "negative", "1094:1_1"),
        "1094:1_1_adv2": rec("Nice screen, keyboard works not great!", "screen", "positive", "1094:1_1"),
        "1094:1_1_adv4": rec(s[:-1] + ", but windows 8 is annoying.", "screen", "positive", "1094:1_1"),
        SPACE_ID: rec("good food good wine", "food", "positive", SPACE_ID),
        SPACE_ID + "_adv3": rec("good food good wine, but service is slow.", "food", "positive", SPACE_ID),
    }


# ---- ids ---------------------------------------------------------------------------------------------

def test_ids_split_on_last_underscore_and_are_never_stripped():
    assert split_example_id(SPACE_ID) == ("33068425#562449#4 ", "0")
    assert split_example_id("1094:1_10") == ("1094:1", "10")
    assert parse_key(SPACE_ID + "_adv1") == (SPACE_ID, "revtgt")
    assert parse_key("0_2_adv4") == ("0_2", "adddiff")
    assert parse_key("0_2_adv3") == ("0_2", "adddiff")
    assert parse_key("0_2_adv5") == ("0_2_adv5", "original")  # only _adv[1-4]
    assert normalise_key("0_2_adv4") == "0_2_adv3" and normalise_key("0_2_adv1") == "0_2_adv1"
    assert is_example_id("227_0") and not is_example_id("227") and not is_example_id("_3")
    assert not is_example_id("12_x")


def test_locate_term_rules():
    assert locate_term("a pizza, the pizza", "pizza", hint=(13, 18)) == ((13, 18), None)
    span, problem = locate_term("a pizza, the pizza", "pizza")
    assert span == (2, 7) and "2 times" in problem
    span, problem = locate_term("a pizza, the pizza", "pizza", near=12)
    assert span == (13, 18) and "nearest" in problem
    assert locate_term("Startup disk full", "startup disk")[0] == (0, 12)
    assert locate_term("delivery was late", "delivary") == (None, "term not found in the sentence; span set to None")
    assert locate_term("x", "")[0] is None


# ---- enriched ------------------------------------------------------------------------------------------

def test_load_enriched_maps_adv4_and_keeps_space_ids(tmp_path):
    p = write_json(tmp_path / "laptop_test_enriched.json", enriched_fixture())
    warns = []
    recs = load.load_enriched(p, warnings_out=warns)
    assert warns == []
    assert list(recs) == ["1094:1_1", "1094:1_1_adv1", "1094:1_1_adv2", "1094:1_1_adv3", SPACE_ID, SPACE_ID + "_adv3"]
    e = recs["1094:1_1_adv3"]
    assert (e.key, e.kind, e.source_id) == ("1094:1_1_adv4", "adddiff", "1094:1_1")
    items = enriched_items(recs)
    assert [i.kind for i in items] == ["original", "revtgt", "revnon", "adddiff", "original", "adddiff"]
    assert items[4].item_id == SPACE_ID and items[5].group_id == SPACE_ID
    assert items[1].span == (4, 10) and items[1].aspect == "screen"


@pytest.mark.parametrize("field,value,match", [
    ("polarity", "conflict", "label 'conflict'"),
    ("polarity", None, "expected a string"),
    ("from", "5", "integer offset"),
    ("to", True, "integer offset"),
    ("sentence", 3, "expected a string"),
    ("term", "", "empty string"),
    ("id", "1094:1_2", "does not name this record's source"),
])
def test_malformed_enriched_record_names_file_record_field(tmp_path, field, value, match):
    data = enriched_fixture()
    data["1094:1_1_adv2"][field] = value
    p = write_json(tmp_path / "bad.json", data)
    with pytest.raises(DataError, match=match) as ei:
        load.load_enriched(p)
    err = ei.value
    assert err.path == str(p) and err.record == "1094:1_1_adv2" and err.field == field
    assert "bad.json" in str(err) and "1094:1_1_adv2" in str(err)


def test_missing_field_and_orphan_variant_and_duplicate_alias(tmp_path):
    data = enriched_fixture()
    del data["1094:1_1_adv1"]["term"]
    with pytest.raises(DataError) as ei:
        load.load_enriched(write_json(tmp_path / "a.json", data))
    assert (ei.value.record, ei.value.field) == ("1094:1_1_adv1", "term")

    data = enriched_fixture()
    del data["1094:1_1"]
    with pytest.raises(DataError, match="without its source") as ei:
        load.load_enriched(write_json(tmp_path / "b.json", data))
    assert ei.value.field == "id"

    data = enriched_fixture()
    data["1094:1_1_adv3"] = dict(data["1094:1_1_adv4"])
    with pytest.raises(DataError, match="duplicate"):
        load.load_enriched(write_json(tmp_path / "c.json", data))

    with pytest.raises(DataError, match="top level"):
        load.load_enriched(write_json(tmp_path / "d.json", [1, 2]))
    (tmp_path / "e.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(DataError, match="invalid JSON") as ei:
        load.load_enriched(tmp_path / "e.json")
    assert ei.value.record == "line 1"


def test_section6_offset_and_term_exceptions_warn_and_do_not_crash(tmp_path, caplog):
    src = "It's a basic pizza joint, but the pizza is what I go for."
    var = "It's a basic pizza joint, but the pizza is what I do not go for."
    data = {
        "11350539#680470#2_0": rec(src, "pizza", "positive", "11350539#680470#2_0", start=34),
        # offsets point at ' pizz' (first-occurrence quirk shifted by one)
        "11350539#680470#2_0_adv1": {**rec(var, "pizza", "negative", "11350539#680470#2_0"), "from": 12, "to": 17},
        "792:2_0": rec("The baterry is bad.", "baterry", "negative", "792:2_0"),
        # human edit of the term (and a typo in the offsets' text)
        "792:2_0_adv1": rec("The battery is good.", "battery", "positive", "792:2_0"),
        "29:1175_0": rec('The "tools" menu is fine.', '"tools" menu', "positive", "29:1175_0"),
        "29:1175_0_adv1": {**rec('The " tools " menu is bad.', '" tools "', "negative", "29:1175_0"),
                           "term": '"tools" menu'},
    }
    p = write_json(tmp_path / "enriched.json", data)
    warns = []
    with caplog.at_level(logging.INFO, logger="sentiprobe.arts"):
        recs = load.load_enriched(p, warnings_out=warns)
    by = {(w.record, w.field) for w in warns}
    assert by == {("11350539#680470#2_0_adv1", "from/to"), ("792:2_0_adv1", "term"), ("29:1175_0_adv1", "from/to")}
    assert recs["11350539#680470#2_0_adv1"].span == (34, 39)  # nearest to the source's offset
    assert recs["29:1175_0_adv1"].span is None
    assert recs["792:2_0_adv1"].term == "battery"  # the variant's own term
    assert len([r for r in caplog.records if r.name == "sentiprobe.arts"]) == 3
    items = {i.item_id: i for i in enriched_items(recs, warns)}
    assert items["792:2_0_adv1"].aspect == "battery"
    assert items["29:1175_0_adv1"].meta["data_warnings"]
    assert "data_warnings" not in items["792:2_0"].meta


def test_label_rule_violation_is_a_warning(tmp_path):
    data = enriched_fixture()
    data["1094:1_1_adv1"]["polarity"] = "positive"
    warns = []
    load.load_enriched(write_json(tmp_path / "x.json", data), warnings_out=warns)
    assert [(w.record, w.field) for w in warns] == [("1094:1_1_adv1", "polarity")]


# ---- flat, sent, towe ------------------------------------------------------------------------------------

def flat(rid, sentence, term, polarity, multi=False, contra=False, start=None):
    return {**rec(sentence, term, polarity, rid, start), "multi": multi, "contra": contra}


def test_load_flat_and_wrong_offset_warns(tmp_path):
    s = "Boot time (window's 7 starter) is slow"
    data = {"1878_2": {**flat("1878_2", s, "window's 7 starter", "negative"), "from": 10, "to": 28},
            "1771_0": flat("1771_0", "great", "great", "positive")}
    warns = []
    recs = load.load_flat(write_json(tmp_path / "dev.json", data), warnings_out=warns)
    assert recs["1878_2"].span == (11, 29) and recs["1878_2"].start == 10
    assert [w.record for w in warns] == ["1878_2"]
    data["1771_0"]["multi"] = "no"
    with pytest.raises(DataError) as ei:
        load.load_flat(write_json(tmp_path / "dev2.json", data))
    assert (ei.value.record, ei.value.field) == ("1771_0", "multi")
    data["1771_0"]["multi"] = False
    data["1771_0"]["id"] = "1771_1"
    with pytest.raises(DataError, match="differs from the record key"):
        load.load_flat(write_json(tmp_path / "dev3.json", data))
    bad = {"1771": flat("1771", "great", "great", "positive")}
    with pytest.raises(DataError, match="bad example id") as ei:
        load.load_flat(write_json(tmp_path / "dev4.json", bad))
    assert ei.value.record == "1771"


def sent_fixture(towe=False):
    s = "Screen is bright and gorgeous, battery is bad."
    t0 = {"id": "462:8_0", "polarity": "positive", "term": "Screen", "from": 0, "to": 6}
    t1 = {"id": "462:8_1", "polarity": "negative", "term": "battery", "from": 31, "to": 38}
    if towe:
        t0 |= {"opinion_words": ["bright", "gorgeous"], "opinion_position": [[10, 16], [21, 29]]}
        t1 |= {"opinion_words": ["bad"], "opinion_position": [[42, 45]]}
    return {"462:8": {"sentence": s, "term_list": {"462:8_0": t0, "462:8_1": t1}, "contra": True, "multi": True,
                      "id": "462:8"}}


def test_load_sent_and_towe(tmp_path):
    recs = load.load_sent(write_json(tmp_path / "test_sent.json", sent_fixture()))
    r = recs["462:8"]
    assert [t.id for t in r.terms] == ["462:8_0", "462:8_1"] and r.terms[0].opinion_words == ()
    towe = load.load_towe(write_json(tmp_path / "test_sent_towe.json", sent_fixture(True)))
    t0 = towe["462:8"].terms[0]
    assert t0.opinion_words == ("bright", "gorgeous") and t0.opinion_spans == ((10, 16), (21, 29))
    with pytest.raises(DataError) as ei:
        load.load_towe(tmp_path / "test_sent.json")
    assert (ei.value.record, ei.value.field) == ("462:8_0", "opinion_words")


def test_sent_malformed_records(tmp_path):
    data = sent_fixture(True)
    data["462:8"]["term_list"]["462:8_1"]["opinion_position"] = [[42]]
    with pytest.raises(DataError) as ei:
        load.load_towe(write_json(tmp_path / "a.json", data))
    assert (ei.value.record, ei.value.field) == ("462:8_1", "opinion_position")
    data = sent_fixture()
    data["462:8"]["term_list"]["462:8_1"]["id"] = "462:8_1"
    data["462:8"]["term_list"]["999:1_1"] = dict(data["462:8"]["term_list"].pop("462:8_1"), id="999:1_1")
    with pytest.raises(DataError, match="does not belong") as ei:
        load.load_sent(write_json(tmp_path / "b.json", data))
    assert ei.value.record == "999:1_1"
    data = sent_fixture(True)
    data["462:8"]["term_list"]["462:8_1"]["opinion_position"] = [[41, 44]]
    warns = []
    load.load_towe(write_json(tmp_path / "c.json", data), warnings_out=warns)
    assert [(w.record, w.field) for w in warns] == [("462:8_1", "opinion_position")]


def test_load_aspectset(tmp_path):
    p = tmp_path / "aspectset_laptop.txt"
    p.write_text("the good battery life\nis easy to use\nthe good battery life\n", encoding="utf-8")
    assert load.load_aspectset(p) == ("the good battery life", "is easy to use", "the good battery life")
    p.write_text("a\n\nb\n", encoding="utf-8")
    with pytest.raises(DataError) as ei:
        load.load_aspectset(p)
    assert ei.value.record == "line 2"


# ---- results CSV -----------------------------------------------------------------------------------------

HEADER = "id,sentence,term,gold_label,TD_LSTM,bert_pt"


def write_csv(path, lines):
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("utf-8"))
    return path


def results_lines():
    return [HEADER,
            '0_0,"The food was good, the service bad.",food,positive,positive,positive',
            '0_1,"The food was good, the service bad.",service,negative,positive,negative',
            f'{SPACE_ID},good food good wine,food,positive,positive,neutral',
            '0_0_adv1,"The food was bad, the service bad.",food,negative,positive,negative',
            '0_0_adv4,"The food was good, the service bad, but wine is great.",food,positive,positive,positive',
            f'{SPACE_ID}_adv4,"good food good wine, but bread is stale.",food,positive,,positive']


def test_load_results_csv_crlf_quoted_adv4(tmp_path):
    p = write_csv(tmp_path / "laptop_results.csv", results_lines())
    t = load.load_results_csv(p)
    assert t.models == ("TD_LSTM", "bert_pt")
    assert [r.item_key for r in t.rows] == ["0_0", "0_1", SPACE_ID, "0_0_adv1", "0_0_adv3", SPACE_ID + "_adv3"]
    assert t.rows[4].id == "0_0_adv4" and t.rows[4].kind == "adddiff" and t.rows[0].sentence.count(",") == 1
    assert t.column("TD_LSTM")[-1] == (SPACE_ID + "_adv3", None)  # an empty cell is kept as None
    items = results_items(t)
    assert items[2].span == (5, 9) and items[3].span == (4, 8)  # located in the sentence
    assert {i.group_id for i in items} == {"0_0", "0_1", SPACE_ID}


@pytest.mark.parametrize("line,record,field,match", [
    ('0_1,"x, y",,negative,positive,negative', "0_1", "term", "empty field"),
    ("0_1,x y,x,bad,positive,negative", "0_1", "gold_label", "label 'bad'"),
    ("0_1,x y,x,negative,positive", "0_1", None, "5 fields"),
    ("0_0_adv3,x y,x,positive,positive,positive", "0_0_adv3", "id", "duplicate"),
    ("9_9_adv2,x y,x,positive,positive,positive", "9_9_adv2", "id", "without its source"),
    ("nounderscore,x y,x,positive,positive,positive", "nounderscore", "id", "bad example id"),
])
def test_malformed_results_rows(tmp_path, line, record, field, match):
    p = write_csv(tmp_path / "r.csv", results_lines() + [line])
    with pytest.raises(DataError, match=match) as ei:
        load.load_results_csv(p)
    assert ei.value.record == record and ei.value.field == field and ei.value.path == str(p)


def test_results_csv_needs_fixed_columns(tmp_path):
    p = write_csv(tmp_path / "r.csv", ["id,sentence,term,TD_LSTM", "0_0,a b,a,positive"])
    with pytest.raises(DataError, match="missing columns") as ei:
        load.load_results_csv(p)
    assert ei.value.field == "gold_label"
