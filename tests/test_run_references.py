"""Reference systems: the papers' own systems, read from the shipped prediction files (never run), in every run's
leaderboards and pairwise matrices, paired with the models on the same units; user-registered prediction files."""
from __future__ import annotations

import csv
import hashlib
import json
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
import toy
from test_arts_score import DOMAINS, GOLDEN, MODELS, naive_counts

from sentiprobe import api
from sentiprobe.cli import main
from sentiprobe.core.errors import ChecksumError, ConfigError, DataError
from sentiprobe.data import load_manifest
from sentiprobe.run.refcatalog import parse_reference_file, published_references, select_references

toy.register()


def _toy_preds(path, n=60, wrong=(), only=None):
    """A user prediction file for the toy suite: the gold label, flipped on ``wrong`` items, for ``only`` ids."""
    from sentiprobe.suites import get_suite

    items = get_suite("toy").items("test")[:n]
    flip = {"pos": "neg", "neg": "pos"}
    rows = [(it.item_id, flip[it.label] if k in wrong else it.label) for k, it in enumerate(items)
            if only is None or it.item_id in only]
    path.write_text("item_id,label\n" + "".join(f"{i},{lab}\n" for i, lab in rows), encoding="utf-8")
    return path


def _sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---- the catalogue ------------------------------------------------------------------------------------------

def test_catalogue_names_files_checksums_and_papers(capsys):
    refs = {r.name: r for r in published_references()}
    assert {f"published:{c.lower()}" for c in MODELS} <= set(refs)
    assert {"published:sentivent-roberta-large-lexall", "published:sentivent-clause-winner"} <= set(refs)
    manifest = load_manifest()
    listed = {m["name"]: m for m in api.list_models() if "reference" in m["tags"]}
    assert set(listed) == set(refs)
    for m in listed.values():
        for f in m["reference"]["sources"]:  # every file is a data file of the manifest, with its sha256
            assert f["sha256"] == manifest.entry(f["path"]).sha256 and len(f["sha256"]) == 64
        assert m["reference"]["paper"] and m["reference"]["covers"]
    bert = refs["published:bert_pt"]
    assert bert.suites == ("arts-laptop", "arts-rest", "arts-mams") and bert.system == "BERT-PT"
    ident = bert.identity()["config"]
    assert ident["system"] == "BERT-PT" and "Xu et al." in ident["publication"] and ident["training data"]
    assert main(["list", "models"]) == 0
    out = capsys.readouterr().out
    assert "published:bert_pt" in out and "published, not re-run" in out


def test_selection():
    arts = select_references("all", ["arts-laptop"])
    assert len(arts) == 9 and all("arts-laptop" in r.suites for r in arts)
    assert select_references("none", ["arts-laptop"]) == []
    assert [r.name for r in select_references("published:bert_pt,published:asgcn", ["arts-rest"])] == \
        ["published:bert_pt", "published:asgcn"]
    with pytest.raises(ConfigError, match="none of the suites run"):
        select_references("published:bert_pt", ["toy"])
    assert select_references(None, ["toy"]) == []  # no published predictions for this suite
    with pytest.raises(ConfigError, match="did you mean 'published:bert_pt'"):
        select_references("published:bert-pt", ["arts-laptop"])
    with pytest.raises(ConfigError, match="stand alone"):
        select_references("all,published:bert_pt", ["arts-laptop"])


@pytest.mark.realdata
def test_a_reference_named_as_a_model_joins_the_references(tmp_path, data_dir):
    with pytest.raises(ConfigError, match="read, not run"):
        api.run(["arts-laptop"], ["published:bert_pt"], out=tmp_path / "r", progress=False)
    with pytest.raises(ConfigError, match="none of the suites run"):
        api.run(["toy"], ["majority", "published:bert_pt"], out=tmp_path / "r", progress=False, reference="none")
    doc = api.run(["arts-laptop"], ["majority", "published:bert_pt"], out=tmp_path / "r", progress=False, n_boot=0,
                  reference="none", limit=20, data_dir=str(data_dir))
    assert list(doc["runs"]) == ["majority"] and list(doc["references"]) == ["published:bert_pt"]


def test_reference_file_syntax(tmp_path):
    p = tmp_path / "preds.csv"
    p.write_text("item_id,label\n", encoding="utf-8")
    (r,) = parse_reference_file(f"prev={p}:label,sha256={'a' * 64}", ["toy"])
    assert (r.name, r.sources[0].path, r.sources[0].column, r.sources[0].sha256) == ("prev", str(p), "label", "a" * 64)
    (r,) = parse_reference_file(f"prev={p}", ["toy"])
    assert r.sources[0].column is None and r.sources[0].suite == "toy"
    with pytest.raises(ConfigError, match="suite=NAME"):
        parse_reference_file(f"prev={p}", ["toy", "toy2"])
    with pytest.raises(ConfigError, match="not among the suites run"):
        parse_reference_file(f"prev={p},suite=toy3", ["toy", "toy2"])
    with pytest.raises(ConfigError, match="64 hexadecimal"):
        parse_reference_file(f"prev={p},sha256=abc", ["toy"])
    with pytest.raises(ConfigError, match="not the option"):
        parse_reference_file(f"prev={p},colour=red", ["toy"])
    with pytest.raises(ConfigError, match="expected LABEL=PATH"):
        parse_reference_file(str(p), ["toy"])
    (tmp_path / "bad.yaml").write_text("references: [{label: x}]\n", encoding="utf-8")
    with pytest.raises(DataError, match="'label' and a 'path'"):
        parse_reference_file(str(tmp_path / "bad.yaml"), ["toy"])
    with pytest.raises(ConfigError, match="taken by a published"):
        select_references("all", ["toy"], parse_reference_file(f"published-bert_pt={p}", ["toy"]))


# ---- user-registered references (toy suite: no data needed) ---------------------------------------------------

def test_user_reference_is_a_row_paired_with_the_model(tmp_path, capsys):
    f = _toy_preds(tmp_path / "prev.csv", wrong=range(0, 60, 4))
    out = tmp_path / "r"
    assert main(["run", "--suite", "toy", "--model", "majority", "--out", str(out), "--n-boot", "50",
                 "--no-progress", "--reference-file", f"prev={f},sha256={_sha(f)}"]) == 0
    assert "reference systems (1" in capsys.readouterr().out
    comp = json.loads((out / "comparison.json").read_text())
    toy_comp = comp["suites"]["toy"]
    assert toy_comp["system_names"] == ["majority", "prev"] and len(toy_comp["pairs"]) == 1
    assert toy_comp["systems"]["prev"]["accuracy"]["value"] == pytest.approx(1 - 15 / 60)
    assert comp["references"]["suites"]["toy"]["systems"] == ["prev"]
    res = json.loads((out / "references" / "prev" / "results.json").read_text())
    assert res["suites"]["toy"]["reference"]["sha256"] == _sha(f)
    assert res["model"]["reference"]["mark"].endswith("not re-run")
    html = (out / "report.html").read_text()
    assert "user-registered predictions, not re-run" in html and "references/prev/report.html" in html
    summary = json.loads((out / "summary.json").read_text())
    assert summary["references"]["prev"]["suites"]["toy"]["metrics"]["accuracy"]["value"] == pytest.approx(0.75)
    assert main(["report", str(out), "--out", str(tmp_path / "again.html"), "--n-boot", "50"]) == 0  # regenerated
    capsys.readouterr()
    again = (tmp_path / "again.html").read_text()
    assert "user-registered predictions, not re-run" in again and "references/prev/report.html" in again
    assert main(["run", "--suite", "toy", "--model", "majority", "--out", str(out), "--n-boot", "50", "--json",
                 "--no-progress", "--reference-file", f"prev={f},sha256={_sha(f)}"]) == 0
    compact = json.loads(capsys.readouterr().out)
    assert compact["references"]["prev"]["suites"]["toy"]["metrics"]["accuracy"]["value"] == pytest.approx(0.75)


def test_tampered_user_reference_is_refused_with_the_checksum_error(tmp_path, capsys):
    f = _toy_preds(tmp_path / "prev.csv")
    sha = _sha(f)
    _toy_preds(f, wrong=[3])  # one label changed after registration
    rc = main(["run", "--suite", "toy", "--model", "majority", "--out", str(tmp_path / "r"), "--n-boot", "10",
               "--no-progress", "--reference-file", f"prev={f},sha256={sha}"])
    err = capsys.readouterr().err
    assert rc != 0 and "checksum mismatch" in err and sha in err and _sha(f) in err and "Traceback" not in err
    assert not (tmp_path / "r" / "majority" / "results.json").exists()  # refused before any model ran
    with pytest.raises(ChecksumError):
        api.run(["toy"], ["majority"], out=tmp_path / "r2", progress=False, reference_files=[f"prev={f},sha256={sha}"])


def test_user_reference_is_validated_like_any_prediction_file(tmp_path):
    from sentiprobe.core.errors import PredictionError

    f = tmp_path / "bad.csv"
    f.write_text("item_id,label\ntest-0,pos\nnot-an-item,neg\n", encoding="utf-8")
    with pytest.raises(PredictionError, match="not in suite toy"):
        api.run(["toy"], ["majority"], out=tmp_path / "r", progress=False, reference_files=[f"bad={f}"])


def test_yaml_reference_entry(tmp_path):
    f = _toy_preds(tmp_path / "prev.csv")
    y = tmp_path / "refs.yaml"
    y.write_text(f"references:\n  - label: prev\n    path: prev.csv\n    suite: toy2\n    sha256: {_sha(f)}\n"
                 "    paper: Someone et al. 2019\n", encoding="utf-8")
    doc = api.run(["toy", "toy2"], ["majority"], out=tmp_path / "r", n_boot=20, progress=False,
                  reference_files=[str(y)])
    assert list(doc["references"]["prev"]["suites"]) == ["toy2"]
    comp = json.loads((tmp_path / "r" / "comparison.json").read_text())
    assert comp["suites"]["toy2"]["system_names"] == ["majority", "prev"]
    assert "toy" not in comp["suites"] and comp["coverage"]["toy"]["not_run"] == []  # prev answers toy2 only
    assert comp["references"]["suites"]["toy"]["note"].startswith("no published predictions ship")
    html = (tmp_path / "r" / "report.html").read_text()
    assert "no published predictions ship for this suite" in html


def test_partial_reference_is_paired_over_the_shared_units_only(tmp_path):
    from sentiprobe.suites import get_suite

    items = get_suite("toy").items("test")
    units = sorted({it.group_id for it in items})[:10]
    only = {it.item_id for it in items if it.group_id in units} | {"test-41"}  # 10 whole units + half of one
    f = _toy_preds(tmp_path / "part.csv", only=only)
    api.run(["toy"], ["majority", "slow-lexicon"], out=tmp_path / "r", n_boot=20, progress=False,
            reference_files=[f"part={f}"])
    comp = json.loads((tmp_path / "r" / "comparison.json").read_text())
    assert comp["suites"]["toy"]["system_names"] == ["majority", "slow-lexicon"]  # the full pairing is untouched
    part = comp["partial_references"]["toy"]["part"]
    assert part["coverage"] == {"unit": part["coverage"]["unit"], "n_units": 10, "of_units": 30, "n_items": 20,
                                "of_items": 60}
    assert part["paired_over"].startswith("10 of 30") and part["n_units"] == 20  # the toy pairs items
    assert part["system_names"] == ["part", "majority", "slow-lexicon"] and len(part["pairs"]) == 3
    res = json.loads((tmp_path / "r" / "references" / "part" / "results.json").read_text())
    assert res["suites"]["toy"]["n_items"] == 20 and res["suites"]["toy"]["metrics"]["accuracy"]["value"] == 1.0
    assert "paired over 10 of 30" in (tmp_path / "r" / "report.html").read_text()


def test_a_suite_without_published_predictions_says_so(tmp_path):
    api.run(["toy"], ["majority", "slow-lexicon"], out=tmp_path / "r", n_boot=10, progress=False)
    comp = json.loads((tmp_path / "r" / "comparison.json").read_text())
    assert comp["references"]["suites"]["toy"] == {"systems": [], "note": comp["references"]["suites"]["toy"]["note"]}
    assert "no published predictions ship for this suite" in (tmp_path / "r" / "report.html").read_text()


def test_reference_none_and_rerun_removes_the_reference_dirs(tmp_path):
    f = _toy_preds(tmp_path / "prev.csv")
    out = tmp_path / "r"
    api.run(["toy"], ["majority"], out=out, n_boot=10, progress=False, reference_files=[f"prev={f}"])
    assert (out / "references" / "prev" / "results.json").is_file()
    doc = api.run(["toy"], ["majority"], out=out, n_boot=10, progress=False)  # the same configuration, resumed
    assert "references" not in doc and not (out / "references").exists() and not (out / "comparison.json").exists()


# ---- the published systems on the real data ------------------------------------------------------------------

@pytest.mark.realdata
def test_limit_pairs_the_model_with_the_nine_arts_systems_on_the_same_units(tmp_path, data_dir, capsys):
    out = tmp_path / "r"
    assert main(["run", "--model", "tfidf-lr", "--suite", "arts-laptop", "--limit", "100", "--out", str(out),
                 "--data-dir", str(data_dir), "--n-boot", "100", "--no-progress"]) == 0
    capsys.readouterr()
    comp = json.loads((out / "comparison.json").read_text())["suites"]["arts-laptop"]
    refs = [f"published:{c.lower()}" for c in MODELS]
    assert comp["system_names"] == ["tfidf-lr", *refs] and not comp["excluded"]
    assert len(comp["pairs"]) == 45 and {p["a"] for p in comp["pairs"]} | {p["b"] for p in comp["pairs"]} == \
        {"tfidf-lr", *refs}
    model = json.loads((out / "tfidf-lr" / "results.json").read_text())["suites"]["arts-laptop"]
    ids = [json.loads(x)["item_id"] for x in (out / "tfidf-lr" / "predictions" / "arts-laptop.jsonl").open()]
    for r in refs:
        d = out / "references" / r.replace(":", "-")
        entry = json.loads((d / "results.json").read_text())["suites"]["arts-laptop"]
        assert entry["items_hash"] == model["items_hash"] and entry["limit"] == model["limit"]
        assert [json.loads(x)["item_id"] for x in (d / "predictions" / "arts-laptop.jsonl").open()] == ids
    assert comp["n_units"] == model["limit"]["n_units"] and model["limit"]["n_items"] >= 100
    html = (out / "report.html").read_text()
    assert html.count("(published, not re-run)") >= 9 and "BERT-PT" in html and "Xu et al. 2019" in html
    matrix = html[html.index('<table class="pairwise"'):]
    header = matrix[:matrix.index("</tr>")]  # columns: the model run; every reference system is a row
    assert header.count("<th>") == 2 and "tfidf-lr" in header
    assert all(f"<tr><th>{r}</th>" in matrix[:matrix.index("</table>")] for r in refs)
    assert "Columns: the models that were run" in matrix


@pytest.mark.realdata
def test_reference_rows_equal_the_published_figures(tmp_path, data_dir):
    """The comparison.json values of the reference rows are the papers' figures: ARTS's goldens and every model
    column's independent count (tests/test_arts_score.py), SENTiVENT's winner (its exports' test scores) and the
    clause winner (every test clause not in its error list is right)."""
    from sentiprobe.suites import get_suite
    from sentiprobe.suites.sentivent.analysis import paper_search_winners
    from sentiprobe.suites.sentivent.predictions import read_error_list

    suites = [*DOMAINS.values(), "sentivent-polar", "sentivent-clause"]
    api.run(suites, ["majority"], out=tmp_path / "r", n_boot=0, progress=False, data_dir=str(data_dir))
    comp = json.loads((tmp_path / "r" / "comparison.json").read_text())
    for dom, suite in DOMAINS.items():
        systems = comp["suites"][suite]["systems"]
        for col in MODELS:
            got = systems[f"published:{col.lower()}"]
            naive = naive_counts(data_dir / "arts" / "output" / f"{dom}_results.csv", col)
            for metric in ("ars", "accuracy_original"):
                assert got[metric]["value"] == pytest.approx(Fraction(*naive[metric]))
    for dom, col, metric, percent in GOLDEN:  # the paper's printed figures (half-up, two decimals)
        value = comp["suites"][DOMAINS[dom]]["systems"][f"published:{col.lower()}"][metric]["value"]
        total = naive_counts(data_dir / "arts" / "output" / f"{dom}_results.csv", col)[metric][1]
        exact = Decimal(round(value * total)) * 100 / Decimal(total)
        assert str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)) == percent
    polar = comp["suites"]["sentivent-polar"]["systems"]["published:sentivent-roberta-large-lexall"]
    test = paper_search_winners(data_dir / "sentivent" / "results-hyperparameter-search")["best_overall"]["splits"][
        "test"]
    assert polar["accuracy"]["value"] == pytest.approx(test["f1_micro"], abs=1e-9)
    assert polar["macro_f1"]["value"] == pytest.approx(test["f1_macro"], abs=1e-9)
    n_clauses = len(get_suite("sentivent-clause", data_dir).items("test"))
    _, errors = read_error_list(data_dir / "sentivent" / "error-analysis" / "impliclaus-error-analysis.tsv")
    clause = comp["suites"]["sentivent-clause"]["systems"]["published:sentivent-clause-winner"]
    assert clause["accuracy"]["value"] == pytest.approx(1 - len(errors) / n_clauses)
    assert set(comp["suites"]["sentivent-polar"]["system_names"]) == {
        "majority", "published:sentivent-roberta-large-lexall", "published:sentivent-easy-sweep-17",
        "published:sentivent-dauntless-sweep-93"}
    with open(data_dir / "sentivent" / "predictions" / "gold-test-easy-sweep-17.csv", newline="",
              encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    easy = comp["suites"]["sentivent-polar"]["systems"]["published:sentivent-easy-sweep-17"]
    assert easy["accuracy"]["value"] == pytest.approx(sum(r["labels"] == r["pred"] for r in rows) / len(rows))


def test_a_rerun_takes_the_reference_entry_from_the_cache_and_a_changed_file_is_read_again(tmp_path, capsys):
    f = _toy_preds(tmp_path / "prev.csv", wrong=range(0, 60, 4))
    out, cache = tmp_path / "r", tmp_path / "cache"

    def run() -> tuple[dict, str]:
        assert main(["run", "--suite", "toy", "--model", "majority", "--out", str(out), "--n-boot", "50",
                     "--cache-dir", str(cache), "--no-progress", "--reference-file", f"prev={f}"]) == 0
        capsys.readouterr()
        d = out / "references" / "prev"
        entry = json.loads((d / "results.json").read_text())["suites"]["toy"]
        return entry, (d / "predictions" / "toy.jsonl").read_text()

    first, lines = run()
    again, lines_again = run()
    assert again["cache"]["score_from_cache"] and lines_again == lines
    same = ("seconds", "cache")
    assert {k: v for k, v in again.items() if k not in same} == {k: v for k, v in first.items() if k not in same}
    _toy_preds(f, wrong=range(0, 60, 2))  # the same path, other predictions: not the cached entry
    changed, lines_changed = run()
    assert changed["metrics"]["accuracy"]["value"] == pytest.approx(0.5) and lines_changed != lines
    assert changed["reference"]["sha256"] == _sha(f)
