"""SENTiVENT loaders: validation errors name file, row and field; split rule; clause labelling rule.

``make_data_dir`` builds a tiny, self-written SENTiVENT data directory (also used by the other
``test_sentivent_*`` modules).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from sentiprobe.core.errors import DataError
from sentiprobe.suites.sentivent.load import (CLAUSE_COLUMNS, POLAR_COLUMNS, clause_label, doc_id, load_clauses,
                                              load_polar, read_splits)

SPLITS = {"train": ["aaa00", "aaa01"], "dev": ["bbb00"], "test": ["ccc00"]}
SENTENCES = [
    "Shares rise after record profit",
    "The company reported a loss and a lawsuit",
    "Analysts expect growth may continue",
    "Revenue declined amid weak demand",
    "The board approved a dividend increase",
    "Profit warning hits stock",
]
POLAR_ROWS = [  # (doc, sentence idx, polarity, polex span, target spans)
    ("aaa00", 0, "positive", (1, 1), [(0, 0)]),
    ("aaa00", 1, "negative", (4, 4), [(0, 1)]),
    ("aaa01", 2, "neutral", (2, 2), []),
    ("aaa01", 3, "negative", (1, 1), [(0, 0)]),
    ("aaa01", 4, "positive", (5, 5), [(1, 1)]),
    ("bbb00", 5, "negative", (0, 1), [(3, 3)]),
    ("bbb00", 0, "positive", (4, 4), [(0, 0)]),
    ("ccc00", 1, "negative", (7, 7), [(0, 1)]),
    ("ccc00", 3, "negative", (1, 1), []),
    ("ccc00", 4, "positive", (3, 3), [(1, 1)]),
]
CLAUSE_ROWS = [  # (doc, annotator, sentence, votes)
    ("aaa00", "eli", 0, ["positive", "positive"]),
    ("aaa00", "eli", 1, ["negative", "neutral"]),
    ("aaa01", "jef", 2, ["neutral"]),
    ("aaa01", "jef", 3, []),
    ("aaa01", "jef", 4, ["positive", "negative"]),
    ("bbb00", "gil", 5, ["negative"]),
    ("bbb00", "gil", 0, []),
    ("ccc00", "hai", 1, ["negative", "negative", "positive"]),
    ("ccc00", "hai", 3, []),
    ("ccc00", "hai", 4, ["positive"]),
]
LEXICONS = {
    "henry2008.tsv": "lex-uncased\tpolarity\nrise\t1\nprofit\t1\ngrowth\t1\nincrease\t1\ndeclined\t-1\nweak\t-1\n"
                     "growth\t1\n",
    "loughranmcdonald-v2019.tsv": "lex-uncased\tnegative\tpositive\tuncertainty\tlitigious\tconstraining\t"
                                  "interesting\tmodal\nloss\t1\t0\t0\t0\t0\t0\t0\nlawsuit\t1\t0\t0\t1\t0\t0\t0\n"
                                  "may\t0\t0\t1\t0\t0\t0\t1\nweak\t1\t0\t0\t0\t0\t0\t0\nwarning\t1\t0\t0\t0\t0\t0\t0\n"
                                  "record\t0\t1\t0\t0\t0\t0\t0\n",
    "ntusdfinword-v1.tsv": "lex-uncased\tmarket_sentiment\nshares\t0.3\nstock\t-0.2\nhits\t-0.7\ndemand\t0.5\n"
                           "dividend\t1.2\nloss\t-1.1\ncompany\t-0.53728\n",
}


def _tsv(rows: list[list[str]], header: tuple[str, ...]) -> str:
    return "\t".join(header) + "\n" + "".join("\t".join(r) + "\n" for r in rows)


def polar_rows() -> list[list[str]]:
    out, count = [], {}
    split_of = {d: s for s, ds in SPLITS.items() for d in ds}
    for doc, si, pol, ps, ts in POLAR_ROWS:
        toks = SENTENCES[si].split(" ")
        k = count.get((doc, si), 0)
        count[(doc, si)] = k + 1
        lo = min([ps[0]] + [t[0] for t in ts])
        hi = max([ps[1]] + [t[1] for t in ts])
        out.append([f"{doc} {si:02d} {k:02d}", pol, pol, SENTENCES[si], " ".join(toks[ps[0]:ps[1] + 1]),
                    " ".join(toks[lo:hi + 1]), str(ps), str((lo, hi)), str(ts), split_of[doc]])
    return out


def clause_rows() -> list[list[str]]:
    split_of = {d: s for s, ds in SPLITS.items() for d in ds}
    return [[f"{doc}_{ann}_s{si:02d}_c00", clause_label(v), str(v), (" " if i == 2 else "") + SENTENCES[si],
             SENTENCES[si] + " .", split_of[doc]] for i, (doc, ann, si, v) in enumerate(CLAUSE_ROWS)]


def make_data_dir(root: Path, *, polar: list[list[str]] | None = None, clauses: list[list[str]] | None = None,
                  lexicons: bool = True) -> Path:
    d = root / "sentivent"
    (d / "coarse").mkdir(parents=True, exist_ok=True)
    (d / "splits.json").write_text(json.dumps(SPLITS), encoding="utf-8")
    (d / "coarse" / "sentivent_implicit.csv").write_text(_tsv(polar or polar_rows(), POLAR_COLUMNS),
                                                         encoding="utf-8")
    (d / "coarse" / "sentivent_implicit_clauses.csv").write_text(_tsv(clauses or clause_rows(), CLAUSE_COLUMNS),
                                                                 encoding="utf-8")
    if lexicons:
        (d / "lexicons").mkdir(exist_ok=True)
        for name, text in LEXICONS.items():
            (d / "lexicons" / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def mini(tmp_path) -> Path:
    return make_data_dir(tmp_path)


def test_loads_fixture(mini):
    splits = read_splits(mini / "sentivent" / "splits.json")
    items = load_polar(mini / "sentivent" / "coarse" / "sentivent_implicit.csv", splits)
    assert [it.split for it in items].count("test") == 3 and items[0].item_id == "aaa00 00 00"
    assert items[1].text == "The company reported a loss" and items[1].meta["target_spans"] == [[0, 1]]
    clauses = load_clauses(mini / "sentivent" / "coarse" / "sentivent_implicit_clauses.csv", splits)
    assert [c.label for c in clauses] == ["positive", "negative", "neutral", "none", "neutral", "negative",
                                          "none", "negative", "none", "positive"]
    assert clauses[2].text.startswith(" ") and clauses[0].meta["annotator"] == "eli"


def test_clause_rule_and_doc_id():
    assert clause_label([]) == "none"
    assert clause_label(["neutral", "neutral"]) == "neutral"
    assert clause_label(["neutral", "neutral", "positive"]) == "positive"
    assert clause_label(["positive", "negative", "neutral"]) == "neutral"
    assert clause_label(["negative", "negative", "positive"]) == "negative"
    assert [doc_id(x) for x in ("aal00 00 01", "aal00_eli_s01_c00", "aal10:0")] == ["aal00"] * 2 + ["aal10"]


@pytest.mark.parametrize("row, col, value, message", [
    (2, 9, "dev", "disagrees with splits.json"),
    (2, 1, "bullish", "polarity"),
    (2, 6, "(2, 99)", "outside the sentence"),
    (2, 6, "__import__('os')", "Python literal"),
    (2, 8, "[(0, 1), 3]", "pair of integers"),
    (2, 4, "nope", "polex is not"),
    (2, 0, "aaa00-00-00", "id"),
    (3, 0, "zzz99 00 00", "not in splits.json"),
])
def test_polar_validation_names_file_row_field(tmp_path, row, col, value, message):
    rows = polar_rows()
    rows[row - 1][col] = value
    root = make_data_dir(tmp_path, polar=rows)
    path = root / "sentivent" / "coarse" / "sentivent_implicit.csv"
    with pytest.raises(DataError, match=message) as e:
        load_polar(path, read_splits(root / "sentivent" / "splits.json"))
    assert e.value.path == str(path) and str(e.value.record).startswith(f"row {row}")
    assert e.value.field == POLAR_COLUMNS[col]


def test_clause_validation(tmp_path):
    rows = clause_rows()
    rows[1][1] = "positive"  # votes say negative
    root = make_data_dir(tmp_path, clauses=rows)
    with pytest.raises(DataError, match="labelling rule") as e:
        load_clauses(root / "sentivent" / "coarse" / "sentivent_implicit_clauses.csv",
                     read_splits(root / "sentivent" / "splits.json"))
    assert e.value.field == "polarity" and e.value.record.startswith("row 2")
    rows = clause_rows()
    rows[0][2] = "['positive', 'bullish']"
    root = make_data_dir(tmp_path, clauses=rows)
    with pytest.raises(DataError, match="polarity_all"):
        load_clauses(root / "sentivent" / "coarse" / "sentivent_implicit_clauses.csv",
                     read_splits(root / "sentivent" / "splits.json"))


def test_bad_splits_and_extra_fields(tmp_path):
    p = tmp_path / "splits.json"
    p.write_text(json.dumps({"train": ["a"], "dev": ["a"], "test": []}), encoding="utf-8")
    with pytest.raises(DataError, match="both"):
        read_splits(p)
    rows = polar_rows()
    rows[0].append("extra")
    root = make_data_dir(tmp_path / "x", polar=rows)
    with pytest.raises(DataError, match="more fields"):
        load_polar(root / "sentivent" / "coarse" / "sentivent_implicit.csv", read_splits(root / "sentivent" /
                                                                                         "splits.json"))


@pytest.mark.realdata
def test_shipped_files(data_dir):
    splits = read_splits(data_dir / "sentivent" / "splits.json")
    assert sum(1 for s in splits.values() if s == "test") == 30 and len(splits) == 288
    polar = load_polar(data_dir / "sentivent" / "coarse" / "sentivent_implicit.csv", splits)
    clauses = load_clauses(data_dir / "sentivent" / "coarse" / "sentivent_implicit_clauses.csv", splits)
    assert len(polar) == 9562 and len(clauses) == 12920  # every clause label reproduced by the rule
    for items in (polar, clauses):
        docs = {s: {it.meta["doc"] for it in items if it.split == s} for s in ("train", "dev", "test")}
        assert {s: len(d) for s, d in docs.items()} == {"train": 228, "dev": 30, "test": 30}
        assert docs["test"] == {d for d, s in splits.items() if s == "test"}
