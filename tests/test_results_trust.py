"""Issue 21's defects, each with the test that failed before: predictions kept when scoring fails, the
confidence level in every output, McNemar's default, and how ``compare`` names systems."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

import toy
from sentiprobe import api
from sentiprobe.cli import main
from sentiprobe.compare import system_names
from sentiprobe.suites import SUITES, get_suite

toy.register()


def _crashing_score(items, predictions, options, context, config):
    raise ZeroDivisionError("a bug in a score stage")


if "toy-score-bug" not in SUITES:
    SUITES.register(dataclasses.replace(toy.toy_spec("toy-score-bug"), score=_crashing_score))


def test_a_score_stage_bug_does_not_lose_the_predictions(tmp_path):
    doc = api.run(["toy-score-bug", "toy"], ["slow-lexicon"], out=tmp_path / "r", n_boot=0,
                  progress=False)["runs"]["slow-lexicon"]
    assert doc["errors"]["toy-score-bug"]["kind"] == "bug" and "toy" in doc["suites"]
    lines = (tmp_path / "r" / "slow-lexicon" / "predictions" / "toy-score-bug.jsonl").read_text().splitlines()
    assert len(lines) == 60 and {"item_id", "label", "gold", "correct"} <= set(json.loads(lines[0]))


def _write(path: Path, labels: dict[str, str]) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("item_id,label\n" + "".join(f"{k},{v}\n" for k, v in labels.items()), encoding="utf-8")
    return str(path)


def _discordant(tmp_path: Path, b: int, c: int, folder: str = "predictions") -> list[str]:
    """Two toy prediction files: A right and B wrong on ``b`` items, the reverse on ``c``."""
    items = get_suite("toy").items("test")
    gold = {it.item_id: it.label for it in items}
    flip = {"pos": "neg", "neg": "pos"}
    ids = list(gold)
    a, other = dict(gold), dict(gold)
    for i in ids[:b]:
        other[i] = flip[gold[i]]
    for i in ids[b:b + c]:
        a[i] = flip[gold[i]]
    return [_write(tmp_path / folder / "a.csv", a), _write(tmp_path / folder / "b.csv", other)]


def test_mcnemar_default_is_exact_below_25_discordant_pairs_and_recorded(tmp_path, capsys):
    files = _discordant(tmp_path, b=8, c=1)  # b + c = 9: the exact binomial test
    assert main(["compare", "--suite", "toy", "--predictions", *files, "--n-boot", "50", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    mc = doc["pairs"][0]["metrics"]["accuracy"]["mcnemar"]
    assert mc["method"] == "exact-binomial" and (mc["counts"]["b"], mc["counts"]["c"]) == (8, 1)
    assert round(mc["p_value"], 4) == 0.0391
    assert doc["mcnemar"].startswith("exact binomial when b + c < 25") and doc["tests"]["mcnemar"] == doc["mcnemar"]
    many = _discordant(tmp_path, b=30, c=12, folder="many")  # b + c = 42: the chi-square, clamped at 0
    assert main(["compare", "--suite", "toy", "--predictions", *many, "--n-boot", "50", "--json"]) == 0
    mc = json.loads(capsys.readouterr().out)["pairs"][0]["metrics"]["accuracy"]["mcnemar"]
    assert mc["method"] == "chi2-continuity-corrected"
    assert main(["compare", "--suite", "toy", "--predictions", *files, "--n-boot", "50", "--mcnemar", "exact",
                 "--json"]) == 0
    exact = json.loads(capsys.readouterr().out)
    mc = exact["pairs"][0]["metrics"]["accuracy"]["mcnemar"]
    assert mc["method"] == "exact-binomial" and exact["mcnemar"] == "exact binomial"
    assert main(["compare", "--suite", "toy", "--predictions", *files, "--n-boot", "50"]) == 0
    assert "McNemar (exact-binomial) b=8 c=1 p 0.03906" in capsys.readouterr().out


def test_compare_names_systems_by_file_stem_never_a_path(tmp_path, capsys):
    files = _discordant(tmp_path, b=3, c=2)  # both in a folder called predictions/, as a run's files are
    assert main(["compare", "--suite", "toy", "--predictions", *files, "--n-boot", "20", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["system_names"] == ["a", "b"]
    assert main(["compare", "--suite", "toy", "--predictions", *files, "--n-boot", "20", "--names", "base", "new",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["system_names"] == ["base", "new"]
    assert system_names([tmp_path / "x" / "preds.csv", tmp_path / "y" / "preds.csv"]) == ["preds (x)", "preds (y)"]
    assert system_names([tmp_path / "preds.csv", tmp_path / "preds.jsonl"]) == ["preds", "preds#2"]
    for name in system_names([*files, tmp_path / "q" / "a.csv"]):
        assert "/" not in name and str(tmp_path) not in name


def test_compare_names_a_run_by_its_model_directory(tmp_path, capsys):
    for model in ("majority", "slow-lexicon"):
        assert main(["run", "--suite", "toy", "--model", model, "--out", str(tmp_path / model), "--n-boot", "0",
                     "--no-progress"]) == 0
    capsys.readouterr()
    files = [str(tmp_path / m / m / "predictions" / "toy.jsonl") for m in ("majority", "slow-lexicon")]
    assert system_names(files) == ["majority", "slow-lexicon"]


def test_the_confidence_level_reaches_every_output(tmp_path, data_dir, capsys):
    out = tmp_path / "r"
    assert main(["run", "--suite", "arts-laptop,toy", "--model", "majority", "--out", str(out), "--n-boot", "40",
                 "--confidence", "0.9", "--data-dir", str(data_dir), "--no-progress"]) == 0
    table = capsys.readouterr().out
    assert "headline metrics (90% CI)" in table and "95%" not in table
    doc = json.loads((out / "majority" / "results.json").read_text())
    assert doc["config"]["confidence"] == 0.9 and doc["suites"]["arts-laptop"]["confidence"] == 0.9
    strategies = doc["suites"]["arts-laptop"]["details"]["strategies"]
    # the score stage never sees the level: its within-model tests record p-values, read at any level
    assert all(r["welch"] is None or (0 <= r["welch"]["p"] <= 1 and "significant" not in r["welch"])
               for r in strategies)
    assert all("significant" not in json.dumps(r) and "alpha" not in json.dumps(r) for r in strategies)
    html = (out / "majority" / "report.html").read_text()
    assert "90% CI" in html and "95% CI" not in html
    preds = out / "majority" / "predictions" / "toy.jsonl"
    assert main(["score", "--suite", "toy", "--predictions", str(preds), "--confidence", "0.8"]) == 0
    assert "[80% CI]" in capsys.readouterr().out
    assert main(["report", str(out / "majority"), "--out", str(tmp_path / "one.html"), "--confidence", "0.9"]) == 0
    assert "90% CI" in (tmp_path / "one.html").read_text()


def test_api_score_gives_intervals_at_the_level_asked(tmp_path):
    preds = _discordant(tmp_path, b=10, c=5)[1]
    ninety = api.score("toy", preds, confidence=0.9, n_boot=400)
    ninety_five = api.score("toy", preds, n_boot=400)
    assert ninety["confidence"] == 0.9 and ninety["alpha"] == pytest.approx(0.1)
    w90 = ninety["metrics"]["accuracy"]["ci_high"] - ninety["metrics"]["accuracy"]["ci_low"]
    w95 = ninety_five["metrics"]["accuracy"]["ci_high"] - ninety_five["metrics"]["accuracy"]["ci_low"]
    assert w90 < w95


def test_the_parse_failure_interval_follows_the_confidence_level():
    from types import SimpleNamespace

    from sentiprobe.core.types import Prediction
    from sentiprobe.run.score_cache import with_generation

    preds = [Prediction(f"i{k}", None if k % 3 == 0 else "pos", parse_ok=k % 3 != 0, raw="x",
                        meta={"mode": "generate"}) for k in range(60)]

    def interval(confidence: float) -> tuple[float, float]:
        cfg = SimpleNamespace(n_boot=300, seed=0, confidence=confidence)
        metrics, _ = with_generation(preds, None, {}, {}, cfg)  # type: ignore[arg-type]
        m = metrics["parse_failure_rate"]
        return m["ci_low"], m["ci_high"]

    wide, narrow = interval(0.95), interval(0.5)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]  # it used to be the 95% interval at every level
