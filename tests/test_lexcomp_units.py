"""Fast unit tests of the LexComp loaders, tags, baselines, transforms and BNC extraction (tiny fixtures)."""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from sentiprobe.core.errors import ConfigError, DataError
from sentiprobe.core.types import Item
from sentiprobe.protocols.lexcomp import baselines, tags, transforms
from sentiprobe.suites.lexcomp import bnc, load


def _write(tmp_path: Path, rows, name="f.jsonl") -> Path:
    p = tmp_path / name
    p.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return p


NCL = {"sentence": "a trip down memory lane today", "nc": "memory_lane", "target_index": 4, "target_word": "lane",
       "label": "NON-LITERAL"}
REL = {"sentence": "She made front covers for us", "start": 2, "end": 3, "span": "front cover",
       "paraphrase": "cover in the front", "label": "True"}


def test_nc_literality_reader_and_compound_span(tmp_path):
    (r,) = load.read_nc_literality(_write(tmp_path, [NCL]))
    assert r["span"] == (3, 4) and r["target"] == 4 and (r["first"], r["last"], r["key"]) == ("memory", "lane", "lane")
    (r,) = load.read_nc_literality(_write(tmp_path, [{**NCL, "target_index": 3, "target_word": "memory"}]))
    assert r["span"] == (3, 4)


@pytest.mark.parametrize("bad,field", [
    ({"target_index": 9}, "target_index"),
    ({"target_word": "trip"}, "target_word"),
    ({"label": "literal"}, "label"),
    ({"nc": "memorylane"}, "nc"),
])
def test_nc_literality_bad_input_names_file_line_field(tmp_path, bad, field):
    p = _write(tmp_path, [NCL, {**NCL, **bad}])
    with pytest.raises(DataError) as exc:
        load.read_nc_literality(p)
    assert exc.value.field == field and exc.value.record == "line 2" and str(p) in str(exc.value)


@pytest.mark.parametrize("bad,field", [({"start": 7, "end": 8}, "start"), ({"end": 4}, "end"),
                                       ({"label": "yes"}, "label"), ({"paraphrase": ""}, "paraphrase")])
def test_span_paraphrase_bad_input(tmp_path, bad, field):
    with pytest.raises(DataError) as exc:
        load.read_span_paraphrase(_write(tmp_path, [{**REL, **bad}]), "nc-relations")
    assert exc.value.field == field


def test_invalid_json_names_line(tmp_path):
    with pytest.raises(DataError, match="line 2"):
        load.read_span_paraphrase(_write(tmp_path, [REL, "{not json"]), "nc-relations")


def test_whitespace_only_tokens_are_dropped_and_counted():
    toks, dropped = load.tokens_of("a 5 \xa0 km race")
    assert toks == ["a", "5", "km", "race"] and dropped == 1


def test_mwe_reader_rejects_i_after_o_and_unknown_tags(tmp_path):
    ok = {"sentence_words": ["came", "in", "x"], "sentence_tags": ["B-VPC", "I", "O"]}
    assert load.read_mwe(_write(tmp_path, [ok]))[0]["tags"] == ["B-VPC", "I", "O"]
    for tags_, msg in ((["O", "I", "O"], "follows O"), (["I", "I", "O"], "starts"), (["B-XYZ", "I", "O"], "unknown"),
                       (["O", "O"], "2 tags for 3")):
        with pytest.raises(DataError, match=msg):
            load.read_mwe(_write(tmp_path, [{**ok, "sentence_tags": tags_}]))


def test_bnc_ids_reader(tmp_path):
    rows = [{"bnc_id": "B/BN/BNN.xml/291", "span_text": "get on with", "label": "true"}]
    (r,) = load.read_bnc_ids(_write(tmp_path, rows), "vpc")
    assert (r["first"], r["last"]) == ("get", "with")
    with pytest.raises(DataError, match="malformed BNC id"):
        load.read_bnc_ids(_write(tmp_path, [{**rows[0], "bnc_id": "BNN/291"}]), "vpc")
    with pytest.raises(DataError, match="unknown label"):
        load.read_bnc_ids(_write(tmp_path, [{**rows[0], "label": "True"}]), "vpc")


def test_bnc_extraction_from_xml(tmp_path):
    d = tmp_path / "bnc" / "Texts" / "B" / "BN"
    d.mkdir(parents=True)
    (d / "BNN.xml").write_text(
        '<bncDoc><wtext><p><s n="291"><w hw="she">She </w><w hw="take">took </w><w hw="on">on </w>'
        '<w hw="the">the </w><w hw="café">Café</w><c>.</c></s><s n="292"><w hw="no">No</w></s></p></wtext></bncDoc>')
    ids = load.read_bnc_ids(_write(tmp_path, [
        {"bnc_id": "B/BN/BNN.xml/291", "span_text": "take on", "label": "true"},
        {"bnc_id": "B/BN/BNN.xml/292", "span_text": "take on", "label": "false"},
        {"bnc_id": "B/BN/BNN.xml/999", "span_text": "take on", "label": "false"},
        {"bnc_id": "A/AA/AAA.xml/1", "span_text": "take on", "label": "false"}]), "vpc")
    out, report = bnc.extract(tmp_path / "bnc", ids)
    assert len(out) == 1 and out[0]["tokens"] == ["she", "took", "on", "the", "cafe", "."] and out[0]["span"] == (1, 2)
    assert report["dropped"] == {"missing_file": 1, "missing_sentence": 1, "span_not_found": 1}
    with pytest.raises(ConfigError, match="none of"):
        bnc.extract(tmp_path / "bnc", ids[1:])


def test_strict_and_allennlp08_spans():
    seq = ["B-VPC", "I", "O", "I", "B-N", "I", "I"]
    assert tags.spans(seq) == {("VPC", 0, 1), ("", 3, 3), ("N", 4, 6)}
    assert tags.spans(seq, "allennlp08") == {("VPC", 0, 0), ("", 1, 1), ("", 3, 3), ("N", 4, 4), ("", 5, 6)}
    c = tags.span_counts([["B-VPC", "I", "O"]], [["B-VPC", "I", "O"]])
    assert tags.f1_from_counts(c) == 1.0
    assert tags.f1_from_counts(tags.span_counts([["O"]], [["O"]])) == 0.0


def test_viterbi_respects_constraints():
    import numpy as np

    labels = ["O", "I", "B-N"]
    logp = np.log(np.array([[0.1, 0.8, 0.1], [0.6, 0.3, 0.1], [0.1, 0.8, 0.1]]))
    path = tags.viterbi(logp, labels)
    assert path[0] != "I" and all(not (a == "O" and b == "I") for a, b in itertools.pairwise(path))
    assert tags.viterbi(np.log(np.array([[0.1, 0.1, 0.8], [0.1, 0.8, 0.1]])), labels) == ["B-N", "I"]


def _it(i, label, first="a", last="b", **meta):
    return Item(str(i), str(i), "train", "x", label, meta={"first": first, "last": last, **meta})


def test_majority_tie_rules():
    assert baselines.pick(["b", "a", "a", "b"], None) == "a"
    assert baselines.pick(["b", "a", "a", "b"], None, "first-seen") == "b"
    assert baselines.pick(["x", "y"], "y") == "y"
    train = [_it(1, "t", first="v"), _it(2, "f", first="v"), _it(3, "t", first="w"), _it(4, "t", first="w"),
             _it(5, "f", first="u"), _it(6, "f", first="u"), _it(7, "t", first="z")]
    f = baselines.fit(train, "first")
    assert f["default"] == "t" and f["table"] == {"v": "t", "w": "t", "u": "f", "z": "t"}
    assert baselines.predict(f, _it(9, "f", first="unseen")) == "t"
    g = baselines.fit([_it(1, "f"), _it(2, "t")], None)
    assert g["default"] == "f"  # a Majority-All tie -> alphabetically smallest


def _pair_item():
    return Item("1", "1", "test", "she made front covers", "True", text_pair="cover in front",
                tokens=("she", "made", "front", "covers"),
                meta={"probe": "pair", "span": [2, 3], "first": "front", "last": "cover"})


def test_ablations_are_pure_transforms():
    it = _pair_item()
    p = transforms.ablate(it, "phrase")
    assert p.tokens == ("she", "made", "something") and p.meta["span"] == [2, 2] and it.meta["span"] == [2, 3]
    c = transforms.ablate(it, "context")
    assert c.tokens == ("front", "covers") and c.meta["span"] == [0, 1]
    b = transforms.ablate(it, "context+phrase")
    assert b.tokens == ("cover", "in", "front") and b.meta["probe"] == "paraphrase"
    assert transforms.ablate(it, "none") is it


def test_control_labels_are_per_type_and_deterministic():
    train = [_it(i, "t" if i % 4 else "f", first=f"w{i % 7}") for i in range(200)]
    pick = transforms.control_labeller(train, ["f", "t"])
    assert pick(_it(1, "x", first="w3")) == pick(_it(2, "y", first="w3"))
    labs = [pick(_it(i, "x", first=f"type{i}")) for i in range(400)]
    assert 0.6 < labs.count("t") / 400 < 0.9


def test_substitute_ranking_with_a_fake_lm():
    from sentiprobe.suites.lexcomp import substitutes

    def scorer(sents):
        return [10.0 if "road" in s else (5.0 if "lane" in s else 0.0) for s in sents]

    def proposer(left, n):
        return ["road", "street", "path"][:n]

    ranked = substitutes.rank(["memory", "lane", "trip"], 1, scorer, proposer, k=3)
    assert [w for w, _ in ranked] == ["road", "lane", "street"] and ranked[0][1] > 99.0
    items = [Item(str(i), str(i), "train", "a b", lab, tokens=("memory", "lane"),
                  meta={"target": 1, "target_word": w, "nc": "memory_lane"})
             for i, (w, lab) in enumerate([("lane", "LITERAL"), ("lane", "NON-LITERAL"), ("oil", "LITERAL")])]
    rows = substitutes.analyse(items, scorer, proposer, k=2, per_label=1)
    assert [r["label"] for r in rows] == ["LITERAL", "NON-LITERAL"] and rows[0]["sentence"] == "memory [lane]"


def test_lexcomp_models_skip_non_lexcomp_items_with_capability_error():
    from sentiprobe.core.errors import CapabilityError
    from sentiprobe.models import create_model

    plain = [Item(str(i), str(i), "train", "good movie", "pos") for i in range(4)]
    for name in ("majority-first", "majority-word", "probe-glove"):
        with pytest.raises(CapabilityError):
            create_model(name).fit(plain, plain, ["neg", "pos"], input_kind="text")


def test_report_section_is_escaped_and_shows_curves_bars_selectivity():
    from sentiprobe.suites.lexcomp.report import render_section

    m = {"value": 0.8, "ci_low": 0.7, "ci_high": 0.9}
    entry = {"metrics": {"accuracy": m, "control_accuracy": {"value": 0.6}, "selectivity": {"value": 0.2},
                         "accuracy_ablation_phrase": m, "accuracy_ablation_context_phrase": m},
             "details": {"task": "nc-relations", "baselines": {"majority_all": 0.5, "best": "majority_all"},
                         "layers": {"0": 0.6, "1": 0.7}, "probe": {"repr": "<script>"}, "note": "a & b"}}
    html = render_section("lexcomp-nc-relations", entry)
    assert "<script>" not in html and "&lt;script&gt;" in html and "a &amp; b" in html
    assert "selectivity" in html and "Ablations" in html and "polyline" in html and "majority all" in html
