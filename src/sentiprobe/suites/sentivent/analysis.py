"""Reporting helpers of the SENTiVENT paper: error-analysis lists (docs/protocols/sentivent.md#error-analysis) and the
hyper-parameter search winners (docs/protocols/sentivent.md#search-exports, #metrics).

- :func:`write_error_list` writes a model's test errors in the error-analysis layout (tab-separated,
  unquoted, ``id, text, labels, pred`` + one empty column per category) for annotators to tick;
- :func:`category_frequencies` counts ticked categories as percentages of the *analysed* errors
  (errors with at least one category ticked);
- :func:`search_winner` / :func:`paper_search_winners` select the reported configuration from the
  shipped W&B exports as the paper did: task A by dev accuracy (``f1_micro_best_epoch_dev``), task B by
  dev macro-F1, ties broken by the lowest dev loss; the "best overall" reference model is the winner
  with the highest dev selection score.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...core.errors import DataError
from ...core.io import atomic_write_text
from ...core.types import Item, Prediction
from ...stats.selection import Selection, best_of, read_search_export, select_winner
from .predictions import read_error_list

PAPER_CATEGORIES = {
    "A": ("strong_lexical_indicator", "unusual_language", "in_context", "plausible_pred", "strong_lex_ignored",
          "ambiguity_preproc", "target_ambiguous", "modified_negation_counterfac", "comment"),
    "B": ("strong_lexical_indicator", "unusual_language", "in_context", "plausible_pred", "strong_lex_ignored",
          "preproc", "target_ambiguous", "lexical ambi", "modified_negation_counterfac", "COMMENT"),
}
OBJECTIVES = {"A": "f1_micro_best_epoch_dev", "B": "f1_macro_best_epoch_dev"}
TIE_BREAKERS = (("eval_loss_best_epoch_dev", "min"),)
HYPERPARAMETERS = ("learning_rate", "train_batch_size")
COMMENT_COLUMNS = frozenset({"comment", "COMMENT"})


def write_error_list(path: str | Path, items: Sequence[Item], predictions: Sequence[Prediction], *,
                     categories: Sequence[str] = PAPER_CATEGORIES["A"]) -> int:
    """Write every wrong prediction (item order) in the error-analysis layout; returns the count.

    Texts containing a tab or a newline cannot be written unquoted and raise DataError.
    """
    by_id = {p.item_id: p for p in predictions}
    lines = ["\t".join(["id", "text", "labels", "pred", *categories])]
    n = 0
    for it in items:
        p = by_id.get(it.item_id)
        pred = p.label if p is not None else None
        if pred == it.label:
            continue
        fields = [it.item_id, it.text, str(it.label), "" if pred is None else str(pred)]
        for fld in fields:
            if "\t" in fld or "\n" in fld or "\r" in fld:
                raise DataError("a field contains a tab or newline and cannot be written unquoted", path=path,
                                record=it.item_id)
        lines.append("\t".join(fields + [""] * len(categories)))
        n += 1
    atomic_write_text(path, "\n".join(lines) + "\n")
    return n


def category_frequencies(path: str | Path) -> dict[str, Any]:
    """Category counts and percentages of the analysed errors (>= 1 category ticked) of an error list."""
    cats, rows = read_error_list(path)
    flags = [c for c in cats if c and c not in COMMENT_COLUMNS]
    analysed = [r for r in rows if any(r[c] for c in flags)]
    na = len(analysed)
    return {"n_errors": len(rows), "n_analysed": na,
            "categories": {c: {"count": sum(1 for r in analysed if r[c]),
                               "percent": (100.0 * sum(1 for r in analysed if r[c]) / na) if na else None}
                           for c in flags},
            "note": "percentages of analysed errors (errors with at least one category ticked)"}


def search_winner(path: str | Path, task: str = "A") -> Selection:
    """The paper's choice from one search export: task A by dev accuracy, B by dev macro-F1; ties -> lowest dev loss."""
    if task not in OBJECTIVES:
        raise ValueError(f"task must be 'A' or 'B', not {task!r}")
    path = Path(path)
    runs = read_search_export(path)
    return select_winner(runs, OBJECTIVES[task], tie_breakers=TIE_BREAKERS, source=path.name,
                         hyperparameters=HYPERPARAMETERS)


def paper_search_winners(search_dir: str | Path, task: str = "A", pattern: str = "senti-*.csv") -> dict[str, Any]:
    """Winners of every export in ``search_dir`` and the best overall (highest dev selection score)."""
    files = sorted(Path(search_dir).glob(pattern))
    if not files:
        raise DataError(f"no search exports matching {pattern!r}", path=search_dir)
    wins = {f.stem: search_winner(f, task) for f in files}
    best = best_of(list(wins.values()))
    return {"task": task, "objective": OBJECTIVES[task], "tie_breakers": [list(t) for t in TIE_BREAKERS],
            "winners": {k: s.to_dict() for k, s in wins.items()},
            "best_overall": {"export": next(k for k, s in wins.items() if s is best), **best.to_dict()}}

