"""``sentiprobe arts review --write-refused``: the polar targets the generator refused under RevTgt become items
the reviewer writes; an unwritten one cannot be accepted, a written one goes to the curated file (and through
``arts-custom``) with its refusal recorded, and the audit export leaves them out. A report that is malformed or
another file's is a typed error naming the file, the entry and the field."""
from __future__ import annotations

import json

import pytest

import _arts_review_fixture as fx
from sentiprobe.core.errors import ConfigError, DataError
from sentiprobe.suites import get_suite
from sentiprobe.suites.arts.review import (
    apply,
    curated,
    export_audit,
    load_generated,
    load_state,
    new_state,
    save_state,
    state_path,
    view,
)
from sentiprobe.suites.arts.writein import report_path, with_refused


@pytest.fixture
def gen(tmp_path):
    return with_refused(load_generated(fx.with_refused(tmp_path / "gen.json")))


def test_refused_polar_targets_follow_the_variants(gen):
    plain = load_generated(gen.path)
    assert gen.variants == plain.variants + ("s4_0_adv1",)
    assert gen.written == {"s4_0_adv1": fx.REFUSAL}  # first reason only; neutral and kept targets are no items
    st = new_state(gen)
    st.position = gen.variants.index("s4_0_adv1")
    v = view(gen, st)
    assert v["refusal"] == fx.REFUSAL and v["to_write"] == 1 and v["strategy"] == "revtgt"
    assert v["sentence"] == v["source"] == "The staff was friendly, as always."
    assert v["label"] == "negative" and v["source_label"] == "positive"
    assert view(gen, new_state(gen))["refusal"] is None


def test_an_item_is_accepted_only_once_written(gen, tmp_path):
    st = new_state(gen)
    st.position = gen.variants.index("s4_0_adv1")
    with pytest.raises(ConfigError, match="write its reversal first"):
        apply(gen, st, "accept", reviewer="ann")
    assert st.decisions == {}
    apply(gen, st, "edit", text="The staff was rude, as always.")
    apply(gen, st, "accept", reviewer="ann")
    rec = curated(gen, st)["s4_0_adv1"]
    assert rec["sentence"] == "The staff was rude, as always." and rec["polarity"] == "negative"
    assert rec["sentence"][rec["from"]:rec["to"]] == "staff"
    prov = rec["provenance"]
    assert prov["written"] == {"refusal": fx.REFUSAL} and prov["review"]["reviewer"] == "ann"
    assert prov["review"]["edited"] is True and "generated_sentence" not in prov["review"]
    out = tmp_path / "curated.json"
    out.write_text(json.dumps(curated(gen, st)), encoding="utf-8")
    items = get_suite("arts-custom", tmp_path, {"path": str(out)}).items("test")
    assert {(i.kind, i.label) for i in items} == {("original", "positive"), ("revtgt", "negative")}
    # a target with no honest reversal is rejected with a tag like any variant
    apply(gen, st, "undo")
    apply(gen, st, "reject", reason="context clash", reviewer="ann")
    assert "s4_0_adv1" not in curated(gen, st)


def test_the_audit_export_leaves_written_items_out(gen, tmp_path):
    st = new_state(gen)
    for key in gen.variants:
        st.position = gen.variants.index(key)
        if key in gen.written:
            apply(gen, st, "edit", text="The staff was rude, as always.")
        apply(gen, st, "accept", reviewer="ann")
    assert len(st.decisions) == len(gen.variants)
    sheet = tmp_path / "audit.csv"
    assert export_audit(gen, st, sheet) == len(gen.variants) - 1
    assert "rude, as always" not in sheet.read_text(encoding="utf-8")


def test_a_state_belongs_to_one_choice_of_items(gen, tmp_path):
    st = new_state(gen)
    apply(gen, st, "accept", reviewer="ann")
    save_state(st, state_path(gen.path))
    assert load_state(gen, state_path(gen.path)).decisions == st.decisions
    with pytest.raises(ConfigError, match="sha256"):
        load_state(load_generated(gen.path), state_path(gen.path))


@pytest.mark.parametrize(("report", "where"), [
    ({"skipped": {}}, "field 'skipped'"),
    ({"skipped": ["x"]}, "record 'skipped[0]'"),
    ({"skipped": [{"record": "s4_0", "stage": "revtgt", "reason": 3}]}, "field 'reason'"),
    ({"skipped": [{"record": "zz_0", "stage": "revtgt", "reason": "r"}]}, "another file's"),
    ({"skipped": [{"record": "s1_0_adv1", "stage": "revtgt", "reason": "r"}]}, "does not hold as a source"),
])
def test_a_bad_report_is_a_typed_error(tmp_path, report, where):
    path = fx.with_refused(tmp_path / "gen.json")
    report_path(path).write_text(json.dumps(report), encoding="utf-8")
    with pytest.raises(DataError, match="gen.report.json") as exc:
        with_refused(load_generated(path))
    assert where in str(exc.value)


def test_a_missing_or_unreadable_report_is_a_typed_error(tmp_path):
    path = fx.write(tmp_path / "gen.json")
    with pytest.raises(DataError, match="there is none"):
        with_refused(load_generated(path))
    report_path(path).write_text("{not json", encoding="utf-8")
    with pytest.raises(DataError, match="not a generation report"):
        with_refused(load_generated(path))


def test_the_command_reports_a_missing_report_without_a_traceback(tmp_path, capsys):
    from sentiprobe.cli import main

    path = fx.write(tmp_path / "gen.json")
    code = main(["arts", "review", str(path), "--write-refused", "--no-browser"])
    err = capsys.readouterr().err
    assert code != 0 and "there is none" in err and "gen.report.json" in err and "Traceback" not in err
