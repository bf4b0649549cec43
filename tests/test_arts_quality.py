"""ARTS generation quality (issue 23): each validity rule on sentences like the ones the issue quotes (each must
now be fixed or refused), text byte-identical outside the edits (TOWE, JSONL, SemEval XML), AddDiff clauses
that are sentences, the blind audit sample and its Wilson-scored sheet, and the provenance of the choice.

The corrected mode runs with ``rank="rules"`` here (no language model, fast); ``test_arts_fluency_lm.py`` covers
the language-model ranking."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

import _arts_kit

from sentiprobe.cli import main
from sentiprobe.generate.arts import GenerateConfig, audit_sample, audit_score
from sentiprobe.generate.arts.audit import surface_damage
from sentiprobe.generate.arts.charedit import CharEdit, apply
from sentiprobe.generate.arts.inputs import read_input
from sentiprobe.generate.arts.pipeline import generate, generate_file

RULES = GenerateConfig(rank="rules", phrase_source="template")  # AddDiff from the input: no training file here


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def record(sid: str, text: str, aspects) -> dict:
    """A TOWE record; each aspect is (term, label, [opinion strings]) located by first occurrence (or
    ``(term, label, ops, term_occurrence_start)``)."""
    terms = {}
    for i, asp in enumerate(aspects):
        term, pol, ops = asp[:3]
        a = text.index(term, asp[3] if len(asp) > 3 else 0)
        spans = [[text.index(o), text.index(o) + len(o)] for o in ops]
        terms[f"{sid}_{i}"] = {"id": f"{sid}_{i}", "polarity": pol, "term": term, "from": a, "to": a + len(term),
                               "opinion_words": ops, "opinion_position": spans}
    return {"sentence": text, "term_list": terms, "id": sid}


def run(tmp_path: Path, kit, sents, cfg: GenerateConfig = RULES):
    p = tmp_path / "in.json"
    p.write_text(json.dumps({sid: record(sid, t, a) for sid, t, a in sents}), encoding="utf-8")
    return generate(read_input(p), cfg, kit)


def variant(gen, key: str):
    return next((v for v in gen.variants if v.key == key), None)


def refusal(gen, aid: str, stage: str) -> str | None:
    return next((s.reason for s in gen.skipped if s.record == aid and s.stage == stage), None)


# ---- RevTgt validity -----------------------------------------------------------------------------------

def test_revtgt_never_negates_another_aspects_clause(tmp_path, kit):
    text = "Ive been to Jacques-Imo in New Orleans, the wait is long (3+ hours) but the food and service more " \
           "than makes up for it."
    gen = run(tmp_path, kit, [("j", text, [("food", "positive", ["more"]), ("wait", "negative", ["long"]),
                                            ("service", "positive", ["more"])])])
    for aid in ("j_0", "j_2"):
        v = variant(gen, aid + "_adv1")
        if v is not None:
            assert "the wait is long" in v.sentence, v.sentence
            cut = text.index(" but ")
            assert all(e.start > cut for e in v.edits), v.edits
        else:
            assert refusal(gen, aid, "revtgt")
    wait = variant(gen, "j_1_adv1")  # the wait's own clause may be reversed
    assert wait is not None and "(3+ hours)" in wait.sentence


def test_neutral_target_is_never_flipped_by_negating_a_hedge(tmp_path, kit):
    gen = run(tmp_path, kit, [("m", "My main course was just ok.", [("main course", "neutral", ["just ok"])])])
    assert variant(gen, "m_0_adv1") is None
    assert "neutral" in refusal(gen, "m_0", "revtgt")


def test_negation_goes_before_a_gerund_auxiliary(tmp_path, kit):
    gen = run(tmp_path, kit, [("g", "After being ignored by the waiter for twenty minutes, we left.",
                                [("waiter", "negative", ["ignored"])])])
    v = variant(gen, "g_0_adv1")
    assert v is not None and v.sentence.startswith("After not being ignored"), v and v.sentence
    assert "being not ignored" not in v.sentence


def test_hedged_comparative_is_not_negated_inside(tmp_path, kit):
    gen = run(tmp_path, kit, [("h", "The room would be a bit more inviting with softer light.",
                                [("room", "negative", ["a bit more inviting"])])])
    v = variant(gen, "h_0_adv1")
    assert v is None or "more not inviting" not in v.sentence
    if v is None:
        assert refusal(gen, "h_0", "revtgt")


def test_wrong_sense_antonym_is_refused(tmp_path, kit):
    gen = run(tmp_path, kit, [("r", "Good food at the right price.", [("price", "positive", ["right"])])])
    v = variant(gen, "r_0_adv1")
    assert v is None or "left" not in v.sentence.lower()


def test_a_clause_about_the_target_that_keeps_its_sentiment_blocks_revtgt(tmp_path, kit):
    text = "It happened because of a graceless manager and a rude bartender who had us waiting 20 minutes."
    gen = run(tmp_path, kit, [("b", text, [("manager", "negative", ["graceless"]),
                                            ("bartender", "negative", ["rude"]),
                                            ("waiting", "negative", ["rude"])])])
    assert variant(gen, "b_1_adv1") is None
    assert "clause about the target" in refusal(gen, "b_1", "revtgt")


def test_negation_forms_are_grammatical(tmp_path, kit):
    sents = [("a", "Apple no longer includes iDVD with the laptop.", [("iDVD", "negative", ["no longer includes"])]),
             ("s", "The laptop is very slim.", [("laptop", "positive", ["very slim"])]),
             ("w", "The keyboard works great.", [("keyboard", "positive", ["works great"])]),
             ("d", "I didn't like the pasta.", [("pasta", "negative", ["didn't like"])]),
             ("t", "Definitely try the taglierini with truffles.", [("taglierini with truffles", "positive", ["try"])])]
    gen = run(tmp_path, kit, sents)
    got = {v.key: v.sentence for v in gen.variants if v.kind == "revtgt"}
    assert got["a_0_adv1"] == "Apple still includes iDVD with the laptop."
    assert "very not slim" not in got.get("s_0_adv1", "") and "not very slim" in got["s_0_adv1"]
    assert got["w_0_adv1"] == "The keyboard doesn't work great."
    assert got["d_0_adv1"] in ("I liked the pasta.", "I did like the pasta.")
    assert got["t_0_adv1"] == "Definitely don't try the taglierini with truffles."
    for s in got.values():
        assert "not not" not in s and " longer includes" not in s.replace("still", "")


def test_attributive_superlative_is_never_negated_in_place(tmp_path, kit):
    gen = run(tmp_path, kit, [("n", "The nicest part is the view.", [("view", "positive", ["nicest"])])])
    v = variant(gen, "n_0_adv1")
    assert v is None or "not nicest" not in v.sentence.lower()


# ---- conjunctions ----------------------------------------------------------------------------------------

def test_and_but_only_between_clauses_of_opposite_polarity_after_the_edit(tmp_path, kit):
    # c1 holds the same opinion string twice: the service's is the second one
    text = "The pizza was great and the service was great."
    second = text.index("great", 20)
    rec = record("c1", text, [("pizza", "positive", ["great"]), ("service", "positive", ["great"])])
    rec["term_list"]["c1_1"]["opinion_position"] = [[second, second + 5]]
    p = tmp_path / "c.json"
    p.write_text(json.dumps({"c1": rec, "c2": record("c2", "The screen is great but the battery is bad.",
                                                     [("screen", "positive", ["great"]),
                                                      ("battery", "negative", ["bad"])]),
                             "c3": record("c3", "The appetizers and our entrees were great.",
                                          [("appetizers", "positive", ["great"])])}), encoding="utf-8")
    gen = generate(read_input(p), RULES, kit)
    c1 = variant(gen, "c1_1_adv1").sentence
    assert c1.startswith("The pizza was great but the service was "), c1
    c2 = variant(gen, "c2_1_adv1").sentence
    assert c2.startswith("The screen is great and the battery"), c2
    c3 = variant(gen, "c3_0_adv1").sentence
    assert "appetizers and our entrees" in c3 and " but " not in c3


# ---- RevNon: degree adverbs where the parse licenses them -------------------------------------------------

def test_degree_adverbs_only_before_adjectives_adverbs_and_verbs(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("r1", "The halibut came with a generous portion of foie gras, but the meal was bad.",
         [("meal", "negative", ["bad"]), ("portion", "positive", ["generous"])]),
        ("r2", "The dinner was just ok but the staff was friendly.",
         [("staff", "positive", ["friendly"]), ("dinner", "neutral", ["just ok"])]),
        ("r3", "We were able to get drinks despite the crowd, but the food was cold.",
         [("food", "negative", ["cold"]), ("drinks", "positive", ["were able to get"])]),
    ])
    v1 = variant(gen, "r1_0_adv2")
    assert v1 is not None
    assert any(w in v1.sentence for w in ("an extremely generous", "a very generous", "a really generous"))
    assert "a extremely" not in v1.sentence
    v2 = variant(gen, "r2_0_adv2")
    assert v2 is None or ("just ok" in v2.sentence and not any(
        f"{a} just" in v2.sentence for a in ("very", "really", "extremely", "deeply")))
    v3 = variant(gen, "r3_0_adv2")
    for v in filter(None, (v1, v2, v3)):
        for e in v.edits:
            if e.op == "degree_adverb":
                nxt = v.sentence[v.sentence.index(e.text.strip()) + len(e.text.strip()):].split()[0]
                assert nxt.lower() not in ("were", "a", "just", "despite", "the"), v.sentence


def test_revnon_never_edits_an_opinion_that_also_governs_the_target(tmp_path, kit):
    text = "I dislike iTunes and the apparent security of the store."
    gen = run(tmp_path, kit, [("i", text, [("iTunes", "negative", ["dislike"]),
                                            ("security", "negative", ["apparent"])])])
    v = variant(gen, "i_1_adv2")
    assert v is None or "dislike" in v.sentence


# ---- text outside the edits ------------------------------------------------------------------------------

SURFACE = [
    ("p1", "The lunch special at $12 was great - we loved the soup.", [("lunch special", "positive", ["great"]),
                                                                        ("soup", "positive", ["loved"])]),
    ("p2", "Service was rushed - we barely ate , and the staff was rude.", [("Service", "negative", ["rushed"]),
                                                                            ("staff", "negative", ["rude"])]),
    ("p3", 'The menu strengths--like the "bananas foster"--are superb.', [("menu", "positive", ["superb"])]),
    ("p4", "They kept refilling drinks for the regulars and never even brought bread.",
     [("drinks", "positive", ["refilling"]), ("bread", "negative", ["never even brought"])]),
]


def test_text_outside_the_edits_is_byte_identical(tmp_path, kit):
    gen = run(tmp_path, kit, SURFACE)
    srcs = {p.sentence.id: p.sentence.text for p in gen.prepared}
    assert gen.variants
    for v in gen.variants:
        if v.kind not in ("revtgt", "revnon"):
            continue
        src = srcs[v.source_id.rsplit("_", 1)[0]]
        assert all(isinstance(e, CharEdit) for e in v.edits)
        assert apply(src, v.edits) == v.sentence
        assert not surface_damage(src, v.sentence), (src, v.sentence)
        assert v.sentence[v.start:v.end] == v.term
    for keep in ("$12", " - we ", "strengths--like", '"bananas foster"--are', "barely ate ,"):
        assert all(keep in v.sentence for v in gen.variants if keep in srcs[v.source_id.rsplit("_", 1)[0]]), keep
    p4 = variant(gen, "p4_1_adv1")
    assert p4 is None or " and " in p4.sentence  # an unrelated "and" is never rewritten


def test_jsonl_and_semeval_xml_keep_their_spacing(tmp_path, kit):
    text = "Great  pizza,  $12 each!  The staff was rude."
    line = {"id": "x", "sentence": text, "aspects": [
        {"term": "pizza", "from": 7, "to": 12, "polarity": "positive", "opinions": [[0, 5]]},
        {"term": "staff", "from": 31, "to": 36, "polarity": "negative", "opinions": [[41, 45]]}]}
    jl = tmp_path / "in.jsonl"
    jl.write_text(json.dumps(line) + "\n", encoding="utf-8")
    out = tmp_path / "o.json"
    generate_file(jl, out, RULES, kit=kit, run_audit=False)
    recs = json.loads(out.read_text())
    for k, r in recs.items():
        if k.endswith(("_adv1", "_adv2")):
            assert "$12 each!  The" in r["sentence"] and not surface_damage(text, r["sentence"]), r["sentence"]
    xml = tmp_path / "in.xml"
    xml.write_text('<sentences><sentence id="s"><text>The  staff was rude ,  but the $9 wine was lovely.</text>'
                   '<aspectTerms><aspectTerm term="staff" polarity="negative" from="5" to="10"/>'
                   '<aspectTerm term="wine" polarity="positive" from="38" to="42"/></aspectTerms></sentence>'
                   "</sentences>", encoding="utf-8")
    out2 = tmp_path / "x.json"
    generate_file(xml, out2, RULES, kit=kit, run_audit=False)
    src = "The  staff was rude ,  but the $9 wine was lovely."
    recs = json.loads(out2.read_text())
    changed = [r["sentence"] for k, r in recs.items() if k.endswith(("_adv1", "_adv2"))]
    assert changed
    for s in changed:
        assert not surface_damage(src, s) and "$9" in s, s


# ---- AddDiff clauses ---------------------------------------------------------------------------------------

POOL = [
    ("t1", "The service was painfully awful.", [("service", "negative", ["awful"])]),
    ("t7", "Our waiter was terribly rude to us.", [("waiter", "negative", ["rude"])]),
    ("t8", "The fries were horrible.", [("fries", "negative", ["horrible"])]),
    ("t2", "I loved the pasta with clams.", [("pasta with clams", "positive", ["loved"])]),
    ("t3", "Great desserts!", [("desserts", "positive", ["Great"])]),
    ("t4", "The manager, who was rude, ignored us but the bartender was nice.",
     [("manager", "negative", ["rude"]), ("bartender", "positive", ["nice"])]),
    ("t5", "OSX is fast and the screen is a joy.", [("OSX", "positive", ["fast"]), ("screen", "positive", ["joy"])]),
    ("t6", "The decor is not special.", [("decor", "negative", ["not special"])]),
]


def test_mined_adddiff_clauses_are_sentences_with_subject_and_verb(tmp_path, kit):
    from sentiprobe.generate.arts.clauses import adjective_templates, mine_clauses
    from sentiprobe.generate.arts.pipeline import prepare
    from sentiprobe.generate.arts.polarity import Polarity

    p = tmp_path / "pool.json"
    p.write_text(json.dumps({sid: record(sid, t, a) for sid, t, a in POOL}), encoding="utf-8")
    preps = prepare(read_input(p).sentences, kit)
    entries, _ = mine_clauses(preps, "pool.json", Polarity())
    texts = {e.text: e for e in entries}
    assert "the service was painfully awful" in texts and texts["the service was painfully awful"].label == "negative"
    assert "I loved the pasta with clams" in texts
    assert not any("desserts" in t for t in texts)  # no verb: not a clause
    assert not any("but" in t.split() for t in texts)
    for e in entries:
        assert e.form == "clause" and e.term in e.text
    tmpl, _ = adjective_templates(preps, "pool.json", Polarity())
    forms = {e.text for e in tmpl}
    assert "the desserts are great" in forms and not any("joy" in t for t in forms)  # "X is Y": adjectives only
    assert all(" is a " not in t and " are a " not in t for t in forms)


def test_adddiff_from_a_pool_appends_mined_clauses_of_the_opposite_label(tmp_path, kit):
    pool = tmp_path / "pool.json"
    pool.write_text(json.dumps({sid: record(sid, t, a) for sid, t, a in POOL}), encoding="utf-8")
    src = tmp_path / "in.json"
    src.write_text(json.dumps({"x": record("x", "The soup was lovely.", [("soup", "positive", ["lovely"])])}))
    cfg = GenerateConfig(rank="rules", pool_file=str(pool), strategies=("adddiff",))
    gen = generate(read_input(src), cfg, kit)
    v = variant(gen, "x_0_adv3")
    assert v is not None and v.sentence.startswith("The soup was lovely, but ")
    assert all(a["label"] == "negative" and a["form"] == "clause" for a in v.appended)
    assert gen.report()["resources"]["phrase_pool"].startswith("clauses")


# ---- provenance, explain, counts -----------------------------------------------------------------------------

def test_provenance_names_the_chosen_candidate_and_the_alternatives(tmp_path, kit, capsys):
    src = tmp_path / "in.json"
    src.write_text(json.dumps({"s": record("s", "The screen is great and the battery is bad.",
                                           [("screen", "positive", ["great"]), ("battery", "negative", ["bad"])])}))
    out = tmp_path / "o.json"
    assert main(["arts", "generate", "--input", str(src), "--out", str(out), "--rank", "rules", "--explain",
                 "--phrase-source", "template",
                 "--cache-dir", str(_arts_kit.cache_dir())]) == 0
    text = capsys.readouterr().out
    assert "s_0_adv1 [revtgt]" in text and "first valid candidate in rule order" in text
    rec = json.loads(out.read_text())["s_0_adv1"]
    choice = rec["provenance"]["choice"][0]
    assert choice["chosen"] in [c["text"] for c in choice["candidates"]]
    assert len(choice["candidates"]) >= 2 and "reason" in choice
    assert all(e["unit"] == "char" for e in rec["provenance"]["edits"])


def test_output_counts_equal_report_counts(tmp_path, kit):
    src = tmp_path / "in.json"
    src.write_text(json.dumps({sid: record(sid, t, a) for sid, t, a in SURFACE + POOL}), encoding="utf-8")
    out = tmp_path / "o.json"
    generate_file(src, out, RULES, kit=kit, run_audit=False)
    recs = json.loads(out.read_text())
    counts = json.loads(out.with_name("o.report.json").read_text())["counts"]
    assert len(recs) == sum(counts.values())
    kinds: dict[str, int] = {}
    for r in recs.values():
        k = r.get("provenance", {}).get("strategy", "original")
        kinds[k] = kinds.get(k, 0) + 1
    assert kinds == counts


def test_arts_audit_lists_refused_sources(tmp_path, kit, capsys):
    src = tmp_path / "in.json"
    src.write_text(json.dumps({"m": record("m", "My main course was just ok.", [("main course", "neutral",
                                                                                 ["just ok"])])}))
    out = tmp_path / "o.json"
    generate_file(src, out, RULES, kit=kit, run_audit=False)
    assert main(["arts", "audit", "--generated", str(out)]) == 0
    text = capsys.readouterr().out
    assert "refused revtgt (1)" in text and "m_0" in text


# ---- the blind audit ------------------------------------------------------------------------------------------

def test_audit_sample_is_blind_and_audit_score_uses_statsmodels_wilson(tmp_path, kit):
    from statsmodels.stats.proportion import proportion_confint

    src = tmp_path / "in.json"
    src.write_text(json.dumps({sid: record(sid, t, a) for sid, t, a in SURFACE}), encoding="utf-8")
    out = tmp_path / "o.json"
    generate_file(src, out, RULES, kit=kit, run_audit=False)
    sheet = tmp_path / "s.csv"
    counts = audit_sample(out, sheet, per_strategy=2, seed=3)
    assert counts and all(0 < n <= 2 for n in counts.values())
    rows = list(csv.DictReader(sheet.open()))
    assert list(rows[0]) == ["sample_id", "term", "sentence", "fluent", "label", "notes"]  # no label, no source
    key = json.loads((tmp_path / "s.csv.key.json").read_text())
    assert key["schema_version"] == 2 and len(key["items"]) == len(rows) and len(key["sample_id"]) == 16
    again = tmp_path / "t.csv"
    audit_sample(out, again, per_strategy=2, seed=3)
    assert again.read_text() == sheet.read_text()  # seeded
    for i, r in enumerate(rows):
        r["fluent"] = "yes" if i % 3 else "no"
        r["label"] = key["items"][r["sample_id"]]["label"] if i % 2 == 0 else "neutral"
    with sheet.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    doc = audit_score(sheet, confidence=0.9)
    o = doc["overall"]
    fl = o["fluent"]
    lo, hi = proportion_confint(fl["yes"], fl["n"], alpha=0.1, method="wilson")
    assert fl["ci_low"] == pytest.approx(lo) and fl["ci_high"] == pytest.approx(hi)
    assert o["label"]["n"] == len(rows) and o["valid"]["yes"] <= min(o["label"]["yes"], fl["yes"])


def test_wilson_interval_matches_statsmodels():
    from statsmodels.stats.proportion import proportion_confint

    from sentiprobe.stats.proportion import wilson_interval

    for k, n, a in ((0, 5, 0.05), (5, 5, 0.05), (37, 60, 0.05), (1, 1000, 0.01), (50, 100, 0.2)):
        lo, hi = wilson_interval(k, n, a)
        elo, ehi = proportion_confint(k, n, alpha=a, method="wilson")
        assert lo == pytest.approx(elo, abs=1e-12) and hi == pytest.approx(ehi, abs=1e-12)
    assert wilson_interval(0, 0, alpha=0.05) == (None, None)


def test_negation_edge_cases_seen_in_the_restaurant_set(tmp_path, kit):
    sents = [("w", "This made it obvious that the food wasn't cooked fresh.", [("food", "negative", ["cooked fresh"])]),
             ("t", "While there's a decent menu, the drinks took forever.", [("menu", "positive", ["decent"])]),
             ("g", "Great food, great waitstaff and great beer!", [("food", "positive", ["Great"])]),
             ("a", "The ambience is also more laid-back.", [("ambience", "positive", ["laid-back"])]),
             ("m", "The atmosphere is warm, comfortable, artsy and sexy.",
              [("atmosphere", "positive", ["warm", "comfortable", "artsy", "sexy"])])]
    gen = run(tmp_path, kit, sents)
    got = {v.key: v.sentence for v in gen.variants if v.kind == "revtgt"}
    assert got["w_0_adv1"] == "This made it obvious that the food was cooked fresh."
    assert "doesn't be" not in got.get("t_0_adv1", "") and "theredoes" not in got.get("t_0_adv1", "")
    assert "small food" not in got.get("g_0_adv1", "").lower()
    if "a_0_adv1" in got:
        assert "is not also" not in got["a_0_adv1"]
    m = got.get("m_0_adv1")
    if m is not None and " not " in m:  # one negation reverses every opinion under it: no antonym inside it
        assert m == "The atmosphere is not warm, comfortable, artsy and sexy.", m


def test_one_negation_removed_once_when_two_spans_share_it(tmp_path, kit):
    text = "Arrive at 7:00pm, the waiters didn't give us our menus till an 1 1/2 hour later."
    gen = run(tmp_path, kit, [("n", text, [("waiters", "negative", ["didn't", "till an 1 1/2 hour later"])])])
    v = variant(gen, "n_0_adv1")
    assert v is None or v.sentence.count("give") + v.sentence.count("gave") == 1
    assert v is not None or refusal(gen, "n_0", "revtgt")


def test_audit_found_failures_are_now_refused_or_fixed(tmp_path, kit):
    """Sentences behind the failures of the first after-audit (docs/arts-generate.md)."""
    sents = [
        ("o", "Coffee is a better deal than overpriced Cosi sandwiches.", [("Cosi sandwiches", "negative",
                                                                           ["overpriced"])]),
        ("e", "The meal wasn't rushed - we had plenty of time to enjoy the appetizers.",
         [("appetizers", "positive", ["enjoy"])]),
        ("n", "Not only is the service great, but the atmosphere is romantic.",
         [("service", "positive", ["great"]), ("atmosphere", "positive", ["romantic"])]),
        ("f", "The filet mignon was not very good at all.", [("filet mignon", "negative", ["not very good"])]),
        ("x", "I got the edamame for free, but the quality of food is more important to me than a free dish.",
         [("edamame", "positive", ["free"]), ("quality of food", "neutral", ["important"])]),
    ]
    gen = run(tmp_path, kit, sents)
    got = {v.key: v.sentence for v in gen.variants if v.kind in ("revtgt", "revnon")}
    assert "never overpriced" not in got.get("o_0_adv1", "")
    assert "not to enjoy" not in got.get("e_0_adv1", "")
    # the frame is undone around the target (*The service is terrible, but ...*); the opinion after *but* stays tied
    assert "not only" not in got.get("n_0_adv1", "").lower() and "n_1_adv1" not in got
    assert "good at all" not in got.get("f_0_adv1", "")
    assert "unfree" not in got.get("x_0_adv1", "") and "very free" not in got.get("x_1_adv2", "")


# ---- failure classes of the seed-7 audit (laptop + restaurant) -----------------------------------------------

def offered(gen, kinds=("revtgt", "revnon")) -> str:
    """Every chosen sentence and every valid candidate's text of the given strategies, joined."""
    out = []
    for v in gen.variants:
        if v.kind in kinds:
            out.append(v.sentence)
            out += [c["text"] for ch in v.choices for c in ch["candidates"] if c["valid"]]
    return " | ".join(out)


def test_only_thing_frames_are_never_negated(tmp_path, kit):
    sents = [("t", "The only thing I dislike is the touchpad, alot of the times its unresponsive and does things I "
                   "dont want it too, I would recommend using a mouse with it.",
              [("touchpad", "negative", ["dislike", "unresponsive"]), ("mouse", "neutral", ["recommend"])]),
             ("c", "My only complaint is the total lack of instructions that come with the mac mini.",
              [("instructions", "negative", ["lack"])])]
    gen = run(tmp_path, kit, sents)
    for aid in ("t_0", "c_0"):
        assert variant(gen, aid + "_adv1") is None
        assert "only" in (refusal(gen, aid, "revtgt") or "")


def test_negation_never_lands_on_a_hedge_an_also_an_object_or_a_coordinated_pair(tmp_path, kit):
    sents = [("r", "The falafal was rather over cooked and dried but the chicken was fine.",
              [("falafal", "negative", ["over cooked", "dried"]), ("chicken", "positive", ["fine"])]),
             ("a", "This computer is also awesome for my sons virtual home schooling.",
              [("virtual home schooling", "positive", ["awesome"])]),
             ("m", "Then they somehow made a dry and burnt crust, around a raw and cold inside.",
              [("crust", "negative", ["dry", "burnt"])]),
             ("s", "The sound is nice and loud; I don't have any problems with hearing anything.",
              [("sound", "positive", ["nice", "loud"])])]
    got = offered(run(tmp_path, kit, sents), ("revtgt",))
    assert "not rather" not in got and "also not awesome" not in got, got
    assert "didn't make" not in got and "never made" not in got, got
    assert "not nice and loud" not in got, got


def test_degree_adverbs_never_stack_on_an_adverb_or_a_middle_word(tmp_path, kit):
    sents = [("p", "Plus two finger clicking as a replacement for the right click button is surprisingly intuitive.",
              [("two finger clicking", "positive", ["surprisingly"]),
               ("right click button", "neutral", ["intuitive"])]),
             ("f", "The food was mediocre and the service was severely slow.",
              [("service", "negative", ["severely slow"]), ("food", "neutral", ["mediocre"])])]
    got = offered(run(tmp_path, kit, sents), ("revnon",))
    assert "very surprisingly" not in got and "really surprisingly" not in got, got
    assert "very mediocre" not in got and "really mediocre" not in got, got


def test_antonyms_of_another_sense_are_refused(tmp_path, kit):
    sents = [("b", "Incredible graphics and brilliant colors.",
              [("graphics", "positive", ["Incredible"]), ("colors", "positive", ["brilliant"])]),
             ("e", "Easy to install also small to leave anywhere at your bedroom also very easy to configure for ADSl "
                   "cable or wifi.", [("install", "positive", ["Easy"])]),
             ("s", "Boot-up slowed significantly after all Windows updates were installed.",
              [("Boot-up", "negative", ["slowed"])])]
    got = offered(run(tmp_path, kit, sents))
    assert "unintelligent" not in got and "Uneasy" not in got and "fasted" not in got, got


def test_revnon_keeps_and_between_two_clauses_it_flipped_alike(tmp_path, kit):
    text = "I've eaten at all three locations and I always love, love the food, the service is always wonderful " \
           "and the prices are really reasonable."
    gen = run(tmp_path, kit, [("l", text, [("food", "positive", ["love"]), ("service", "positive", ["wonderful"]),
                                           ("prices", "positive", ["reasonable"])])])
    v = variant(gen, "l_0_adv2")
    assert v is not None and "terrible and the prices" in v.sentence, v.sentence


def test_revnon_keeps_but_where_the_edited_side_is_mixed(tmp_path, kit):
    text = "The food was great - sushi was good, but the cooked food amazed us."
    gen = run(tmp_path, kit, [("s", text, [("food", "positive", ["great"]), ("sushi", "positive", ["good"]),
                                           ("cooked food", "positive", ["amazed"])])])
    v = variant(gen, "s_1_adv2")
    assert v is not None and "was good, but the cooked food" in v.sentence, v.sentence


def test_no_synthetic_superlative_of_a_long_antonym(tmp_path, kit):
    gen = run(tmp_path, kit, [("g", "Just go in and sample the greatest french food west of Daniel.",
                               [("french food", "positive", ["greatest"])])])
    assert "terriblest" not in offered(gen), offered(gen)


def test_and_so_was_and_good_enough_frames_are_not_reversed(tmp_path, kit):
    sents = [("s", "Service was good and so was the atmosphere.",
              [("Service", "positive", ["good"]), ("atmosphere", "positive", ["good"])]),
             ("e", "Montparnasse's desserts -- especially the silken creme brulee and paper -- thin apple tart -- are "
                   "good enough on their own to make the restaurant worth the trip.",
              [("desserts", "positive", ["good enough"]), ("creme brulee", "positive", ["silken"])])]
    gen = run(tmp_path, kit, sents)
    assert variant(gen, "s_0_adv1") is None and "so was" in (refusal(gen, "s_0", "revtgt") or "")
    assert "bad enough" not in offered(gen)


def test_additive_also_ties_two_aspects_opinions(tmp_path, kit):
    text = "I love the drinks, esp lychee martini, and the food is also VERY good."
    gen = run(tmp_path, kit, [("a", text, [("drinks", "positive", ["love"]), ("food", "positive", ["good"])])])
    # a reversal of either opinion removes the additive (and contrasts the clauses): never *also* after it
    sentences = [v.sentence for v in gen.variants if v.kind in ("revtgt", "revnon")]
    assert all("also" not in s for s in sentences if "VERY bad" in s or "don't love" in s), sentences
    v = variant(gen, "a_0_adv2")  # RevNon reverses the food and removes the additive
    assert v is not None and v.sentence.endswith(", but the food is VERY bad."), v
    deg = run(tmp_path, kit, [("d", "The fajita was great but the mole sauce was too sweet.",
                               [("fajita", "positive", ["great"]), ("mole sauce", "negative", ["too sweet"])])])
    assert "additive" not in (refusal(deg, "d_0", "revtgt") or "")


def test_revnon_reverses_nothing_inside_a_not_only_frame(tmp_path, kit):
    text = "Not only is the service great, but forming conversation around a table is so easy beacuse the " \
           "atmosphere can be both romantic and comfortable."
    gen = run(tmp_path, kit, [("n", text, [("service", "positive", ["great"]),
                                           ("atmosphere", "positive", ["romantic", "comfortable"])])])
    got = offered(gen, ("revnon",))
    assert "service poor" not in got and "service terrible" not in got and "service is not" not in got, got
