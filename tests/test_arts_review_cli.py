"""``sentiprobe arts review`` as a process: it prints its URL, the state survives Ctrl-C (exit 130, outputs written
as they stand), and a second run resumes and ends with exit 0 on the page's finish action."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import _arts_review_fixture as fx

SRC = Path(__file__).resolve().parents[1] / "src"


def _start(gen: Path, out: Path) -> tuple[subprocess.Popen, str, str]:
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    proc = subprocess.Popen([sys.executable, "-m", "sentiprobe", "arts", "review", str(gen), "--no-browser",
                             "--out", str(out), "--reviewer", "cli"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    assert proc.stdout is not None
    url = proc.stdout.readline().strip()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url), url
    with urllib.request.urlopen(url, timeout=30) as r:
        token = re.search(r'data-token="([^"]+)"', r.read().decode("utf-8"))
    assert token is not None
    return proc, url, token.group(1)


def _act(url: str, token: str, **payload) -> dict:
    req = urllib.request.Request(url + "api/action", data=json.dumps(payload).encode(), method="POST",
                                 headers={"X-Review-Token": token, "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def test_ctrl_c_exits_130_and_a_second_run_resumes_and_finishes(tmp_path):
    gen, out = fx.write(tmp_path / "gen.json"), tmp_path / "curated.json"
    proc, url, token = _start(gen, out)
    try:
        assert _act(url, token, action="accept")["view"]["reviewed"] == 1
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "1 accepted variant(s) written" in err
    assert sorted(json.loads(out.read_text(encoding="utf-8"))) == ["s1_0", "s1_0_adv1"]
    proc, url, token = _start(gen, out)
    try:
        view = _act(url, token, action="reject", reason="other")["view"]
        assert view["reviewed"] == 2
        assert "written to" in _act(url, token, action="finish")["finished"]
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["s1_0_adv1"]["provenance"]["review"]["reviewer"] == "cli"
