"""fetch / verify against real HTTP servers started here on 127.0.0.1 (never the internet).

The servers serve a tmp copy of a few small shipped data files, addressed by manifest path (a mirror).
Every client call has a short timeout and few retries without backoff, so each test is bounded.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import threading
import urllib.parse
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path

import pytest

from sentiprobe.cli import data_cmd
from sentiprobe.core.errors import ChecksumError, DownloadError, MissingDataError
from sentiprobe.data import fetch, verify
from sentiprobe.data.manifest import parse_manifest

pytestmark = pytest.mark.timeout(60)

SMALL = ["sentivent/lexicons/henry2008.tsv", "sentivent/triplets/winner_dev_joinedsemeval.tsv",
         "soul/LICENSE", "sentivent/iaa/sentiment_expressions-uncertain.csv"]
FAST = dict(timeout=2.0, retries=1, backoff=0.0)


def _manifest_doc() -> dict:
    return json.loads(resources.files("sentiprobe.data").joinpath("manifest.json").read_text(encoding="utf-8"))


def mini_manifest(paths=SMALL, extra=()):
    doc = _manifest_doc()
    doc["files"] = [f for f in doc["files"] if f["path"] in paths] + list(extra)
    return parse_manifest(doc, "mini-manifest")


@pytest.fixture
def mirror(tmp_path, data_dir) -> Path:
    root = tmp_path / "mirror"
    for p in SMALL:
        (root / p).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(data_dir / p, root / p)
    return root


def no_temp_files(d: Path) -> bool:
    return not [p for p in d.rglob("*") if p.name.endswith(".part")] if d.exists() else True


@contextmanager
def serve(root: Path, mode: str = "ok", fail_first: int = 0):
    """HTTP server on 127.0.0.1 serving ``root``. Modes: ok, corrupt, drop (half the body with the full
    Content-Length, then close), stall (headers and 10 bytes, then wait), long (extra bytes)."""
    state = {"requests": 0}
    release = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):  # keep test output clean
            pass

        def do_GET(self):
            state["requests"] += 1
            p = root / urllib.parse.unquote(self.path.lstrip("/"))
            if state["requests"] <= fail_first:
                self.send_error(503)
                return
            if not p.is_file():
                self.send_error(404)
                return
            body = p.read_bytes()
            if mode == "corrupt":
                body = bytes([body[0] ^ 0xFF]) + body[1:]
            if mode == "long":
                body += b"extra"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if mode == "drop":
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
            elif mode == "stall":
                self.wfile.write(body[:10])
                self.wfile.flush()
                release.wait(10)
            else:
                self.wfile.write(body)

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/", state
    finally:
        release.set()
        srv.shutdown()
        srv.server_close()
        t.join(5)


# ---- success -------------------------------------------------------------------------------
def test_fetch_from_http_mirror(tmp_path, mirror):
    m = mini_manifest()
    dest = tmp_path / "data"
    with serve(mirror) as (url, state):
        r = fetch(data_dir=dest, mirror=url, manifest=m, **FAST)
        assert r.ok and len(r.fetched) == len(SMALL) and state["requests"] == len(SMALL)
        for p in SMALL:
            assert (dest / p).read_bytes() == (mirror / p).read_bytes()
        again = fetch(data_dir=dest, mirror=url, manifest=m, **FAST)
        assert [o.action for o in again.files] == ["skipped"] * len(SMALL)
        assert state["requests"] == len(SMALL)  # nothing downloaded twice
        forced = fetch(data_dir=dest, mirror=url, force=True, manifest=m, **FAST)
        assert len(forced.fetched) == len(SMALL)
    assert no_temp_files(dest)
    assert verify(data_dir=dest, manifest=m).ok
    d = r.to_dict()
    assert d["schema_version"] == 1 and d["counts"] == {"fetched": len(SMALL)}


def test_fetch_from_mirror_directory_and_file_url(tmp_path, mirror):
    m = mini_manifest()
    r = fetch(data_dir=tmp_path / "a", mirror=mirror, manifest=m, **FAST)
    assert r.ok and len(r.fetched) == len(SMALL)
    r = fetch(data_dir=tmp_path / "b", mirror=mirror.as_uri(), manifest=m, **FAST)
    assert r.ok and len(r.fetched) == len(SMALL)
    assert verify(data_dir=tmp_path / "b", manifest=m).ok


def test_transient_server_errors_are_retried(tmp_path, mirror):
    m = mini_manifest(SMALL[:1])
    with serve(mirror, fail_first=1) as (url, state):
        r = fetch(data_dir=tmp_path, mirror=url, manifest=m, **FAST)
    assert r.ok and state["requests"] == 2


def test_progress_callback_sees_bytes(tmp_path, mirror):
    seen = []
    fetch(data_dir=tmp_path, mirror=mirror, manifest=mini_manifest(SMALL[:1]),
          progress=lambda p, done, total: seen.append((p, done, total)), **FAST)
    assert seen[-1] == (SMALL[0], 2145, 2145)


def test_corrupted_existing_file_is_replaced(tmp_path, mirror):
    m = mini_manifest(SMALL[:1])
    target = tmp_path / SMALL[0]
    target.parent.mkdir(parents=True)
    target.write_bytes(b"garbage")
    r = fetch(data_dir=tmp_path, mirror=mirror, manifest=m, **FAST)
    assert [o.action for o in r.files] == ["fetched"]
    assert target.read_bytes() == (mirror / SMALL[0]).read_bytes()


# ---- failures leave nothing behind ----------------------------------------------------------
def test_corrupted_body_raises_checksum_error_and_leaves_no_file(tmp_path, mirror):
    m = mini_manifest(SMALL[:1])
    e = m.entry(SMALL[0])
    body = (mirror / SMALL[0]).read_bytes()
    bad = hashlib.sha256(bytes([body[0] ^ 0xFF]) + body[1:]).hexdigest()
    with serve(mirror, mode="corrupt") as (url, state):
        with pytest.raises(ChecksumError) as ei:
            fetch(data_dir=tmp_path, mirror=url, manifest=m, **FAST)
        assert state["requests"] == 1  # a checksum mismatch is not retried
    err = ei.value
    assert err.path == SMALL[0] and err.expected == e.sha256 and err.actual == bad
    assert SMALL[0] in str(err) and e.sha256 in str(err) and bad in str(err)
    assert not (tmp_path / SMALL[0]).exists()
    assert no_temp_files(tmp_path)


def test_longer_body_is_a_checksum_error(tmp_path, mirror):
    with serve(mirror, mode="long") as (url, _), pytest.raises(ChecksumError, match="longer than the expected"):
        fetch(data_dir=tmp_path, mirror=url, manifest=mini_manifest(SMALL[:1]), **FAST)
    assert not (tmp_path / SMALL[0]).exists() and no_temp_files(tmp_path)


def test_connection_dropped_mid_file_raises_and_leaves_no_partial_file(tmp_path, mirror):
    with serve(mirror, mode="drop") as (url, state):
        with pytest.raises(DownloadError) as ei:
            fetch(data_dir=tmp_path, mirror=url, manifest=mini_manifest(SMALL[:1]), **FAST)
        assert state["requests"] == 2  # one retry
    msg = str(ei.value)
    assert SMALL[0] in msg and "truncated" in msg and "1072 of 2145" in msg
    assert not (tmp_path / SMALL[0]).exists()
    assert no_temp_files(tmp_path)


def test_stalled_server_times_out(tmp_path, mirror):
    with serve(mirror, mode="stall") as (url, _), pytest.raises(DownloadError, match=SMALL[0]):
        fetch(data_dir=tmp_path, mirror=url, manifest=mini_manifest(SMALL[:1]), timeout=0.5, retries=0)
    assert not (tmp_path / SMALL[0]).exists() and no_temp_files(tmp_path)


def test_missing_on_mirror_is_a_download_error(tmp_path, mirror):
    (mirror / SMALL[0]).unlink()
    with serve(mirror) as (url, _), pytest.raises(DownloadError, match="not found"):
        fetch(data_dir=tmp_path, mirror=url, manifest=mini_manifest(SMALL[:1]), **FAST)


@pytest.mark.parametrize("exc", [KeyboardInterrupt, RuntimeError])
def test_interrupted_fetch_leaves_no_temp_file(tmp_path, mirror, exc):
    def boom(path, done, total):
        assert list((tmp_path / path).parent.glob("*.part"))  # the temp file exists mid-download
        raise exc("interrupted")

    with serve(mirror) as (url, _), pytest.raises(exc):
        fetch(data_dir=tmp_path, mirror=url, manifest=mini_manifest(SMALL[:1]), progress=boom, **FAST)
    assert not (tmp_path / SMALL[0]).exists()
    assert no_temp_files(tmp_path)


def test_keep_going_reports_every_failure(tmp_path, mirror):
    m = mini_manifest()
    with serve(mirror, mode="corrupt") as (url, _):
        r = fetch(data_dir=tmp_path, mirror=url, manifest=m, keep_going=True, **FAST)
    assert not r.ok and len(r.failed) == len(SMALL)
    for o in r.failed:
        assert o.error == "ChecksumError" and o.expected_sha256 == m.entry(o.path).sha256 and o.actual_sha256
    assert no_temp_files(tmp_path)


# ---- unpublished, derived and non-downloadable entries ----------------------------------------
def _blob(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _unpublished(path: str, blob: str | None) -> dict:
    return {"path": path, "family": "soul", "status": "unpublished", "url": None, "source": None,
            "sha256": None, "size": None, "git_blob": blob, "licence": "test", "origin": None,
            "derive": None, "reason": "never published", "substitute": "dev split",
            "how_to_supply": "place it at <data-dir>/" + path}


def test_unpublished_files_are_optional(tmp_path, mirror):
    content = b"rid,review_text\n1,great\n"
    (mirror / "soul/train.csv").write_bytes(content)
    m = mini_manifest([], [_unpublished("soul/train.csv", _blob(content))])
    r = fetch(data_dir=tmp_path, mirror=mirror, manifest=m, **FAST)
    assert [o.action for o in r.files] == ["unpublished"] and r.ok
    assert "dev split" in r.files[0].message and not (tmp_path / "soul/train.csv").exists()
    v = verify(data_dir=tmp_path, manifest=m)
    assert v.ok and v.files[0].status == "unpublished"
    r = fetch(data_dir=tmp_path, mirror=mirror, manifest=m, include_unpublished=True, **FAST)
    assert [o.action for o in r.files] == ["fetched"]
    assert verify(data_dir=tmp_path, manifest=m).files[0].status == "unpublished-ok"
    wrong = mini_manifest([], [_unpublished("soul/train.csv", "0" * 40)])
    v = verify(data_dir=tmp_path, manifest=wrong)
    assert not v.ok and v.files[0].status == "unpublished-mismatch"
    (tmp_path / "soul/train.csv").unlink()
    with pytest.raises(ChecksumError, match="git blob"):
        fetch(data_dir=tmp_path, mirror=mirror, manifest=wrong, include_unpublished=True, **FAST)
    assert no_temp_files(tmp_path)


def test_transcribed_file_is_rebuilt_from_a_pinned_python_source(tmp_path):
    src = tmp_path / "srv" / "settings.py"
    src.parent.mkdir()
    src.write_bytes(b"import os\nSPLITS = {'test': ['a1'], 'dev': ['b2', 'c3']}\n")
    expected = json.dumps({"test": ["a1"], "dev": ["b2", "c3"]}, indent=1).encode()
    with serve(src.parent) as (url, _):
        entry = {"path": "sentivent/splits.json", "family": "sentivent", "status": "transcribed", "url": None,
                 "source": None, "sha256": hashlib.sha256(expected).hexdigest(), "size": len(expected),
                 "git_blob": _blob(expected), "licence": "test", "origin": "transcribed from settings.py",
                 "derive": {"recipe": "python-literal-to-json", "inputs": [],
                            "source": {"url": url + "settings.py", "git_blob": _blob(src.read_bytes())},
                            "params": {"name": "SPLITS", "indent": 1, "trailing_newline": False}}}
        r = fetch(data_dir=tmp_path / "d", manifest=mini_manifest([], [entry]), **FAST)
        assert [o.action for o in r.files] == ["derived"]
        assert (tmp_path / "d/sentivent/splits.json").read_bytes() == expected
        entry["derive"]["source"]["git_blob"] = "0" * 40
        with pytest.raises(ChecksumError, match="git blob"):
            fetch(data_dir=tmp_path / "e", manifest=mini_manifest([], [entry]), **FAST)
    assert not (tmp_path / "e/sentivent/splits.json").exists()


def test_file_without_url_or_recipe_cannot_be_downloaded(tmp_path):
    entry = {"path": "soul/made-by-hand.txt", "family": "soul", "status": "derived", "url": None,
             "source": None, "sha256": "0" * 64, "size": 3, "git_blob": None, "licence": "test",
             "origin": "typed by a curator", "derive": None}
    with pytest.raises(DownloadError, match="cannot be downloaded: typed by a curator"):
        fetch(data_dir=tmp_path, manifest=mini_manifest([], [entry]), **FAST)


# ---- verify --------------------------------------------------------------------------------
def test_verify_reports_missing_truncated_and_corrupted_files(tmp_path, mirror):
    m = mini_manifest()
    shutil.copytree(mirror, tmp_path / "d")
    d = tmp_path / "d"
    (d / SMALL[0]).unlink()
    truncated = (d / SMALL[1]).read_bytes()[:100]
    (d / SMALL[1]).write_bytes(truncated)
    flipped = bytearray((d / SMALL[2]).read_bytes())
    flipped[5] ^= 1
    (d / SMALL[2]).write_bytes(bytes(flipped))
    (d / "soul" / ".LICENSE.abc.part").write_bytes(b"left over")
    r = verify(data_dir=d, manifest=m)
    st = {f.path: f for f in r.files}
    assert not r.ok and len(r.problems) == 3
    assert st[SMALL[0]].status == "missing" and st[SMALL[0]].expected_sha256 == m.entry(SMALL[0]).sha256
    t = st[SMALL[1]]
    assert t.status == "size-mismatch" and t.actual_size == 100 and "truncated" in t.message
    assert t.actual_sha256 == hashlib.sha256(truncated).hexdigest() and t.expected_sha256 == m.entry(SMALL[1]).sha256
    c = st[SMALL[2]]
    assert c.status == "checksum-mismatch" and c.actual_sha256 == hashlib.sha256(bytes(flipped)).hexdigest()
    assert st[SMALL[3]].status == "ok"
    assert r.unexpected == ("soul/.LICENSE.abc.part",)
    with pytest.raises(MissingDataError):
        r.raise_for_problems()
    # fetch repairs all three
    assert fetch(data_dir=d, mirror=mirror, manifest=m, **FAST).ok
    assert verify(data_dir=d, manifest=m).ok


# ---- CLI -----------------------------------------------------------------------------------
def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="sentiprobe")
    data_cmd.add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(list(argv))
    return args.func(args)


def test_cli_fetch_and_verify(tmp_path, data_dir, capsys, monkeypatch):
    mirror = tmp_path / "mirror" / "soul"
    mirror.mkdir(parents=True)
    for name in ("LICENSE", "dev.csv", "test.csv"):
        shutil.copyfile(data_dir / "soul" / name, mirror / name)
    d = tmp_path / "d"
    assert run_cli("data", "fetch", "soul", "--data-dir", str(d), "--mirror", str(mirror.parent), "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["counts"] == {"fetched": 3, "unpublished": 1}
    assert run_cli("data", "verify", "soul", "--data-dir", str(d)) == 0
    text = capsys.readouterr().out
    assert "unpublished (optional): soul/train.csv" in text and "0 problem(s)" in text
    with open(d / "soul/test.csv", "r+b") as f:
        f.truncate(1000)
    assert run_cli("data", "verify", "soul", "--data-dir", str(d), "--json") == 1
    out = json.loads(capsys.readouterr().out)
    bad = [f for f in out["files"] if f["problem"]]
    assert [f["path"] for f in bad] == ["soul/test.csv"] and bad[0]["actual_size"] == 1000
    assert run_cli("data", "verify", "soul-rc", "--data-dir", str(d)) == 1
    capsys.readouterr()
    assert run_cli("data", "verify", "sol", "--data-dir", str(d)) == 2
    assert "did you mean 'soul'" in capsys.readouterr().err
