"""Loaders for the NonCompSST files (docs/protocols/noncompsst.md#data), with structural validation.

Every reader returns frozen dataclasses and raises :class:`~sentiprobe.core.errors.DataError`
naming the file, the 1-based line and the field when the file does not have the structure the
spec describes. Three files (``stimuli_study1.tsv``, ``stimuli_study2.tsv``,
``maxabs_ranking.tsv``) contain UTF-7 escapes (``+AC0-`` = ``-``) and are decoded as UTF-7 as a
whole; the others are plain UTF-8. No CSV dialect is used: fields are split on tabs only, since
phrases contain ``"``, ``'`` and backquotes.

The ungrammaticality flags are read from ``ungrammaticality.json`` (or ``.tsv``), never from the
pickle.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ...core.errors import DataError, MissingDataError
from ...core.io import loads_json
from ...data import require_file

SCHEMA_VERSION = 1

STUDY1_HEADER = ("phrase 1", "phrase 1 clean", "phrase 2", "phrase 2 clean", "side to be replaced",
                 "SST replacement 1", "SST replacement 2", "SST replacement 3", "SST replacement 4")
STUDY2_HEADER = STUDY1_HEADER[:8]
RANKING_HEADER = ("phrase", "maxabs_rating", "sentiment")
FLAGS_TSV_HEADER = ("stimulus", "ungrammatical")
N_CONTROLS = 3
LINES_PER_PHRASE = 1 + 2 * N_CONTROLS
#: stimulus roles in the order of the 7 lines of a phrase in ``stimuli_flat.txt``
ROLES = ("nat", "left1", "left2", "left3", "right1", "right2", "right3")

#: counts of the shipped release (docs/protocols/noncompsst.md#data); checked when ``strict=True``
EXPECTED_COUNTS = {"study1_phrases": 500, "study2_phrases": 259, "flat_lines": 1813,
                   "distinct_stimuli": 1811, "flagged": 109}

# paths relative to the data dir (manifest paths)
FILES = {
    "study1": "noncompsst/noncompsst/stimuli_study1.tsv",
    "study2": "noncompsst/noncompsst/stimuli_study2.tsv",
    "stimuli": "noncompsst/noncompsst/stimuli.tsv",
    "flat": "noncompsst/noncompsst/stimuli_flat.txt",
    "flags": "noncompsst/noncompsst/ungrammaticality.json",
    "flags_tsv": "noncompsst/noncompsst/ungrammaticality.tsv",
    "ranking": "noncompsst/noncompsst/maxabs_ranking.tsv",
}


@dataclass(frozen=True)
class StudyRow:
    """One row of ``stimuli_study1.tsv`` / ``stimuli_study2.tsv`` (after UTF-7 decoding).

    Attributes:
        line: 1-based line number in the file (the header is line 1).
        a_raw, a: left subphrase A in SST tokenisation / as shown to participants.
        b_raw, b: right subphrase B likewise.
        side: ``left`` (controls replace A) or ``right`` (controls replace B).
        replacements: the candidate (study 1: 4) or used (study 2: 3) control subphrases.
    """

    line: int
    a_raw: str
    a: str
    b_raw: str
    b: str
    side: str
    replacements: tuple[str, ...]


@dataclass(frozen=True)
class Phrase:
    """One Study-2 phrase "A B" with its six controls.

    Attributes:
        index: 0-based phrase index k (line 7k of ``stimuli_flat.txt`` is the natural phrase).
        a_raw, a, b_raw, b: subphrases in SST and clean spelling.
        left: the three controls replacing A (``A'_n``), in file order.
        right: the three controls replacing B (``B'_n``), in file order.
    """

    index: int
    a_raw: str
    a: str
    b_raw: str
    b: str
    left: tuple[str, ...]
    right: tuple[str, ...]
    schema_version: int = SCHEMA_VERSION

    @property
    def text(self) -> str:
        """The natural phrase ``A B`` (clean spelling); also the MAX/MAXABS key."""
        return f"{self.a} {self.b}"

    @property
    def stimuli(self) -> tuple[str, ...]:
        """The 7 stimulus strings in ``stimuli_flat.txt`` order (see ``ROLES``)."""
        return ((self.text,) + tuple(f"{c} {self.b}" for c in self.left)
                + tuple(f"{self.a} {c}" for c in self.right))

    def subphrases(self) -> tuple[str, ...]:
        """A and B (both spellings) and the six controls (used by the SST removal rule)."""
        return (self.a_raw, self.a, self.b_raw, self.b) + self.left + self.right


@dataclass(frozen=True)
class HumanRanking:
    """One row of ``maxabs_ranking.tsv``.

    Attributes:
        line: 1-based line number.
        phrase: the natural phrase.
        maxabs_printed, sentiment_printed: the values as printed (2 decimals).
        maxabs: exact human MAXABS rating recovered from the print (a multiple of 1/9).
        sentiment: exact human mean sentiment recovered from the print (a multiple of 1/3).
    """

    line: int
    phrase: str
    maxabs_printed: str
    sentiment_printed: str
    maxabs: Fraction
    sentiment: Fraction


@dataclass(frozen=True)
class NonCompSST:
    """Everything the protocol needs from the release.

    Attributes:
        phrases: the 259 Study-2 phrases, in ``stimuli.tsv`` order.
        lines: the 1,813 lines of ``stimuli_flat.txt`` (index = 0-based line number).
        flags: stimulus string -> ungrammatical (keys = the distinct lines).
        human: natural phrase -> HumanRanking.
    """

    phrases: tuple[Phrase, ...]
    lines: tuple[str, ...]
    flags: dict[str, bool]
    human: dict[str, HumanRanking]


# ---- low-level readers ----------------------------------------------------------------------------
def read_text(path: str | Path, *, utf7: bool = False) -> str:
    """File content as text: UTF-7 decoded as a whole (docs/protocols/noncompsst.md#encoding) or strict UTF-8."""
    path = Path(path)
    data = path.read_bytes()
    try:
        text = data.decode("utf-7") if utf7 else data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"cannot decode as {'UTF-7' if utf7 else 'UTF-8'}: {exc.reason} at byte {exc.start}",
                        path=path) from None
    if "\r" in text:
        line = text[:text.index("\r")].count("\n") + 1
        raise DataError("carriage return found (expected LF line endings)", path=path, record=f"line {line}")
    return text


def split_lines(text: str) -> list[str]:
    """Lines of an LF file; a final newline does not make an extra empty line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def read_tsv(path: str | Path, header: tuple[str, ...] | None, ncols: int, *,
             utf7: bool = False) -> list[tuple[int, list[str]]]:
    """``(line_number, fields)`` rows of a tab-separated file, no quoting; checks header and widths."""
    path = Path(path)
    lines = split_lines(read_text(path, utf7=utf7))
    start = 0
    if header is not None:
        if not lines:
            raise DataError("empty file (expected a header)", path=path, record="line 1")
        got = tuple(lines[0].split("\t"))
        if got != header:
            raise DataError(f"unexpected header {list(got)}, expected {list(header)}", path=path, record="line 1")
        start = 1
    rows = []
    for i in range(start, len(lines)):
        fields = lines[i].split("\t")
        if len(fields) != ncols:
            raise DataError(f"expected {ncols} tab-separated fields, found {len(fields)}", path=path,
                            record=f"line {i + 1}")
        names = header or tuple(f"column {j + 1}" for j in range(ncols))
        for j, f in enumerate(fields):
            if f == "" or f != f.strip():
                raise DataError("empty field or leading/trailing whitespace", path=path,
                                record=f"line {i + 1}", field=names[j])
        rows.append((i + 1, fields))
    return rows


def read_study(path: str | Path, n_replacements: int) -> list[StudyRow]:
    """Read ``stimuli_study1.tsv`` (4 replacements) or ``stimuli_study2.tsv`` (3): left/right row pairs."""
    header = STUDY1_HEADER[:5 + n_replacements]
    rows = read_tsv(path, header, len(header), utf7=True)
    out: list[StudyRow] = []
    for n, f in rows:
        side = f[4]
        want = "left" if len(out) % 2 == 0 else "right"
        if side != want:
            raise DataError(f"side {side!r}, expected {want!r} (rows alternate left, right per phrase)",
                            path=path, record=f"line {n}", field=header[4])
        row = StudyRow(n, f[0], f[1], f[2], f[3], side, tuple(f[5:]))
        if side == "right":
            prev = out[-1]
            for name, x, y in (("phrase 1", prev.a_raw, row.a_raw), ("phrase 1 clean", prev.a, row.a),
                               ("phrase 2", prev.b_raw, row.b_raw), ("phrase 2 clean", prev.b, row.b)):
                if x != y:
                    raise DataError(f"differs from the left row above ({x!r} vs {y!r})", path=path,
                                    record=f"line {n}", field=name)
        if len(set(row.replacements)) != len(row.replacements):
            raise DataError("repeated replacement", path=path, record=f"line {n}", field=header[5])
        out.append(row)
    if len(out) % 2:
        raise DataError("odd number of rows: the last phrase has no right row", path=path,
                        record=f"line {rows[-1][0]}")
    return out


def phrases_from_study2(rows: list[StudyRow]) -> list[Phrase]:
    """Pair Study-2 rows into phrases (row 2k = left, 2k+1 = right)."""
    return [Phrase(k, rows[2 * k].a_raw, rows[2 * k].a, rows[2 * k].b_raw, rows[2 * k].b,
                   rows[2 * k].replacements, rows[2 * k + 1].replacements) for k in range(len(rows) // 2)]


def check_study2_in_study1(study1: list[StudyRow], phrases: list[Phrase], path2: str | Path) -> None:
    """Every Study-2 phrase is a Study-1 phrase; each side's controls are among its Study-1 candidates."""
    cands = {}
    for r in study1:
        cands[(r.a_raw, r.a, r.b_raw, r.b, r.side)] = set(r.replacements)
    for p in phrases:
        for side, ctrl in (("left", p.left), ("right", p.right)):
            key = (p.a_raw, p.a, p.b_raw, p.b, side)
            line = 2 + 2 * p.index + (side == "right")
            if key not in cands:
                raise DataError("phrase is not in Study 1", path=path2, record=f"line {line}", field="phrase 1")
            extra = [c for c in ctrl if c not in cands[key]]
            if extra:
                raise DataError(f"controls {extra} are not Study-1 candidates of this side", path=path2,
                                record=f"line {line}", field="SST replacement 1")


def read_stimuli_tsv(path: str | Path, phrases: list[Phrase]) -> None:
    """Check ``stimuli.tsv`` (no header, 7 columns) equals Study 2 without the side column."""
    rows = read_tsv(path, None, 7)
    if len(rows) != 2 * len(phrases):
        raise DataError(f"{len(rows)} rows, expected {2 * len(phrases)} (2 per Study-2 phrase)", path=path)
    for (n, f), k in zip(rows, range(len(rows))):
        p = phrases[k // 2]
        want = [p.a_raw, p.a, p.b_raw, p.b, *(p.left if k % 2 == 0 else p.right)]
        for j, (x, y) in enumerate(zip(f, want)):
            if x != y:
                raise DataError(f"{x!r} differs from stimuli_study2.tsv ({y!r})", path=path, record=f"line {n}",
                                field=f"column {j + 1}")


def read_flat(path: str | Path, phrases: list[Phrase] | None = None) -> tuple[str, ...]:
    """The lines of ``stimuli_flat.txt``; when ``phrases`` is given, checks the 7-lines-per-phrase layout."""
    lines = split_lines(read_text(path))
    for i, s in enumerate(lines):
        if not s or s != s.strip() or "\t" in s:
            raise DataError("empty line, tab or leading/trailing whitespace", path=path, record=f"line {i + 1}")
    if phrases is not None:
        if len(lines) != LINES_PER_PHRASE * len(phrases):
            raise DataError(f"{len(lines)} lines, expected {LINES_PER_PHRASE} per phrase "
                            f"({LINES_PER_PHRASE * len(phrases)})", path=path)
        for p in phrases:
            for j, want in enumerate(p.stimuli):
                i = LINES_PER_PHRASE * p.index + j
                if lines[i] != want:
                    raise DataError(f"{lines[i]!r} differs from the stimulus rebuilt from stimuli_study2.tsv "
                                    f"({want!r})", path=path, record=f"line {i + 1}", field=ROLES[j])
    return tuple(lines)


def read_flags(path: str | Path) -> dict[str, bool]:
    """Ungrammaticality flags from ``ungrammaticality.json`` (object) or ``.tsv`` (never the pickle)."""
    path = Path(path)
    if path.suffix == ".pickle":
        raise DataError("refusing to unpickle; use ungrammaticality.json or .tsv", path=path)
    if path.suffix == ".tsv":
        out: dict[str, bool] = {}
        for n, (s, v) in read_tsv(path, FLAGS_TSV_HEADER, 2):
            if v not in ("0", "1"):
                raise DataError(f"value {v!r} is not 0 or 1", path=path, record=f"line {n}", field="ungrammatical")
            if s in out:
                raise DataError("duplicate stimulus", path=path, record=f"line {n}", field="stimulus")
            out[s] = v == "1"
        return out

    def no_dups(pairs):
        d = {}
        for k, v in pairs:
            if k in d:
                raise DataError("duplicate key", path=path, record=k)
            d[k] = v
        return d

    try:
        obj = loads_json(read_text(path), object_pairs_hook=no_dups)
    except json.JSONDecodeError as exc:
        raise DataError(f"invalid JSON: {exc.msg}", path=path, record=f"line {exc.lineno}") from None
    if not isinstance(obj, dict):
        raise DataError("expected a JSON object {stimulus: true/false}", path=path)
    for k, v in obj.items():
        if not isinstance(v, bool):
            raise DataError(f"value {v!r} is not true/false", path=path, record=k)
    return dict(obj)


def exact_multiple(printed: str, denominator: int, path: Path, line: int, field: str) -> Fraction:
    """Recover an exact k/denominator from a value printed with 2 decimals (docs/protocols/noncompsst.md#numerics)."""
    try:
        x = Fraction(printed)
    except (ValueError, ZeroDivisionError):
        raise DataError(f"not a number: {printed!r}", path=path, record=f"line {line}", field=field) from None
    k = round(x * denominator)
    exact = Fraction(k, denominator)
    if abs(exact - x) > Fraction(1, 200) + Fraction(1, 10 ** 9):
        raise DataError(f"{printed} is not a multiple of 1/{denominator} rounded to 2 decimals", path=path,
                        record=f"line {line}", field=field)
    return exact


def read_ranking(path: str | Path) -> list[HumanRanking]:
    """``maxabs_ranking.tsv`` (UTF-7): phrase, human MAXABS rating, human mean sentiment."""
    path = Path(path)
    out = []
    seen = set()
    for n, (phrase, m, s) in read_tsv(path, RANKING_HEADER, 3, utf7=True):
        if phrase in seen:
            raise DataError("duplicate phrase", path=path, record=f"line {n}", field="phrase")
        seen.add(phrase)
        mx = exact_multiple(m, 9, path, n, "maxabs_rating")
        se = exact_multiple(s, 3, path, n, "sentiment")
        if mx < 0 or mx > 6:
            raise DataError(f"MAXABS rating {m} outside [0, 6]", path=path, record=f"line {n}", field="maxabs_rating")
        if se < 0 or se > 6:
            raise DataError(f"sentiment {s} outside [0, 6]", path=path, record=f"line {n}", field="sentiment")
        out.append(HumanRanking(n, phrase, m, s, mx, se))
    return out


# ---- the whole release ----------------------------------------------------------------------------
def need_file(root: str | Path, rel: str, strict: bool = True) -> Path:
    """``root / rel``; strict: through the data layer (manifest size check, fetch advice), else presence only."""
    if strict:
        return require_file(root, rel)
    p = Path(root) / rel
    if not p.is_file():
        raise MissingDataError(p)
    return p


def load_noncompsst(root: str | Path, *, strict: bool = True, check_study1: bool = True) -> NonCompSST:
    """Load and cross-check the NonCompSST release under data dir ``root`` (docs/protocols/noncompsst.md#data).

    Checks: Study-2 ⊂ Study-1 (phrases and controls), ``stimuli.tsv`` = Study 2 without the side
    column, ``stimuli_flat.txt`` rebuilt exactly from Study 2, flag keys = the distinct stimulus
    lines, ranking phrases = the natural phrases. ``strict`` (the default) also checks file sizes
    against the manifest and the counts of docs/protocols/noncompsst.md#data; ``strict=False`` is for small hand-made
    releases.
    """
    root = Path(root)
    p = {k: root / v for k, v in FILES.items()}
    for k in ("study2", "stimuli", "flat", "ranking"):
        need_file(root, FILES[k], strict)
    rows2 = read_study(p["study2"], 3)
    phrases = phrases_from_study2(rows2)
    if check_study1:
        need_file(root, FILES["study1"], strict)
        rows1 = read_study(p["study1"], 4)
        check_study2_in_study1(rows1, phrases, p["study2"])
    read_stimuli_tsv(p["stimuli"], phrases)
    lines = read_flat(p["flat"], phrases)
    flags_path = need_file(root, FILES["flags"] if p["flags"].exists() or not p["flags_tsv"].exists()
                           else FILES["flags_tsv"], strict)
    flags = read_flags(flags_path)
    distinct = set(lines)
    missing = [s for s in dict.fromkeys(lines) if s not in flags]
    if missing:
        raise DataError(f"{len(missing)} stimuli have no flag, first {missing[0]!r}", path=flags_path,
                        record=missing[0])
    extra = [s for s in flags if s not in distinct]
    if extra:
        raise DataError(f"{len(extra)} flag keys are not stimuli, first {extra[0]!r}", path=flags_path,
                        record=extra[0])
    ranking = read_ranking(p["ranking"])
    naturals = {ph.text for ph in phrases}
    human = {r.phrase: r for r in ranking}
    for r in ranking:
        if r.phrase not in naturals:
            raise DataError("phrase is not a Study-2 natural phrase", path=p["ranking"], record=f"line {r.line}",
                            field="phrase")
    absent = [t for t in naturals if t not in human]
    if absent:
        raise DataError(f"{len(absent)} natural phrases have no human rating, first {sorted(absent)[0]!r}",
                        path=p["ranking"])
    if len(naturals) != len(phrases):
        raise DataError("natural phrases are not distinct strings", path=p["flat"])
    if strict:
        got = {"study1_phrases": len(rows1) // 2 if check_study1 else EXPECTED_COUNTS["study1_phrases"],
               "study2_phrases": len(phrases), "flat_lines": len(lines), "distinct_stimuli": len(distinct),
               "flagged": sum(flags.values())}
        for k, v in EXPECTED_COUNTS.items():
            if got[k] != v:
                raise DataError(f"{k}: found {got[k]}, the release has {v} (see docs/noncompsst.md)",
                                path=root / "noncompsst")
    return NonCompSST(tuple(phrases), lines, flags, human)
