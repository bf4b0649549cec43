"""Non-compositionality ratings (docs/protocols/noncompsst.md#ratings): pooling, the five variants, TSV tables.

One engine for humans and models. Input: a table ``stimulus -> sentiment score`` (0..6) covering
every stimulus of the phrases. Arithmetic follows the reference's float64 order of operations
(docs/protocols/noncompsst.md#numerics), so MAX ties are decided exactly as the reference decides them:

- pooled score = (sum of the integer predictions of a string, all positions and seeds) / count;
- side mean = ((c1 + c2) + c3) / 3 (ALLCLEAN: the unflagged controls summed in order, / their count);
- d = nat - side mean; MAX keeps d_left only if abs(d_left) > abs(d_right), else d_right.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.errors import DataError, PredictionError
from ...core.io import atomic_write_text
from ...data import resolve_data_dir
from .load import Phrase, load_noncompsst, read_tsv

VARIANTS = ("ALL", "ALLABS", "MAX", "MAXABS", "ALLCLEAN")
#: variants with one value per phrase (the others have one per side)
PHRASE_VARIANTS = ("MAX", "MAXABS")


@dataclass(frozen=True)
class Pooled:
    """Scores pooled by stimulus string.

    Attributes:
        scores: stimulus -> mean of all its integer predictions (float64: sum / count).
        counts: stimulus -> number of predictions pooled.
        skipped: stimulus -> number of missing (None) predictions left out (only with ``skip_missing``).
    """

    scores: dict[str, float]
    counts: dict[str, int]
    skipped: dict[str, int]


def pool(lines: Sequence[str], per_seed: Mapping[Any, Sequence[int | None]] | Sequence[Sequence[int | None]],
         *, skip_missing: bool = False) -> Pooled:
    """Pool per-line predictions of several seeds by string (docs/protocols/noncompsst.md#pooling).

    ``per_seed``: seed -> one prediction per line (an integer 0..6, or None when missing), or a
    list of such lists. A None raises PredictionError unless ``skip_missing``; a string left with
    no prediction at all always raises.
    """
    runs = list(per_seed.values()) if isinstance(per_seed, Mapping) else list(per_seed)
    names = list(per_seed.keys()) if isinstance(per_seed, Mapping) else list(range(len(runs)))
    sums: dict[str, int] = {}
    counts: dict[str, int] = {}
    skipped: dict[str, int] = {}
    for name, run in zip(names, runs):
        if len(run) != len(lines):
            raise PredictionError(f"seed {name!r}: {len(run)} predictions for {len(lines)} lines", [str(name)])
        for i, (s, v) in enumerate(zip(lines, run)):
            sums.setdefault(s, 0)
            counts.setdefault(s, 0)
            if v is None:
                if not skip_missing:
                    raise PredictionError("missing prediction", [f"line {i} seed {name}"])
                skipped[s] = skipped.get(s, 0) + 1
                continue
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 6:
                raise PredictionError("prediction is not an integer 0..6", [f"line {i} seed {name}={v!r}"])
            sums[s] += v
            counts[s] += 1
    empty = [s for s, c in counts.items() if c == 0]
    if empty:
        raise PredictionError("stimuli without any prediction (no rating can be computed)", empty)
    return Pooled({s: sums[s] / counts[s] for s in sums}, counts, skipped)


def pool_predictions(lines: Sequence[str], per_seed_predictions) -> dict[str, float]:
    """``{stimulus: score}`` pooled over all positions and seeds (docs/protocols/noncompsst.md#pooling); every
    prediction required."""
    return pool(lines, per_seed_predictions).scores


def _mean(values: Sequence[float]) -> float:
    total = values[0]
    for v in values[1:]:
        total = total + v
    return total / len(values)


def _lookup(scores: Mapping[str, float], phrases: Sequence[Phrase], flags: Mapping[str, bool] | None) -> None:
    missing = [s for p in phrases for s in p.stimuli if s not in scores]
    if missing:
        raise DataError(f"{len(missing)} stimuli missing from the score table, first {missing[:5]}",
                        record=missing[0], field="score")
    bad = [s for p in phrases for s in p.stimuli
           if not isinstance(scores[s], (int, float)) or isinstance(scores[s], bool)
           or not math.isfinite(float(scores[s]))]
    if bad:
        raise DataError(f"non-numeric or non-finite scores for {bad[:5]}", record=bad[0], field="score")
    if flags is not None:
        unflagged = [s for p in phrases for s in p.stimuli if s not in flags]
        if unflagged:
            raise DataError(f"{len(unflagged)} stimuli have no ungrammaticality flag, first {unflagged[:5]}",
                            record=unflagged[0], field="ungrammatical")


def side_key(side: str, phrase: Phrase) -> str:
    """Key of a side-level rating: ``<left> A B`` or ``<right> A B`` (docs/protocols/noncompsst.md#variants)."""
    return f"<{side}> {phrase.text}"


def ratings(scores: Mapping[str, float], flags: Mapping[str, bool] | None = None,
            phrases: Sequence[Phrase] | None = None, *, data_dir: str | Path | None = None
            ) -> dict[str, dict[str, float]]:
    """The five rating tables ``{variant: {key: value}}`` from a score table
    (docs/protocols/noncompsst.md#ratings-per-phrase, #variants).

    ``phrases`` default to the release's (loaded from ``data_dir`` / ``$SENTIPROBE_DATA_DIR``),
    and so do ``flags`` when None is given with phrases None. ALLCLEAN needs the flags; without
    flags its table is omitted. A stimulus missing from ``scores`` (or ``flags``) raises DataError.
    """
    if phrases is None:
        data = load_noncompsst(resolve_data_dir(data_dir))
        phrases = data.phrases
        flags = data.flags if flags is None else flags
    _lookup(scores, phrases, flags)
    out: dict[str, dict[str, float]] = {v: {} for v in VARIANTS}
    for p in phrases:
        s = [float(scores[x]) for x in p.stimuli]
        nat = s[0]
        d_left = nat - ((s[1] + s[2]) + s[3]) / 3
        d_right = nat - ((s[4] + s[5]) + s[6]) / 3
        lk, rk = side_key("left", p), side_key("right", p)
        out["ALL"][lk], out["ALL"][rk] = d_left, d_right
        out["ALLABS"][lk], out["ALLABS"][rk] = abs(d_left), abs(d_right)
        out["MAX"][p.text] = d_left if abs(d_left) > abs(d_right) else d_right
        out["MAXABS"][p.text] = max(abs(d_left), abs(d_right))
        if flags is None:
            continue
        stim = p.stimuli
        if flags[stim[0]]:
            continue
        left = [s[j] for j in (1, 2, 3) if not flags[stim[j]]]
        right = [s[j] for j in (4, 5, 6) if not flags[stim[j]]]
        if not left or not right:
            continue
        out["ALLCLEAN"][lk] = nat - _mean(left)
        out["ALLCLEAN"][rk] = nat - _mean(right)
    if flags is None:
        del out["ALLCLEAN"]
    return out


def phrase_of_key(key: str) -> str:
    """The phrase a rating key belongs to (strips ``<left> `` / ``<right> ``)."""
    for pre in ("<left> ", "<right> "):
        if key.startswith(pre):
            return key[len(pre):]
    return key


# ---- tables on disk -------------------------------------------------------------------------------
def format_value(v: float) -> str:
    """Shortest repr that round-trips the float64 value."""
    return repr(float(v))


def format_ratings(tables: Mapping[str, Mapping[str, float]], prefix: str = "model",
                   extra: Mapping[str, Mapping[str, Mapping[str, float]]] | None = None) -> dict[str, str]:
    """One TSV text per variant: ``{"<prefix>_<VARIANT>.tsv": text}``, header ``key<TAB>rating``.

    ``extra``: further columns ``{column: {variant: {key: value}}}`` (e.g. human ratings), written
    next to the rating where the key exists (empty otherwise). Pure: the score stage returns these
    as ``SuiteScore.tables`` and ``sentiprobe score --tables-out`` writes them.
    """
    extra = extra or {}
    out = {}
    for variant, table in tables.items():
        cols = [c for c in extra if variant in extra[c]]
        head = "\t".join(["key", "rating", *cols])
        rows = [head]
        for k, v in table.items():
            ex = [format_value(extra[c][variant][k]) if k in extra[c][variant] else "" for c in cols]
            rows.append("\t".join([k, format_value(v), *ex]))
        out[f"{prefix}_{variant}.tsv"] = "\n".join(rows) + "\n"
    return out


def format_scores(scores: Mapping[str, float], counts: Mapping[str, int] | None) -> str:
    """The pooled score table as TSV text: ``stimulus<TAB>score[<TAB>n]``."""
    rows = ["stimulus\tscore" + ("\tn" if counts is not None else "")]
    for s, v in scores.items():
        rows.append(f"{s}\t{format_value(v)}" + (f"\t{counts[s]}" if counts is not None else ""))
    return "\n".join(rows) + "\n"


def write_ratings(tables: Mapping[str, Mapping[str, float]], out_dir: str | Path, prefix: str = "model",
                  extra: Mapping[str, Mapping[str, Mapping[str, float]]] | None = None) -> list[Path]:
    """Write the :func:`format_ratings` tables into ``out_dir`` (a helper for library users)."""
    written = []
    for name, text in format_ratings(tables, prefix, extra).items():
        path = Path(out_dir) / name
        atomic_write_text(path, text)
        written.append(path)
    return written


def write_scores(scores: Mapping[str, float], counts: Mapping[str, int] | None, path: str | Path) -> Path:
    """Write the :func:`format_scores` table to ``path`` (a helper for library users)."""
    atomic_write_text(path, format_scores(scores, counts))
    return Path(path)


def read_score_table(path: str | Path, stimuli: Iterable[str] | None = None) -> dict[str, float]:
    """Read a ``stimulus<TAB>score`` table (header ``stimulus<TAB>score``; e.g. human mean ratings).

    Scores must be finite numbers in [0, 6]. With ``stimuli``, unknown and missing stimuli raise
    DataError naming them.
    """
    path = Path(path)
    if not path.is_file():
        raise DataError("score table not found", path=path)
    out: dict[str, float] = {}
    for n, (s, v) in read_tsv(path, ("stimulus", "score"), 2):
        try:
            x = float(v)
        except ValueError:
            raise DataError(f"not a number: {v!r}", path=path, record=f"line {n}", field="score") from None
        if not (math.isfinite(x) and 0.0 <= x <= 6.0):
            raise DataError(f"score {v} outside [0, 6]", path=path, record=f"line {n}", field="score")
        if s in out:
            raise DataError("duplicate stimulus", path=path, record=f"line {n}", field="stimulus")
        out[s] = x
    if stimuli is not None:
        want = dict.fromkeys(stimuli)
        unknown = [s for s in out if s not in want]
        if unknown:
            raise DataError(f"{len(unknown)} rows are not stimuli, first {unknown[:3]}", path=path,
                            record=unknown[0], field="stimulus")
        missing = [s for s in want if s not in out]
        if missing:
            raise DataError(f"{len(missing)} stimuli are missing, first {missing[:3]}", path=path,
                            record=missing[0], field="stimulus")
    return out
