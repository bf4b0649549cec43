"""AddDiff's pool and variety: the domain's training file beside the input is the default pool (or a refusal that
names ``--pool``), no clause serves more than its capped share of a file's variants, and the report and the
console state the number of distinct clauses and the largest share."""
from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest

import _arts_kit

from sentiprobe.cli import main
from sentiprobe.core.errors import ConfigError
from sentiprobe.generate.arts import GenerateConfig
from sentiprobe.generate.arts.adddiff import CLAUSE_CAP, clause_cap, over_cap
from sentiprobe.generate.arts.pipeline import default_pool, generate_file
from sentiprobe.generate.arts.strategies import Variant

NOUNS = ["screen", "keyboard", "battery", "speaker", "trackpad", "hinge", "charger", "camera", "fan", "webcam",
         "port", "case", "display", "touchpad", "microphone", "lid", "cable", "mouse", "drive", "card"]
GOOD, BAD = ["great", "excellent", "superb", "nice", "lovely"], ["awful", "terrible", "bad", "poor", "horrible"]


def _towe(n: int) -> dict:
    out = {}
    for i, (noun, k) in enumerate(itertools.islice(itertools.product(NOUNS, range(5)), n)):
        pol, adj = ("positive", GOOD[k]) if i % 2 == 0 else ("negative", BAD[k])
        text = f"The {noun} is {adj}."
        a, o = text.index(noun), text.index(adj)
        out[f"s{i}"] = {"sentence": text, "id": f"s{i}", "term_list": {f"s{i}_0": {
            "id": f"s{i}_0", "term": noun, "polarity": pol, "from": a, "to": a + len(noun),
            "opinion_words": [adj], "opinion_position": [[o, o + len(adj)]]}}}
    return out


def test_the_training_file_beside_the_input_is_the_default_pool(tmp_path):
    test = tmp_path / "laptop" / "test_sent_towe.json"
    test.parent.mkdir()
    test.write_text("{}", encoding="utf-8")
    cfg = GenerateConfig(rank="rules")
    with pytest.raises(ConfigError, match="--pool"):  # nothing beside it: a refusal, never 0 AddDiff silently
        default_pool(test, cfg)
    (tmp_path / "laptop" / "train_sent.json").write_text("{}", encoding="utf-8")
    got, why = default_pool(test, cfg)
    assert got.pool_file == str(tmp_path / "laptop" / "train_sent.json") and "training file" in str(why)
    (tmp_path / "laptop" / "train_sent_towe.json").write_text("{}", encoding="utf-8")
    assert default_pool(test, cfg)[0].pool_file == str(tmp_path / "laptop" / "train_sent_towe.json")
    with pytest.raises(ConfigError, match="--pool"):  # a training file is not its own pool
        default_pool(tmp_path / "laptop" / "train_sent_towe.json", cfg)
    for other in (GenerateConfig(rank="rules", strategies=("revtgt",)), GenerateConfig(mode="faithful"),
                  GenerateConfig(rank="rules", phrase_source="template"),
                  GenerateConfig(rank="rules", pool_file="p.json")):
        assert default_pool(tmp_path / "x.json", other) == (other, None)
    # without AddDiff the training file beside the input still fills in: it is the RevTgt / RevNon checks'
    # in-domain vocabulary, so leaving AddDiff out must not change their variants
    only = GenerateConfig(rank="rules", strategies=("revtgt", "revnon"))
    assert default_pool(test, only)[0].pool_file == str(tmp_path / "laptop" / "train_sent_towe.json")


def test_the_cli_refuses_adddiff_without_a_pool_and_names_the_option(tmp_path, capsys):
    src = tmp_path / "mine.json"
    src.write_text(json.dumps(_towe(4)), encoding="utf-8")
    code = main(["arts", "generate", "--input", str(src), "--out", str(tmp_path / "o.json"), "--rank", "rules",
                 "--cache-dir", str(_arts_kit.cache_dir())])
    assert code == 1 and "--pool" in capsys.readouterr().err
    assert not (tmp_path / "o.json").exists()


def test_no_clause_serves_more_than_its_cap_and_the_report_says_so(tmp_path, capsys):
    _arts_kit.kit()
    d = tmp_path / "dom"
    d.mkdir()
    (d / "test_sent_towe.json").write_text(json.dumps(_towe(100)), encoding="utf-8")
    (d / "train_sent_towe.json").write_text(json.dumps(_towe(100)), encoding="utf-8")
    out = tmp_path / "o.json"
    assert main(["arts", "generate", "--input", str(d / "test_sent_towe.json"), "--out", str(out), "--rank", "rules",
                 "--strategies", "adddiff", "--phrase-source", "template",
                 "--cache-dir", str(_arts_kit.cache_dir())]) == 0
    console = capsys.readouterr().out
    doc = json.loads(out.read_text())
    uses = Counter(a["text"] for v in doc.values() for a in v.get("provenance", {}).get("appended", []))
    cap = clause_cap(100)
    assert cap == 2 and uses and max(uses.values()) <= cap
    rep = json.loads((tmp_path / "o.report.json").read_text())
    var = rep["adddiff_variety"]["adddiff"]
    assert var["distinct_clauses"] == len(uses) and var["most_used_variants"] == max(uses.values())
    assert var["largest_share"] == round(max(uses.values()) / var["variants"], 4)
    assert f"{len(uses)} distinct clauses" in console and f"cap {CLAUSE_CAP:.0%}" in console
    # a pool too small for the cap runs out: counted refusals with their reason, never a repeated clause
    reasons = rep["skipped_by_reason"].get("adddiff", {})
    assert rep["counts"]["adddiff"] + sum(reasons.values()) == 100
    assert all("cap" in r or "named an aspect" in r for r in reasons)


def test_the_default_pool_is_used_and_recorded(tmp_path, capsys):
    d = tmp_path / "dom"
    d.mkdir()
    (d / "test_sent_towe.json").write_text(json.dumps(_towe(6)), encoding="utf-8")
    (d / "train_sent_towe.json").write_text(json.dumps(_towe(100)), encoding="utf-8")
    out = tmp_path / "o.json"
    gen = generate_file(d / "test_sent_towe.json", out, GenerateConfig(rank="rules", strategies=("adddiff",)),
                        kit=_arts_kit.kit(), run_audit=False)
    rep = json.loads(Path(tmp_path / "o.report.json").read_text())
    assert rep["config"]["pool_file"] == str(d / "train_sent_towe.json")
    assert "beside the input" in rep["resources"]["pool_default"]
    assert gen.config.phrases == "clauses"


def test_a_custom_ars_without_a_strategy_says_what_it_covers(tmp_path):
    from sentiprobe.suites import get_suite
    from sentiprobe.suites.arts.report import report_section

    rec = {"sentence": "The screen is great.", "term": "screen", "polarity": "positive", "id": "s_0", "from": 4,
           "to": 10}
    doc = {"s_0": rec, "s_0_adv1": {**rec, "sentence": "The screen is awful.", "polarity": "negative"}}
    path = tmp_path / "custom.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    suite = get_suite("arts-custom", tmp_path, {"path": str(path)})
    items = suite.items("test")
    preds = tmp_path / "p.csv"
    preds.write_text("item_id,label\n" + "".join(f"{i.item_id},{i.label}\n" for i in items), encoding="utf-8")
    res = suite.score(items, suite.read_predictions(preds), n_boot=0)
    cov = res.details["strategy_coverage"]
    assert cov["covered"] == ["revtgt"] and cov["lacking"] == ["revnon", "adddiff"]
    assert "not comparable" in cov["note"] and "revtgt" in res.metrics["ars"].note
    html = report_section({"metrics": {k: m.to_dict() for k, m in res.metrics.items()}, "details": res.details})
    assert "Not comparable with the released sets" in html


def _appended(key: str, clause: str) -> Variant:
    return Variant(key, key, "adddiff", "s", "t", "positive", 0, 1, appended=[{"text": clause}])


def test_a_clause_over_its_share_of_the_variants_made_is_trimmed_until_the_cap_holds():
    """The draw caps a clause at 2 % of the targets; when targets are refused the variants are fewer, so the last
    uses past 2 % of the variants kept are dropped, and dropping lowers the cap again (100 -> 99 kept: cap 1)."""
    clauses = [f"c{i}" for i in range(95)] + ["A", "A", "B", "B", "B"]
    variants = [_appended(f"v{i}", c) for i, c in enumerate(clauses)]
    drop = over_cap(variants)
    assert drop == {"v99": "B", "v98": "B", "v96": "A"}
    kept = [v for v in variants if v.key not in drop]
    uses = Counter(a["text"] for v in kept for a in v.appended)
    assert max(uses.values()) / len(kept) <= CLAUSE_CAP and uses["A"] == uses["B"] == 1
    assert over_cap([_appended(f"w{i}", f"c{i}") for i in range(98)] + variants[95:97]) == {}  # 100: cap 2
