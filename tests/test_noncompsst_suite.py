"""The noncompsst suite on the shipped data: items, scoring files made elsewhere, errors, runs, report."""
from __future__ import annotations

import csv
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import f1_score

import sentiprobe.api as sp
from sentiprobe.cli import main
from sentiprobe.cli.suite_args import parse_suite_args
from sentiprobe.core.errors import ConfigError, DataError, PredictionError
from sentiprobe.core.hashing import file_sha256
from sentiprobe.core.types import Prediction
from sentiprobe.suites import SUITES, get_suite
from sentiprobe.suites.noncompsst.ratings import write_ratings, write_scores
from sentiprobe.suites.noncompsst.items import ptb_tokenize, stimulus_text
from sentiprobe.suites.noncompsst.load import load_noncompsst

pytestmark = pytest.mark.realdata
NB = 60  # bootstrap resamples in these tests
GOLDEN = "a nearly terminal case of the cutes"


def synthetic(n_lines: int) -> dict[int, list[int]]:
    """docs/protocols/noncompsst.md#code-map: class of 0-based line i for seed s."""
    return {s: [(((i + 1) * (2 * s + 3) * 2654435761) % 2 ** 32) % 7 for i in range(n_lines)] for s in (1, 2, 3)}


@pytest.fixture(scope="module")
def release():
    import os

    return load_noncompsst(os.environ["SENTIPROBE_DATA_DIR"])


@pytest.fixture(scope="module")
def syn_csv(tmp_path_factory, release):
    path = tmp_path_factory.mktemp("preds") / "syn.csv"
    per = synthetic(len(release.lines))
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["line", "seed", "label"])
        for s, labs in per.items():
            w.writerows([i, s, lab] for i, lab in enumerate(labs))
    return path


@pytest.fixture(scope="module")
def syn_doc(syn_csv, tmp_path_factory):
    out = tmp_path_factory.mktemp("ratings")
    doc = sp.score("noncompsst", syn_csv, n_boot=NB, tables_out=str(out))
    return doc, out


def test_items(data_dir, release):
    suite = get_suite("noncompsst", data_dir)
    items = suite.items("test")
    assert len(items) == 1813 and items[0].item_id == "L0000" and items[7].group_id == "P001"
    assert sum(it.label is not None for it in items) == 259
    gold = next(it for it in items if it.meta["stimulus"] == GOLDEN)
    assert gold.label == "5" and gold.kind == "natural"  # human 5.33 rounds to 5
    assert {it.kind for it in items} == {"natural", "control-left", "control-right"}
    son = next(it for it in items if it.meta["stimulus"] == "her son's discovery of his homosexuality")
    # docs/protocols/noncompsst.md#model-input: tokenised, lower-cased
    assert son.text == "her son 's discovery of his homosexuality"
    raw = get_suite("noncompsst", data_dir, lowercase=False, tokenize=False)
    assert [it.text for it in raw.items("test")] == list(release.lines)


def test_stimulus_text_options(monkeypatch, data_dir):
    assert ptb_tokenize("everyone isn't the characters' lives: you're") == \
        "everyone is n't the characters ' lives : you 're"
    assert stimulus_text("Its weighty themes", tokenize=False) == "its weighty themes"
    suite = get_suite("noncompsst", data_dir, {"lowercase": "0"})
    assert not suite.options.lowercase and suite.options.tokenize
    with pytest.raises(ConfigError, match="tokenize"):
        get_suite("noncompsst", data_dir, tokenize="maybe")


def test_options_are_recorded_and_checked(data_dir):
    spec = SUITES.get("noncompsst")
    assert spec.family == "noncompsst" and spec.labels == tuple("0123456") and spec.seeds == 3
    assert SUITES.get("sst7").options is not spec.options
    suite = get_suite("noncompsst", data_dir, tokenize=False, train_source="sentences")
    assert suite.describe()["options"] == {"train_file": None, "train_source": "sentences", "sst_dictionary": None,
                                           "sst_labels": None, "lowercase": True, "tokenize": False,
                                           "human_scores": None}
    with pytest.raises(ConfigError, match="did you mean 'lowercase'"):
        get_suite("noncompsst", data_dir, lowercse=False)
    with pytest.raises(ConfigError, match="train_source"):
        get_suite("noncompsst", data_dir, train_source="trees")
    with pytest.raises(ConfigError, match="unknown option"):
        get_suite("sst7", data_dir, tokenize=False)  # a noncompsst option, not an sst7 one


def test_env_is_read_by_the_cli_only(monkeypatch, data_dir):
    env = {"SENTIPROBE_NONCOMPSST_LOWERCASE": "0", "SENTIPROBE_NONCOMPSST_TOKENIZE": "0",
           "SENTIPROBE_SST7_TRAIN_SOURCE": "sentences", "SENTIPROBE_SST7_TRAIN_FILE": "/nonexistent/train.tsv"}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    suite = get_suite("noncompsst", data_dir)
    assert suite.describe()["options"] == {"train_file": None, "train_source": "auto", "sst_dictionary": None,
                                           "sst_labels": None, "lowercase": True, "tokenize": True,
                                           "human_scores": None}
    assert suite.items("test")[0].text == "a more immediate mystery in the present"
    args = parse_suite_args([], ["noncompsst", "sst7"], environ=env)
    assert args["noncompsst"] == {"train_file": "/nonexistent/train.tsv", "train_source": "sentences",
                                  "lowercase": "0", "tokenize": "0"}
    assert args["sst7"] == {"train_file": "/nonexistent/train.tsv", "train_source": "sentences"}
    raw = get_suite("noncompsst", data_dir, {k: v for k, v in args["noncompsst"].items() if k != "train_file"})
    assert [it.text for it in raw.items("test")] == [it.meta["stimulus"] for it in raw.items("test")]


def test_train_and_dev_are_sst7(data_dir, release):
    suite = get_suite("noncompsst", data_dir)
    train, dev = suite.train_items(), suite.dev_items()
    assert len(dev) == 971 and dev[0].item_id == "sst7-dev-1"
    assert len(train) > 7000 and {it.label for it in train} == {str(i) for i in range(7)}
    assert [it.to_dict() for it in train] == [it.to_dict() for it in get_suite("sst7", data_dir).train_items()]
    stim = {tuple(s.lower().split()) for p in release.phrases for s in (p.a_raw, p.a, p.b_raw, p.b, *p.left, *p.right)}
    sizes = {len(t) for t in stim}
    for it in train:
        toks = tuple(it.text.lower().split())
        assert not any(toks[i:i + n] in stim for n in sizes for i in range(len(toks) - n + 1)), it.text


def independent_numbers(release, per):
    """pearson_maxabs and the F1s recomputed here with Fractions, numpy and scikit-learn."""
    pos: dict[str, list[int]] = {}
    for i, x in enumerate(release.lines):
        pos.setdefault(x, []).append(i)
    score = {x: Fraction(sum(per[s][i] for s in per for i in ii), len(per) * len(ii)) for x, ii in pos.items()}
    hm, mm, gold, pred, top = [], [], [], [], []
    for p in release.phrases:
        e = [score[x] for x in p.stimuli]
        mm.append(float(max(abs(e[0] - sum(e[1:4]) / 3), abs(e[0] - sum(e[4:7]) / 3))))
        h = release.human[p.text]
        hm.append(round(float(h.maxabs_printed) * 9) / 9)
        gold.append(int(float(h.sentiment_printed) + 0.5))
        pred.append(int(e[0] + Fraction(1, 2)))
        top.append(float(h.maxabs_printed) > 1.0)
    top = np.array(top)
    nat = [7 * p.index for p in release.phrases]
    per_seed = [f1_score(gold, [per[s][i] for i in nat], average="macro") for s in per]
    per_seed_top = [f1_score(np.array(gold)[top], np.array([per[s][i] for i in nat])[top], average="macro")
                    for s in per]
    return {"pearson_maxabs": np.corrcoef(hm, mm)[0, 1],
            "macro_f1_all": f1_score(gold, pred, average="macro"),
            "macro_f1_top67": f1_score(np.array(gold)[top], np.array(pred)[top], average="macro"),
            "macro_f1_all_per_seed": np.mean(per_seed), "macro_f1_top67_per_seed": np.mean(per_seed_top),
            "n_top": int(top.sum())}


def test_score_file_matches_independent_computation(syn_doc, release):
    doc, _ = syn_doc
    m = doc["metrics"]
    ind = independent_numbers(release, synthetic(len(release.lines)))
    for k in ("pearson_maxabs", "macro_f1_all", "macro_f1_top67", "macro_f1_all_per_seed", "macro_f1_top67_per_seed"):
        assert m[k]["value"] == pytest.approx(ind[k], abs=1e-12), k
        assert m[k]["ci_low"] <= m[k]["value"] <= m[k]["ci_high"]
    assert m["pearson_maxabs"]["n"] == 259 and m["macro_f1_top67"]["n"] == ind["n_top"] == 67
    # Spearman's rho is scipy's on the suite's own ratings (ties are float64 ties, so not the Fractions above)
    from scipy.stats import spearmanr

    from sentiprobe.suites.noncompsst.ratings import pool, ratings
    model = ratings(pool(list(release.lines), synthetic(len(release.lines))).scores, release.flags,
                    release.phrases)["MAXABS"]
    rho = spearmanr([float(release.human[p.text].maxabs) for p in release.phrases],
                    [model[p.text] for p in release.phrases])[0]
    assert m["spearman_maxabs"]["value"] == pytest.approx(rho, abs=1e-14)
    assert m["spearman_maxabs"]["n"] == 259 and m["spearman_maxabs"]["ci_low"] < rho < m["spearman_maxabs"]["ci_high"]
    for k in ("pearson_max", "pearson_all", "pearson_allabs", "pearson_allclean"):
        assert m[k]["value"] is None and "unpublished" in m[k]["note"]
    d = doc["details"]
    assert d["seeds"] == [1, 2, 3] and d["n_top"] == 67
    assert d["pooling"]["duplicated_strings"] == {"the usual portrayals of growing up": 6,
                                                  "its own grasp of preaching to the converted": 6}
    assert len(json.dumps(d)) < 60_000


def test_rating_tables(syn_doc, syn_csv, tmp_path, data_dir, release):
    doc, out = syn_doc
    assert "ratings_written" not in doc["details"] and len(doc["tables_written"]) == 6
    # score is pure: the tables come back in SuiteScore.tables, byte for byte what write_scores/write_ratings write
    suite = get_suite("noncompsst", data_dir)
    res = suite.score(suite.items("test"), suite.read_predictions(syn_csv), n_boot=0)
    assert not list(tmp_path.iterdir())
    assert sorted(res.tables) == sorted(p.name for p in out.iterdir())
    for name, text in res.tables.items():
        assert (out / name).read_bytes() == text.encode("utf-8"), name
    per = synthetic(len(release.lines))
    from sentiprobe.suites.noncompsst.ratings import pool
    pooled = pool(list(release.lines), per)
    write_scores(pooled.scores, pooled.counts, tmp_path / "model_scores.tsv")
    assert (tmp_path / "model_scores.tsv").read_text(encoding="utf-8") == res.tables["model_scores.tsv"]
    from sentiprobe.suites.noncompsst.metrics import evaluate
    ev = evaluate(pooled.scores, release)
    for p in write_ratings(ev.model_ratings, tmp_path, "model", extra={"human": ev.human_ratings}):
        assert p.read_text(encoding="utf-8") == res.tables[p.name], p.name
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(["model_scores.tsv"] + [f"model_{v}.tsv" for v in ("ALL", "ALLABS", "MAX", "MAXABS",
                                                                               "ALLCLEAN")])
    rows = [r.split("\t") for r in (out / "model_MAXABS.tsv").read_text().splitlines()]
    assert rows[0] == ["key", "rating", "human"] and len(rows) == 260
    golden = next(r for r in rows if r[0] == GOLDEN)
    assert round(float(golden[2]), 2) == 4.11  # human MAXABS of the golden phrase
    assert len((out / "model_ALL.tsv").read_text().splitlines()) == 519
    assert len((out / "model_scores.tsv").read_text().splitlines()) == 1812


def test_text_and_jsonl_keys_give_the_same_numbers(tmp_path, release, syn_doc):
    per = synthetic(len(release.lines))
    # text keys: a duplicated string appears once per line and seed, assigned to its lines in order
    txt = tmp_path / "t.tsv"
    rows = ["text\tseed\tlabel"]
    for s, labs in per.items():
        rows += [f"{x}\t{s}\t{labs[i]}" for i, x in enumerate(release.lines)]
    txt.write_text("\n".join(rows) + "\n", encoding="utf-8")
    doc = sp.score("noncompsst", txt, n_boot=NB)
    assert doc["metrics"] == syn_doc[0]["metrics"]
    jl = tmp_path / "p.jsonl"
    jl.write_text("".join(json.dumps(Prediction(f"L{i:04d}", str(lab), seed=s).to_dict()) + "\n"
                          for s, labs in per.items() for i, lab in enumerate(labs)))
    assert sp.score("noncompsst", jl, n_boot=NB)["metrics"] == syn_doc[0]["metrics"]
    old = tmp_path / "old.jsonl"  # files written when the seed rode in meta
    old.write_text("".join(json.dumps(Prediction(f"L{i:04d}", str(lab), meta={"seed": s}).to_dict()) + "\n"
                           for s, labs in per.items() for i, lab in enumerate(labs)))
    assert sp.score("noncompsst", old, n_boot=NB)["metrics"] == syn_doc[0]["metrics"]
    suite = get_suite("noncompsst")
    assert {p.seed for p in suite.read_predictions(old)} == {1, 2, 3}
    once = tmp_path / "once.csv"
    seen = set()
    with open(once, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["text", "label"])  # no seed column: a single seed 0
        for x in release.lines:
            if x not in seen:
                seen.add(x)
                w.writerow([x, 3])
    d1 = sp.score("noncompsst", once, n_boot=NB)
    assert d1["details"]["seeds"] == [0]
    assert d1["details"]["pooling"]["duplicated_strings"] == {"the usual portrayals of growing up": 2,
                                                              "its own grasp of preaching to the converted": 2}
    assert d1["metrics"]["pearson_maxabs"]["value"] is None  # constant model ratings: undefined, said so
    assert "constant" in d1["metrics"]["pearson_maxabs"]["note"]


def _write(path: Path, rows, header=("line", "seed", "label")):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    return path


def test_bad_prediction_files(tmp_path, release):
    per = synthetic(len(release.lines))
    base = [[i, s, labs[i]] for s, labs in per.items() for i in range(len(labs))]
    cases = {
        "unknown line": ([*base, [1813, 1, 3]], "not in stimuli_flat.txt", "line '1813'"),
        "label 7": ([[i, s, 7 if i == 5 else lab] for i, s, lab in base], "not integers 0..6", "row 6: '7'"),
        "label text": ([[i, s, "pos" if i == 9 else lab] for i, s, lab in base], "not integers 0..6", "row 10"),
        "missing seed": ([r for r in base if not (r[1] == 2 and r[0] in (5, 6))], "missing predictions",
                         "L0005@2"),
        "duplicate": ([*base, base[0]], "duplicate", "L0000@1"),
    }
    for name, (rows, msg, offender) in cases.items():
        with pytest.raises(PredictionError, match=msg) as ei:
            sp.score("noncompsst", _write(tmp_path / f"{name}.csv", rows), n_boot=NB)
        assert any(offender in o for o in ei.value.offenders), (name, ei.value.offenders[:3])
    bad_text = _write(tmp_path / "t.csv", [["no such stimulus", 1, 3]], header=("text", "seed", "label"))
    with pytest.raises(PredictionError, match="not stimuli") as ei:
        sp.score("noncompsst", bad_text, n_boot=NB)
    assert ei.value.offenders == ["no such stimulus"]
    mixed = _write(tmp_path / "m.csv", [[0, 1, 3], [1, "", 3]])
    with pytest.raises(PredictionError, match="some rows have a seed"):
        sp.score("noncompsst", mixed, n_boot=NB)
    nokey = _write(tmp_path / "k.csv", [[0, 3]], header=("row", "label"))
    with pytest.raises(DataError, match="no key column"):
        sp.score("noncompsst", nokey, n_boot=NB)


def test_missing_wrong_pools_what_is_there(tmp_path, release):
    per = synthetic(len(release.lines))
    rows = [[i, s, "" if (s == 2 and i == 0) else labs[i]] for s, labs in per.items() for i in range(len(labs))]
    path = _write(tmp_path / "gap.csv", rows)
    with pytest.raises(PredictionError, match="without a label") as ei:
        sp.score("noncompsst", path, n_boot=NB)
    assert ei.value.offenders == ["L0000@2"]
    doc = sp.score("noncompsst", path, n_boot=NB, missing="wrong")
    assert doc["details"]["missing"]["unparsed"] == 1 and "note" in doc["details"]["missing"]
    # a stimulus with no prediction at all can never be rated, even with --missing wrong
    rows = [r for r in rows if r[0] != 0]
    with pytest.raises(PredictionError, match="without any prediction") as ei:
        sp.score("noncompsst", _write(tmp_path / "none.csv", rows), n_boot=NB, missing="wrong")
    assert ei.value.offenders == [release.lines[0]]


def test_user_human_table_enables_every_correlation(tmp_path, syn_doc, syn_csv):
    _, out = syn_doc
    table = tmp_path / "human.tsv"
    lines = (out / "model_scores.tsv").read_text().splitlines()
    table.write_text("stimulus\tscore\n" + "".join("\t".join(ln.split("\t")[:2]) + "\n" for ln in lines[1:]))
    doc = sp.score("noncompsst", syn_csv, n_boot=NB, suite_options={"human_scores": str(table)})
    assert doc["suite_info"]["options"]["human_scores"] == str(table)
    assert doc["details"]["human_scores"] == {"path": str(table), "sha256": file_sha256(table)}
    for k in ("pearson_maxabs", "pearson_max", "pearson_all", "pearson_allabs", "pearson_allclean"):
        assert doc["metrics"][k]["value"] == pytest.approx(1.0), k
    # n counts phrases (the unit resampled) for the side-level variants too: a phrase's two sides go together
    assert doc["metrics"]["pearson_all"]["n"] == 259 and doc["metrics"]["pearson_max"]["n"] == 259
    assert all(doc["metrics"][k]["ci_low"] is not None for k in ("pearson_max", "pearson_all"))
    assert doc["details"]["human_source"] == "user table"
    table.write_text("stimulus\tscore\n" + "".join("\t".join(ln.split("\t")[:2]) + "\n" for ln in lines[2:]))
    with pytest.raises(DataError, match="missing"):
        sp.score("noncompsst", syn_csv, n_boot=NB, suite_options={"human_scores": str(table)})


def test_cli_score_json_with_tables_out(capsys, tmp_path, syn_csv):
    out = tmp_path / "r"
    assert main(["score", "--suite", "noncompsst", "--predictions", str(syn_csv), "--json", "--n-boot", "20",
                 "--tables-out", str(out), "--suite-arg", "tokenize=1"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["metrics"]["pearson_maxabs"]["n"] == 259 and (out / "model_MAXABS.tsv").exists()
    assert doc["suite_info"]["options"]["tokenize"] is True


def test_partial_items_rate_only_complete_phrases(data_dir, release):
    suite = get_suite("noncompsst", data_dir)
    items = suite.items("test")[:73]  # 10 complete phrases + 3 stimuli of the 11th
    per = synthetic(len(release.lines))
    preds = [Prediction(it.item_id, str(per[s][i]), seed=s) for s in per for i, it in enumerate(items)]
    res = suite.score(items, preds, n_boot=NB)
    assert res.details["n_phrases"] == 10 and res.details["limited"]
    assert res.metrics["pearson_maxabs"].n == 10


def test_report_section_escapes(data_dir, syn_doc):
    doc, _ = syn_doc
    suite = get_suite("noncompsst", data_dir)
    html = suite.report_section(doc)
    assert "<svg" in html and "a nearly terminal case" in html and "MAXABS" in html
    evil = json.loads(json.dumps(doc))
    row = evil["details"]["phrases"][15]
    row[1] = "<script>alert(1)</script>"
    row[2] = "\"onmouseover='x'"
    html = suite.report_section(evil)
    assert "<script>" not in html and "&lt;script&gt;" in html and "\"onmouseover" not in html
    assert suite.report_section({}) == ""
