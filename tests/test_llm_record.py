"""The record is the request: every generative suite, in every structured-decoding mode, against a server that
records the bytes it receives; what the predictions, ``results.json``, the model's config and the report name as
the prompt template and decoding mode is what was sent.

Server: the fake of ``fake_openai.py`` (127.0.0.1, shuts itself down after ``lifetime``).
"""
from __future__ import annotations

import json

import pytest
from fake_openai import FakeOpenAI

from sentiprobe import api
from sentiprobe.models.llm import configure
from sentiprobe.models.structured import MODES
from sentiprobe.run.progress import results_table
from sentiprobe.suites import SUITES, get_suite
from sentiprobe.suites.prompting import JSON_INSTRUCTION
from sentiprobe.suites.soul.prompts import JG_CHAT, RC_CHAT

FAST = {"timeout": "5", "backoff": "0.01", "max_backoff": "0.05"}
NO_BERTSCORE = {"soul-jg": {"bertscore": False}}
GENERATIVE = sorted(n for n in SUITES.names()
                    if n != "arts-custom" and getattr(SUITES.get(n), "prompting", None) is not None)


@pytest.fixture(autouse=True)
def _no_key():
    configure()
    yield
    configure()


def _sent(srv: FakeOpenAI) -> dict[str, str]:
    """prompt text -> the structured mode of the request that carried it (probes left out)."""
    out: dict[str, str] = {}
    for r in srv.requests:
        body = r["body"] or {}
        if body.get("max_tokens") == 1:  # a structured-decoding probe
            continue
        text = "\n".join(m["content"] for m in body["messages"])
        out[text] = r["mode"]
    return out


def _run(tmp_path, srv, mode, data_dir, suites):
    args = {"base_url": srv.base_url, "model": "fake", **FAST, "structured": mode}
    return api.run(suites, ["openai-compatible"], model_args=args, out=tmp_path / mode,
                   cache_dir=str(tmp_path / "cache"), limit=2, n_boot=0, progress=False, data_dir=str(data_dir),
                   missing="wrong", suite_options=NO_BERTSCORE)


def _check_entry(suite: str, data_dir, entry: dict, preds: list[dict], sent: dict[str, str], html: str) -> None:
    gen = entry["details"]["generation"]
    tmpl = gen["template"]
    used = gen["structured"]
    assert entry["model_config"]["template_hash"] == tmpl["hash"], suite
    assert f"{tmpl['name']} v{tmpl['version']} #{tmpl['hash']}" in html, suite
    for p in preds:
        meta = p["meta"]
        assert meta["prompt"] in sent, (suite, meta["prompt"][:200])
        assert sent[meta["prompt"]] == meta["structured"] == used, suite  # the mode on record is the mode sent
        assert (meta["prompt_template"], meta["prompt_version"], meta["prompt_hash"]) == \
            (tmpl["name"], tmpl["version"], tmpl["hash"]), suite
        if "text" in tmpl:  # a protocol's published prompt, word for word
            item = next(it for it in get_suite(suite, data_dir).items("test") if it.item_id == p["item_id"])
            assert meta["prompt"] == tmpl["text"].format(review=item.text, statement=item.text_pair or ""), suite
            continue
        assert tmpl["instruction"] in meta["prompt"] and tmpl["answer_format"] in meta["prompt"], suite
        json_form = tmpl["answer_format"].startswith(JSON_INSTRUCTION.split("{")[0])
        assert json_form == (used != "off") == tmpl["name"].endswith("+json"), (suite, used, tmpl["name"])
    if suite.startswith("soul"):
        assert entry["details"]["prompt_template"]["hash"] == tmpl["hash"], suite


@pytest.mark.realdata
@pytest.mark.parametrize("mode", MODES)
def test_recorded_template_is_the_template_sent(tmp_path, data_dir, mode):
    with FakeOpenAI(lifetime=300, reply_fn=lambda text: "positive") as srv:
        doc = _run(tmp_path, srv, mode, data_dir, GENERATIVE)
        sent = _sent(srv)
    run = doc["runs"]["openai-compatible"]
    # the fake's grammar replies are not noncompsst labels: a score-stage refusal there is not what is tested
    errors = {k: v for k, v in (run.get("errors") or {}).items() if v["type"] != "PredictionError"}
    assert not errors, errors
    root = tmp_path / mode / "openai-compatible"
    html = (root / "report.html").read_text(encoding="utf-8")
    comparison = (tmp_path / mode / "report.html").read_text(encoding="utf-8")
    console = results_table(doc)
    assert len(run["suites"]) >= len(GENERATIVE) - 1
    for suite in run["suites"]:
        lines = (root / "predictions" / f"{suite}.jsonl").read_text(encoding="utf-8").splitlines()
        _check_entry(suite, data_dir, run["suites"][suite], [json.loads(x) for x in lines], sent, html)
        tmpl = run["suites"][suite]["details"]["generation"]["template"]
        said = f"prompt {tmpl['name']} v{tmpl['version']} #{tmpl['hash']}"
        assert said in comparison, suite  # the comparison report names the template sent
        assert said in " ".join(console.split()), suite  # and so does the console


@pytest.mark.realdata
def test_default_soul_run_sends_the_papers_zero_shot_prompt(tmp_path, data_dir):
    """structured=auto (the default) against a server that takes json_schema: SOUL's published wording is sent,
    as free text, and every record names rc-chat / jg-chat."""
    with FakeOpenAI(lifetime=120) as srv:
        args = {"base_url": srv.base_url, "model": "fake", **FAST}
        doc = api.run(["soul-rc", "soul-jg"], ["openai-compatible"], model_args=args, out=tmp_path / "r",
                      cache_dir=str(tmp_path / "cache"), limit=3, n_boot=0, progress=False, data_dir=str(data_dir),
                      missing="wrong", suite_options=NO_BERTSCORE)
        bodies = [r["body"] for r in srv.requests]
    run = doc["runs"]["openai-compatible"]
    for suite, tmpl in (("soul-rc", RC_CHAT), ("soul-jg", JG_CHAT)):
        items = {it.item_id: it for it in get_suite(suite, data_dir).items("test")}
        entry = run["suites"][suite]
        gen = entry["details"]["generation"]
        assert gen["template"]["name"] == tmpl.name and gen["template"]["hash"] == tmpl.hash
        assert gen["structured"] == "off" and gen["structured_requested"] == "auto" and gen["structured_note"]
        assert "protocol's free-text prompt was sent" in gen["warning"]  # the fake's replies do not parse
        assert entry["details"]["prompt_template"]["hash"] == tmpl.hash == entry["model_config"]["template_hash"]
        lines = (tmp_path / "r" / "openai-compatible" / "predictions" / f"{suite}.jsonl").read_text().splitlines()
        for line in lines:
            p = json.loads(line)
            it = items[p["item_id"]]
            want = tmpl.render(review=it.text, statement=it.text_pair or "")
            assert any(b["messages"] == [{"role": "user", "content": want}] and "response_format" not in b
                       for b in bodies), p["item_id"]
            assert p["meta"]["prompt_template"] == tmpl.name and p["meta"]["prompt_hash"] == tmpl.hash
