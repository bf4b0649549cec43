"""Lexicon features for the SENTiVENT coarse tasks (docs/protocols/sentivent.md#lexicon-features).

Pipeline (generic: a lexicon is a name plus ``word -> {list: value}``):

1. per-token values: every lower-cased whitespace token is looked up in every word list
   (``henry_polarity``, ``ntusd_market_sentiment``, ``lm_negative`` ... ``lm_modal``); a value of 0
   counts as no match;
2. per list, three sequence scores over a text of N tokens with matched values M:
   ``seqsum`` = sum(M), ``seqnorm`` = sum(M) / N, ``matchnorm`` = sum(M) / |M| (0 without matches);
3. derived Loughran-McDonald columns ``lm_negativecombo``, ``lm_polarity``, ``lm_polaritycombo``;
4. cross-lexicon polarity: the ``*_polarity-<s>`` / ``*_market_sentiment-<s>`` columns are clipped to
   [5th percentile of their negative values, 95th percentile of their positive values] and min-max
   scaled to [-1, 1], both fitted on train + dev only, then summed / averaged row-wise into
   ``econcombo_polarity-<s>sum`` / ``-<s>mean`` (economic lexicons) and, with a general lexicon,
   ``allcombo_polarity-<s>sum`` / ``-<s>mean``. No other column is scaled.

Settings: ``nolex`` (no features); ``lexecon`` (Henry, Loughran-McDonald, NTUSD-Fin: the paper's economic
set **without SentiEcon**, which is not available); ``lexecon+vader`` (adds the general-domain VADER
lexicon from the ``vaderSentiment`` package and the ``allcombo_`` columns; not a paper setting);
``lexall`` needs SentiEcon, MSOL, SentiWordNet 3 and LIWC 2007, which are not shipped: it is refused
unless licensed copies are supplied as extra :class:`Lexicon` objects.

Feature *groups* (``pol``, ``posnegneupol``, ``all``: the paper's hyper-parameter selecting columns inside a
setting) are chosen by the model adapters (:mod:`sentiprobe.models.lexicon`); the suite attaches every
column of its setting.

Lexicon files: tab-separated, header row whose first column is ``lex-uncased``. A malformed line
(wrong field count, empty or multi-word entry, non-numeric value) raises DataError naming file, line and
column; with ``strict=False`` it is skipped and recorded in ``Lexicon.notes``. A duplicated word with
identical values is kept once and recorded (Henry 2008 lists "leading" twice); with different values it
is an error (or, non-strict, the first is kept and the conflict recorded).
"""
from __future__ import annotations

import functools
import importlib.util
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...core.errors import ConfigError, DataError, MissingExtraError

SCORES = ("seqsum", "seqnorm", "matchnorm")
SHIPPED = {  # name -> (file under the family dir, kind)
    "henry": ("lexicons/henry2008.tsv", "economic"),
    "ntusd": ("lexicons/ntusdfinword-v1.tsv", "economic"),
    "lm": ("lexicons/loughranmcdonald-v2019.tsv", "economic"),
}
NOT_AVAILABLE = {
    "secon": "SentiEcon (economic, multi-word; Moreno-Ortiz et al.) - licensed, never published with the paper",
    "msol": "MSOL (Macquarie semantic orientation lexicon; general) - not in the upstream repository",
    "swn3geometric": "SentiWordNet 3 with geometric sense weighting (general) - upstream file absent",
    "liwc": "LIWC 2007 categories (general) - commercial licence, not in the upstream repository",
}
SETTINGS = ("nolex", "lexecon", "lexecon+vader", "lexall")
LM_NEGATIVE_COMBO = ("negative", "uncertainty", "litigious", "constraining")


@dataclass(frozen=True)
class Lexicon:
    """A single-token lexicon.

    Attributes:
        name: short name, the prefix of its feature lists (``henry`` -> ``henry_polarity``).
        lists: feature list names (``<name>_<column>``), in file column order.
        entries: lower-cased word -> {list name: non-zero value}.
        kind: ``economic`` or ``general`` (decides the ``econcombo`` / ``allcombo`` membership).
        source: file or package it was read from.
        notes: documented handling of duplicates / skipped lines (never silent).
    """

    name: str
    lists: tuple[str, ...]
    entries: Mapping[str, Mapping[str, float]]
    kind: str = "economic"
    source: str = ""
    notes: tuple[str, ...] = ()


def read_lexicon_tsv(path: str | Path, name: str, *, kind: str = "economic", strict: bool = True) -> Lexicon:
    """Read a ``lex-uncased`` TSV lexicon (see the module docstring for malformed-line handling)."""
    path = Path(path)
    notes: list[str] = []

    def bad(msg: str, line: int, col: str | None = None) -> None:
        if strict:
            raise DataError(msg, path=path, record=f"line {line}", field=col)
        notes.append(f"line {line} skipped: {msg}" + (f" (column {col})" if col else ""))

    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not lines:
        raise DataError("empty lexicon file", path=path)
    header = lines[0].split("\t")
    if header[0].strip() != "lex-uncased":
        raise DataError(f"the first column must be 'lex-uncased', found {header[0]!r}", path=path, record="line 1")
    cols = [h.strip() for h in header[1:]]
    if not cols or any(not c for c in cols) or len(set(cols)) != len(cols):
        raise DataError(f"invalid value columns {cols}", path=path, record="line 1")
    lists = tuple(f"{name}_{c}" for c in cols)
    entries: dict[str, dict[str, float]] = {}
    raw_values: dict[str, tuple[float, ...]] = {}
    for ln, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) != len(header):
            bad(f"expected {len(header)} tab-separated fields, found {len(parts)}", ln)
            continue
        word = parts[0].strip()
        if not word or re.search(r"\s", word):
            bad(f"entry {word!r} is empty or not a single token", ln, "lex-uncased")
            continue
        if word != word.lower():
            notes.append(f"line {ln}: entry {word!r} lower-cased")
            word = word.lower()
        try:
            vals = tuple(float(p) for p in parts[1:])
        except ValueError:
            col = next(c for c, p in zip(cols, parts[1:]) if not _is_float(p))
            bad(f"value {parts[1 + cols.index(col)]!r} is not a number", ln, col)
            continue
        if not all(math.isfinite(v) for v in vals):
            bad("non-finite value", ln)
            continue
        if word in raw_values:
            if raw_values[word] == vals:
                notes.append(f"line {ln}: duplicate entry {word!r} with identical values, kept once")
            else:
                bad(f"entry {word!r} repeats with different values {vals} (first: {raw_values[word]})", ln)
            continue
        raw_values[word] = vals
        nz = {lst: v for lst, v in zip(lists, vals) if v != 0.0}
        if nz:
            entries[word] = nz
    if not raw_values:
        raise DataError("no lexicon entries", path=path)
    return Lexicon(name, lists, entries, kind, str(path), tuple(notes))


def _is_float(s: str) -> bool:
    try:
        float(s)
        return True
    except ValueError:
        return False


def load_vader_lexicon() -> Lexicon:
    """VADER's word valences (general domain, social media; vaderSentiment package) as ``vader_polarity``."""

    spec = importlib.util.find_spec("vaderSentiment")
    if spec is None or spec.origin is None:
        raise MissingExtraError("vaderSentiment", "lexicon", "the VADER lexicon")
    path = Path(spec.origin).parent / "vader_lexicon.txt"
    entries: dict[str, dict[str, float]] = {}
    notes = []
    with open(path, encoding="utf-8") as f:
        for ln, line in enumerate(f, start=1):
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 2 or not parts[0].strip():
                notes.append(f"line {ln} skipped: not 'token<TAB>valence'")
                continue
            try:
                v = float(parts[1])
            except ValueError:
                notes.append(f"line {ln} skipped: valence {parts[1]!r} is not a number")
                continue
            if v != 0.0:
                entries[parts[0].strip().lower()] = {"vader_polarity": v}
    return Lexicon("vader", ("vader_polarity",), entries, "general", str(path), tuple(notes))


def raw_matrix(texts: Sequence[str], lexicons: Sequence[Lexicon]) -> tuple[list[str], np.ndarray]:
    """Unscaled features of ``texts`` as ``(column names, matrix)``: every list x score + derived LM columns.

    Vectorised: a sparse text x vocabulary count matrix times the vocabulary x list value matrix gives
    the sums; the same with the non-zero indicator gives the match counts.
    """
    # heavy (seconds on a busy machine): only this path needs it, `import sentiprobe.api` stays light
    from scipy import sparse

    lists = [lst for lex in lexicons for lst in lex.lists]
    col = {lst: j for j, lst in enumerate(lists)}
    vocab: dict[str, int] = {}
    vals: list[tuple[int, int, float]] = []
    for lex in lexicons:
        for word, hit in lex.entries.items():
            v = vocab.setdefault(word, len(vocab))
            vals.extend((v, col[lst], x) for lst, x in hit.items())
    V = sparse.csr_matrix(([x for _, _, x in vals], ([v for v, _, _ in vals], [j for _, j, _ in vals])),
                          shape=(len(vocab), len(lists)))
    rows, cols, ntok = [], [], np.zeros(len(texts))
    for i, t in enumerate(texts):
        toks = t.lower().split()
        ntok[i] = len(toks)
        hits = [vocab[w] for w in toks if w in vocab]
        rows.extend([i] * len(hits))
        cols.extend(hits)
    T = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(texts), len(vocab)))
    seqsum = np.asarray((T @ V).todense()).reshape(len(texts), len(lists))
    nmatch = np.asarray((T @ (V != 0).astype(np.float64)).todense()).reshape(len(texts), len(lists))
    with np.errstate(divide="ignore", invalid="ignore"):
        seqnorm = np.where(ntok[:, None] > 0, seqsum / np.maximum(ntok, 1)[:, None], 0.0)
        matchnorm = np.where(nmatch > 0, seqsum / np.maximum(nmatch, 1), 0.0)
    by_score = {"seqsum": seqsum, "seqnorm": seqnorm, "matchnorm": matchnorm}
    names, columns = [], []
    for j, lst in enumerate(lists):
        for s in SCORES:
            names.append(f"{lst}-{s}")
            columns.append(by_score[s][:, j])
    if any(lex.name == "lm" for lex in lexicons):
        zero = np.zeros(len(texts))
        for s in SCORES:
            get = lambda c, s=s: by_score[s][:, col[f"lm_{c}"]] if f"lm_{c}" in col else zero  # noqa: E731
            neg = functools.reduce(np.add, [get(c) for c in LM_NEGATIVE_COMBO])  # = sum(), typed as an array
            names += [f"lm_negativecombo-{s}", f"lm_polarity-{s}", f"lm_polaritycombo-{s}"]
            columns += [neg, get("positive") - get("negative"), get("positive") - neg]
    X = np.stack(columns, axis=1) if columns else np.zeros((len(texts), 0))
    return names, X


def raw_features(text: str, lexicons: Sequence[Lexicon]) -> dict[str, float]:
    """Unscaled features of one text (see :func:`raw_matrix`)."""
    names, X = raw_matrix([text], lexicons)
    return dict(zip(names, map(float, X[0])))


@dataclass(frozen=True)
class ColumnScaler:
    """Robust clip + min-max scaling of one column to [-1, 1] (fitted on train + dev)."""

    column: str
    lower: float
    upper: float
    cmin: float
    cmax: float

    def __call__(self, x: np.ndarray) -> np.ndarray:
        c = np.clip(x, self.lower, self.upper)
        if self.cmax <= self.cmin:
            return np.zeros_like(c)
        return -1.0 + 2.0 * (c - self.cmin) / (self.cmax - self.cmin)


def fit_column_scaler(column: str, x: np.ndarray) -> ColumnScaler:
    """Clip bounds: 5th percentile of the negative values, 95th of the positive ones (the column's min /
    max when it has no negative / positive values); then min-max of the clipped column."""
    x = np.asarray(x, dtype=np.float64)
    neg, pos = x[x < 0], x[x > 0]
    lower = float(np.quantile(neg, 0.05)) if neg.size else float(x.min())
    upper = float(np.quantile(pos, 0.95)) if pos.size else float(x.max())
    c = np.clip(x, lower, upper)
    return ColumnScaler(column, lower, upper, float(c.min()), float(c.max()))


def _combo_columns(names: Iterable[str], s: str, prefixes: tuple[str, ...] | None) -> list[str]:
    pat = re.compile(rf"^([a-z0-9]+)_(polarity|market_sentiment)-{s}$")
    out = []
    for c in names:
        m = pat.match(c)
        if m and (prefixes is None or m.group(1) in prefixes):
            out.append(c)
    return out


@dataclass
class LexiconFeaturizer:
    """Computes the feature dict of texts for one setting; ``fit`` learns the combo scalers."""

    lexicons: tuple[Lexicon, ...]
    setting: str
    scalers: dict[str, ColumnScaler] = field(default_factory=dict)
    combos: dict[str, list[str]] = field(default_factory=dict)

    def fit(self, texts: Sequence[str]) -> LexiconFeaturizer:
        """Fit the clip / min-max scalers of the polarity columns on ``texts`` (train + dev only)."""
        self._fit_raw(*raw_matrix(texts, self.lexicons))
        return self

    def _fit_raw(self, names: list[str], X: np.ndarray) -> None:
        econ = tuple(lex.name for lex in self.lexicons if lex.kind == "economic")
        general = any(lex.kind == "general" for lex in self.lexicons)
        self.combos, self.scalers = {}, {}
        for s in SCORES:
            groups = [("econcombo", _combo_columns(names, s, econ))]
            if general:
                groups.append(("allcombo", _combo_columns(names, s, None)))
            for prefix, cols in groups:
                if cols:
                    self.combos[f"{prefix}_polarity-{s}"] = cols
                    for c in cols:
                        if c not in self.scalers:
                            self.scalers[c] = fit_column_scaler(c, X[:, names.index(c)])

    def _finish(self, names: list[str], X: np.ndarray) -> list[dict[str, float]]:
        cols = [X[:, j] for j in range(len(names))]
        out_names = list(names)
        for combo, members in self.combos.items():
            scaled = np.stack([self.scalers[c](X[:, names.index(c)]) for c in members], axis=1)
            out_names += [f"{combo}sum", f"{combo}mean"]
            cols += [scaled.sum(axis=1), scaled.mean(axis=1)]
        M = np.stack(cols, axis=1) if cols else np.zeros((X.shape[0], 0))
        return [dict(zip(out_names, row)) for row in M.tolist()]

    def transform(self, texts: Sequence[str]) -> list[dict[str, float]]:
        """Feature dicts (same keys, fixed order) for ``texts``."""
        names, X = raw_matrix(texts, self.lexicons)
        if not self.scalers and _combo_columns(names, SCORES[0], None):
            raise ConfigError("LexiconFeaturizer.transform called before fit")
        return self._finish(names, X)

    def fit_transform(self, texts: Sequence[str], fit_rows: Sequence[bool]) -> list[dict[str, float]]:
        """Fit on the rows where ``fit_rows`` is true (train + dev), transform every row (one pass)."""
        names, X = raw_matrix(texts, self.lexicons)
        mask = np.asarray(fit_rows, dtype=bool)
        if not mask.any():
            raise ConfigError("no train/dev rows to fit the lexicon scalers on")
        self._fit_raw(names, X[mask])
        return self._finish(names, X)

    def describe(self) -> dict[str, Any]:
        """What the setting contains and lacks (for results, stats and reports)."""
        return {"setting": self.setting, "label": setting_label(self.setting),
                "lexicons": [{"name": lex.name, "kind": lex.kind, "source": lex.source, "lists": list(lex.lists),
                              "entries": len(lex.entries), "notes": list(lex.notes)} for lex in self.lexicons],
                "not_available": dict(NOT_AVAILABLE) if self.setting != "nolex" else {},
                "scalers": {c: {"lower": s.lower, "upper": s.upper, "min": s.cmin, "max": s.cmax}
                            for c, s in self.scalers.items()},
                "scaled_on": "train+dev"}


def setting_label(setting: str) -> str:
    return {"nolex": "no lexicon features",
            "lexecon": "lexecon (reduced: Henry 2008, Loughran-McDonald 2019, NTUSD-Fin; SentiEcon not available)",
            "lexecon+vader": "lexecon (reduced) + VADER general-domain lexicon (not a setting of the paper)",
            "lexall": "lexall (economic + general lexicons, user-supplied)"}.get(setting, setting)


def setting_lexicons(setting: str, shipped: Sequence[Lexicon], extra: Sequence[Lexicon] = ()) -> tuple[Lexicon, ...]:
    """The lexicons a setting uses; refuses ``lexall`` without the missing general lexicons."""
    if setting not in SETTINGS:
        raise ConfigError(f"unknown lexicon setting {setting!r}; use one of {', '.join(SETTINGS)}")
    if setting == "nolex":
        return ()
    lex = list(shipped) + [x for x in extra if x.kind == "economic"]
    if setting == "lexecon+vader":
        lex.append(load_vader_lexicon())
    elif setting == "lexall":
        general = [x for x in extra if x.kind == "general"]
        have = {x.name for x in general}
        need = {"msol", "swn3geometric", "liwc"} - have
        if need:
            raise ConfigError("lexall needs the general lexicons MSOL, SentiWordNet 3 and LIWC 2007 (and the paper "
                              f"also used SentiEcon), which are not shipped; missing: {sorted(need)}. Supply licensed "
                              "copies as extra lexicons, or use 'lexecon' (reduced) or 'lexecon+vader' (labelled "
                              "general-domain alternative).")
        lex += general
    return tuple(lex)

