"""SST readers, SST-7 binning (docs/protocols/noncompsst.md#sst7-binning), the stimulus removal rule
(docs/protocols/noncompsst.md#removal-rule) and the training sources (docs/protocols/noncompsst.md#sst7-train)."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from sentiprobe.core.errors import ConfigError, DataError
from sentiprobe.suites.noncompsst.load import load_noncompsst
from sentiprobe.suites.noncompsst.sst import (node_spans, read_raw_scores, read_sentiment_labels, read_split,
                                              tree_leaves, value_from_raw)
from sentiprobe.suites.noncompsst.sst7 import (StimulusMatcher, build_sst7_phrases, build_sst7_sentences,
                                               load_train, matcher_for, read_sst7_tsv, resolve_train_source,
                                               sst7_label, sst7_label_from_raw)

# docs/protocols/noncompsst.md#sst7-binning table: label by v x 72 (= sum of 3 raw scores - 3)
TABLE = [(0, 10, 0), (11, 20, 1), (21, 30, 2), (31, 41, 3), (42, 51, 4), (52, 61, 5), (62, 72, 6)]


def table_label(x72: int) -> int:
    return next(lab for lo, hi, lab in TABLE if lo <= x72 <= hi)


def test_binning_matches_the_spec_table_for_every_three_score_mean():
    for total in range(3, 76):
        x72 = total - 3
        want = table_label(x72)
        assert sst7_label(x72 / 72) == want, total
        assert sst7_label(round(x72 / 72, 5)) == want, total  # the 5 printed decimals never cross a boundary
    for scores in itertools.product((1, 5, 9, 13, 14, 18, 22, 25), repeat=3):
        assert sst7_label_from_raw(scores) == table_label(sum(scores) - 3)
    assert sst7_label(0.0) == 0 and sst7_label(1.0) == 6 and sst7_label(0.85714) == 5 and sst7_label(0.85715) == 6
    with pytest.raises(ValueError):
        sst7_label(1.01)


def test_tree_leaves_and_spans():
    root, leaves = tree_leaves(r"(3 (2 (2 8 1\/2) (2 weeks)) (4 (2 -LRB-) (4 great)))")
    assert root == 3 and leaves == [r"8 1\/2", "weeks", "-LRB-", "great"]
    with pytest.raises(ValueError):
        tree_leaves("(3 (2 a)")
    # 3 tokens, nodes 4 = (1 2), 5 = (4 3) root
    assert node_spans(3, [4, 4, 5, 5, 0]) == [(0, 1), (1, 2), (2, 3), (0, 2), (0, 3)]


def test_matcher_rule():
    m = StimulusMatcher(["the actor", "her son 's discovery", "a film -LRB- sort of -RRB-"])
    assert m.find("The Actor is great") == "the actor"
    assert m.find("the actors are great") is None  # whole tokens only
    assert m.find("Her son 's discovery of X") == "her son 's discovery"
    assert m.find("what a film ( sort of ) this is") == "a film ( sort of )"
    assert m.find("co-writer\\/director") is None


def write_mini_sst(root: Path) -> Path:
    """A 3-sentence SST folder: sentence 1 (train) contains a stimulus subphrase, 2 (train) does not, 3 test."""
    d = root / "sst"
    (d / "stanfordSentimentTreebank").mkdir(parents=True)
    sents = [["The", "actor", "shines"], ["A", "dull", "(", "film", ")"], ["Just", "fine"]]
    parents = [[4, 4, 5, 5, 0], [6, 6, 7, 7, 8, 9, 8, 9, 0], [3, 3, 0]]
    t = d / "stanfordSentimentTreebank"
    (t / "SOStr.txt").write_text("".join("|".join(s) + "\n" for s in sents))
    (t / "STree.txt").write_text("".join("|".join(map(str, p)) + "\n" for p in parents))
    (t / "datasetSplit.txt").write_text("sentence_index,splitset_label\n1,1\n2,1\n3,2\n")
    phrases = ["The", "actor", "shines", "The actor", "The actor shines", "A", "dull", "(", "film", ")",
               "A dull", "( film", "( film )", "A dull ( film )", "Just", "fine", "Just fine"]
    (t / "dictionary.txt").write_text("".join(f"{p}|{i}\n" for i, p in enumerate(phrases) if p != "( film"))
    vals = [0.5, 0.6, 0.9, 0.55, 0.95, 0.5, 0.1, 0.5, 0.5, 0.5, 0.2, 0.5, 0.45, 0.05, 0.5, 0.7, 0.75]
    (t / "sentiment_labels.txt").write_text("phrase ids|sentiment values\n" + "".join(
        f"{i}|{v}\n" for i, v in enumerate(vals)))
    return root


def test_phrase_level_builder_on_a_mini_treebank(tmp_path):
    root = write_mini_sst(tmp_path)
    built = build_sst7_phrases(root / "sst", ["the actor"])  # the sst folder (a data dir is checked vs the manifest)
    assert built.removed == (("sst7-train-s1", "the actor"),)
    texts = {it.text: it.label for it in built.items}
    assert texts == {"A dull -LRB- film -RRB-": "0", "A dull": "1", "-LRB- film -RRB-": "3", "A": "3",
                     "dull": "0", "-LRB-": "3", "film": "3", "-RRB-": "3"}
    assert built.unresolved == ("-LRB- film",)  # not in the dictionary: counted, not used
    assert len(build_sst7_phrases(root / "sst", None).items) == 8 + 5
    assert resolve_train_source(root, None, None) == "phrases"  # dictionary.txt present -> phrase level
    with pytest.raises(ConfigError, match="train source"):
        resolve_train_source(root, None, "trees")


def test_user_training_file(tmp_path, monkeypatch):
    f = tmp_path / "train.tsv"
    f.write_text("A fine film .\t5\nAwful\t0\n", encoding="utf-8")
    monkeypatch.setenv("SENTIPROBE_SST7_TRAIN_FILE", str(f))  # never read here: the suite option is
    assert resolve_train_source(tmp_path, None, None) == "sentences"
    assert resolve_train_source(tmp_path, f, None) == "file"
    built = load_train(tmp_path, [], train_file=f, source=None)
    assert [(it.text, it.label) for it in built.items] == [("A fine film .", "5"), ("Awful", "0")]
    assert built.source == "user-file"
    f.write_text("A fine film .\t5\nAwful\t7\n", encoding="utf-8")
    with pytest.raises(DataError) as ei:
        load_train(tmp_path, [], train_file=str(f), source=None)
    assert (ei.value.record, ei.value.field) == ("line 2", "label")
    with pytest.raises(ConfigError, match="does not exist"):
        load_train(tmp_path, [], train_file=tmp_path / "nope.tsv", source=None)


def test_split_reader_errors(tmp_path):
    f = tmp_path / "datasetSplit.txt"
    f.write_text("sentence_index,splitset_label\n1,1\n2,4\n")
    with pytest.raises(DataError) as ei:
        read_split(f)
    assert ei.value.record == "line 3"
    f.write_text("phrase ids|sentiment values\n0|0.5\n2|0.5\n")
    with pytest.raises(DataError) as ei:
        read_sentiment_labels(f)
    assert (ei.value.record, ei.value.field) == ("line 3", "phrase ids")


# ---- shipped files --------------------------------------------------------------------------------
@pytest.mark.realdata
def test_labels_and_raw_scores_agree(data_dir):
    values = read_sentiment_labels(data_dir / "sst/stanfordSentimentTreebank/sentiment_labels.txt")
    raw = read_raw_scores(data_dir / "sst/stanfordSentimentTreebankRaw/rawscores_exp12.txt")
    assert len(values) == len(raw) == 239232
    assert {len(s) for s in raw.values()} == {3, 4, 6}
    for i, scores in raw.items():
        assert abs(values[i] - value_from_raw(scores)) < 5e-6
        assert sst7_label(values[i]) == sst7_label_from_raw(scores), i  # no bin boundary is ever hit


@pytest.mark.realdata
def test_rebuilt_dev_and_test_reproduce_the_shipped_files(data_dir):
    release = load_noncompsst(data_dir)
    m = matcher_for(release.phrases)
    for split, name in (("dev", "validation"), ("test", "test")):
        everything = {it.text: it for it in build_sst7_sentences(data_dir, split).items}
        kept = {it.text for it in build_sst7_sentences(data_dir, split, m).items}
        shipped = read_sst7_tsv(data_dir / f"noncompsst/sst7/{name}.tsv")
        assert all(r.text in everything for r in shipped)   # text rule reproduces every shipped line
        assert all(r.text in kept for r in shipped)         # the removal rule removes nothing they kept
        assert len(kept - {r.text for r in shipped}) < 0.15 * (len(everything) - len(kept))
        off = [r for r in shipped if str(r.label) != everything[r.text].label]
        assert all("-LRB-" in r.text or "-RRB-" in r.text for r in off) and len(off) <= 10
    built = build_sst7_sentences(data_dir, "train", m)
    assert len(built.items) + len(built.removed) == 8544 and built.removed
