"""Endpoint faults end fast with the right error, cut-off replies are failures, no key in any output, counts that
mean what they say: a server failing every request, one refusing a structured mode with HTTP 500, rate limits on
the structured-decoding probe, ``finish_reason: length``, a key echoed in every encoding, unanswered SOUL items,
triplet spans of any length.

Servers: the fake of ``fake_openai.py`` (127.0.0.1, shuts itself down after ``lifetime``). No timing assertions:
"fast" is asserted as a bounded number of requests.
"""
from __future__ import annotations

import json
from typing import Any

import pytest
from fake_openai import FakeOpenAI

from sentiprobe import api
from sentiprobe.models.redaction import redact
from sentiprobe.models.llm import configure
from sentiprobe.suites import get_suite
from sentiprobe.suites.triplets.llm_extract import item_schema

SECRET = "sk-test-FAULTS-SECRET-0123456789abcdef"


@pytest.fixture(autouse=True)
def _key():
    configure(api_key=SECRET)
    yield
    configure()


SUITE_OPTIONS = {"soul-jg": {"bertscore": False}}
"""Options of the suites these runs include (BERTScore needs a model these fault tests do not load)."""


def _run(tmp_path, srv, suites, data_dir, *, limit=8, name="r", **args: Any):
    model_args = {"base_url": srv.base_url, "model": "fake", **args}
    return api.run(suites, ["openai-compatible"], model_args=model_args, out=tmp_path / name,
                   cache_dir=str(tmp_path / "cache"), limit=limit, limit_mode="first", n_boot=0, progress=False,
                   data_dir=str(data_dir), missing="wrong",
                   suite_options={s: o for s, o in SUITE_OPTIONS.items() if s in suites})


# ---- endpoint failures --------------------------------------------------------------------------------

@pytest.mark.realdata
def test_server_error_on_every_request_ends_with_url_status_and_first_line(tmp_path, data_dir):
    """Every request answered with HTTP 500, every setting at its default: the breaker ends the run after
    max_failures (5) failed attempts, with the URL, the status and the first line of the body."""
    with FakeOpenAI(faults=["500"] * 500, lifetime=120) as srv:
        doc = _run(tmp_path, srv, ["sentivent-polar"], data_dir, structured="off")
        posts, url = srv.posts, srv.base_url
    err = doc["runs"]["openai-compatible"]["errors"]["sentivent-polar"]
    assert err["type"] == "LLMCircuitOpenError", err
    assert url in err["message"] and "HTTP 500" in err["message"] and "internal error" in err["message"]
    assert "5 consecutive server errors" in err["message"]
    assert posts <= 5 + 4, posts  # max_failures, plus the attempts already in flight (max_concurrency 4)


@pytest.mark.realdata
def test_explicit_json_schema_refused_with_500_ends_at_once_with_the_hint(tmp_path, data_dir):
    with FakeOpenAI(structured={"json_object"}, refuse_status=500, lifetime=120) as srv:
        doc = _run(tmp_path, srv, ["sentivent-polar"], data_dir, structured="json_schema")
        posts = srv.posts
    err = doc["runs"]["openai-compatible"]["errors"]["sentivent-polar"]
    assert err["type"] == "LLMStructuredRefused", err
    assert "structured=auto" in err["message"] and "HTTP 500" in err["message"]
    assert posts <= 4  # one wave of the first batch, none retried


@pytest.mark.realdata
def test_auto_falls_back_on_a_500_that_names_the_mode(tmp_path, data_dir):
    with FakeOpenAI(structured={"json_object"}, refuse_status=500, lifetime=120) as srv:
        doc = _run(tmp_path, srv, ["sentivent-polar"], data_dir)
    run = doc["runs"]["openai-compatible"]
    assert not run.get("errors"), run.get("errors")
    gen = run["suites"]["sentivent-polar"]["details"]["generation"]
    assert gen["structured_requested"] == "auto" and gen["structured"] == "json_object"
    assert run["suites"]["sentivent-polar"]["metrics"]["parse_failure_rate"]["value"] == 0.0


@pytest.mark.realdata
def test_same_error_on_the_first_structured_requests_is_a_refusal(tmp_path, data_dir):
    """A server that refuses the mode with a body that does not name it (HTTP 500, 'internal error'): after 3 such
    structured attempts, none answered, one request without the field is answered, so the mode counts as refused
    (4 requests, not 6 attempts per request)."""
    with FakeOpenAI(structured=set(), refuse_status=500, refuse_body=b"internal error", lifetime=120) as srv:
        doc = _run(tmp_path, srv, ["sentivent-polar"], data_dir, structured="json_schema", max_concurrency=1)
        modes = list(srv.modes)
    err = doc["runs"]["openai-compatible"]["errors"]["sentivent-polar"]
    assert err["type"] == "LLMStructuredRefused" and "structured=auto" in err["message"], err
    assert modes == ["json_schema"] * 3 + ["off"], modes


@pytest.mark.realdata
def test_a_server_failing_every_request_is_not_refusing_the_mode(tmp_path, data_dir):
    """The same HTTP 500 on every request, with or without the field: the server is failing, not refusing the
    mode; the breaker ends the run (no hint to change the structured mode)."""
    with FakeOpenAI(faults=["500"] * 500, lifetime=120) as srv:
        doc = _run(tmp_path, srv, ["sentivent-polar"], data_dir, structured="json_schema", max_concurrency=1)
    err = doc["runs"]["openai-compatible"]["errors"]["sentivent-polar"]
    assert err["type"] == "LLMCircuitOpenError", err
    assert "structured" not in err["message"], err


@pytest.mark.realdata
def test_the_first_prompts_unanswered_are_not_a_refused_mode(tmp_path, data_dir):
    """A server that fails the first three prompts it sees ("model overloaded", HTTP 500) and answers the rest:
    the same error ended the first structured requests, but the first prompt without the field fails too, so the
    mode is not refused; those items are unanswered and the others scored. (With several requests in flight
    this is the order in which any prompts may happen to end first.)"""
    failing: list[str] = []

    def fail(text: str) -> bool:
        if text not in failing and len(failing) < 3:
            failing.append(text)
        return text in failing

    with FakeOpenAI(raw_reply=lambda text: '{"triplets": []}', fail_if=fail, lifetime=120,
                    error_body=b'{"error": {"message": "model overloaded"}}') as srv:
        doc = _run(tmp_path, srv, ["absa-triplet-explicit"], data_dir, limit=6, max_retries="0",
                   structured="json_schema", max_concurrency="1")
        modes = list(srv.modes)
    run = doc["runs"]["openai-compatible"]
    assert not run.get("errors"), run.get("errors")
    gen = run["suites"]["absa-triplet-explicit"]["details"]["generation"]
    assert gen["structured"] == "json_schema" and gen["unanswered"] == 3, gen
    assert modes[:4] == ["json_schema"] * 3 + ["off"] and modes.count("off") == 1, modes  # asked without it once


@pytest.mark.realdata
def test_structured_probe_retries_rate_limits_like_any_request(tmp_path, data_dir):
    with FakeOpenAI(faults=["429", "429"], lifetime=120) as srv:
        doc = _run(tmp_path, srv, ["sentivent-polar"], data_dir, backoff="0.01")
    run = doc["runs"]["openai-compatible"]
    assert not run.get("errors"), run.get("errors")
    assert run["suites"]["sentivent-polar"]["details"]["generation"]["structured"] == "json_schema"


# ---- truncation ------------------------------------------------------------------------------------------

CUT = {"sentivent-polar": '{"label": "positive", "why": "the sent',
       "soul-rc": '{"answer": "true", "why": "the revi',
       "soul-jg": '{"label": "true", "justification": "The review says the fo',
       "absa-triplet-explicit": '{"triplets": [{"target": "food", "opinion": "good", "polarity": "positive"}, {"ta'}


@pytest.mark.realdata
@pytest.mark.parametrize("structured", ["json_schema", "off"])
def test_replies_cut_off_at_the_token_limit_are_parse_failures(tmp_path, data_dir, structured):
    suites = list(CUT)

    def reply(text: str) -> str:
        if "reason for your answer" in text:
            r = CUT["soul-jg"]
        elif "not-given" in text:
            r = CUT["soul-rc"]
        elif "triplets" in text.lower():
            r = CUT["absa-triplet-explicit"]
        else:
            r = CUT["sentivent-polar"]
        return r if structured != "off" else r.split('"')[3]  # free text: a complete-looking label

    with FakeOpenAI(raw_reply=reply, finish_reason="length", lifetime=120) as srv:
        doc = _run(tmp_path, srv, suites, data_dir, limit=4, structured=structured)
    run = doc["runs"]["openai-compatible"]
    assert not run.get("errors"), run.get("errors")
    for s in suites:
        entry = run["suites"][s]
        assert entry["metrics"]["parse_failure_rate"]["value"] == 1.0, (s, entry["metrics"]["parse_failure_rate"])
        assert entry["details"]["generation"]["truncated"] == entry["details"]["generation"]["n"], s
        first = json.loads((tmp_path / "r" / "openai-compatible" / "predictions" / f"{s}.jsonl").read_text()
                           .splitlines()[0])
        assert first["raw"] and first["meta"]["finish_reason"] == "length", s  # the raw reply is kept


@pytest.mark.realdata
def test_invalid_json_under_structured_decoding_is_a_parse_failure(tmp_path, data_dir):
    """Cut off without saying so (finish_reason stop): the label written before the cut no longer counts."""
    with FakeOpenAI(raw_reply=lambda text: CUT["sentivent-polar"], lifetime=120) as srv:
        doc = _run(tmp_path, srv, ["sentivent-polar", "absa-triplet-explicit"], data_dir, limit=4,
                   structured="json_schema")
    for s in ("sentivent-polar", "absa-triplet-explicit"):
        entry = doc["runs"]["openai-compatible"]["suites"][s]
        assert entry["metrics"]["parse_failure_rate"]["value"] == 1.0, s


# ---- counts ----------------------------------------------------------------------------------------------

@pytest.mark.realdata
def test_soul_counts_unanswered_items_apart_from_parse_failures(tmp_path, data_dir):
    items = get_suite("soul-rc", data_dir).items("test")[:8]
    bad = {items[1].text_pair, items[5].text_pair}
    with FakeOpenAI(raw_reply=lambda text: "true", fail_if=lambda text: any(b and b in text for b in bad),
                    lifetime=120) as srv:
        doc = _run(tmp_path, srv, ["soul-rc"], data_dir, max_retries="0", structured="off")
    entry = doc["runs"]["openai-compatible"]["suites"]["soul-rc"]
    assert entry["details"]["generation"]["unanswered"] == 2 and entry["details"]["n_generation_errors"] == 2
    assert entry["details"]["generation"]["parse_failures"] == 0
    assert entry["metrics"]["parse_failure_rate"]["value"] == 0.0  # was 0.25: unanswered counted as failures


@pytest.mark.realdata
def test_triplets_count_unanswered_sentences_apart_from_parse_failures(tmp_path, data_dir):
    items = get_suite("absa-triplet-explicit", data_dir).items("test")[:6]
    bad = {" ".join(items[1].tokens or ()), " ".join(items[4].tokens or ())}
    with FakeOpenAI(raw_reply=lambda text: '{"triplets": []}', fail_if=lambda text: any(b in text for b in bad),
                    lifetime=120) as srv:
        doc = _run(tmp_path, srv, ["absa-triplet-explicit"], data_dir, limit=6, max_retries="0",
                   structured="json_schema")
    entry = doc["runs"]["openai-compatible"]["suites"]["absa-triplet-explicit"]
    assert entry["details"]["generation"]["unanswered"] == 2
    assert entry["metrics"]["parse_failure_rate"]["value"] == 0.0  # was 2/6: unanswered counted as failures
    assert entry["details"]["parse_failures"] == 0


@pytest.mark.realdata
def test_triplet_schema_admits_every_gold_triplet_of_every_triplet_suite(data_dir):
    """Spans of any length the gold data has (up to 41 words) can be expressed in a structured reply."""
    from sentiprobe.suites.triplets.parse import _norm_word

    def admits(schema: dict, target: str, opinion: str) -> bool:
        entry = schema["properties"]["triplets"]["items"]
        alts = entry.get("anyOf", [entry])
        norm = lambda t: "".join(_norm_word(w) for w in t.split())  # noqa: E731
        for alt in alts:
            props = alt["properties"]
            if all("enum" not in props[k] or norm(v) in {norm(x) for x in props[k]["enum"]}
                   for k, v in (("target", target), ("opinion", opinion))):
                return True
        return False

    refused = []
    for suite in ("absa-triplet-explicit", "sentivent-triplet", "sentivent-triplet-direct"):
        for it in get_suite(suite, data_dir).items("test"):
            toks = list(it.tokens or it.text.split())
            schema = item_schema(it)
            for t in it.meta.get("gold") or []:
                target, opinion = " ".join(toks[t[0]:t[1] + 1]), " ".join(toks[t[2]:t[3] + 1])
                if not admits(schema, target, opinion):
                    refused.append((suite, it.item_id, target, opinion))
    assert not refused, refused[:10]


# ---- secrets -------------------------------------------------------------------------------------------------

def _encodings(key: str) -> list[str]:
    """The key as a server could write it back: JSON escapes (also inside a JSON string the suite decodes),
    zero-width and other format characters between its characters, case, URL and HTML escapes, fullwidth."""
    esc = "".join(f"\\u{ord(c):04x}" for c in key)
    return [key, key.lower(), key.upper(), esc, esc.upper().replace("\\U", "\\u"), "\u200b".join(key),
            "\u2060".join(key), "\u00ad".join(key), "\ufeff".join(key), "\\u200b".join(key), " ".join(key),
            "".join(f"%{ord(c):02X}" for c in key), "".join(f"&#{ord(c)};" for c in key),
            "".join(f"&#x{ord(c):x};" for c in key), "".join(chr(ord(c) + 0xFEE0) for c in key)]


def test_redaction_covers_every_encoding():
    for form in _encodings(SECRET):
        assert redact(f"a {form} b", [SECRET]) == "a *** b", form


@pytest.mark.realdata
def test_key_echoed_in_every_encoding_reaches_no_file(tmp_path, data_dir):
    forms = _encodings(SECRET)

    def leak(text: str) -> str:
        # a JSON reply whose strings carry the key escaped: decoded by the suite's JSON reading
        joined = " | ".join(forms)
        return ('{"label": "true", "answer": "true", "justification": "key ' + joined + '", "triplets": []}')

    with FakeOpenAI(raw_reply=leak, lifetime=180) as srv:
        _run(tmp_path, srv, ["soul-jg", "soul-rc", "absa-triplet-explicit"], data_dir, limit=3,
             structured="json_schema")
        _run(tmp_path, srv, ["soul-jg"], data_dir, limit=3, structured="off", name="off")
    needles = {SECRET.lower(), "".join(SECRET.lower().split("-"))}
    for p in tmp_path.rglob("*"):
        if p.is_file():
            data = p.read_bytes().decode("utf-8", errors="replace").lower()
            decoded = data.encode().decode("unicode_escape", errors="replace").lower() if "\\u" in data else data
            for n in needles:
                assert n not in data and n not in decoded, p
