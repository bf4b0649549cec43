"""Issue 22's ``arts generate`` / ``arts-custom`` cases at the API level (the CLI cases are in the bad-input
corpus, ``tests/badinput/arts_generate_cases.py``): colliding ids, outputs that would overwrite inputs, a cache
dir that is a file, a damaged WordNet copy, over-long sentences, empty and over-deep arts-custom files."""
from __future__ import annotations

import json
import time

import pytest

from sentiprobe.core.errors import DataError
from sentiprobe.suites import get_suite
from sentiprobe.generate.arts import GenerateConfig
from sentiprobe.generate.arts.inputs import read_input
from sentiprobe.generate.arts.pipeline import check_paths, generate_file
from sentiprobe.generate.arts.resources import _copy_ok, prepare_wordnet

ASP = {"term": "screen", "from": 4, "to": 10, "polarity": "positive"}
LINE = {"id": "s", "sentence": "The screen is great.", "aspects": [ASP]}


def test_colliding_ids_are_refused_naming_file_and_record(tmp_path):
    jl = tmp_path / "a.jsonl"
    jl.write_text(json.dumps(LINE) + "\n" + json.dumps(LINE) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"'s' is used twice \(lines 1 and 2\).*line 2"):
        read_input(jl)
    jl.write_text(json.dumps({**LINE, "aspects": [{**ASP, "id": "x"}, {**ASP, "id": "x"}]}) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match="aspect id 'x' is used twice"):
        read_input(jl)
    jl.write_text(json.dumps(LINE) + "\n" + json.dumps({**LINE, "id": "t", "aspects": [{**ASP, "id": "s_0"}]}) + "\n")
    with pytest.raises(DataError, match="'s_0' is used twice"):  # an explicit id equal to another's default id
        read_input(jl)
    rec = {"sentence": "The screen is great.", "term_list": {"a_0": {**ASP, "id": "a_0"}}}
    tw = tmp_path / "t.json"
    tw.write_text('{"a": ' + json.dumps(rec) + ', "a": ' + json.dumps(rec) + "}", encoding="utf-8")
    with pytest.raises(DataError, match="'a' appears twice"):
        read_input(tw)
    tw.write_text(json.dumps({"a": rec, "b": rec}), encoding="utf-8")  # one aspect id in two sentences
    with pytest.raises(DataError, match="'a_0' is used twice"):
        read_input(tw)
    x = tmp_path / "t.xml"
    x.write_text('<sentences><sentence id="1"><text>a</text></sentence><sentence id="1"><text>b</text></sentence>'
                 "</sentences>", encoding="utf-8")
    with pytest.raises(DataError, match="appears twice"):
        read_input(x)


def test_outputs_never_overwrite_inputs_or_directories(tmp_path):
    src = tmp_path / "in.json"
    src.write_text("{}", encoding="utf-8")
    cfg = GenerateConfig(rank="rules")
    with pytest.raises(DataError, match="same file as --input"):
        check_paths(src, src, cfg)
    with pytest.raises(DataError, match="report beside --out is the same (file|path) as --input"):
        check_paths(tmp_path / "in.report.json", tmp_path / "in.json", cfg)
    (tmp_path / "d").mkdir()
    with pytest.raises(DataError, match="is a directory"):
        check_paths(src, tmp_path / "d", cfg)
    pool = tmp_path / "pool.json"
    pool.write_text("{}", encoding="utf-8")
    with pytest.raises(DataError, match="--pool"):
        check_paths(src, pool, GenerateConfig(rank="rules", pool_file=str(pool), phrase_source="clauses"))
    (tmp_path / "c").write_text("x", encoding="utf-8")
    with pytest.raises(DataError, match="--cache-dir is a file"):
        check_paths(src, tmp_path / "o.json", cfg, tmp_path / "c")
    with pytest.raises(DataError, match="is a file"):
        prepare_wordnet(tmp_path / "c")


def test_a_damaged_wordnet_copy_is_detected_and_rebuilt(tmp_path):
    root = prepare_wordnet(tmp_path)
    wn = root / "corpora" / "wordnet"
    f = wn / "data.adj"
    good = f.read_bytes()
    f.write_bytes(good[:1000])
    assert not _copy_ok(wn)
    prepare_wordnet(tmp_path)
    assert f.read_bytes() == good and _copy_ok(wn)
    (wn / ".complete").write_text("wordnet-3.0\n", encoding="utf-8")  # the old marker format: rebuilt too
    (wn / "index.adj").unlink()
    prepare_wordnet(tmp_path)
    assert (wn / "index.adj").is_file() and _copy_ok(wn)


def test_an_over_long_sentence_is_refused_quickly_with_its_record(tmp_path):
    jl = tmp_path / "big.jsonl"
    jl.write_text(json.dumps({"id": "big", "sentence": "great " * 400_000, "aspects": [
        {"term": "great", "from": 0, "to": 5, "polarity": "positive"}]}) + "\n", encoding="utf-8")
    t0 = time.perf_counter()
    with pytest.raises(DataError, match="2400000 characters; the limit is 2000") as exc:
        generate_file(jl, tmp_path / "o.json", GenerateConfig(rank="rules"))
    assert exc.value.record == "big" and time.perf_counter() - t0 < 30
    assert not (tmp_path / "o.json").exists()


def test_arts_custom_refuses_an_empty_and_an_over_deep_file(tmp_path):
    empty = tmp_path / "e.json"
    empty.write_text("{}", encoding="utf-8")
    with pytest.raises(DataError, match="no records"):
        get_suite("arts-custom", tmp_path, {"path": str(empty)}).items("test")
    deep = tmp_path / "d.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(DataError, match="nested too deeply"):
        get_suite("arts-custom", tmp_path, {"path": str(deep)}).items("test")
