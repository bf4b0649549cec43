"""ARTS generation: unit tests on tiny hand-made fixtures (text machinery, inputs and bad input, edits, strategies,
determinism, faithful vs corrected, audit, fidelity, the arts-custom suite)."""
from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest

import _arts_kit

from sentiprobe.cli import main
from sentiprobe.core.errors import ConfigError, DataError
from sentiprobe.suites import get_suite
from sentiprobe.generate.arts import GenerateConfig, audit_sample, audit_score, fidelity_report
from sentiprobe.generate.arts.adddiff import append_clauses
from sentiprobe.generate.arts.edits import EditContext, conjunction, reverse
from sentiprobe.generate.arts.inputs import read_input
from sentiprobe.generate.arts.pipeline import generate, generate_file
from sentiprobe.generate.arts.resources import Antonym, Parse
from sentiprobe.generate.arts.text import (detokenize, offsets_corrected, offsets_faithful, token_span,
                                                  tokenize)

SENTS = [
    ("s1", "The screen is great and the battery is bad.", [("screen", "positive", ["great"]),
                                                            ("battery", "negative", ["bad"])]),
    ("s2", "The keyboard is not comfortable.", [("keyboard", "negative", ["not comfortable"])]),
    ("s3", "I love the food and the service was friendly.", [("food", "positive", ["love"]),
                                                              ("service", "positive", ["friendly"])]),
    ("s4", "The price was reasonable and the staff was rude.", [("price", "positive", ["reasonable"]),
                                                                  ("staff", "negative", ["rude"])]),
    ("s5", "Great pizza!", [("pizza", "positive", ["Great"])]),
]


towe_record = _arts_kit.towe_record


@pytest.fixture()
def towe(tmp_path) -> Path:
    p = tmp_path / "towe.json"
    p.write_text(json.dumps({sid: towe_record(sid, t, a) for sid, t, a in SENTS}), encoding="utf-8")
    return p


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


# ---- text machinery ------------------------------------------------------------------------------

def test_tokenize_detokenize_and_spans():
    s = "The battery life isn't great, but the \"tools\" menu works."
    toks = tokenize(s)
    assert toks[:5] == ["The", "battery", "life", "is", "n't"]
    assert detokenize(toks) == s
    assert detokenize(tokenize(s, plain_quotes=True)) == 'The battery life isn\'t great, but the " tools " menu works.'
    a = s.index("great")
    assert token_span(s, a, a + 5) == (5, 6)
    assert detokenize(["It", "is", "DELETE", "good", "."]) == "It is good."


def test_offsets_faithful_take_the_first_occurrence_corrected_keep_the_occurrence():
    src = "The food is good but the food here is bad."
    new = "The food is good but the food here is good."
    second = src.index("food", 5)
    assert offsets_faithful(new, "food") == (4, 8)  # the release's quirk: the earlier occurrence
    assert offsets_corrected(src, (second, second + 4), new, "food") == (second, second + 4)


# ---- inputs and bad input ------------------------------------------------------------------------

def test_towe_input_skips_bad_records_with_a_reason(tmp_path):
    recs = {sid: towe_record(sid, t, a) for sid, t, a in SENTS[:2]}
    recs["s1"]["term_list"]["s1_1"]["from"] = 0  # offsets no longer match the term
    recs["e"] = {"sentence": "", "term_list": {}, "id": "e"}
    p = tmp_path / "t.json"
    p.write_text(json.dumps(recs), encoding="utf-8")
    loaded = read_input(p)
    assert [s.id for s in loaded.sentences] == ["s1", "s2"]
    reasons = {s.record: s.reason for s in loaded.skipped}
    assert "not the term" in reasons["s1_1"] and "empty" in reasons["e"]


def test_malformed_json_names_file_and_line(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text('{"a": {"sentence": "x",\n "term_list": }', encoding="utf-8")
    with pytest.raises(DataError, match=r"bad\.json.*line 2"):
        read_input(p)
    q = tmp_path / "bad.jsonl"
    q.write_text('{"id": "a", "sentence": "ok", "aspects": []}\n{nope\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"bad\.jsonl.*line 2"):
        read_input(q)
    with pytest.raises(DataError, match="directory"):
        read_input(tmp_path)


XML = """<?xml version="1.0" encoding="UTF-8"?>
<sentences>
  <sentence id="1"><text>The screen is great but the battery died.</text>
    <aspectTerms><aspectTerm term="screen" polarity="positive" from="4" to="10"/>
      <aspectTerm term="battery" polarity="negative" from="28" to="35"/></aspectTerms></sentence>
  <sentence id="2"><text>Nice keyboard.</text>
    <aspectTerms><aspectTerm term="keyboard" polarity="conflict" from="5" to="13"/>
      <aspectTerm term="keybord" polarity="positive" from="5" to="13"/></aspectTerms></sentence>
  <sentence id="3"><text>No aspects here.</text></sentence>
</sentences>"""

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<sentences><sentence id="1"><text>&lol3;</text></sentence></sentences>"""


def test_semeval_xml_input(tmp_path):
    p = tmp_path / "s.xml"
    p.write_text(XML, encoding="utf-8")
    loaded = read_input(p)
    assert loaded.format == "semeval-xml" and not loaded.has_opinions
    assert [(a.term, a.polarity) for a in loaded.sentences[0].aspects] == [("screen", "positive"),
                                                                           ("battery", "negative")]
    reasons = sorted(s.reason for s in loaded.skipped)
    assert any("conflict" in r for r in reasons) and any("not the term" in r for r in reasons)


def test_billion_laughs_is_refused_not_expanded(tmp_path):
    p = tmp_path / "lol.xml"
    p.write_text(BILLION_LAUGHS, encoding="utf-8")
    with pytest.raises(DataError, match=r"refused.*lol\.xml"):
        read_input(p)
    q = tmp_path / "broken.xml"
    q.write_text("<sentences><sentence id='1'><text>x</sentence>", encoding="utf-8")
    with pytest.raises(DataError, match=r"invalid XML.*broken\.xml.*line 1"):
        read_input(q)


# ---- edits without back-ends -----------------------------------------------------------------------

def fake_ctx(faithful=False, antonyms=None, tags=None):
    ants = antonyms or {}

    def tags_for(tokens):
        t = tuple(tokens)
        tg = tuple((tags or {}).get(w, "NN") for w in t)
        upos = tuple({"J": "ADJ", "V": "VERB", "N": "NOUN"}.get(x[0], "X") for x in tg)
        return Parse(t, tg, upos, tuple(range(len(t))), ("",) * len(t))

    return EditContext(lambda w: tuple(Antonym(a, ("a",), f"{w}.a.01:{w}", (0,)) for a in ants.get(w, ())),
                       tags_for, frozenset({"bad", "good"}), random.Random(0), faithful)


def test_reverse_removes_negation_uses_antonyms_and_negates():
    ctx = fake_ctx(antonyms={"good": ["bad"]}, tags={"good": "JJ", "slow": "JJ"})
    toks = tokenize("The OS is not slow and the screen is good.")
    new, edits = reverse(ctx, toks, [(3, 5), (9, 10)])
    assert detokenize(new) == "The OS is slow and the screen is bad."
    assert [e.op for e in edits] == ["negation_removed", "antonym"]
    new, edits = reverse(ctx, tokenize("It works quickly."), [(2, 3)])
    assert detokenize(new) == "It works not quickly." and edits[0].op == "negation_added"
    ctx2 = fake_ctx(tags={"well": "RB"})
    new, edits = reverse(ctx2, tokenize("The OS is well made."), [(3, 4)])
    assert detokenize(new) == "The OS is not well made." and edits[0].op == "copula_negated"


def test_conjunction_rule_faithful_substring_vs_corrected_token():
    toks = tokenize("The brand is nice and the price is ok today.")
    assert conjunction(fake_ctx(faithful=True), list(toks), "brand", (1, 2)) is None  # "and" in "brand"
    t2 = list(toks)
    e = conjunction(fake_ctx(), t2, "brand", (1, 2))
    assert e is not None and t2[4] == "but"


def test_adddiff_connectors_and_final_mark():
    assert append_clauses("Great pizza!", ["service is slow"], faithful=True) == "Great pizza, but service is slow."
    assert append_clauses("Great pizza!", ["service is slow"], faithful=False) == "Great pizza, but service is slow!"
    assert append_clauses("The button is fine.", ["x is bad"], faithful=True) == "The button is fine; x is bad."
    assert append_clauses("The button is fine.", ["x is bad"], faithful=False) == "The button is fine, but x is bad."
    three = append_clauses("Fine, but loud.", ["a is b", "c is d", "e is f"], False)
    assert three == "Fine, but loud; still, a is b, c is d and e is f."
    # a contrast after a sentence with "but" is said (a bare ";" reads as one more item); not "still" twice
    assert append_clauses("Loud but still nice.", ["x is bad"], False) == "Loud but still nice; that said, x is bad."
    assert append_clauses("Fine, but loud.", ["x is bad"], True) == "Fine, but loud; x is bad."


def test_config_validation():
    with pytest.raises(ConfigError, match="unknown strategies"):
        GenerateConfig(strategies=("revtgt", "revtarget"))
    with pytest.raises(ConfigError, match="--k"):
        GenerateConfig(strategies=("adddiff_k",))
    with pytest.raises(ConfigError, match="--pool"):
        GenerateConfig(phrase_source="mined")


# ---- strategies on the real back-ends ------------------------------------------------------------

def test_strategies_on_fixture(towe, kit):
    gen = generate(read_input(towe), GenerateConfig(strategies=("revtgt", "revnon", "adddiff", "revnon_adddiff"),
                                                    rank="rules"), kit)
    r = gen.records
    assert r["s2_0_adv1"]["sentence"] == "The keyboard is comfortable." and r["s2_0_adv1"]["polarity"] == "positive"
    # the review-lexicon opposites come first in the rule order; the two aspects now differ, so "and" -> "but"
    assert r["s3_0_adv1"]["sentence"] == "I hate the food but the service was friendly."
    assert r["s3_0_adv2"]["sentence"] == "I love the food but the service was unfriendly."
    assert r["s3_0_adv2"]["polarity"] == "positive"
    assert r["s4_1_adv1"]["sentence"] == "The price was reasonable and the staff was polite."
    assert r["s5_0_adv1"]["sentence"] == "Terrible pizza!"
    adv = r["s1_0_adv2"]["sentence"]
    assert adv in ("The screen is great and the battery is very bad.",
                   "The screen is great and the battery is really bad.")
    assert r["s1_1_adv2"]["sentence"] in ("The screen is really great and the battery is bad.",
                                          "The screen is absolutely great and the battery is bad.")
    for key, rec in r.items():
        assert rec["sentence"][rec["from"]:rec["to"]] == rec["term"], key
        assert list(rec)[:6] == ["sentence", "term", "polarity", "id", "from", "to"]
    prov = r["s3_0_adv1"]["provenance"]
    assert prov["strategy"] == "revtgt" and prov["labels"] == {"s3_0": "negative", "s3_1": "positive"}
    assert [e["op"] for e in prov["edits"]] == ["antonym", "and_to_but"]
    cands = {c["op"]: c for c in prov["choice"][0]["candidates"]}
    assert "review-lexicon opposite" in prov["edits"][0]["detail"] and cands["do_support"]["valid"]
    add = r["s1_0_adv3"]
    # the clause agrees with the sentence's last evaluation (the battery): joined by "and", not "but"
    assert add["sentence"].startswith("The screen is great and the battery is bad, and ")
    assert all(a["label"] == "negative" for a in add["provenance"]["appended"])
    assert "s3_0_revnon_adddiff" in r and r["s3_0_revnon_adddiff"]["sentence"].startswith(
        "I love the food but the service was unfriendly, and ")
    assert list(r) == sorted(r)


def test_byte_identical_for_same_seed_and_seed_changes_sampling(towe, kit, tmp_path):
    cfg = GenerateConfig(strategies=("revtgt", "revnon", "adddiff", "adddiff_k"), k=2, rank="rules",
                         phrase_source="template")
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    generate_file(towe, a, cfg, kit=kit)
    generate_file(towe, b, cfg, kit=kit)
    assert a.read_bytes() == b.read_bytes()
    assert (tmp_path / "a.report.json").is_file()
    outs = set()
    for seed in range(4):
        cfg_s = GenerateConfig(seed=seed, strategies=("adddiff",), rank="rules", phrase_source="template")
        generate_file(towe, b, cfg_s, kit=kit)
        outs.add(b.read_bytes())
    assert len(outs) > 1
    doc = json.loads(a.read_text())
    # (s3 praises the service: its only other negative clause, *the staff is rude*, would contradict it)
    assert doc["s1_1_adddiff_k2"]["sentence"].count(" and ") >= 2 and "s3_0_adddiff_k2" not in doc


def test_audit_and_report(towe, kit, tmp_path):
    out = tmp_path / "g.json"
    generate_file(towe, out, GenerateConfig(mode="faithful"), kit=kit)
    rep = json.loads((tmp_path / "g.report.json").read_text())
    checks = rep["audit"]["checks"]
    assert checks["revtgt"]["label_rule"]["failed"] == 0
    assert checks["revtgt"]["target_opinion_changed"]["failed"] == 0
    assert rep["config"]["mode"] == "faithful" and rep["counts"]["revtgt"] >= 4
    # the tiny pool: every draw for s1 names one of its own aspects, so AddDiff is skipped, with the reason
    assert {"record": "s1_0", "stage": "adddiff",
            "reason": "every draw from the phrase pool named an aspect of the sentence"} in rep["skipped"]


def test_cli_generate_and_custom_suite(towe, kit, tmp_path, capsys):
    out = tmp_path / "gen.json"
    code = main(["arts", "generate", "--input", str(towe), "--out", str(out), "--seed", "3", "--rank", "rules",
                 "--phrase-source", "template", "--cache-dir", str(_arts_kit.cache_dir())])
    assert code == 0, capsys.readouterr().err
    assert "audit revtgt" in capsys.readouterr().out
    suite = get_suite("arts-custom", tmp_path, {"path": str(out)})
    items = suite.items("test")
    assert {i.kind for i in items} >= {"original", "revtgt", "revnon", "adddiff"}
    preds = tmp_path / "p.csv"
    preds.write_text("item_id,label\n" + "".join(f"{i.item_id},{i.label}\n" for i in items), encoding="utf-8")
    res = suite.score(items, suite.read_predictions(preds), n_boot=0)
    assert res.metrics["ars"].value == 1.0
    assert len(res.details["input_file"]["sha256"]) == 64
    with pytest.raises(ConfigError, match="path=FILE"):
        get_suite("arts-custom", tmp_path).items("test")


# ---- audit sample/score and fidelity (no back-ends) ------------------------------------------------

def enriched(tmp_path: Path, name: str, recs: dict) -> Path:
    p = tmp_path / name
    out = {}
    for k, (sent, term, pol, sid) in recs.items():
        out[k] = {"sentence": sent, "term": term, "polarity": pol, "id": sid, "from": sent.index(term),
                  "to": sent.index(term) + len(term)}
    p.write_text(json.dumps(out), encoding="utf-8")
    return p


def test_fidelity_metrics_and_causes(tmp_path):
    src = "The food is good and the service is slow."
    common = {"a_0": (src, "food", "positive", "a_0"),
              "a_0_adv1": (src.replace("good and", "bad but"), "food", "negative", "a_0"),
              "a_1": (src, "service", "negative", "a_1")}
    ref = enriched(tmp_path, "r.json", {**common,
                                        "a_1_adv1": (src.replace("slow", "fast"), "service", "positive", "a_1"),
                                        "a_1_adv2": (src.replace("good", "very good"), "service", "negative", "a_1")})
    gen = enriched(tmp_path, "g.json", {**common,
                                        "a_1_adv1": (src.replace("slow", "quick"), "service", "positive", "a_1")})
    doc = fidelity_report(gen, ref)
    m = doc["metrics"]
    assert m["selection_agreement_revtgt"] == 1.0 and m["exact_match_revtgt"] == 0.5
    assert m["selection_agreement_revnon"] == 0.5 and m["exact_match_revnon"] is None
    assert m["token_edit_agreement_revtgt"] == 1.0
    assert doc["details"]["strategies"]["revtgt"]["mismatch_causes"] == {"word_choice": 1}


def test_audit_sample_and_wilson_score(tmp_path):
    src = "The food is good."
    g = enriched(tmp_path, "g.json", {f"a{i}_0": (src, "food", "positive", f"a{i}_0") for i in range(6)} | {
        f"a{i}_0_adv1": ("The food is bad.", "food", "negative", f"a{i}_0") for i in range(6)})
    out = tmp_path / "sample.csv"
    assert audit_sample(g, out, per_strategy=4, seed=1) == {"revtgt": 4}
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == 4 and rows[0]["fluent"] == "" and set(rows[0]) == {"sample_id", "term", "sentence", "fluent",
                                                                          "label", "notes"}
    for r, (f, lab) in zip(rows, [("yes", "negative"), ("no", "negative"), ("1", "positive"), ("", "")]):
        r["fluent"], r["label"] = f, lab
    with out.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    doc = audit_score(out, confidence=0.95)
    s = doc["strategies"]["revtgt"]
    assert (s["fluent"]["yes"], s["fluent"]["n"], s["unjudged"]) == (2, 3, 1)
    assert (s["label"]["yes"], s["valid"]["yes"]) == (2, 1)
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(2, 3, alpha=0.05, method="wilson")
    assert s["fluent"]["ci_low"] == pytest.approx(lo) and s["fluent"]["ci_high"] == pytest.approx(hi)
    rows[0]["fluent"] = "maybe"
    with out.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with pytest.raises(DataError, match="line 2"):
        audit_score(out, confidence=0.95)
    with pytest.raises(ConfigError, match="--confidence"):
        audit_score(out, confidence=-1)
    with pytest.raises(ConfigError, match="per-strategy"):
        audit_sample(g, tmp_path / "x.csv", per_strategy=-1)


def test_template_clauses_and_aspectset_label_recovery():
    from sentiprobe.generate.arts.adddiff import aspectset_pool, clause, pools_by_label

    assert clause("battery", ["dead"], ["JJ"], ["NN"], faithful=True) == ("battery is dead", "adj")
    assert clause("waiters", ["angry"], ["JJ"], ["NNS"], faithful=True)[0] == "waiters is angry"  # as released
    assert clause("waiters", ["angry"], ["JJ"], ["NNS"], faithful=False)[0] == "waiters are angry"
    assert clause("quality", ["superlatives"], ["NNS"], ["NN"], faithful=True) == ("quality is a superlative", "noun")
    assert clause("windows 8", ["not", "enjoy"], ["RB", "VB"], ["NNS", "CD"], faithful=True) == (
        "I don't enjoy windows 8", "verb")
    pairs = [("battery life", "good", "positive"), ("screen", "dim", "negative"), ("price", "fair", "positive"),
             ("price", "high", "negative")]
    pool = aspectset_pool(["the good battery life", "a dim screen", "the price is fair and high", "no match"],
                          pairs, "aspectset.txt")
    assert [(e.text, e.term, e.label, e.origin) for e in pool] == [
        ("the good battery life", "battery life", "positive", "aspectset.txt:1"),
        ("a dim screen", "screen", "negative", "aspectset.txt:2")]  # ambiguous and unmatched phrases dropped
    by = pools_by_label(pool)
    assert [e.term for e in by["positive"]] == ["screen"] and len(by["neutral"]) == 2
