"""Verify on read (issue 15, item 1 and "What must exist" 1; item 16): a data file a suite reads must match
the manifest's sha256, even when it has the right size, and manifest paths must stay in the data dir.

The tmp data dirs hold symlinks to the shipped files (cheap, and symlinks are followed and verified) and
real copies of the files a test tampers with. Every tamper keeps the file's size: the old ``require_file``
checked only the size, so each of these tests failed before verify-on-read.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from sentiprobe import api
from sentiprobe.cli import main
from sentiprobe.core.errors import ChecksumError, TamperedDataError, UnsafePathError
from sentiprobe.core.hashing import file_sha256
from sentiprobe.data import integrity, load_manifest, require_file
from sentiprobe.data.integrity import StampStore, hash_user_file, verify_on_read
from sentiprobe.data.manifest import parse_manifest

pytestmark = pytest.mark.timeout(300)

ARTS_TEST = "arts/arts_testset/laptop_test_enriched.json"


@pytest.fixture(autouse=True)
def _fresh_memo():
    """Each test starts with nothing verified in this process (the memo is process-wide by design)."""
    integrity.clear_read_memo()
    yield
    integrity.clear_read_memo()


def flip_labels(data: bytes, n: int = 50) -> bytes:
    """Swap ``positive`` and ``negative`` polarities (same length) in the first ``n`` records."""
    count = 0

    def swap(m: re.Match) -> bytes:
        nonlocal count
        count += 1
        if count > n:
            return m.group(0)
        return b'"polarity": "negative"' if m.group(1) == b"positive" else b'"polarity": "positive"'

    out = re.sub(rb'"polarity": "(positive|negative)"', swap, data)
    assert len(out) == len(data) and out != data
    return out


def same_size_tamper(data: bytes) -> bytes:
    """Change one digit or letter in the middle of the file, keeping the size."""
    for i in range(len(data) // 2, len(data)):
        c = data[i:i + 1]
        if c.isdigit() or c.isalpha():
            new = b"7" if c.isdigit() and c != b"7" else (b"3" if c.isdigit() else c.swapcase())
            return data[:i] + new + data[i + 1:]
    raise AssertionError("nothing to tamper with")


def linked_copy(src: Path, dst: Path, families: list[str], tamper: dict[str, callable] | None = None) -> Path:
    """``dst`` laid out like ``src`` for ``families``: symlinks, except real tampered copies."""
    tamper = tamper or {}
    for fam in families:
        for p in (src / fam).rglob("*"):
            if not p.is_file():
                continue
            rel = p.relative_to(src).as_posix()
            q = dst / rel
            q.parent.mkdir(parents=True, exist_ok=True)
            if rel in tamper:
                q.write_bytes(tamper[rel](p.read_bytes()))
                assert q.stat().st_size == p.stat().st_size
            else:
                q.symlink_to(p)
    return dst


# ---- require_file -----------------------------------------------------------------------------
def test_tampered_file_of_the_right_size_is_refused(tmp_path, data_dir):
    d = linked_copy(data_dir, tmp_path / "dc", ["arts"], {ARTS_TEST: flip_labels})
    entry = load_manifest().entry(ARTS_TEST)
    with pytest.raises(TamperedDataError) as ei:
        require_file(d, ARTS_TEST)
    e = ei.value
    assert isinstance(e, ChecksumError)
    msg = str(e)
    assert str(d / ARTS_TEST) in msg and entry.sha256 in msg and file_sha256(d / ARTS_TEST) in msg
    assert "sentiprobe data fetch arts --force" in msg
    assert e.expected == entry.sha256 and e.actual == file_sha256(d / ARTS_TEST)


def test_symlink_to_a_tampered_copy_is_refused(tmp_path, data_dir):
    bad = tmp_path / "elsewhere" / "laptop.json"
    bad.parent.mkdir()
    bad.write_bytes(flip_labels((data_dir / ARTS_TEST).read_bytes()))
    d = linked_copy(data_dir, tmp_path / "dc", ["arts"])
    (d / ARTS_TEST).unlink()
    (d / ARTS_TEST).symlink_to(bad)
    with pytest.raises(TamperedDataError, match="symlink to .*laptop.json") as ei:
        require_file(d, ARTS_TEST)
    assert ei.value.actual == file_sha256(bad)


def test_untampered_copy_and_symlinks_pass(tmp_path, data_dir):
    d = linked_copy(data_dir, tmp_path / "dc", ["arts"])
    (d / ARTS_TEST).unlink()
    (d / ARTS_TEST).write_bytes((data_dir / ARTS_TEST).read_bytes())  # a real copy
    assert require_file(d, ARTS_TEST) == d / ARTS_TEST
    assert require_file(d, "arts/src_data/laptop/train.json") == d / "arts/src_data/laptop/train.json"


def test_second_read_in_a_process_does_not_rehash(tmp_path, data_dir, monkeypatch):
    calls = []
    real = integrity.file_sha256
    monkeypatch.setattr(integrity, "file_sha256", lambda p: calls.append(p) or real(p))
    d = linked_copy(data_dir, tmp_path / "dc", ["soul"])
    require_file(d, "soul/test.csv", stamp_dir=None)
    require_file(d, "soul/test.csv", stamp_dir=None)
    require_file(d, "soul/test.csv", stamp_dir=None)
    assert len(calls) == 1


def test_modified_file_is_rehashed_and_refused_after_a_good_read(tmp_path, data_dir):
    d = tmp_path / "dc"
    (d / "soul").mkdir(parents=True)
    f = d / "soul/test.csv"
    f.write_bytes((data_dir / "soul/test.csv").read_bytes())
    require_file(d, "soul/test.csv", stamp_dir=tmp_path / "stamps")
    f.write_bytes(same_size_tamper(f.read_bytes()))
    with pytest.raises(TamperedDataError):
        require_file(d, "soul/test.csv", stamp_dir=tmp_path / "stamps")


def test_stamp_store_spares_a_new_process_the_hash(tmp_path, data_dir, monkeypatch):
    """A new process is a fresh memo plus the stamp file the previous one wrote."""
    calls = []
    real = integrity.file_sha256
    monkeypatch.setattr(integrity, "file_sha256", lambda p: calls.append(p) or real(p))
    entry = load_manifest().entry("soul/test.csv")
    f = tmp_path / "test.csv"
    f.write_bytes((data_dir / "soul/test.csv").read_bytes())
    stamps = tmp_path / "cache"
    verify_on_read(entry, f, stamps)
    assert len(calls) == 1 and (stamps / integrity.STAMP_FILE).is_file()
    doc = json.loads((stamps / integrity.STAMP_FILE).read_text())
    assert str(f.resolve()) in doc["files"]

    integrity.clear_read_memo()  # "new process"
    verify_on_read(entry, f, stamps)
    assert len(calls) == 1  # the stamp was used
    assert StampStore(stamps).has(integrity._stamp_key(f.resolve(), f.stat(), "sha256", entry.sha256))

    # a changed file (same size, new mtime) no longer matches its stamp: re-hashed and refused
    integrity.clear_read_memo()
    f.write_bytes(same_size_tamper(f.read_bytes()))
    with pytest.raises(TamperedDataError):
        verify_on_read(entry, f, stamps)
    assert len(calls) == 2

    # tampered bytes with the old mtime restored: the ctime still differs from the stamp
    integrity.clear_read_memo()
    g = tmp_path / "g.csv"
    g.write_bytes((data_dir / "soul/test.csv").read_bytes())
    verify_on_read(entry, g, stamps)
    st = g.stat()
    g.write_bytes(same_size_tamper(g.read_bytes()))
    os.utime(g, ns=(st.st_atime_ns, st.st_mtime_ns))
    integrity.clear_read_memo()
    if g.stat().st_ctime_ns != st.st_ctime_ns:  # ctime granularity: always true on Linux filesystems
        with pytest.raises(TamperedDataError):
            verify_on_read(entry, g, stamps)


def test_malformed_or_unwritable_stamp_store_is_ignored(tmp_path, data_dir):
    entry = load_manifest().entry("soul/test.csv")
    stamps = tmp_path / "cache"
    stamps.mkdir()
    (stamps / integrity.STAMP_FILE).write_bytes(b"\xff\x00 not json")
    verify_on_read(entry, data_dir / "soul/test.csv", stamps)
    assert json.loads((stamps / integrity.STAMP_FILE).read_text())["files"]  # rewritten, valid again
    (tmp_path / "a-file").write_text("x")
    integrity.clear_read_memo()
    verify_on_read(entry, data_dir / "soul/test.csv", tmp_path / "a-file")  # the stamp dir is a file
    verify_on_read(entry, data_dir / "soul/test.csv", tmp_path / "a-file" / "sub")


def test_hash_user_file(tmp_path):
    f = tmp_path / "train.csv"
    f.write_bytes(b"text,label\nok,positive\n")
    link = tmp_path / "link.csv"
    link.symlink_to(f)
    assert hash_user_file(f) == hash_user_file(link) == file_sha256(f)
    from sentiprobe.core.errors import DataError, MissingDataError

    with pytest.raises(MissingDataError):
        hash_user_file(tmp_path / "absent.csv")
    with pytest.raises(DataError, match="not a regular file"):
        hash_user_file(tmp_path)


# ---- through the CLI and the API --------------------------------------------------------------
def test_cli_run_and_score_refuse_tampered_arts(tmp_path, data_dir, capsys):
    d = linked_copy(data_dir, tmp_path / "dc", ["arts"], {ARTS_TEST: flip_labels})
    sha = load_manifest().entry(ARTS_TEST).sha256
    rc = main(["run", "--suite", "arts-laptop", "--model", "majority", "--data-dir", str(d), "--out",
               str(tmp_path / "run"), "--n-boot", "10", "--no-progress"])
    err = capsys.readouterr().err
    assert rc != 0
    assert str(d / ARTS_TEST) in err and sha in err and "sentiprobe data fetch arts --force" in err
    assert "Traceback" not in err
    import json

    doc = json.loads((tmp_path / "run" / "majority" / "results.json").read_text())
    assert doc["suites"] == {} and doc["errors"]["arts-laptop"]["type"] == "TamperedDataError"

    preds = tmp_path / "p.csv"
    preds.write_text("item_id,label\n0:14_0,negative\n", encoding="utf-8")
    rc = main(["score", "--suite", "arts-laptop", "--predictions", str(preds), "--data-dir", str(d),
               "--n-boot", "10"])
    err = capsys.readouterr().err
    assert rc != 0 and sha in err and "sentiprobe data fetch arts --force" in err


def test_cli_run_passes_on_an_untampered_copy(tmp_path, data_dir, capsys):
    d = linked_copy(data_dir, tmp_path / "dc", ["arts"])
    assert main(["run", "--suite", "arts-laptop", "--model", "majority", "--data-dir", str(d), "--out",
                 str(tmp_path / "run"), "--n-boot", "10", "--no-progress", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["suites"]["arts-laptop"]["metrics"]


FAMILY_CASES = [  # (suite, families to lay out, file to tamper)
    ("arts-rest", ["arts"], "arts/arts_testset/rest_test_enriched.json"),
    ("sst7", ["noncompsst", "sst"], "noncompsst/sst7/test.tsv"),
    ("noncompsst", ["noncompsst", "sst"], "sst/stanfordSentimentTreebank/datasetSplit.txt"),
    ("sentivent-polar", ["sentivent"], "sentivent/coarse/sentivent_implicit.csv"),
    ("soul-rc", ["soul"], "soul/test.csv"),
]


@pytest.mark.parametrize("suite,families,target", FAMILY_CASES, ids=[c[0] for c in FAMILY_CASES])
def test_api_run_refuses_one_tampered_file_per_family(tmp_path, data_dir, suite, families, target):
    d = linked_copy(data_dir, tmp_path / "dc", families, {target: same_size_tamper})
    doc = api.run([suite], ["majority"], out=tmp_path / "run", data_dir=str(d), use_cache=False, n_boot=10,
                  limit=5, progress=False)["runs"]["majority"]
    err = doc["errors"][suite]  # recorded, the run goes on with the other suites and exits non-zero
    assert err["type"] == TamperedDataError.__name__ and target in err["message"] and not doc["suites"]
    assert f"sentiprobe data fetch {target.split('/', 1)[0]} --force" in err["message"]


# ---- manifest paths (item 16) -----------------------------------------------------------------
def _doc_with_path(path: str) -> dict:
    from importlib import resources

    doc = json.loads(resources.files("sentiprobe.data").joinpath("manifest.json").read_text(encoding="utf-8"))
    f = dict(next(x for x in doc["files"] if x["path"] == "soul/test.csv"))
    f["path"] = path
    doc["files"] = [f]
    return doc


@pytest.mark.parametrize("path", ["soul/../../etc/passwd", "soul/a/../../x", "/soul/test.csv", "soul/..",
                                  "soul\\..\\x", "C:/soul/x", ""])
def test_manifest_parser_refuses_paths_leaving_the_data_dir(path):
    with pytest.raises(UnsafePathError) as ei:
        parse_manifest(_doc_with_path(path), "evil-manifest.json")
    assert "evil-manifest.json" in str(ei.value) and "'path'" in str(ei.value)


def test_require_file_refuses_unsafe_paths(tmp_path):
    (tmp_path / "outside.txt").write_text("secret")
    d = tmp_path / "data"
    (d / "soul").mkdir(parents=True)
    with pytest.raises(UnsafePathError):
        require_file(d, "soul/../../outside.txt")
    with pytest.raises(UnsafePathError):
        require_file(d, str(tmp_path / "outside.txt"))
    (d / "soul" / "link.txt").symlink_to(tmp_path / "outside.txt")  # not in the manifest: cannot be verified
    with pytest.raises(UnsafePathError, match="outside the data directory"):
        require_file(d, "soul/link.txt")


def test_a_new_process_uses_the_stamp_left_by_the_previous_one(tmp_path, data_dir):
    """Two real processes: the second must not hash (its hash function raises) and still accept the file."""
    import subprocess
    import sys

    import sentiprobe

    code = (
        "import sys\n"
        "from sentiprobe.data import integrity, require_file\n"
        "if sys.argv[1] == 'second':\n"
        "    def boom(p):\n"
        "        raise AssertionError('re-hashed ' + str(p))\n"
        "    integrity.file_sha256 = boom\n"
        f"require_file({str(data_dir)!r}, 'soul/test.csv', stamp_dir={str(tmp_path / 'stamps')!r})\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(sentiprobe.__file__).parents[1])}
    for which in ("first", "second"):
        r = subprocess.run([sys.executable, "-c", code, which], env=env, capture_output=True, text=True, check=False,
                           timeout=60)
        assert r.returncode == 0, r.stderr
    assert (tmp_path / "stamps" / integrity.STAMP_FILE).is_file()


def test_hand_supplied_unpublished_file_must_match_its_git_blob(tmp_path, data_dir):
    d = tmp_path / "dc"
    (d / "soul").mkdir(parents=True)
    (d / "soul/train.csv").write_text("text,label\nnot the upstream file,positive\n", encoding="utf-8")
    with pytest.raises(TamperedDataError, match="git hash-object") as ei:
        require_file(d, "soul/train.csv", stamp_dir=None)
    assert load_manifest().entry("soul/train.csv").git_blob in str(ei.value)
