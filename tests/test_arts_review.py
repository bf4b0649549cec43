"""The review logic of ``sentiprobe arts review``: decisions, undo, resume, edit re-validation and offsets, the
curated file (run through ``arts-custom``) and the audit export (read by ``arts audit-score``)."""
from __future__ import annotations

import json

import pytest

import _arts_review_fixture as fx
from sentiprobe.core.errors import ConfigError
from sentiprobe.suites import get_suite
from sentiprobe.cli import main
from sentiprobe.suites.arts.review import (
    REASONS,
    apply,
    curated,
    export_audit,
    load_generated,
    load_state,
    map_offset,
    new_state,
    save_state,
    state_path,
    view,
    word_diff,
    write_curated,
)


@pytest.fixture
def gen(tmp_path):
    return load_generated(fx.write(tmp_path / "gen.json"))


def _goto(gen, st, key):
    st.position = gen.variants.index(key)


def test_view_shows_source_diff_others_and_notes(gen):
    st = new_state(gen)
    _goto(gen, st, "s1_0_adv1")
    v = view(gen, st)
    assert v["source"] == "The food is good and the service is slow."
    assert ["-", "good and"] in v["diff"] or ["-", "good"] in v["diff"]
    assert any(op == "+" and "bad" in t for op, t in v["diff"])
    assert v["others"] == [{"id": "s1_1", "term": "service", "label": "negative", "appended": False,
                            "present": True}]
    assert any("antonym" in n for n in v["notes"]) and any(fx.XSS in n for n in v["notes"])
    _goto(gen, st, "s3_0_adv3")
    assert [o["term"] for o in view(gen, st)["others"]] == ["staff"]
    _goto(gen, st, "s2_0_adv1")
    assert any(n.startswith("verifier:") for n in view(gen, st)["notes"])


def test_word_diff_marks_insertions_and_deletions():
    assert word_diff("the food is good", "the food is not good") == [["=", "the food is "], ["+", "not "],
                                                                     ["=", "good"]]
    assert word_diff("a b c", "a c") == [["=", "a "], ["-", "b "], ["=", "c"]]


def test_decisions_advance_and_undo_restores(gen):
    st = new_state(gen)
    first = gen.variants[0]
    apply(gen, st, "accept", reviewer="ann", at="2026-01-01T00:00:00Z")
    assert st.decisions[first]["decision"] == "accept" and st.position == 1
    apply(gen, st, "label", label="neutral")
    apply(gen, st, "reject", reason="context clash", reviewer="ann")
    second = gen.variants[1]
    assert st.decisions[second]["reason"] == "context clash" and st.decisions[second]["polarity"] == "neutral"
    with pytest.raises(ConfigError, match="reason"):
        apply(gen, st, "reject", reason="bad vibes")
    apply(gen, st, "undo")  # the reject
    assert second not in st.decisions and st.position == 1 and st.drafts[second]["polarity"] == "neutral"
    apply(gen, st, "undo")  # the label fix
    assert second not in st.drafts
    apply(gen, st, "undo")  # the accept
    assert st.decisions == {} and st.position == 0
    with pytest.raises(ConfigError, match="nothing to undo"):
        apply(gen, st, "undo")


def test_label_cycles(gen):
    st = new_state(gen)
    seen = []
    for _ in range(3):
        apply(gen, st, "label")
        seen.append(view(gen, st)["label"])
    assert len(set(seen)) == 3 and seen[-1] == gen.records[gen.variants[0]]["polarity"]


def test_resume_from_the_sidecar(gen, tmp_path):
    st = new_state(gen)
    apply(gen, st, "accept", reviewer="ann")
    apply(gen, st, "reject", reason="negation sense", reviewer="ann")
    sp = state_path(gen.path)
    assert sp.name == "gen.review.json"
    save_state(st, sp)
    again = load_state(gen, sp)
    assert again.decisions == st.decisions and again.position == st.position and again.history == st.history
    apply(gen, again, "undo")
    assert len(again.decisions) == 1
    # another version of the generated file is refused
    recs = fx.records()
    recs["s1_0"]["polarity"] = "negative"
    other = load_generated(fx.write(tmp_path / "gen.json", recs))
    with pytest.raises(ConfigError, match="sha256"):
        load_state(other, sp)


def test_edit_recomputes_offsets_of_target_and_others(gen):
    st = new_state(gen)
    _goto(gen, st, "s1_0_adv1")
    apply(gen, st, "edit", text="Sadly, the food is bad, but the service is slow.")
    wc = st.drafts["s1_0_adv1"]
    assert wc["sentence"][wc["from"]:wc["to"]] == "food" and wc["from"] == 11
    a, b = wc["aspects"]["s1_1"]
    assert wc["sentence"][a:b] == "service"
    apply(gen, st, "accept", reviewer="ann")
    doc = curated(gen, st)
    rec = doc["s1_0_adv1"]
    assert rec["sentence"].startswith("Sadly") and rec["from"] == 11
    assert rec["provenance"]["review"]["edited"] is True
    assert rec["provenance"]["review"]["generated_sentence"] == "The food is bad but the service is slow."


def test_edit_refused_when_an_aspect_is_lost(gen):
    st = new_state(gen)
    _goto(gen, st, "s1_0_adv1")
    with pytest.raises(ConfigError, match="'food' no longer occurs"):
        apply(gen, st, "edit", text="The meal is bad but the service is slow.")
    with pytest.raises(ConfigError, match="'service'"):
        apply(gen, st, "edit", text="The food is bad but the staff is slow.")
    with pytest.raises(ConfigError, match="empty"):
        apply(gen, st, "edit", text="  ")
    assert st.drafts == {} and st.history == []


def test_edit_picks_the_occurrence_that_moved():
    old = "food and food"
    new = "great food and food"
    assert map_offset(old, new, 9) == 15  # the second 'food' moved by 6


def test_edit_of_appended_aspect_is_checked(gen):
    st = new_state(gen)
    _goto(gen, st, "s3_0_adv3")
    with pytest.raises(ConfigError, match="'staff'"):
        apply(gen, st, "edit", text="The wine list is long, but the waiters are rude.")


def test_curated_runs_through_arts_custom(gen, tmp_path):
    st = new_state(gen)
    decisions = {"s1_0_adv1": "accept", "s1_0_adv2": "reject", "s1_1_adv1": "accept", "s2_0_adv1": "accept",
                 "s3_0_adv3": "reject"}
    for _ in gen.variants:
        key = gen.variants[st.position]
        if key == "s2_0_adv1":
            apply(gen, st, "label", label="neutral")
        apply(gen, st, decisions[key], reviewer="ann", reason=REASONS[0] if decisions[key] == "reject" else None)
    out = tmp_path / "curated.json"
    assert write_curated(gen, st, out) == 3
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert set(doc) == {"s1_0", "s1_1", "s2_0", "s1_0_adv1", "s1_1_adv1", "s2_0_adv1"}
    rev = doc["s2_0_adv1"]["provenance"]["review"]
    assert rev["reviewer"] == "ann" and rev["at"].endswith("Z") and rev["label_fixed"] is True
    assert doc["s2_0_adv1"]["polarity"] == "neutral" and rev["generated_label"] == "negative"
    items = get_suite("arts-custom", tmp_path, {"path": str(out)}).items("test")
    assert len(items) == 6 and {i.kind for i in items} == {"original", "revtgt"}
    with pytest.raises(ConfigError, match="generated file itself"):
        write_curated(gen, st, gen.path)


def test_audit_export_is_scored_by_audit_score(gen, tmp_path, capsys):
    st = new_state(gen)
    apply(gen, st, "accept", reviewer="ann")  # fluent, label correct
    apply(gen, st, "label", label="neutral")
    apply(gen, st, "accept", reviewer="ann")  # fluent, label wrong
    apply(gen, st, "reject", reason="antonym sense", reviewer="ann")  # not fluent, label kept
    sheet = tmp_path / "review-audit.csv"
    assert export_audit(gen, st, sheet) == 3
    assert main(["arts", "audit-score", str(sheet), "--json"]) == 0  # the command reads the sheet and its key
    doc = json.loads(capsys.readouterr().out)
    o = doc["overall"]
    assert (o["fluent"]["yes"], o["fluent"]["n"]) == (2, 3)
    assert (o["label"]["yes"], o["label"]["n"]) == (2, 3)
    assert (o["valid"]["yes"], o["valid"]["n"]) == (1, 3)
    assert "antonym sense" in sheet.read_text(encoding="utf-8")


def test_changing_a_decided_variant_reopens_it(gen):
    st = new_state(gen)
    apply(gen, st, "accept", reviewer="ann")
    apply(gen, st, "prev")
    apply(gen, st, "label", label="neutral")
    assert st.decisions == {} and view(gen, st)["label"] == "neutral"
    apply(gen, st, "undo")
    assert st.decisions[gen.variants[0]]["polarity"] == gen.records[gen.variants[0]]["polarity"]
