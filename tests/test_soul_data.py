"""SOUL loading: synthetic CSV fixtures (quirks, errors, train-file checks) and the shipped data
(statistics golden, stable ids, quirks kept, `sentiprobe score` on constructed prediction files)."""
from __future__ import annotations

import csv
import json

import pytest

from sentiprobe.cli import main
from sentiprobe.core.errors import ChecksumError, DataError
from sentiprobe.core.hashing import file_sha256
from sentiprobe.core.types import Prediction
from sentiprobe.suites import get_suite
from sentiprobe.suites.soul.data import train_source
from sentiprobe.suites.soul.load import (
    TRAIN_BLOB_ID,
    git_blob_id,
    load_split,
    load_train_file,
)

HEADER = ["rid", "review_text", "statement", "justification", "label"]


def write_csv(path, rows, header=HEADER):
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    return path


ROWS = [
    ["yelp-1", 'Tasty, "cheap" food.<br />Slow service.', "The reviewer liked the food.", "Tasty.", "true"],
    ["yelp-1", 'Tasty, "cheap" food.<br />Slow service.', "The reviewer liked the food.", "Tasty!", "true"],
    ["yelp-1", 'Tasty, "cheap" food.<br />Slow service.', "The service was fast.\n\u200b", "Slow.", "false"],
    ["imdb-2", "Long film.", "The reviewer hated the actors.", "Actors not mentioned.", "Not Given"],
]


def test_loader_keeps_quirks_and_builds_stable_ids(tmp_path):
    items = load_split(write_csv(tmp_path / "dev.csv", ROWS), "dev", expected=False)
    assert [i.item_id for i in items] == ["yelp-1:1", "yelp-1:2", "yelp-1:3", "imdb-2:1"]
    assert [i.group_id for i in items] == ["yelp-1", "yelp-1", "yelp-1", "imdb-2"]
    assert items[0].text == 'Tasty, "cheap" food.<br />Slow service.'  # verbatim, <br /> kept
    assert items[2].text_pair == "The service was fast.\n\u200b"           # newline + zero-width space kept
    assert items[0].text_pair == items[1].text_pair                       # duplicate pair: both rows kept
    assert items[3].label == "not-given" and items[3].meta["label_raw"] == "Not Given"
    assert items[3].meta["source"] == "imdb" and items[3].meta["justification"] == "Actors not mentioned."
    again = load_split(tmp_path / "dev.csv", "dev", expected=False)
    assert again == items


@pytest.mark.parametrize("bad, field", [
    (["yelp-1", "x", "s", "j", "maybe"], "label"),
    (["yelp-1", "x", "", "j", "true"], "statement"),
    (["", "x", "s", "j", "true"], "rid"),
    (["yelp-1", "a different review text", "s", "j", "true"], "review_text"),
])
def test_loader_errors_name_file_row_and_field(tmp_path, bad, field):
    rows = ROWS[:1] + [bad]
    path = write_csv(tmp_path / "dev.csv", rows)
    with pytest.raises(DataError) as e:
        load_split(path, "dev", expected=False)
    assert e.value.field == field and "row 2" in str(e.value.record) and str(path) in str(e.value)


def test_loader_checks_header_and_official_counts(tmp_path):
    with pytest.raises(DataError, match="missing columns"):
        load_split(write_csv(tmp_path / "a.csv", [r[:4] for r in ROWS], HEADER[:4]), "dev")
    with pytest.raises(DataError, match="Table 1"):
        load_split(write_csv(tmp_path / "dev.csv", ROWS), "dev")


def test_train_file_verification(tmp_path, monkeypatch):
    path = write_csv(tmp_path / "train.csv", ROWS)
    assert len(git_blob_id(path)) == 40 and git_blob_id(path) != TRAIN_BLOB_ID
    with pytest.raises(ChecksumError, match=TRAIN_BLOB_ID):
        load_train_file(path)
    items, info = load_train_file(path, verify=False)
    assert len(items) == 4 and info["train_verified"] is False and "unverified" in info["train_source"]
    (tmp_path / "blob.txt").write_bytes(b"hello\n")
    assert git_blob_id(tmp_path / "blob.txt") == "ce013625030ba8dba906f756967f9e9ca394464a"  # git hash-object


# ---- shipped data ------------------------------------------------------------------------------------
@pytest.mark.realdata
def test_stats_golden(data_dir):
    st = get_suite("soul-rc", data_dir).stats()
    assert st["dev"]["reviews"] == 365 and st["dev"]["statements"] == 1481
    assert st["dev"]["labels"] == {"true": 617, "false": 503, "not-given": 361}
    assert st["test"]["reviews"] == 1091 and st["test"]["statements"] == 4713
    assert st["test"]["labels"] == {"true": 1956, "false": 1664, "not-given": 1093}
    assert st["dev"]["reviews_per_source"] == {"imdb": 136, "yelp": 229}
    assert st["test"]["reviews_per_source"] == {"imdb": 496, "yelp": 595}
    assert st["train"]["available"] is False
    assert st["train_source"] == "dev (stand-in: official train split unpublished)"
    assert st["test"]["single_statement_reviews"] == ["imdb-17668"]
    pairs = st["test"]["duplicate_statement_pairs"]
    assert len(pairs) == 1 and "imdb-15611" in pairs[0]


@pytest.mark.realdata
def test_items_ids_and_train_stand_in(data_dir):
    s = get_suite("soul-rc", data_dir)
    test = s.items("test")
    assert len({i.item_id for i in test}) == 4713
    odd = [i for i in test if i.group_id == "yelp-10411" and "\u200b" in i.text_pair]
    assert len(odd) == 1 and odd[0].text_pair.endswith("\n\u200b")
    assert any("<br />" in i.text for i in test if i.group_id.startswith("imdb"))
    assert s.train_items() == s.items("dev") and s.dev_items() == []
    assert not {i.group_id for i in s.items("dev")} & {i.group_id for i in test}


def _write_preds(path, rows, header):
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    return str(path)


@pytest.mark.realdata
def test_score_cli_gold_and_trivial_rule(data_dir, tmp_path, capsys):
    items = get_suite("soul-rc", data_dir).items("test")
    gold = _write_preds(tmp_path / "gold.csv", [[i.item_id, i.label] for i in items], ["item_id", "label"])
    assert main(["score", "--suite", "soul-rc", "--predictions", gold, "--data-dir", str(data_dir),
                 "--n-boot", "50", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    m = doc["metrics"]
    assert {"accuracy", "f1_true", "f1_false", "f1_not_given", "parse_failure_rate"} <= set(m)
    assert m["accuracy"]["value"] == 1.0 and m["f1_not_given"]["value"] == 1.0 and m["accuracy"]["n"] == 1091
    # trivial rule: a statement mentioning "not" is false, else true
    rule = [[i.item_id, "false" if " not " in f" {i.text_pair.lower()} " else "true"] for i in items]
    path = _write_preds(tmp_path / "rule.csv", rule, ["item_id", "label"])
    assert main(["score", "--suite", "soul-rc", "--predictions", path, "--data-dir", str(data_dir),
                 "--n-boot", "50", "--json"]) == 0
    m = json.loads(capsys.readouterr().out)["metrics"]
    acc = sum(r[1] == i.label for r, i in zip(rule, items)) / len(items)
    assert m["accuracy"]["value"] == pytest.approx(acc)
    assert m["f1_not_given"]["value"] == 0.0 and m["accuracy"]["ci_low"] < acc < m["accuracy"]["ci_high"]


@pytest.mark.realdata
def test_score_cli_jg_and_reference_format(data_dir, tmp_path, capsys):
    items = get_suite("soul-rc", data_dir).items("test")
    gold = _write_preds(tmp_path / "gold.csv", [[i.item_id, i.label, i.meta["justification"]] for i in items],
                        ["item_id", "label", "justification"])
    assert main(["score", "--suite", "soul-jg", "--predictions", gold, "--data-dir", str(data_dir),
                 "--n-boot", "20", "--suite-arg", "bertscore=0", "--json"]) == 0
    m = json.loads(capsys.readouterr().out)["metrics"]
    for k in ("accuracy", "bleu", "rouge1", "rouge2", "rougeL"):
        assert m[k]["value"] == pytest.approx(1.0)
    assert m["bertscore_f1"]["value"] is None and m["parse_failure_rate"]["value"] == 0.0
    # the reference script's output format: rid, statement, prediction (row order of the data)
    ref = _write_preds(tmp_path / "ref.csv", [[i.group_id, i.text_pair, i.label.upper()] for i in items],
                       ["rid", "statement", "prediction"])
    assert main(["score", "--suite", "soul-rc", "--predictions", ref, "--data-dir", str(data_dir),
                 "--n-boot", "0", "--json"]) == 0
    m = json.loads(capsys.readouterr().out)["metrics"]
    assert m["accuracy"]["value"] == 1.0  # strict = lower-case + strip, then exact


@pytest.mark.realdata
def test_suite_with_a_training_file(data_dir, tmp_path):
    own = write_csv(tmp_path / "train.csv", ROWS)
    with pytest.raises(ChecksumError):
        get_suite("soul-rc", data_dir, train_file=own).train_items()
    s = get_suite("soul-rc", data_dir, {"train_file": str(own), "train_verify": "0"})
    assert s.describe()["options"]["train_file"] == str(own) and s.options.train_verify is False
    before = train_source(s)  # scoring alone does not read the training file
    assert before["train_file"] == str(own) and "not read" in before["train_source"]
    assert [i.item_id for i in s.train_items()] == ["yelp-1:1", "yelp-1:2", "yelp-1:3", "imdb-2:1"]
    assert len(s.dev_items()) == 1481  # dev is dev again
    assert "not read" in train_source(s)["train_source"]  # what scoring reports depends on a fit, not a memo
    src = train_source(s, trained=True)
    assert src["train_verified"] is False and src["train_git_blob_id"] == git_blob_id(own)
    assert src["train_sha256"] == file_sha256(own)
    items = s.items("test")
    res = s.score(items, [Prediction(i.item_id, i.label) for i in items], n_boot=0, trained=True)
    assert res.details["train_sha256"] == file_sha256(own) and res.details["dev_source"] == "dev"
    test_rid = items[0].group_id
    leak = write_csv(tmp_path / "leak.csv", [[test_rid, "x", "s", "j", "true"]])
    with pytest.raises(DataError, match="shares 1 review"):
        get_suite("soul-rc", data_dir, train_file=leak, train_verify=False).train_items()
    st = get_suite("soul-rc", data_dir, train_file=own).stats()  # a failing training file is reported
    assert "git blob id" in st["train"]["error"] and st["dev"]["statements"] == 1481


@pytest.mark.realdata
def test_score_cli_suite_args_and_env(data_dir, tmp_path, capsys, monkeypatch):
    items = get_suite("soul-jg", data_dir).items("test")
    gold = _write_preds(tmp_path / "gold.csv", [[i.item_id, i.label, i.meta["justification"]] for i in items],
                        ["item_id", "label", "justification"])
    base = ["score", "--suite", "soul-jg", "--predictions", gold, "--data-dir", str(data_dir), "--n-boot", "0",
            "--json"]
    monkeypatch.setenv("SENTIPROBE_SOUL_BERTSCORE", "0")  # the CLI reads it as the option's default
    assert main(base + ["--suite-arg", "rouge_stemmer=1"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["suite_info"]["options"]["rouge_stemmer"] is True and doc["suite_info"]["options"]["bertscore"] is False
    assert doc["details"]["text_metrics"]["rouge"]["use_stemmer"] is True
    assert main(base + ["--suite-arg", "bertscore_layers=99"]) != 0  # never reaches bert-score
    assert "bertscore_layers" in capsys.readouterr().err
    assert main(base + ["--suite-arg", "rouge_stemer=1"]) != 0
    assert "did you mean 'rouge_stemmer'" in capsys.readouterr().err
