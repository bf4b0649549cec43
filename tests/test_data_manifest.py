"""The data manifest: coverage of the shipped data, pinned URLs, unpublished entries, verify, require_file."""
from __future__ import annotations

import hashlib
import importlib.util
import json
import pickle
import re
import shutil
from pathlib import Path

import pytest

from sentiprobe.core.errors import ChecksumError, DataError, MissingDataError, UnknownNameError
from sentiprobe.data import require_file, resolve_families, verify
from sentiprobe.data.derive import derive_bytes, python_literal, read_plain_pickle
from sentiprobe.data.manifest import load_manifest, parse_manifest

REPO = Path(__file__).resolve().parents[1]
FAMILIES = {"arts", "noncompsst", "sst", "sentivent", "lexcomp", "soul"}
RAW = re.compile(r"^https://raw\.githubusercontent\.com/([^/]+/[^/]+)/([0-9a-f]{40})/(\S+)$")


@pytest.fixture(scope="module")
def manifest():
    return load_manifest()


def _raw_doc() -> dict:
    return json.loads((REPO / "src" / "sentiprobe" / "data" / "manifest.json").read_text(encoding="utf-8"))


# ---- structure ----------------------------------------------------------------------------
def test_manifest_schema_and_families(manifest):
    assert manifest.schema_version == 1
    assert set(manifest.families) == FAMILIES
    for fam in manifest.families.values():
        assert fam.sources and all(re.fullmatch(r"[0-9a-f]{40}", s.commit) for s in fam.sources)
        assert fam.licence and fam.citation


def test_every_upstream_url_is_pinned_to_its_source_commit(manifest):
    for e in manifest:
        if e.url is None:
            continue
        m = RAW.match(e.url)
        assert m, e.url
        assert e.source is not None
        assert (m.group(1), m.group(2)) == (e.source.repository, e.source.commit), e.path
        assert e.url.endswith(e.source.path.replace(" ", "%20").replace("+", "%2B")), e.path
        assert e.source.commit in {s.commit for s in manifest.families[e.family].sources}


def test_known_urls_and_renames(manifest):
    get = manifest.entry
    assert get("arts/output/laptop_results.csv").url == (
        "https://raw.githubusercontent.com/zhijing-jin/ARTS_TestSet/bb725433ec49a89cfed221e8b0b72a6a1053282a/"
        "output/laptop_results.csv")
    assert get("sentivent/predictions/gold-test-easy-sweep-17.csv").source.path == (
        "data/predictions/easy-sweep-17-wandb_export_2021-04-19T11 23 53.492+02 00.csv")
    hp = get("sentivent/results-hyperparameter-search/senti-nolex-roberta-large.csv").source
    assert hp.path.startswith("data/results-hyperparameter-search/senti-nolex-roberta-large-wandb_export_2021-05-")
    assert get("sentivent/iaa/events-polarity_sentiment.csv").source.path == (
        "agreestat-iaa-files/agreestat_interrater_data.csv")
    assert get("sentivent/triplets/winner_dev_joinedsemeval.tsv").source.path == "code/BertModel/winner_dev.tsv"
    labels = get("sst/stanfordSentimentTreebank/sentiment_labels.txt")
    assert labels.source.repository == "clir/clearnlp-sa"
    assert labels.source.commit == "e25a93ce7614160353b084f1a27e1b7a33a846a2"
    assert "%20Sentiment/" in labels.url
    assert get("sst/stanfordSentimentTreebank/SOStr.txt").source.repository == "slee288/project4"
    assert get("lexcomp/mwe_type/test.jsonl").source.path == "diagnostic_classifiers/data/mwe_type/test.jsonl"
    assert get("soul/dev.csv").source.path == "data/dev.csv"
    assert get("noncompsst/sst7/test.tsv").source.path == "sst7/test.tsv"


def test_files_without_upstream_url_say_how_they_were_made(manifest):
    splits = manifest.entry("sentivent/splits.json")
    assert splits.url is None and splits.status == "transcribed"
    assert "SPLITS_DOC_EXPERIMENTS" in splits.origin
    assert splits.derive.recipe == "python-literal-to-json"
    assert splits.derive.source_git_blob == "12be28b0a4ab1dda0dcbc5077e0f56819bfaae43"
    for name in ("json", "tsv"):
        e = manifest.entry(f"noncompsst/noncompsst/ungrammaticality.{name}")
        assert e.url is None and e.status == "derived" and e.origin and e.derive is not None
    for e in manifest:
        assert (e.url is None) == (e.status in ("derived", "transcribed") or (e.optional and e.source is None))


def test_unpublished_entries(manifest):
    unpub = {e.path: e for e in manifest if e.optional}
    for p in ("soul/train.csv", "noncompsst/sst7/train.tsv", "sentivent/triplets/sentivent-event-devproto/train.json",
              "sentivent/lexicons/SentiWordNet_3.0.0.txt", "lexcomp/vpc_classification/train.jsonl",
              "lexcomp/lvc_classification/test.jsonl", "sst/stanfordSentimentTreebank/dictionary.txt"):
        assert p in unpub, p
    assert unpub["soul/train.csv"].git_blob == "6d107a408acc1b175f1ebe9152e8a8ed459b75e5"
    assert "--train-file" in unpub["soul/train.csv"].how_to_supply
    for e in unpub.values():
        assert e.sha256 is None and e.size is None
        assert e.reason and e.substitute and e.how_to_supply and e.licence


def test_parse_manifest_errors_name_record_and_field():
    doc = _raw_doc()
    bad = json.loads(json.dumps(doc))
    bad["schema_version"] = 99
    with pytest.raises(DataError, match="schema_version"):
        parse_manifest(bad)
    bad = json.loads(json.dumps(doc))
    del bad["files"][3]["sha256"]
    with pytest.raises(DataError) as ei:
        parse_manifest(bad)
    assert ei.value.field == "sha256" and ei.value.record == doc["files"][3]["path"]
    bad = json.loads(json.dumps(doc))
    bad["files"].append(dict(bad["files"][0]))
    with pytest.raises(DataError, match="duplicate"):
        parse_manifest(bad)


def test_resolve_families_maps_suites_and_suggests(manifest):
    assert resolve_families(None) is None
    assert resolve_families(["arts-laptop", "arts", "soul"], {"arts-laptop": "arts"}) == ["arts", "soul"]
    with pytest.raises(UnknownNameError, match="did you mean 'arts'"):
        resolve_families("art")
    with pytest.raises(UnknownNameError):
        manifest.select("nope")


# ---- real data -----------------------------------------------------------------------------
def test_manifest_covers_real_data_exactly(data_dir, manifest):
    on_disk = {p.relative_to(data_dir).as_posix() for p in data_dir.rglob("*")
               if p.is_file() and p.name != "PROVENANCE.md"}
    listed = {e.path for e in manifest if not e.optional}
    assert on_disk == listed
    for e in manifest:
        p = data_dir / e.path
        if e.optional:
            assert not p.exists(), e.path
            continue
        data = p.read_bytes()
        assert len(data) == e.size, e.path
        assert hashlib.sha256(data).hexdigest() == e.sha256, e.path
        assert hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() == e.git_blob, e.path


def test_manifest_json_is_up_to_date_with_build_script(data_dir):
    spec = importlib.util.spec_from_file_location("build_manifest", REPO / "tools" / "build_manifest.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    fresh = mod.render(mod.build(data_dir))
    assert fresh == (REPO / "src" / "sentiprobe" / "data" / "manifest.json").read_text(encoding="utf-8")


def test_verify_real_data_passes(data_dir):
    r = verify(data_dir=data_dir)
    assert r.ok, [f.message for f in r.problems]
    assert r.counts() == {"ok": 121, "unpublished": 14}
    assert r.unexpected == ()
    d = r.to_dict()
    assert d["schema_version"] == 1 and d["ok"] is True


def test_verify_one_family(data_dir):
    r = verify("soul", data_dir=data_dir)
    assert r.families == ("soul",)
    assert {f.path: f.status for f in r.files} == {
        "soul/LICENSE": "ok", "soul/dev.csv": "ok", "soul/test.csv": "ok", "soul/train.csv": "unpublished"}


def test_recipes_rebuild_the_derived_noncompsst_files(data_dir, manifest):
    for name in ("json", "tsv"):
        e = manifest.entry(f"noncompsst/noncompsst/ungrammaticality.{name}")
        out = derive_bytes(e, data_dir, lambda url, blob: pytest.fail("no download expected"))
        assert hashlib.sha256(out).hexdigest() == e.sha256


def test_plain_pickle_reader_refuses_code():
    assert read_plain_pickle(pickle.dumps({"a": True, "b": [1, None, 2.5], "c": {"d": "x"}}, protocol=4)) == {
        "a": True, "b": [1, None, 2.5], "c": {"d": "x"}}
    with pytest.raises(DataError, match="refusing pickle opcode"):
        read_plain_pickle(pickle.dumps({"p": Path("x")}, protocol=4), "evil.pickle")
    with pytest.raises(DataError, match="refusing pickle opcode"):
        read_plain_pickle(pickle.dumps(set([1]), protocol=4))


def test_python_literal_is_parsed_not_run():
    src = b"import os\nos.system('exit 1')\nX = {'test': ['a', 'b'], 'dev': []}\n"
    assert python_literal(src, "X") == {"test": ["a", "b"], "dev": []}
    with pytest.raises(DataError, match="not a plain literal"):
        python_literal(b"X = os.getcwd()\n", "X")
    with pytest.raises(DataError, match="no module-level assignment"):
        python_literal(b"Y = 1\n", "X")


# ---- require_file --------------------------------------------------------------------------
def test_require_file_hints(tmp_path, data_dir):
    with pytest.raises(MissingDataError, match="sentiprobe data fetch arts"):
        require_file(tmp_path, "arts/output/laptop_results.csv")
    with pytest.raises(MissingDataError, match="--train-file"):
        require_file(tmp_path, "soul/train.csv")
    with pytest.raises(MissingDataError, match="sentiprobe data fetch soul"):
        require_file(tmp_path, "soul/not-in-manifest.csv")
    assert require_file(data_dir, "soul/LICENSE") == data_dir / "soul/LICENSE"
    (tmp_path / "soul").mkdir()
    shutil.copyfile(data_dir / "soul/LICENSE", tmp_path / "soul/LICENSE")
    assert require_file(tmp_path, "soul/LICENSE").is_file()
    with open(tmp_path / "soul/LICENSE", "ab") as f:
        f.write(b"x")
    with pytest.raises(ChecksumError) as ei:
        require_file(tmp_path, "soul/LICENSE")
    assert ei.value.expected == load_manifest().entry("soul/LICENSE").sha256
    assert ei.value.actual == hashlib.sha256((tmp_path / "soul/LICENSE").read_bytes()).hexdigest()
