"""The one input layer (``core.io.read_user_text`` / ``read_table``) and the prediction-file reader:
typed errors naming file and line for every malformed input, and the label-column precedence."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toy
from sentiprobe import api
from sentiprobe.cli import main
from sentiprobe.core.errors import DataError
from sentiprobe.core.io import read_table, read_user_text
from sentiprobe.suites.predictions_io import read_label_file

toy.register()


@pytest.mark.parametrize("name,data,message", [
    ("latin1.csv", b"item_id,label\ntest-0,positiv\xe9\n", "not UTF-8 text"),
    ("nul.csv", b"item_id,label\ntest-0,pos\x00\n", "binary content"),
    ("gz.jsonl", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", "binary content"),
    ("dup.csv", b"item_id,label,label\ntest-0,pos,neg\n", "duplicated column"),
    ("ragged.csv", b"item_id,label\ntest-0,pos,extra\n", "different number of fields"),
    ("bad.jsonl", b'{"item_id": "test-0", "label": "pos"}\n{"item_id": \n', "invalid JSON"),
    ("list.jsonl", b'["test-0", "pos"]\n', "expected a JSON object"),
])
def test_malformed_files_are_typed_errors(tmp_path, capsys, name, data, message):
    f = tmp_path / name
    f.write_bytes(data)
    with pytest.raises(DataError, match=message) as exc:
        read_label_file(f)
    assert str(f) in str(exc.value)
    assert main(["score", "--suite", "toy", "--predictions", str(f)]) == 1
    err = capsys.readouterr().err
    assert message.split(" (")[0] in err and str(f) in err and "Traceback" not in err


def test_decoding_error_names_the_line(tmp_path):
    f = tmp_path / "p.csv"
    f.write_bytes(b"item_id,label\ntest-0,pos\ntest-1,n\xffg\n")
    with pytest.raises(DataError, match="line 3"):
        read_table(f)


def test_directory_and_missing_file(tmp_path):
    with pytest.raises(DataError, match="is a directory"):
        read_user_text(tmp_path)
    with pytest.raises(DataError, match="not found"):
        read_user_text(tmp_path / "absent.csv")


def test_bom_header_is_accepted(tmp_path):
    f = tmp_path / "p.csv"
    f.write_bytes("\ufeffitem_id,label\ntest-0,pos\n".encode())
    assert read_label_file(f)[0].item_id == "test-0"


def test_prediction_column_wins_over_gold_label(tmp_path):
    """The SOUL reference output holds the gold ``label`` and the model's ``prediction``: score the latter."""
    f = tmp_path / "p.csv"
    f.write_text("item_id,label,prediction\n" + "".join(f"test-{i},pos,neg\n" for i in range(60)))
    doc = api.score("toy", f, n_boot=0, missing="wrong")
    assert doc["scored_column"] == "prediction"
    preds = read_label_file(f)
    assert {p.label for p in preds} == {"neg"}
    assert {p.label for p in read_label_file(f, column="label")} == {"pos"}
    with pytest.raises(DataError, match="no column 'nope'"):
        read_label_file(f, column="nope")


@given(st.binary(max_size=300))
def test_arbitrary_bytes_give_rows_or_a_typed_error(tmp_path_factory, data):
    for suffix in (".csv", ".jsonl", ".tsv"):
        f = tmp_path_factory.mktemp("h") / f"p{suffix}"
        f.write_bytes(data)
        try:
            rows = read_table(f)
        except DataError:
            continue
        assert isinstance(rows, list) and all(isinstance(r, dict) for r in rows)
        try:
            read_label_file(f)
        except DataError:
            pass


def test_a_blank_label_cell_reads_as_a_missing_prediction(tmp_path, capsys):
    # the reader side, on the toy suite; every registered suite's score stage: test_suite_common.py
    f = tmp_path / "p.csv"
    f.write_text("item_id,label\n" + "".join(f"test-{i},{'' if i < 3 else 'pos'}\n" for i in range(60)))
    assert main(["score", "--suite", "toy", "--predictions", str(f)]) == 1
    assert "blank labels" in capsys.readouterr().err
    doc = api.score("toy", f, n_boot=0, missing="wrong")
    assert doc["metrics"]["accuracy"]["n"] == 60
