"""Scoring any system's triplets through the CLI: JSONL with word-index spans, loose JSON with text spans, and
malformed predictions (counted failures naming the record, scored as misses, never a crash)."""
from __future__ import annotations

import json

import pytest

from sentiprobe.cli import main
from sentiprobe.suites import get_suite
from sentiprobe.suites.triplets.report import render_section

pytestmark = pytest.mark.realdata
SUITE = "absa-triplet-explicit"


@pytest.fixture(scope="module")
def items(data_dir):
    return get_suite(SUITE, data_dir).items("test")


def _score(data_dir, path, capsys, *extra):
    code = main(["score", "--suite", SUITE, "--data-dir", str(data_dir), "--predictions", str(path), "--json",
                 "--n-boot", "50", *extra])
    cap = capsys.readouterr()
    assert "Traceback" not in cap.err
    return code, (json.loads(cap.out) if code == 0 else cap.err)


def test_gold_jsonl_scores_one(items, data_dir, tmp_path, capsys):
    p = tmp_path / "gold.jsonl"
    p.write_text("".join(json.dumps({"id": it.item_id, "triplets": it.meta["gold"], "targets": it.meta["gold_targets"],
                                     "polars": it.meta["gold_polars"]}) + "\n" for it in items), encoding="utf-8")
    code, doc = _score(data_dir, p, capsys)
    assert code == 0
    m = doc["metrics"]
    for k in ("triplet_f1", "triplet_precision", "triplet_recall", "target_f1", "polar_f1"):
        assert m[k]["value"] == 1.0, k
    assert m["parse_failure_rate"]["value"] == 0.0 and m["missing_rate"]["value"] == 0.0
    assert m["triplet_f1"]["n"] == len(items)


def test_loose_json_text_spans_and_missing_sentences(items, data_dir, tmp_path, capsys):
    first = next(it for it in items if it.meta["gold"])
    toks = list(first.tokens)
    loose = {first.item_id: [{"target": " ".join(toks[t[0]:t[1] + 1]), "opinion": " ".join(toks[t[2]:t[3] + 1]),
                              "sentiment": t[4].upper()} for t in first.meta["gold"]]}
    p = tmp_path / "llm.json"
    p.write_text(json.dumps(loose), encoding="utf-8")
    code, err = _score(data_dir, p, capsys)  # every other sentence is missing: an error by default (issue 22)
    assert code == 1 and f"{len(items) - 1} of {len(items)} sentences have no prediction record" in err
    code, doc = _score(data_dir, p, capsys, "--missing", "wrong")
    assert code == 0
    m = doc["metrics"]
    assert m["triplet_precision"]["value"] == 1.0           # every aligned triplet is right
    assert 0 < m["triplet_recall"]["value"] < 0.01           # other sentences are missing: misses
    assert doc["details"]["missing_sentences"] == len(items) - 1
    assert m["parse_failure_rate"]["value"] == 0.0


def test_malformed_entries_are_counted_and_named(items, data_dir, tmp_path, capsys):
    it = next(it for it in items if len(it.tokens) > 5 and it.meta["gold"])
    n = len(it.tokens)
    good = it.meta["gold"][0]
    lines = [
        json.dumps({"id": it.item_id, "triplets": [good, [0, 0, n + 3, n + 4, "positive"], [0, 1, 1, 2, "positive"],
                                                   [0, 0, 2, 2, "ecstatic"], {"target": "zzqx", "polar": "great",
                                                                               "polarity": "positive"}]}),
        '{"id": "broken", "triplets": [[0, 0, 1, 1, "positive"]',
        json.dumps({"id": "nope:1", "triplets": []}),
        json.dumps({"triplets": []}),
    ]
    p = tmp_path / "bad.jsonl"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, doc = _score(data_dir, p, capsys, "--missing", "wrong")
    assert code == 0
    d = doc["details"]
    reasons = " | ".join(f"{f['record']}: {f['reason']}" for f in d["failures"])
    assert "out of range" in reasons and "overlap" in reasons and "unknown polarity" in reasons
    assert "not in the sentence" in reasons and "line 2: broken JSON" in reasons
    assert "nope:1" in reasons and "line 4" in reasons
    assert f"line 1 ({it.item_id}) triplet 1" in reasons
    assert d["parse_failures"] == 7 and d["prediction_entries"] == 8
    # one unit per sentence record: line 1 (an entry failed), line 2, nope:1, line 4 all failed
    assert doc["metrics"]["parse_failure_rate"]["value"] == pytest.approx(4 / 4)
    assert d["counts"]["triplet"]["correct"] == 1 and d["counts"]["triplet"]["predicted"] == 1


def test_unreadable_files_are_errors(data_dir, tmp_path, capsys):
    (tmp_path / "d.jsonl").mkdir()
    code, err = _score(data_dir, tmp_path / "d.jsonl", capsys)
    assert code == 1 and "directory" in err and "d.jsonl" in err
    (tmp_path / "e.jsonl").write_text("  \n", encoding="utf-8")
    code, err = _score(data_dir, tmp_path / "e.jsonl", capsys)
    assert code == 1 and "no records" in err


def test_report_section_escapes_and_marks_spans(items, data_dir):
    suite = get_suite(SUITE, data_dir)
    from sentiprobe.core.types import Prediction

    it = next(i for i in items if i.meta["gold"])
    preds = [Prediction(it.item_id, None, meta={"triplets": [[0, 0, 1, 1, "positive"]]})]
    res = suite.score(items[:50] if it in items[:50] else [it], preds, n_boot=0, missing="wrong")
    entry = res.to_dict()
    entry["details"]["missed_examples"].append({"id": "<script>", "polarity": "positive",
                                                "text": "a [[<b>x</b>]] is <<great&>>"})
    entry["details"]["failures"] = [{"record": "<img src=x>", "reason": "bad"}]
    html = render_section("<absa>", entry)
    assert "<script>" not in html and "<img" not in html and "<b>" not in html
    assert "&lt;absa&gt;" in html and '<mark class="target"' in html and '<u class="polar"' in html
    assert "per polarity" in html and "protocol: clean" in html
