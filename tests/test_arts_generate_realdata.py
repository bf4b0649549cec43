"""ARTS generation on the shipped laptop data: counts and fidelity to the released set, the opinion finder against
the gold TOWE spans, generation from SemEval XML, and arts-custom scoring exactly like arts-laptop."""
from __future__ import annotations

import json
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import pytest

import _arts_kit

from sentiprobe.cli import main
from sentiprobe.suites import get_suite
from sentiprobe.generate.arts import GenerateConfig, fidelity_report, generate_file
from sentiprobe.generate.arts.inputs import read_input
from sentiprobe.generate.arts.opinion import evaluate_finder
from sentiprobe.generate.arts.pipeline import prepare

pytestmark = pytest.mark.realdata


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def src(data_dir: Path, name: str) -> Path:
    return data_dir / "arts" / "src_data" / "laptop" / name


@pytest.fixture(scope="module")
def faithful_laptop(tmp_path_factory, data_dir, kit) -> Path:
    out = tmp_path_factory.mktemp("gen") / "laptop.json"
    cfg = GenerateConfig(mode="faithful", pos_check="retag",
                         vocab_files=tuple(str(src(data_dir, f"{s}_sent.json")) for s in ("train", "dev", "test")))
    generate_file(src(data_dir, "test_sent_towe.json"), out, cfg, kit=kit, run_audit=False)
    return out


def test_laptop_counts_and_fidelity_to_the_release(faithful_laptop, data_dir):
    rep = json.loads(faithful_laptop.with_name("laptop.report.json").read_text())
    assert rep["counts"] == {"adddiff": 466, "original": 466, "revnon": 135, "revtgt": 466}
    doc = fidelity_report(faithful_laptop, data_dir / "arts" / "arts_testset" / "laptop_test_enriched.json")
    m = doc["metrics"]
    assert m["selection_agreement_revtgt"] == 1.0 and m["selection_agreement_revnon"] == 1.0
    assert m["exact_match_revtgt"] >= 0.58  # measured 0.597 (goal 0.60; human post-editing caps it, see docs)
    assert m["exact_match_revnon"] >= 0.58  # measured 0.622
    assert doc["details"]["strategies"]["revtgt"]["label_agreement"] == 1.0
    assert doc["details"]["strategies"]["adddiff"]["structure"]["generated"]["prefix_is_source"] == 1.0


def test_opinion_finder_against_gold_towe_spans(data_dir, kit):
    preps = prepare(read_input(src(data_dir, "test_sent_towe.json")).sentences, kit)
    res = evaluate_finder(preps)
    assert res["gold_spans"] == 544
    assert res["precision"] >= 0.70 and res["f1"] >= 0.55  # measured P 0.770 R 0.504 F1 0.609


def test_semeval_xml_without_opinions_generates_every_strategy(data_dir, kit, tmp_path, capsys):
    sents = json.loads(src(data_dir, "test_sent.json").read_text(encoding="utf-8"))
    parts = ["<?xml version='1.0' encoding='UTF-8'?>\n<sentences>"]
    for sid, rec in list(sents.items())[:120]:
        terms = "".join(f"<aspectTerm term={quoteattr(t['term'])} polarity={quoteattr(t['polarity'])} "
                        f"from=\"{t['from']}\" to=\"{t['to']}\"/>" for t in rec["term_list"].values())
        parts.append(f"<sentence id={quoteattr(sid)}><text>{escape(rec['sentence'])}</text>"
                     f"<aspectTerms>{terms}</aspectTerms></sentence>")
    xml = tmp_path / "laptop.xml"
    xml.write_text("\n".join(parts) + "\n</sentences>\n", encoding="utf-8")
    out = tmp_path / "gen.json"
    assert main(["arts", "generate", "--input", str(xml), "--out", str(out), "--pool",
                 str(src(data_dir, "train_sent_towe.json")), "--cache-dir", str(_arts_kit.cache_dir())]) == 0
    rep = json.loads((tmp_path / "gen.report.json").read_text())
    assert rep["input_format"] == "semeval-xml"
    assert rep["counts"]["revtgt"] > 40 and rep["counts"]["revnon"] > 5 and rep["counts"]["adddiff"] > 150
    capsys.readouterr()


def test_custom_suite_scores_the_released_file_exactly_like_arts_laptop(data_dir):
    laptop = get_suite("arts-laptop", data_dir)
    custom = get_suite("arts-custom", data_dir,
                       {"path": str(data_dir / "arts" / "arts_testset" / "laptop_test_enriched.json")})
    preds = laptop.read_predictions(data_dir / "arts" / "output" / "laptop_results.csv", column="bert_pt")
    a = laptop.score(laptop.items("test"), preds, n_boot=0)
    b = custom.score(custom.items("test"), preds, n_boot=0)
    assert {k: m.value for k, m in a.metrics.items()} == {k: m.value for k, m in b.metrics.items()}
    assert round(100 * b.metrics["ars"].value, 2) == 53.29


@pytest.mark.slow
@pytest.mark.parametrize("dom", ["laptop", "rest", "mams"])
def test_every_shipped_towe_file_generates_with_varied_adddiff(dom, data_dir, kit, tmp_path):
    """Each shipped TOWE file end to end (test: all three strategies with the default pool beside it; train: the
    reversals), no internal error, every target span intact, no AddDiff clause above its 2 % cap."""
    from sentiprobe.generate.arts.adddiff import CLAUSE_CAP, clause_cap

    folder = data_dir / "arts" / "src_data" / dom
    for name in ("test_sent_towe.json", "train_sent_towe.json"):
        if not (folder / name).is_file():
            continue  # MAMS ships no training TOWE file
        cfg = GenerateConfig(rank="rules") if name.startswith("test") else GenerateConfig(
            rank="rules", strategies=("revtgt", "revnon"))
        out = tmp_path / f"{dom}-{name}"
        generate_file(folder / name, out, cfg, kit=kit, run_audit=False)
        doc = json.loads(out.read_text(encoding="utf-8"))
        assert all(r["sentence"][r["from"]:r["to"]] == r["term"] for r in doc.values())
        rep = json.loads(out.with_name(out.stem + ".report.json").read_text(encoding="utf-8"))
        if name.startswith("test"):
            var = rep["adddiff_variety"]["adddiff"]
            targets = rep["counts"]["original"]
            # sources that cannot take an appended contrast are refused by design (a concession, a question, a
            # colon-introduced list); the pool must serve the others
            unfit = sum(1 for s in rep["skipped"] if s.get("stage") == "adddiff"
                        and s["reason"].startswith("the sentence "))
            assert unfit <= 0.15 * targets
            assert var["variants"] >= 0.9 * (targets - unfit)
            assert var["most_used_variants"] <= clause_cap(var["variants"]) <= CLAUSE_CAP * var["variants"]
