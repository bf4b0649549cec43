"""Reports in a real browser: headless Chromium loads a single-model and a comparison report, finds every
section and plot, logs no console error, and no injected text executes. Screenshots are kept as artefacts in
``build/test-artifacts/`` (or ``$SENTIPROBE_TEST_ARTIFACTS``).

Locally the tests skip when no Chromium is installed (`apt-get install chromium`); under ``CI=true`` a missing
browser is a failure.
"""
from __future__ import annotations

import copy
from html import unescape
import itertools
import json
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
            "--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000", "--window-size=1280,2400"]
    dom = subprocess.run([*base, "--dump-dom", html_file.as_uri()], capture_output=True, text=True, timeout=120,
                         check=False)
    assert dom.returncode == 0, dom.stderr[-3000:]
    subprocess.run([*base, "--window-size=1280,2400", f"--screenshot={_artifacts() / shot}", html_file.as_uri()],
                   capture_output=True, text=True, timeout=120, check=False)
    return dom.stdout, dom.stderr


MEASURE = """<script>(function () {
  var w = window.innerWidth, out = [];
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  document.querySelectorAll("body *").forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.width && r.right > w + 1) { out.push(e.tagName + "." + e.className + ":" + Math.round(r.right)); }
    var ox = getComputedStyle(e).overflowX;
    if ((ox === "auto" || ox === "scroll" || ox === "hidden") && e.scrollWidth > e.clientWidth + 1) {
      out.push("clipped " + e.tagName + "." + e.className + ":" + e.scrollWidth + ">" + e.clientWidth);
    }
  });
  document.documentElement.setAttribute("data-page-width", String(document.documentElement.scrollWidth));
  document.documentElement.setAttribute("data-overflow", out.slice(0, 20).join(" | "));
})();</script>"""


def _overflow(chromium: str, html_file: Path, tmp: Path, shot: str) -> tuple[int, str]:
    """(page width, elements reaching past or clipped at a 1,280 px window, every <details> opened) of a report,
    measured by a script added to a copy of it (reports themselves carry no script)."""
    probe = tmp / f"measure-{html_file.name}"
    probe.write_text(html_file.read_text(encoding="utf-8").replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    dom, _ = _browse(chromium, probe, tmp, shot)
    width = re.search(r'data-page-width="(\d+)"', dom)
    over = re.search(r'data-overflow="([^"]*)"', dom)
    assert width and over is not None, dom[:500]
    return int(width.group(1)), over.group(1)


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


SUITES3 = ["arts-laptop", "soul-rc", "sentivent-polar"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory, data_dir):
    """A main-job-shaped run: two models on three suites (``out/report.html`` is its comparison report)."""
    out = tmp_path_factory.mktemp("runs")
    doc = api.run(SUITES3, ["majority", "tfidf-lr"], out=out, data_dir=str(data_dir), limit=300, n_boot=50,
                  progress=False)
    docs = {m: doc["runs"][m] for m in ("majority", "tfidf-lr")}
    for m in docs:
        assert (out / m / "results.json").exists()
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
    out, _ = runs
    html = out / "report.html"  # written by the run, as the main job writes it
    dom, log = _browse(chromium, html, tmp_path, "comparison-report.png")
    assert "profile of the models across suites" in dom
    for suite in SUITES3:
        assert f'id="{suite}"' in dom and 'class="leaderboard"' in dom
    assert dom.count('class="pairwise"') >= 3 and "p<sub>Holm</sub>" in dom
    assert 'class="banner"' in dom and "seeded random sample" in dom  # the --limit sample is said
    assert not _console_errors(log), _console_errors(log)


@pytest.mark.realdata
def test_reports_fit_a_1280_px_window(chromium, runs, tmp_path):
    """No horizontal overflow and nothing clipped at 1,280 px: the run's comparison report, a model's report,
    and a comparison of six models (the widest pairwise matrix of the main job)."""
    from sentiprobe.compare import compare_runs

    out, docs = runs
    names = ["majority", "tfidf-lr", "majority-word", "minilm-lr", "probe-minilm", "gts-baseline"]
    dirs = [out / "majority", out / "tfidf-lr"] * 3
    six = compare_runs(dirs, names=names, n_boot=50, confidence=0.95)
    wide = tmp_path / "six.html"
    wide.write_text(render_comparison({n: docs["majority" if k % 2 == 0 else "tfidf-lr"] for k, n in enumerate(names)},
                                      six), encoding="utf-8")
    for page, shot in ((out / "report.html", "width-main.png"), (out / "tfidf-lr" / "report.html", "width-model.png"),
                       (wide, "width-six.png")):
        width, over = _overflow(chromium, page, tmp_path, shot)
        assert width <= 1280 and not over, f"{page.name}: page {width}px; {over}"


@pytest.mark.realdata
def test_sweep_report_in_a_browser(chromium, data_dir, tmp_path):
    """A 2 x 2 sweep's report: two systems (the models), paired tests per suite, fits 1,280 px."""
    from sentiprobe.run.executors import LocalExecutor
    from sentiprobe.run.sweep import parse_config, run_sweep

    cfg = parse_config({"models": ["majority", {"name": "tfidf-lr", "label": "tfidf-c1", "args": {"C": 1.0}}],
                        "suites": ["arts-laptop", "sentivent-polar"], "seeds": [0], "limit": 200, "n_boot": 50})
    out = tmp_path / "sweep"
    run_sweep(cfg, out, LocalExecutor(), data_dir=str(data_dir), cache_dir=str(tmp_path / "cache"))
    comparison = json.loads((out / "comparison.json").read_text())
    assert comparison["systems"] == ["majority", "tfidf-c1"] and set(comparison["suites"]) == {"arts-laptop",
                                                                                             "sentivent-polar"}
    dom, log = _browse(chromium, out / "report.html", tmp_path, "sweep-report.png")
    assert "2 models on 2 suites" in dom and dom.count('class="pairwise"') >= 2 and "jobs/" not in dom.split(
        'class="leaderboard"')[1].split("</table>")[0].replace('href="jobs/', "")
    assert not _console_errors(log), _console_errors(log)
    width, over = _overflow(chromium, out / "report.html", tmp_path, "width-sweep.png")
    assert width <= 1280 and not over, f"sweep report: page {width}px; {over}"


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


PROFILE_PROBE = """<script>(function () {
  var out = {bands: {}, dots: [], ticks: {}, legend: []};
  function box(e) { var r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }
  document.querySelectorAll("svg.profile rect.band").forEach(function (b) {
    out.bands[b.getAttribute("data-row")] = box(b); });
  document.querySelectorAll("svg.profile .dot").forEach(function (d) {
    out.dots.push({model: d.getAttribute("data-model"), row: d.getAttribute("data-row"),
                   panel: d.getAttribute("data-panel"), value: parseFloat(d.getAttribute("data-value")),
                   box: box(d), fill: getComputedStyle(d).fill, shape: d.getAttribute("d")}); });
  document.querySelectorAll("svg.profile text.tick").forEach(function (t) {
    var p = t.getAttribute("data-panel"), r = t.getBoundingClientRect();
    (out.ticks[p] = out.ticks[p] || []).push([t.textContent, (r.left + r.right) / 2]); });
  document.querySelectorAll("svg.profile .legend-entry").forEach(function (g) {
    var m = g.querySelector("path");
    out.legend.push([g.getAttribute("data-model"), getComputedStyle(m).fill, m.getAttribute("d")]); });
  document.documentElement.setAttribute("data-profile", JSON.stringify(out));
})();</script>"""


def _axis_value(text: str) -> float:
    """What a tick label says: ``25%`` -> 0.25, ``\u22120.5`` -> -0.5."""
    t = text.replace("\u2212", "-").strip()
    return float(t[:-1]) / 100 if t.endswith("%") else float(t)


def test_profile_dots_stay_in_their_rows_with_nine_distinct_styles(chromium, tmp_path):
    """The Profile figure of nine models, as a reader's eye meets it: every marker lies inside its own row's
    band (by the rendered coordinates), the nine models have nine distinct (colour, shape) styles, the same in
    every row and in the legend, and reading a marker's position off its own panel's tick labels gives back
    its value (a correlation is read on -1..1, never on the 0-100 % axis)."""
    from _profile_kit import NINE, nine_model_docs

    page = tmp_path / "nine.html"
    page.write_text(render_comparison(nine_model_docs(), None).replace("</body>", PROFILE_PROBE + "</body>"),
                    encoding="utf-8")
    dom, log = _browse(chromium, page, tmp_path, "profile-nine.png")
    found = re.search(r"data-profile=\"([^\"]*)\"", dom)
    assert found, dom[:500]
    probe = json.loads(unescape(found.group(1)))
    bands, dots = probe["bands"], probe["dots"]
    assert len(bands) == 10 and len(dots) >= 9 * 7
    tops = sorted((b[1], b[3]) for b in bands.values())
    assert all(a[1] <= b[0] + 0.5 for a, b in itertools.pairwise(tops)), "row bands overlap"
    for d in dots:
        left, top, right, bottom = bands[d["row"]]
        x0, y0, x1, y1 = d["box"]
        assert top - 0.5 <= y0 and y1 <= bottom + 0.5 and left <= x0 and x1 <= right, \
            f"{d['model']} on {d['row']} leaves its row: {d['box']}"
        ticks = sorted((x, _axis_value(t)) for t, x in probe["ticks"][d["panel"]])
        (xa, va), (xb, vb) = ticks[0], ticks[-1]
        read = va + ((x0 + x1) / 2 - xa) / (xb - xa) * (vb - va)
        assert abs(read - d["value"]) < 0.01 * (vb - va), f"{d['model']} on {d['row']}: axis reads {read}"
    styles = {}
    for d in dots:
        styles.setdefault(d["model"], set()).add((d["fill"], d["shape"]))
    assert set(styles) == set(NINE) and all(len(s) == 1 for s in styles.values()), styles
    assert len({next(iter(s)) for s in styles.values()}) == 9
    assert {m: (f, s) for m, f, s in probe["legend"]} == {m: next(iter(s)) for m, s in styles.items()}
    corr = [d for d in dots if d["panel"] == "correlation"]
    assert corr and {_axis_value(t) for t, _ in probe["ticks"]["correlation"]} == {-1.0, -0.5, 0.0, 0.5, 1.0}
    assert not _console_errors(log), _console_errors(log)
    width, over = _overflow(chromium, page, tmp_path, "profile-nine-width.png")
    assert width <= 1280 and not over, f"nine models: page {width}px; {over}"
