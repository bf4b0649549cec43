"""ARTS record types, id rules and span helpers (docs/protocols/arts.md#data, #data-irregularities).

Everything here is a frozen dataclass or a pure function. The loaders in ``load.py`` build these
records; ``items.py`` turns them into :class:`sentiprobe.core.types.Item`.

Id rules (docs/protocols/arts.md#ids): an *example id* is a sentence id, ``_`` and a decimal aspect index. The sentence
id is what precedes the **last** ``_``; ids are never stripped or normalised (one restaurant sentence id
ends with a space: ``33068425#562449#4 _0``). A variant key is an example id plus ``_adv1`` (RevTgt),
``_adv2`` (RevNon) or ``_adv3``/``_adv4`` (AddDiff; the prediction CSVs use ``_adv4``).
"""
from __future__ import annotations

import logging
import os
import re
from dataclasses import asdict, dataclass

logger = logging.getLogger("sentiprobe.arts")

LABELS: tuple[str, ...] = ("positive", "negative", "neutral")
"""The three polarity labels, in the suite's label order."""

FLIP: dict[str, str] = {"positive": "negative", "negative": "positive", "neutral": "neutral"}
"""Flip(p) of docs/protocols/arts.md#terms: positive<->negative, neutral stays neutral (the RevTgt label rule)."""

ORIGINAL = "original"
STRATEGIES: tuple[str, ...] = ("revtgt", "revnon", "adddiff")
"""Variant kinds, in the paper's order."""

STRATEGY_NAMES: dict[str, str] = {"revtgt": "RevTgt", "revnon": "RevNon", "adddiff": "AddDiff"}
"""Paper names of the strategies (for reports)."""

VARIANT_RE = re.compile(r"_adv([1-4])$")
"""The only variant suffixes (docs/protocols/arts.md#enriched-sets)."""

SUFFIX_KIND: dict[str, str] = {"1": "revtgt", "2": "revnon", "3": "adddiff", "4": "adddiff"}
KIND_SUFFIX: dict[str, str] = {"revtgt": "_adv1", "revnon": "_adv2", "adddiff": "_adv3"}
"""Canonical key suffix per strategy (AddDiff is ``_adv3``; ``_adv4`` is read as an alias)."""


@dataclass(frozen=True)
class DataWarning:
    """A tolerated irregularity in a data file (docs/protocols/arts.md#data-irregularities): reported, never fatal.

    Attributes:
        path: file the record comes from.
        record: record id (or ``line N``).
        field: the field concerned (``from``/``to``, ``term``, ``polarity``, ...).
        message: what is wrong and what the loader did about it.
    """

    path: str
    record: str
    field: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return asdict(self)

    def __str__(self) -> str:
        return f"{self.path}: record {self.record!r}, field {self.field!r}: {self.message}"


@dataclass(frozen=True)
class AspectExample:
    """One (sentence, aspect) record of a flat split file (docs/protocols/arts.md#flat-files).

    Attributes:
        id: example id (equals the top-level key).
        sentence: raw review sentence.
        term: aspect term.
        polarity: gold label.
        start, end: the file's ``from``/``to`` offsets, verbatim.
        span: ``(from, to)`` when it matches ``term``; otherwise the re-located span or ``None``
            (a :class:`DataWarning` is recorded).
        multi: the sentence has more than one annotated aspect.
        contra: another aspect of the sentence has a different label.
    """

    id: str
    sentence: str
    term: str
    polarity: str
    start: int
    end: int
    span: tuple[int, int] | None
    multi: bool
    contra: bool

    @property
    def sentence_id(self) -> str:
        return split_example_id(self.id)[0]


@dataclass(frozen=True)
class TermAnnotation:
    """One aspect inside a per-sentence record (``_sent`` / ``_sent_towe``, docs/protocols/arts.md#sentence-files,
    #towe-files).

    Attributes:
        id: example id.
        term, polarity: aspect term and gold label.
        start, end: verbatim ``from``/``to``; ``span`` as in :class:`AspectExample`.
        opinion_words: TOWE opinion strings (empty for ``_sent`` files).
        opinion_spans: TOWE ``[from, to]`` spans, parallel to ``opinion_words``.
    """

    id: str
    term: str
    polarity: str
    start: int
    end: int
    span: tuple[int, int] | None
    opinion_words: tuple[str, ...] = ()
    opinion_spans: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class SentenceRecord:
    """One sentence of a ``_sent`` or ``_sent_towe`` file.

    Attributes:
        id: sentence id.
        sentence: the text (TOWE files may differ slightly from the SemEval text, docs/protocols/arts.md#towe-files).
        multi, contra: flags as stored (``contra``: more than one distinct label).
        terms: the aspects, in file order.
    """

    id: str
    sentence: str
    multi: bool
    contra: bool
    terms: tuple[TermAnnotation, ...]


@dataclass(frozen=True)
class EnrichedExample:
    """One record of a released ARTS test set (docs/protocols/arts.md#enriched-sets).

    Attributes:
        key: the top-level key, verbatim (``1094:1_1_adv1``; ``_adv4`` kept as written).
        item_key: the key with ``_adv4`` normalised to ``_adv3`` (the suite's item id).
        source_id: the ``id`` field, i.e. the source example id (the ARS grouping key).
        kind: ``original``, ``revtgt``, ``revnon`` or ``adddiff``.
        sentence, term, polarity: the record's own text, term (variants may change it,
        docs/protocols/arts.md#data-irregularities) and label. start, end: verbatim offsets; ``span`` validated or
        re-located (see :class:`AspectExample`).
    """

    key: str
    item_key: str
    source_id: str
    kind: str
    sentence: str
    term: str
    polarity: str
    start: int
    end: int
    span: tuple[int, int] | None


@dataclass(frozen=True)
class ResultsRow:
    """One row of a published prediction CSV (docs/protocols/arts.md#results-csv).

    Attributes:
        id: the row id, verbatim (``_adv4`` for AddDiff).
        item_key: ``id`` with ``_adv4`` normalised to ``_adv3``.
        source_id: ``id`` without its variant suffix.
        kind: ``original`` or a strategy.
        sentence, term, gold: the row's text, term and gold label.
        predictions: one label (or ``None`` for an empty cell) per model column.
        line: 1-based line number of the row in the file (header is line 1).
    """

    id: str
    item_key: str
    source_id: str
    kind: str
    sentence: str
    term: str
    gold: str
    predictions: tuple[str | None, ...]
    line: int


@dataclass(frozen=True)
class ResultsTable:
    """A published prediction CSV: rows plus the model column names.

    Attributes:
        path: the file.
        models: model column names, in header order.
        rows: the rows, in file order.
    """

    path: str
    models: tuple[str, ...]
    rows: tuple[ResultsRow, ...]

    def column(self, model: str) -> list[tuple[str, str | None]]:
        """``(item_key, label)`` pairs of one model column (``_adv4`` already mapped to ``_adv3``)."""
        j = self.models.index(model)
        return [(r.item_key, r.predictions[j]) for r in self.rows]


# ---- ids ------------------------------------------------------------------------------------------

def split_example_id(example_id: str) -> tuple[str, str]:
    """``(sentence_id, aspect_index)`` of an example id, cut at the **last** ``_`` (docs/protocols/arts.md#ids).

    Raises ``ValueError`` when there is no ``_``, the sentence id is empty or the index is not a
    decimal number. Nothing is stripped.
    """
    sent, sep, idx = example_id.rpartition("_")
    if not sep or not sent or not (idx.isascii() and idx.isdigit()):
        raise ValueError(f"{example_id!r} is not '<sentence id>_<aspect index>'")
    return sent, idx


def is_example_id(example_id: str) -> bool:
    """Whether ``example_id`` follows docs/protocols/arts.md#ids (and carries no variant suffix)."""
    if VARIANT_RE.search(example_id):
        return False
    try:
        split_example_id(example_id)
    except ValueError:
        return False
    return True


GENERATED_RE = re.compile(r"_(revnon_adddiff|adddiff_k[1-9][0-9]*)$")
"""Suffixes of the generated recipes of docs/protocols/arts.md#adddiff-variations (RevNon+AddDiff, AddDiff(k)); the kind
is the suffix."""


def parse_key(key: str) -> tuple[str, str]:
    """``(source_id, kind)`` of an enriched key or CSV row id (``_adv[1-4]$``, docs/protocols/arts.md#enriched-sets;
    generated docs/protocols/arts.md#adddiff-variations recipes)."""
    m = VARIANT_RE.search(key)
    if m is None:
        g = GENERATED_RE.search(key)
        if g is not None:
            return key[: g.start()], g.group(1)
        return key, ORIGINAL
    return key[: m.start()], SUFFIX_KIND[m.group(1)]


def normalise_key(key: str) -> str:
    """Map the AddDiff alias ``_adv4`` to ``_adv3``; every other key is returned unchanged."""
    return key[:-1] + "3" if key.endswith("_adv4") else key


def expected_label(source_label: str, kind: str) -> str:
    """Gold label a variant must carry given its source's label (docs/protocols/arts.md#enriched-sets label rule)."""
    return FLIP[source_label] if kind == "revtgt" else source_label


# ---- spans ----------------------------------------------------------------------------------------

def locate_term(sentence: str, term: str, hint: tuple[int, int] | None = None, near: int | None = None
                ) -> tuple[tuple[int, int] | None, str | None]:
    """Find ``term`` in ``sentence``; return ``(span, problem)``.

    ``problem`` is ``None`` when the span is certain: ``hint`` matches the term, or the term occurs
    exactly once. Otherwise it says what was done: of several occurrences, the one starting nearest
    to ``near`` (the first when ``near`` is None); a unique case-insensitive match; or no match at
    all (span ``None``). Never raises.
    """
    if hint is not None:
        a, b = hint
        if 0 <= a <= b <= len(sentence) and sentence[a:b] == term and term:
            return (a, b), None
    if not term:
        return None, "empty term"
    starts = _occurrences(sentence, term)
    how = ""
    if not starts:
        starts = _occurrences(sentence.lower(), term.lower())
        how = " case-insensitively"
    if not starts:
        return None, "term not found in the sentence; span set to None"
    if len(starts) == 1:
        span = (starts[0], starts[0] + len(term))
        return span, (f"term found only{how} at {span}" if how else None)
    pick = starts[0] if near is None else min(starts, key=lambda s: (abs(s - near), s))
    span = (pick, pick + len(term))
    rule = "the first" if near is None else f"the one nearest to offset {near}"
    return span, f"term occurs {len(starts)} times{how}; used {rule}: {span}"


def _occurrences(text: str, sub: str) -> list[int]:
    out, i = [], text.find(sub)
    while i >= 0:
        out.append(i)
        i = text.find(sub, i + 1)
    return out


def check_span(sentence: str, term: str, start: int, end: int, *, path: str, record: str,
               warnings_out: list[DataWarning] | None, near: int | None = None) -> tuple[int, int] | None:
    """Validate verbatim offsets against the term; on a mismatch warn, re-locate and return the span.

    Re-location prefers the occurrence nearest to ``near`` (default: the record's own ``start``).
    """
    if 0 <= start <= end <= len(sentence) and sentence[start:end] == term:
        return start, end
    span, problem = locate_term(sentence, term, near=start if near is None else near)
    got = sentence[start:end] if 0 <= start <= end <= len(sentence) else "<out of range>"
    msg = (f"offsets {start}:{end} give {got!r}, not the term {term!r}; "
           + (f"re-located at {span}" if span else "no span") + (f" ({problem})" if problem else ""))
    warn(DataWarning(path, record, "from/to", msg), warnings_out)
    return span


_LOGGED: set[tuple[str, str, str, str]] = set()


def warn(w: DataWarning, warnings_out: list[DataWarning] | None, *, log: bool = True) -> None:
    """Record a data warning (appended to ``warnings_out``) and log it (INFO, once per process).

    The suites add one WARNING line per file that summarises the count (see ``summarise``).
    """
    key = (w.path, w.record, w.field, w.message)
    if log and key not in _LOGGED:
        _LOGGED.add(key)
        logger.info("data warning: %s", w)
    if warnings_out is not None:
        warnings_out.append(w)


def summarise(warnings: list[DataWarning], what: str) -> None:
    """Log one WARNING line per file (once per process) counting its tolerated irregularities."""
    per: dict[str, int] = {}
    for w in warnings:
        per[w.path] = per.get(w.path, 0) + 1
    for path, n in per.items():
        key = ("summary", path, what, str(n))
        if key not in _LOGGED:
            _LOGGED.add(key)
            # short enough for a 100-column console: the path's file name; the details list the full paths
            logger.warning("%s: %d tolerated irregularit%s in %s (`sentiprobe data stats`)",
                           what, n, "y" if n == 1 else "ies", os.path.basename(path))
