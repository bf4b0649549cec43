"""The review page of ``sentiprobe arts review`` in a real browser (headless Chromium driven through Debian's
chromedriver by selenium): the keyboard flow (accept, reject with a tag, label fix, edit and its re-validation,
undo), resuming after a reload and after a server restart, escaping of every text, and the keystrokes a 100-variant
review takes.

Locally the tests skip without Chromium, chromedriver or selenium (`apt-get install chromium chromium-driver`,
`pip install selenium`); under ``CI=true`` a missing piece is a failure.
"""
from __future__ import annotations

import json
import os
import shutil
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import _arts_review_fixture as fx
from sentiprobe.run.arts_review_server import ReviewSession, start
from sentiprobe.suites.arts.review import state_path


def _need(what: str, hint: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is required in CI ({hint})")
    pytest.skip(f"no {what}: {hint}")


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _need("selenium", "pip install selenium (the dev extra)")
    exe = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    drv = shutil.which("chromedriver")
    if exe is None or drv is None:
        _need("Chromium and chromedriver", "apt-get install chromium chromium-driver")
    opts = webdriver.ChromeOptions()
    opts.binary_location = exe
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-extensions", "--no-first-run",
              "--disable-background-networking", "--disable-sync", "--window-size=1280,1600",
              f"--user-data-dir={tmp_path_factory.mktemp('profile')}"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(drv), options=opts)
    yield d
    d.quit()


class Page:
    """The page under test: keys go to the document, and each waits for the server's answer."""

    def __init__(self, driver, url: str) -> None:
        self.d, self.url = driver, url
        self.keys = 0
        self.load()

    def load(self) -> None:
        self.d.get(self.url)
        self._wait(lambda d: d.find_element("tag name", "html").get_attribute("data-ready"))

    def _wait(self, cond, timeout: float = 20):
        from selenium.webdriver.support.ui import WebDriverWait

        return WebDriverWait(self.d, timeout).until(cond)

    def ready(self) -> str:
        return self.d.find_element("tag name", "html").get_attribute("data-ready") or ""

    def press(self, *keys: str, server: bool = True) -> None:
        """Send keys; with ``server``, wait until the page shows the server's answer to the last one."""
        from selenium.webdriver.common.action_chains import ActionChains

        before = self.ready().rsplit(":", 1)[-1]
        chain = ActionChains(self.d)
        for k in keys:
            chain.send_keys(k)
        chain.perform()
        self.keys += len(keys)
        if server:
            self._wait(lambda d: self.ready().rsplit(":", 1)[-1] != before)

    def type_edit(self, text: str) -> None:
        from selenium.webdriver.common.keys import Keys

        self.press("e", server=False)
        box = self.d.find_element("id", "edit-text")
        box.clear()
        box.send_keys(text)
        self.press(Keys.ENTER)

    def text(self, el_id: str) -> str:
        return self.d.find_element("id", el_id).text

    def pwned(self) -> bool:
        return self.d.find_element("tag name", "html").get_attribute("data-pwned") is not None


def _serve(gen: Path, **kw):
    return start(ReviewSession(gen, reviewer="tester", **kw))


def test_keyboard_flow_edit_undo_resume_and_escaping(driver, tmp_path):
    from selenium.webdriver.common.keys import Keys

    gen = fx.write(tmp_path / "gen.json")
    out, audit = tmp_path / "curated.json", tmp_path / "audit.csv"
    srv = _serve(gen, out=out, export_audit=audit)
    try:
        p = Page(driver, srv.url)
        assert p.text("progress") == "0 of 5 reviewed" and p.text("key") == "s1_0_adv1"
        assert "service: negative" in p.text("others")
        assert p.d.find_element("css selector", "#diff del").text.strip().startswith("good")
        assert p.d.find_element("css selector", "#diff ins").text.strip().startswith("bad")
        # an edit that loses the other aspect is refused with a message, and nothing changes
        p.type_edit("The food is bad but the staff is slow.")
        assert "'service'" in p.text("message") and "no longer occurs" in p.text("message")
        p.type_edit("Sadly, the food is bad, but the service is slow.")
        assert p.text("message") == "" and "Sadly" in p.text("diff")
        assert p.d.find_element("id", "v-before").get_attribute("textContent") == "Sadly, the "
        assert p.text("v-term") == "food"  # the target at its recomputed offsets
        p.press("a")  # accept the edited variant
        assert p.text("progress") == "1 of 5 reviewed" and p.text("key") == "s1_0_adv2"
        p.press("r", "2")  # reject: negation sense
        assert p.text("key") == "s1_1_adv1"
        p.press("l")  # label fix: positive -> negative
        assert p.text("label") == "negative" and "fixed" in p.text("label-note")
        p.press("a")
        assert p.text("key") == "s2_0_adv1" and p.text("progress") == "3 of 5 reviewed"
        # the <script> in the sentence, the notes and the verifier's verdict is shown as text and never runs
        assert fx.XSS in p.text("source") and fx.XSS in p.text("diff") and fx.XSS in p.text("notes")
        assert f"{fx.XSS}: neutral" in p.text("others")
        assert not p.pwned()
        p.press("u")  # undo the accept: back on s1_1_adv1, the label fix kept
        assert p.text("progress") == "2 of 5 reviewed" and p.text("key") == "s1_1_adv1"
        assert p.text("label") == "negative"
        p.press("a")
        p.press("r", "1")  # s2_0_adv1: context clash
        # reload: the page resumes where it was
        p.load()
        assert p.text("progress") == "4 of 5 reviewed" and p.text("key") == "s3_0_adv3"
        assert "staff: negative (appended)" in p.text("others")
        p.press(Keys.ARROW_LEFT)
        assert p.text("key") == "s2_0_adv1" and "rejected: context clash by tester" in p.text("decision")
        p.press("j")
        assert p.text("key") == "s3_0_adv3"
    finally:
        srv.stop()
    # a new server on the same file resumes from the sidecar; finishing writes the outputs
    assert json.loads(state_path(gen).read_text(encoding="utf-8"))["position"] == 4
    srv = _serve(gen, out=out, export_audit=audit)
    try:
        p = Page(driver, srv.url)
        assert p.text("progress") == "4 of 5 reviewed" and p.text("key") == "s3_0_adv3"
        p.press("a")
        p.press("F")
        assert srv.session.finished.is_set() and "written to" in p.text("message")
    finally:
        srv.stop()
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert sorted(k for k in doc if "_adv" in k) == ["s1_0_adv1", "s1_1_adv1", "s3_0_adv3"]
    assert doc["s1_0_adv1"]["sentence"] == "Sadly, the food is bad, but the service is slow."
    assert doc["s1_1_adv1"]["polarity"] == "negative"
    assert doc["s1_1_adv1"]["provenance"]["review"]["reviewer"] == "tester"
    assert "context clash" in audit.read_text(encoding="utf-8")
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    assert errors == [], errors


def test_requests_need_the_token_and_the_loopback_host(tmp_path):
    srv = _serve(fx.write(tmp_path / "gen.json"))
    try:
        req = urllib.request.Request(srv.url + "api/action", data=b'{"action": "accept"}', method="POST")
        with pytest.raises(urllib.error.HTTPError) as exc:
            urllib.request.urlopen(req, timeout=10)
        assert exc.value.code == 403
        bad_host = urllib.request.Request(srv.url, headers={"Host": "attacker.example:80"})
        with pytest.raises(urllib.error.HTTPError) as exc:
            urllib.request.urlopen(bad_host, timeout=10)
        assert exc.value.code == 403
        assert srv.httpd.server_address[0] == "127.0.0.1"
        assert srv.session.state.decisions == {}
    finally:
        srv.stop()


MIX = 100


def test_keystrokes_per_variant_over_100(driver, tmp_path):
    """100 variants reviewed with a realistic mix (70 accepted, 20 rejected with a tag, 8 label fixes, 2 text
    edits): the keystrokes per variant are printed (docs/arts-generate.md#reviewing states the figure)."""
    gen = fx.synthetic(tmp_path / "many.json", MIX)
    srv = _serve(gen)
    try:
        p = Page(driver, srv.url)
        typed = 0
        for i in range(MIX):
            if i % 10 in (1, 5):
                p.press("r", str(1 + i % 5))
            elif i % 25 in (3, 17):
                p.press("l" if i % 25 == 3 else "o")  # cycle to the next label, or choose neutral
                p.press("a")
            elif i % 50 == 9:
                text = f"The dish number {i} was really bad."
                p.type_edit(text)
                typed += len(text)
                p.press("a")
            else:
                p.press("a")
        assert p.text("progress") == f"{MIX} of {MIX} reviewed"
        decisions = srv.session.state.decisions
        assert sum(d["decision"] == "reject" for d in decisions.values()) == 20
        assert sum(d["label_fixed"] for d in decisions.values()) == 8
        assert sum(d["polarity"] == "neutral" for d in decisions.values()) == 8  # negative -> neutral either way
        assert sum(d["edited"] for d in decisions.values()) == 2
        per = p.keys / MIX
        print(f"\nkeystrokes per variant over {MIX}: {per:.2f} (plus {typed} characters typed in 2 edits)")
        assert per < 2  # one key per plain decision: the command keys alone stay under 2 per variant
    finally:
        srv.stop()


def test_writing_a_refused_target(driver, tmp_path):
    """``--write-refused``: the refused target follows the variants with its refusal shown as text; accepting it
    unwritten is refused with a message, and a written reversal is accepted into the curated file."""
    gen, out = fx.with_refused(tmp_path / "gen.json"), tmp_path / "curated.json"
    srv = _serve(gen, out=out, write_refused=True)
    try:
        p = Page(driver, srv.url)
        assert p.text("progress") == "0 of 6 reviewed" and p.text("refusal") == ""
        p.press("k")  # back from the first variant wraps to the last item: the refused target
        assert p.text("key") == "s4_0_adv1" and p.text("strategy") == "revtgt (to write)"
        assert fx.REFUSAL in p.text("refusal") and not p.pwned()
        assert p.text("label") == "negative" and "(was positive)" in p.text("label-note")
        p.press("a")
        assert "write its reversal first" in p.text("message") and p.text("progress") == "0 of 6 reviewed"
        p.type_edit("The staff was rude, as always.")
        assert p.text("message") == "" and p.text("v-term") == "staff"
        assert p.d.find_element("css selector", "#diff ins").text.strip() == "rude"
        p.press("a")
        assert p.text("progress") == "1 of 6 reviewed" and p.text("refusal") == ""
        p.press("F")
        assert "(1 of 1 refused targets written)" in p.text("message")
    finally:
        srv.stop()
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert sorted(doc) == ["s4_0", "s4_0_adv1"]
    assert doc["s4_0_adv1"]["provenance"]["written"] == {"refusal": fx.REFUSAL}
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    assert errors == [], errors
