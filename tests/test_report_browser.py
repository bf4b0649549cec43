"""Reports in a real browser: headless Chromium loads a single-model and a comparison report, finds every
section and plot, logs no console error, and no injected text executes. Screenshots are kept as artefacts in
``build/test-artifacts/`` (or ``$SENTIPROBE_TEST_ARTIFACTS``).

Locally the tests skip when no Chromium is installed (`apt-get install chromium`); under ``CI=true`` a missing
browser is a failure.
"""
from __future__ import annotations

import copy
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from sentiprobe import api
from sentiprobe.report.html import render_comparison, render_report

MARK = "document.documentElement.setAttribute('data-pwned','1')"
PAYLOADS = [f"<script>{MARK}</script>", f'"><img src=x onerror="{MARK}">', f"</svg><script>{MARK}</script>",
            f"<svg onload=\"{MARK}\"></svg>"]


@pytest.fixture(scope="module")
def chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("Chromium is required in CI (the .ci/run script installs Debian's chromium)")
        pytest.skip("no Chromium found: install it with `apt-get install chromium` to run the browser tests")
    return exe


def _artifacts() -> Path:
    d = Path(os.environ.get("SENTIPROBE_TEST_ARTIFACTS") or Path(__file__).resolve().parents[1] / "build" /
             "test-artifacts")
    d.mkdir(parents=True, exist_ok=True)
    return d


def _browse(chromium: str, html_file: Path, tmp: Path, shot: str) -> tuple[str, str]:
    """(DOM after load, browser log) of a page, and a screenshot under the artefacts directory."""
    base = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-extensions", "--no-first-run", "--disable-sync", f"--user-data-dir={tmp / 'profile'}",
            "--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000"]
    dom = subprocess.run([*base, "--dump-dom", html_file.as_uri()], capture_output=True, text=True, timeout=120,
                         check=False)
    assert dom.returncode == 0, dom.stderr[-3000:]
    subprocess.run([*base, "--window-size=1280,2400", f"--screenshot={_artifacts() / shot}", html_file.as_uri()],
                   capture_output=True, text=True, timeout=120, check=False)
    return dom.stdout, dom.stderr


def _console_errors(log: str) -> list[str]:
    return [ln for ln in log.splitlines() if "CONSOLE" in ln and ("Uncaught" in ln or "Error" in ln)]


def _poison(doc, k=0):
    """Every string under ``details`` gets an injection payload appended (review text, terms, model outputs...)."""
    if isinstance(doc, dict):
        return {key: _poison(v, k + i) for i, (key, v) in enumerate(doc.items())}
    if isinstance(doc, list):
        return [_poison(v, k + i) for i, v in enumerate(doc)]
    if isinstance(doc, str):
        return doc + PAYLOADS[k % len(PAYLOADS)]
    return doc


@pytest.fixture(scope="module")
def runs(tmp_path_factory, data_dir):
    out = tmp_path_factory.mktemp("runs")
    docs = {}
    for model in ("majority", "tfidf-lr"):
        d = out / model
        doc = api.run(["arts-laptop", "soul-rc", "sentivent-polar"], [model], out=d, data_dir=str(data_dir),
                      limit=300, n_boot=50, progress=False)
        docs[model] = doc.get("runs", {}).get(model, doc) if "runs" in doc else doc
        if not (d / "results.json").exists():  # the one-layout run directory: out/<model>/
            assert (d / model / "results.json").exists()
    return out, docs


@pytest.mark.realdata
def test_single_report_in_a_browser(chromium, runs, tmp_path):
    _, docs = runs
    doc = copy.deepcopy(docs["majority"])
    html = tmp_path / "single.html"
    html.write_text(render_report(doc), encoding="utf-8")
    dom, log = _browse(chromium, html, tmp_path, "single-report.png")
    for suite in ("arts-laptop", "soul-rc", "sentivent-polar"):
        assert f'id="{suite}"' in dom
    assert dom.count("<svg") >= 4 and 'aria-label="confusion matrix"' in dom and "Provenance" in dom
    assert 'class="banner"' in dom  # a --limit run says so loudly
    assert 'name="viewport"' in dom
    assert not _console_errors(log), _console_errors(log)


@pytest.mark.realdata
def test_comparison_report_in_a_browser(chromium, runs, tmp_path):
    from sentiprobe.compare import compare_runs

    out, docs = runs
    dirs = [p.parent for p in sorted(out.rglob("results.json"))]
    comparison = compare_runs(dirs, names=[d.name if d.name in docs else d.parent.name for d in dirs], n_boot=100)
    html = tmp_path / "comparison.html"
    html.write_text(render_comparison(docs, comparison), encoding="utf-8")
    dom, log = _browse(chromium, html, tmp_path, "comparison-report.png")
    assert "profile of the models across suites" in dom
    for suite in ("arts-laptop", "soul-rc", "sentivent-polar"):
        assert f'id="{suite}"' in dom and 'class="leaderboard"' in dom
    assert dom.count('class="pairwise"') >= 3 and "p<sub>Holm</sub>" in dom
    assert not _console_errors(log), _console_errors(log)


@pytest.mark.realdata
def test_injected_text_never_executes(chromium, runs, tmp_path):
    _, docs = runs
    evil_name = PAYLOADS[0] + PAYLOADS[1]
    doc = copy.deepcopy(docs["majority"])
    for entry in doc["suites"].values():
        entry["details"] = _poison(entry["details"])
    doc["model"]["name"] = evil_name
    doc["command"] = PAYLOADS[2]
    doc["provenance"]["data_dir"] = PAYLOADS[1]
    pages = {"evil-single.html": render_report(doc),
             "evil-comparison.html": render_comparison({evil_name: doc, PAYLOADS[2]: docs["tfidf-lr"]})}
    for name, text in pages.items():
        f = tmp_path / name
        f.write_text(text, encoding="utf-8")
        dom, _ = _browse(chromium, f, tmp_path, name.replace(".html", ".png"))
        assert not re.search(r"<html[^>]*data-pwned", dom), f"an injected script ran in {name}"
        assert "<script>" not in text  # nothing is emitted unescaped in the first place
        assert "data-pwned" in dom  # the payload text is there, as text
