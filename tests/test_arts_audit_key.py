"""``arts audit-score`` scores a sheet only with its own answer key: a key of another sample, a duplicated row or a
missing row is a typed error naming the sheet and line, never a rate over the wrong items."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from sentiprobe.core.errors import DataError
from sentiprobe.generate.arts import audit_sample, audit_score


def _enriched(path: Path, n: int = 12) -> Path:
    doc = {}
    for i in range(n):
        rec = {"sentence": f"The screen {i} is great.", "term": "screen", "polarity": "positive", "id": f"s{i}_0",
               "from": 4, "to": 10}
        doc[f"s{i}_0"] = rec
        doc[f"s{i}_0_adv1"] = {**rec, "sentence": f"The screen {i} is awful.", "polarity": "negative"}
        doc[f"s{i}_0_adv3"] = {**rec, "sentence": f"The screen {i} is great, but the fan is loud."}
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _judge(sheet: Path, rows_extra: int = 0) -> list[dict]:
    key = json.loads(Path(str(sheet) + ".key.json").read_text(encoding="utf-8"))
    rows = list(csv.DictReader(sheet.open(encoding="utf-8")))
    for r in rows:
        r["fluent"], r["label"] = "yes", key["items"][r["sample_id"]]["label"]
    rows += rows[:rows_extra]
    with sheet.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return rows


def test_a_sheet_scores_with_its_own_key(tmp_path):
    gen = _enriched(tmp_path / "g.json")
    sheet = tmp_path / "a.csv"
    audit_sample(gen, sheet, per_strategy=5, seed=1)
    rows = _judge(sheet)
    doc = audit_score(sheet, confidence=0.95)
    assert doc["overall"]["label"]["yes"] == doc["overall"]["label"]["n"] == len(rows) == 10


def test_the_key_of_another_sample_is_refused(tmp_path):
    gen = _enriched(tmp_path / "g.json")
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    audit_sample(gen, a, per_strategy=5, seed=1)
    audit_sample(gen, b, per_strategy=5, seed=2)  # same size and ids 1..10, other variants
    _judge(a)
    with pytest.raises(DataError, match="another sample") as err:
        audit_score(a, key=Path(str(b) + ".key.json"), confidence=0.95)
    assert err.value.path == str(a) and str(err.value.record).startswith("line ")


def test_a_duplicated_or_missing_row_is_refused(tmp_path):
    gen = _enriched(tmp_path / "g.json")
    sheet = tmp_path / "a.csv"
    audit_sample(gen, sheet, per_strategy=5, seed=1)
    _judge(sheet, rows_extra=3)
    with pytest.raises(DataError, match="appears twice") as err:
        audit_score(sheet, confidence=0.95)
    assert err.value.record == "line 12"
    rows = list(csv.DictReader(sheet.open(encoding="utf-8")))[:9]
    with sheet.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with pytest.raises(DataError, match="lacks 1 of the answer key's 10 items"):
        audit_score(sheet, confidence=0.95)
