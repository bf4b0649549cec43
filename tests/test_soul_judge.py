"""SOUL judge: prompt, reply parsing and validation, retry / missing accounting, summary, judge-human
agreement, and `sentiprobe judge` / `judge-agreement` on a run made with a stub generator."""
from __future__ import annotations

import csv
import json

import pytest

from sentiprobe import api
from sentiprobe.cli import main
from sentiprobe.core.io import read_jsonl
from sentiprobe.core.types import Item, Prediction
from sentiprobe.models.base import MODELS, ModelAdapter
from sentiprobe.run.cache import NullCache
from sentiprobe.run.predictor import CachedPredictor
from sentiprobe.suites.soul.agreement import judge_human_agreement, read_ratings
from sentiprobe.suites.soul.judge import (
    CRITERIA,
    NOT_VALIDATED,
    JudgeConfig,
    JudgeParseError,
    aliases,
    build_prompt,
    parse_judge_reply,
    run_judge,
    summarize,
)

GOOD = {"correctness": 3, "alignment": 2, "relevance": 3, "conciseness": 1, "originality": 2}


def _items(n=6):
    return [Item(f"yelp-{k}:1", f"yelp-{k}", "test", f"Review <b>{k}</b>: great pho.", "true",
                 text_pair=f"The reviewer liked the pho {k}.", meta={"justification": f"Says great pho {k}."})
            for k in range(n)]


class ScriptedJudge(ModelAdapter):
    """Replies by the item number found in the prompt: 0 valid JSON, 1 invalid then valid on retry,
    2 invalid twice, others a fenced Python dict. Scores depend on the item number."""

    name = "test-soul-judge"
    capabilities = frozenset({"generate"})

    def generate(self, prompts, **kw):
        out = []
        for p in prompts:
            retry = not isinstance(p, str)
            text = p if isinstance(p, str) else p[0]["content"]
            # synthetic items carry their number; real reviews always get a valid (fenced) reply
            k = int(text.split("Review <b>")[1].split("<")[0]) if "Review <b>" in text else 3 + len(text) % 3
            names = json.loads("[" + text.split("system name (")[1].split(")")[0] + "]")
            scores = {c: 1 + (k + i) % 3 for i, c in enumerate(CRITERIA)}
            if k == 2 or (k == 1 and not retry):
                out.append("Both systems are fine.")
            elif k == 0 or retry:
                out.append(json.dumps({n: scores for n in names}))
            else:
                out.append("```python\n" + repr({n: scores for n in names}) + "\n```")
        return out


if ScriptedJudge.name not in MODELS:
    MODELS.register(ScriptedJudge.name, ScriptedJudge)


def test_prompt_holds_everything_and_anonymises():
    it = _items(1)[0]
    answers = {"gpt": ("false", "It never says so."), "t5": (None, "")}
    p = build_prompt(it, answers, {"gpt": "gpt", "t5": "t5"})
    for s in (it.text, it.text_pair, "Gold label: true", "Says great pho 0.", "It never says so.",
              '"gpt", "t5"', "(no valid label)", "(empty)"):
        assert s in p
    for c in CRITERIA:
        assert f"- {c}:" in p
    cfg = JudgeConfig(anonymise=True, seed=3)
    a1 = aliases(["gpt", "t5"], "x:1", cfg)
    assert sorted(a1.values()) == ["System 1", "System 2"] and a1 == aliases(["gpt", "t5"], "x:1", cfg)
    anon = build_prompt(it, answers, a1)
    assert "gpt" not in anon and "System 1" in anon
    assert aliases(["gpt"], "x:1", JudgeConfig()) == {"gpt": "gpt"}


@pytest.mark.parametrize("reply", [
    json.dumps({"A": GOOD, "B": GOOD}),
    "```json\n" + json.dumps({"A": GOOD, "B": GOOD}) + "\n```",
    repr({"A": GOOD, "B": GOOD}),
    "Here you go: " + json.dumps({"A": GOOD, "B": {k.upper(): v for k, v in GOOD.items()}}) + " Thanks.",
])
def test_parse_valid_replies(reply):
    assert parse_judge_reply(reply, ["A", "B"]) == {"A": GOOD, "B": GOOD}


@pytest.mark.parametrize("reply, why", [
    (json.dumps({"A": {**GOOD, "correctness": 4}, "B": GOOD}), "integer in 1-3"),
    (json.dumps({"A": {**GOOD, "correctness": 0}, "B": GOOD}), "integer in 1-3"),
    (json.dumps({"A": {**GOOD, "alignment": 2.5}, "B": GOOD}), "integer in 1-3"),
    (json.dumps({"A": {**GOOD, "alignment": True}, "B": GOOD}), "integer in 1-3"),
    (json.dumps({"A": {**GOOD, "alignment": "3"}, "B": GOOD}), "integer in 1-3"),
    (json.dumps({"A": {k: v for k, v in GOOD.items() if k != "originality"}, "B": GOOD}), "criteria"),
    (json.dumps({"A": GOOD}), "system names"),
    (json.dumps({"A": GOOD, "B": GOOD, "C": GOOD}), "system names"),
    (json.dumps([GOOD, GOOD]), "object"),
    ("All good!", "not a JSON object"),
    ("", "empty"),
    (None, "empty"),
    ("__import__('os').system('echo hi')", "not a JSON object"),
])
def test_parse_rejects_invalid_replies(reply, why):
    with pytest.raises(JudgeParseError, match=why):
        parse_judge_reply(reply, ["A", "B"])


def test_run_judge_retries_once_then_marks_missing():
    items = _items(6)
    systems = {"sysA": {i.item_id: Prediction(i.item_id, "true", text="Pho is great.") for i in items},
               "sysB": {i.item_id: Prediction(i.item_id, None, text="") for i in items}}
    pred = CachedPredictor(ScriptedJudge(), NullCache(), progress=False)
    recs = run_judge(pred, items, systems, JudgeConfig(n=6, seed=0))
    by = {r.item_id: r for r in recs}
    assert [r.item_id for r in recs] == [i.item_id for i in items]
    assert by["yelp-0:1"].retry_output is None and by["yelp-0:1"].scores["sysA"]["relevance"] == 3
    assert by["yelp-1:1"].retry_output is not None and by["yelp-1:1"].scores is not None
    assert by["yelp-2:1"].scores is None and "not a JSON object" in by["yelp-2:1"].error
    assert by["yelp-3:1"].scores["sysB"] == {c: 1 + (3 + i) % 3 for i, c in enumerate(CRITERIA)}
    assert all(r.template["hash"] for r in recs) and "Review <b>0</b>" in by["yelp-0:1"].prompt
    s = summarize(recs, n_boot=100, seed=0, confidence=0.95)
    assert (s["n_sampled"], s["n_judged"], s["n_missing"], s["n_retried"]) == (6, 5, 1, 2)
    m = s["systems"]["sysA"]["correctness"]
    expected = sum(1 + k % 3 for k in (0, 1, 3, 4, 5)) / 5
    assert m["value"] == pytest.approx(expected) and m["n"] == 5 and m["ci_low"] <= m["value"] <= m["ci_high"]
    # anonymised: scores come back under the real names
    recs2 = run_judge(pred, items, systems, JudgeConfig(n=3, seed=1, anonymise=True))
    assert all(set(r.scores) == {"sysA", "sysB"} for r in recs2 if r.scores)
    assert all(set(r.shown_as.values()) == {"System 1", "System 2"} for r in recs2)


def _write_flat(path, rows):
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["item_id", "system", *CRITERIA])
        w.writerows(rows)
    return path


def test_agreement_matches_sklearn(tmp_path):
    from sklearn.metrics import cohen_kappa_score

    a = [[f"i{k}", "s", *[1 + (k * (j + 1)) % 3 for j in range(5)]] for k in range(30)]
    b = [[r[0], r[1], *[v if (k + j) % 4 else 1 + v % 3 for j, v in enumerate(r[2:])]] for k, r in enumerate(a)]
    ja, _ = read_ratings(_write_flat(tmp_path / "a.csv", a))
    hb, _ = read_ratings(_write_flat(tmp_path / "b.csv", b))
    doc = judge_human_agreement(ja, hb, n_boot=200, seed=0, confidence=0.95)
    assert doc["n_pairs"] == 30
    for j, c in enumerate(CRITERIA):
        x, y = [r[2 + j] for r in a], [r[2 + j] for r in b]
        for w in ("quadratic", "linear"):
            k = doc["criteria"][c][f"kappa_{w}"]
            assert k["value"] == pytest.approx(cohen_kappa_score(x, y, weights=w, labels=[1, 2, 3]))
            assert k["ci_low"] <= k["value"] <= k["ci_high"]
        assert doc["criteria"][c]["exact_agreement"]["value"] == pytest.approx(sum(p == q for p, q in zip(x, y)) / 30)
    same = judge_human_agreement(ja, ja, n_boot=50, confidence=0.95)
    assert all(same["criteria"][c]["kappa_quadratic"]["value"] == pytest.approx(1.0) for c in CRITERIA
               if len({r[2 + CRITERIA.index(c)] for r in a}) > 1)


def test_ratings_file_errors(tmp_path):
    from sentiprobe.core.errors import DataError

    with pytest.raises(DataError, match="integer in 1-3"):
        read_ratings(_write_flat(tmp_path / "x.csv", [["i1", "s", 1, 2, 3, 4, 1]]))
    with pytest.raises(DataError, match="duplicate"):
        read_ratings(_write_flat(tmp_path / "y.csv", [["i1", "s", 1, 2, 3, 3, 1], ["i1", "s", 1, 2, 3, 3, 1]]))
    with pytest.raises(DataError, match="missing criteria"):
        (tmp_path / "z.jsonl").write_text(json.dumps({"item_id": "i1", "scores": {"s": {"correctness": 1}}}) + "\n")
        read_ratings(tmp_path / "z.jsonl")


@pytest.mark.realdata
def test_judge_command_on_a_run(data_dir, tmp_path, monkeypatch, capsys):
    from test_soul_run import StubGenerator  # noqa: F401  (registers the stub generator)

    run = tmp_path / "run" / "test-soul-gen"  # the model's directory of the run
    api.run(["soul-jg"], ["test-soul-gen"], out=run.parent, data_dir=str(data_dir), limit=20, n_boot=20, progress=False,
            suite_options={"soul-jg": {"bertscore": False}})
    from sentiprobe.run.judge import judge_runs

    doc = judge_runs([run], "test-soul-judge", cfg=JudgeConfig(n=8, seed=2), data_dir=str(data_dir), n_boot=50,
                     confidence=0.95)
    assert doc["validation"] == NOT_VALIDATED and doc["summary"]["n_sampled"] == 8
    recs = read_jsonl(run / "judge.jsonl")
    assert len(recs) == 8 and all(r["prompt"] and "output" in r for r in recs)
    res = json.loads((run / "results.json").read_text())
    assert res["suites"]["soul-jg"]["details"]["judge"]["summary"]["n_sampled"] == 8
    html = (run / "report.html").read_text()
    assert "Judge evaluation" in html and NOT_VALIDATED in html
    # human ratings equal to the judge's: agreement is perfect where defined, and the report says validated
    rows = [[r["item_id"], s, *[sc[c] for c in CRITERIA]] for r in recs if r["scores"] for s, sc in r["scores"].items()]
    human = _write_flat(tmp_path / "human.csv", rows)
    assert main(["judge", "--run", str(run), "--model", "test-soul-judge", "--n", "8", "--seed", "2",
                 "--human", str(human), "--data-dir", str(data_dir), "--n-boot", "50", "--json"]) == 0
    doc2 = json.loads(capsys.readouterr().out)
    assert doc2["validation"] == "validated against human ratings" and doc2["cache"]["computed"] == 0
    assert doc2["agreement"]["n_pairs"] == len(rows)
    assert "judge-human agreement" in (run / "report.html").read_text()
    assert main(["judge-agreement", "--judge", str(run / "judge.jsonl"), "--human", str(human), "--json"]) == 0
    agr = json.loads(capsys.readouterr().out)
    assert agr["n_pairs"] == len(rows) and set(agr["criteria"]) == set(CRITERIA)
