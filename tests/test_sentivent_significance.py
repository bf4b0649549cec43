"""SENTiVENT's significance tests on the shipped prediction files: Cochran's Q over the systems, then McNemar with
the paper's continuity-corrected chi-square *without clamping* (the suite's protocol setting, recorded beside each
test), recomputed here from the files with statsmodels (``mcnemar(exact=False, correction=True)`` is the formula of
the authors' script, mlxtend's ``corrected=True``).

What the shipped data allows: the paper's significance table compares its best task-A system with every other
encoder / lexicon system, but only the best system's test predictions can be rebuilt (from the error-analysis list,
which names every test error) and the two other shipped prediction files are early runs that appear in no table of
the paper; the other systems' per-item predictions were never released (the search exports hold their scores, not
their predictions). So the published p-values themselves cannot be recomputed; these tests check that the suite's
comparison computes the paper's statistics on the systems that ship, against values recomputed from the files.
"""
from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.realdata

WINNER = "error-analysis/senti-error-analysis.tsv"   # task-A winner (RoBERTa-large, lexall), errors only
EARLY = ("predictions/gold-test-easy-sweep-17.csv", "predictions/gold-test-dauntless-sweep-93.csv")


def _gold_and_early(root: Path) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """Test ids, gold labels (the prediction files' ``labels`` column) and the early runs' predictions."""
    ids: list[str] = []
    gold: list[str] = []
    preds: dict[str, list[str]] = {}
    for rel in EARLY:
        with (root / rel).open(newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        if not ids:
            ids, gold = [r["id"] for r in rows], [r["labels"] for r in rows]
        assert [r["id"] for r in rows] == ids and [r["labels"] for r in rows] == gold
        preds[rel] = [r["pred"] for r in rows]
    return ids, gold, preds


def _winner(root: Path, ids: list[str], gold: list[str]) -> list[str]:
    """The winner's test predictions: its error list (tab-separated, unquoted) names every test error."""
    with (root / WINNER).open(newline="", encoding="utf-8") as f:
        errors = {r[0]: r[3] for r in list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))[1:]}
    assert set(errors) <= set(ids)
    return [errors.get(i, g) for i, g in zip(ids, gold)]


def _write(path: Path, ids: list[str], labels: list[str]) -> str:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["item_id", "label"])
        w.writerows(zip(ids, labels))
    return str(path)


def _expected_mcnemar(ref: np.ndarray, other: np.ndarray) -> tuple[int, int, float, float]:
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    b, c = int((ref & ~other).sum()), int((~ref & other).sum())
    r = sm_mcnemar([[int((ref & other).sum()), b], [c, int((~ref & ~other).sum())]], exact=False, correction=True)
    return b, c, float(r.statistic), float(r.pvalue)


def test_sentivent_polar_comparison_recomputes_cochran_q_and_the_papers_mcnemar(data_dir):
    from statsmodels.stats.contingency_tables import cochrans_q

    from sentiprobe.api import compare

    root = data_dir / "sentivent"
    ids, gold, early = _gold_and_early(root)
    systems = {"winner": _winner(root, ids, gold), "easy": early[EARLY[0]], "dauntless": early[EARLY[1]]}
    files = [str(root / WINNER), *(str(root / rel) for rel in EARLY)]
    doc = compare(suite="sentivent-polar", predictions=files, names=list(systems), reference="winner", n_boot=50)

    right = {n: np.array([p == g for p, g in zip(v, gold)]) for n, v in systems.items()}
    assert doc["suite_metrics"]["winner"]["accuracy"]["value"] == pytest.approx(right["winner"].mean())
    q = cochrans_q(np.column_stack([right[n] for n in systems]).astype(int))
    assert doc["cochran_q"]["df"] == 2
    assert doc["cochran_q"]["statistic"] == pytest.approx(q.statistic)
    assert doc["cochran_q"]["p_value"] == pytest.approx(q.pvalue)
    assert doc["mcnemar"] == doc["tests"]["mcnemar"] and "unclamped" in doc["mcnemar"]
    seen = 0
    for pair in doc["pairs"]:
        mc = pair["metrics"]["accuracy"]["mcnemar"]
        b, c, stat, p = _expected_mcnemar(right[pair["a"]], right[pair["b"]])
        assert mc["method"] == "chi2-continuity-corrected-unclamped"
        assert (mc["counts"]["b"], mc["counts"]["c"]) == (b, c)
        assert mc["statistic"] == pytest.approx(stat) and mc["p_value"] == pytest.approx(p)
        seen += 1
    assert seen == 3


def test_few_discordant_pairs_keep_the_papers_chi_square_not_the_exact_test(data_dir, tmp_path):
    """Below 25 discordant pairs other suites switch to the exact binomial test; SENTiVENT keeps its paper's
    unclamped chi-square: the winner against itself with an early run's labels on the first 100 test items."""
    from scipy.stats import binomtest

    from sentiprobe.api import compare

    root = data_dir / "sentivent"
    ids, gold, early = _gold_and_early(root)
    winner = _winner(root, ids, gold)
    mixed = early[EARLY[0]][:100] + winner[100:]
    files = [_write(tmp_path / "winner.csv", ids, winner), _write(tmp_path / "mixed.csv", ids, mixed)]
    doc = compare(suite="sentivent-polar", predictions=files, names=["winner", "mixed"], reference="winner", n_boot=50)
    mc = doc["pairs"][0]["metrics"]["accuracy"]["mcnemar"]
    ref, other = (np.array([p == g for p, g in zip(v, gold)]) for v in (winner, mixed))
    b, c, stat, p = _expected_mcnemar(ref, other) if doc["pairs"][0]["a"] == "winner" else \
        _expected_mcnemar(other, ref)
    assert 0 < b + c < 25 and b != c  # a case where the default would be the exact test
    assert mc["method"] == "chi2-continuity-corrected-unclamped"
    assert (mc["counts"]["b"], mc["counts"]["c"]) == (b, c)
    assert mc["statistic"] == pytest.approx(stat) and mc["p_value"] == pytest.approx(p)
    assert mc["p_value"] != pytest.approx(binomtest(min(b, c), b + c, 0.5).pvalue)
