"""Model selection from search exports: tie rules, missing cells, and the shipped SENTiVENT W&B exports."""
from __future__ import annotations

import dataclasses

import pytest

from sentiprobe.core.errors import ConfigError, DataError
from sentiprobe.stats.selection import best_of, read_search_export, select_winner

HEAD = "Name,Sweep,lexicon_features,learning_rate,acc_best_epoch_dev,loss_best_epoch_dev,acc_best_epoch_test\n"


def _write(tmp_path, body, name="s.csv"):
    p = tmp_path / name
    p.write_text(HEAD + body, encoding="utf-8")
    return p


def test_ties_and_missing(tmp_path):
    p = _write(tmp_path, "a,s,pol,1e-5,0.8,0.5,0.7\nb,s,all,2e-5,0.9,0.6,0.71\nc,s,nolex,3e-5,0.9,0.4,0.72\n"
                         "d,s,pol,4e-5,,0.1,0.9\n")
    runs = read_search_export(p)
    assert runs[3].numbers["acc_best_epoch_dev"] is None
    sel = select_winner(runs, "acc_best_epoch_dev", tie_breakers=[("loss_best_epoch_dev", "min")], source=p.name,
                        hyperparameters=["learning_rate"])
    assert (sel.winner, sel.n_tied_on_objective, sel.resolved_by, sel.n_missing_objective) == ("c", 2,
                                                                                               "loss_best_epoch_dev", 1)
    assert sel.splits == {"dev": {"acc": 0.9, "loss": 0.4}, "test": {"acc": 0.72}}
    assert sel.config["lexicon_features"] == "nolex" and sel.config["learning_rate"] == 3e-5
    no_tb = select_winner(runs, "acc_best_epoch_dev")
    assert (no_tb.winner, no_tb.resolved_by) == ("b", "file order")
    low = select_winner(runs, "loss_best_epoch_dev", maximize=False)
    assert low.winner == "d"
    other = dataclasses.replace(low, objective=sel.objective, maximize=True, objective_value=0.95)
    assert best_of([sel, other]) is other
    with pytest.raises(ConfigError, match="not a numeric column"):
        select_winner(runs, "nope")
    with pytest.raises(ConfigError, match="different objectives"):
        best_of([sel, low])


def test_bad_cells(tmp_path):
    p = _write(tmp_path, "a,s,pol,fast,0.8,0.5,0.7\n")
    with pytest.raises(DataError, match="learning_rate") as e:
        read_search_export(p)
    assert "row 1" in str(e.value)
    with pytest.raises(DataError, match="fewer fields"):
        read_search_export(_write(tmp_path, "a,s,pol\n", "short.csv"))


@pytest.mark.realdata
def test_paper_winners_on_shipped_exports(data_dir):
    """The winner per export (dev accuracy, ties by lowest dev loss) equals a pandas sort; the best overall
    winner's test figures equal the scores of its rebuilt test predictions (the error-analysis list)."""
    import pandas as pd

    from sentiprobe.suites import get_suite
    from sentiprobe.suites.sentivent.analysis import paper_search_winners

    sdir = data_dir / "sentivent" / "results-hyperparameter-search"
    doc = paper_search_winners(sdir)
    assert len(doc["winners"]) == 11
    for stem, w in doc["winners"].items():
        df = pd.read_csv(sdir / f"{stem}.csv")
        df = df[df["f1_micro_best_epoch_dev"].notna()]
        top = df.sort_values(["f1_micro_best_epoch_dev", "eval_loss_best_epoch_dev"], ascending=[False, True],
                             kind="stable").iloc[0]
        assert w["winner"] == top["Name"], stem
        assert w["splits"]["test"]["f1_micro"] == pytest.approx(top["f1_micro_best_epoch_test"])
    assert any(w["n_tied_on_objective"] > 1 for w in doc["winners"].values())  # the tie rule matters
    best = doc["best_overall"]
    all_dev = [w["objective_value"] for w in doc["winners"].values()]
    assert best["objective_value"] == max(all_dev)
    # cross-check: the error-analysis list holds every test error of the paper's best model
    suite = get_suite("sentivent-polar", data_dir)
    preds = suite.read_predictions(data_dir / "sentivent" / "error-analysis" / "senti-error-analysis.tsv")
    scored = suite.score(suite.items("test"), preds, n_boot=0)
    test = best["splits"]["test"]
    assert scored.metrics["accuracy"].value == pytest.approx(test["f1_micro"], abs=1e-9)
    assert scored.metrics["macro_f1"].value == pytest.approx(test["f1_macro"], abs=1e-9)
    assert scored.metrics["macro_precision"].value == pytest.approx(test["p_macro"], abs=1e-9)
    assert scored.metrics["macro_recall"].value == pytest.approx(test["r_macro"], abs=1e-9)
