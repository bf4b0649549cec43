"""NonCompSST loaders: structure checks on tiny fixtures written here, and the shipped release."""
from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from sentiprobe.core.errors import ChecksumError, DataError
from sentiprobe.suites.noncompsst.load import (FILES, load_noncompsst, read_flags, read_ranking, read_study,
                                               read_text)

# ---- a tiny consistent release (2 phrases) --------------------------------------------------------
P = [
    # a_raw, a, b_raw, b, left controls (study 1: 4), right controls (study 1: 4)
    ("her son 's discovery", "her son's discovery", "of well-made drama", "of well-made drama",
     ["the human story", "a whole segment", "the helping hand", "a big mess"],
     ["of cheap tricks", "of the year", "in its own right", "on the brink"]),
    ("The best thing", "the best thing", "-- ever", "-- ever",
     ["a bad idea", "the worst part", "my_name", "one more"],
     ["at all", "in the end", "for now", "so far"]),
]


def utf7(s: str) -> bytes:
    """Escape like the upstream files do (Python's encoder would leave '-' and '_' as they are)."""
    esc = {"--": "+AC0ALQ-", "-": "+AC0-", "_": "+AF8-"}
    return re.sub(r"--|-|_", lambda m: esc[m.group(0)], s).encode("ascii")


def write_release(root: Path, phrases=P, *, mutate=None) -> Path:
    d = root / "noncompsst" / "noncompsst"
    d.mkdir(parents=True, exist_ok=True)
    h1 = "phrase 1\tphrase 1 clean\tphrase 2\tphrase 2 clean\tside to be replaced\t" + "\t".join(
        f"SST replacement {i}" for i in range(1, 5))
    h2 = "\t".join(h1.split("\t")[:8])
    s1, s2, st, flat, flags, rank = [h1], [h2], [], [], {}, ["phrase\tmaxabs_rating\tsentiment"]
    for k, (ar, a, br, b, left, right) in enumerate(phrases):
        for side, c in (("left", left), ("right", right)):
            s1.append("\t".join([ar, a, br, b, side, *c]))
            s2.append("\t".join([ar, a, br, b, side, *c[:3]]))
            st.append("\t".join([ar, a, br, b, *c[:3]]))
        stim = [f"{a} {b}"] + [f"{c} {b}" for c in left[:3]] + [f"{a} {c}" for c in right[:3]]
        flat += stim
        for j, s in enumerate(stim):
            flags[s] = (j == 2)
        rank.append(f"{a} {b}\t{['1.11', '0.44'][k % 2]}\t{['5.33', '3'][k % 2]}")
    files = {"stimuli_study1.tsv": utf7("\n".join(s1) + "\n"), "stimuli_study2.tsv": utf7("\n".join(s2) + "\n"),
             "stimuli.tsv": ("\n".join(st) + "\n").encode(), "stimuli_flat.txt": ("\n".join(flat) + "\n").encode(),
             "ungrammaticality.json": json.dumps(flags, indent=1).encode(),
             "maxabs_ranking.tsv": utf7("\n".join(rank) + "\n")}
    if mutate:
        files = mutate(files)
    for name, data in files.items():
        (d / name).write_bytes(data)
    return root


def test_tiny_release_loads(tmp_path):
    data = load_noncompsst(write_release(tmp_path), strict=False)
    assert len(data.phrases) == 2 and len(data.lines) == 14
    p = data.phrases[1]
    assert p.b_raw == "-- ever"  # decoded from +AC0ALQ-
    assert p.left[2] == "my_name"  # '_' decoded from +AF8-
    assert p.stimuli[0] == "the best thing -- ever"
    assert data.human["her son's discovery of well-made drama"].maxabs == Fraction(10, 9)
    assert data.human["the best thing -- ever"].sentiment == 3
    # the raw files really are UTF-7 escaped
    raw = (tmp_path / FILES["study2"]).read_bytes()
    assert b"+AC0ALQ-" in raw and b"+AF8-" in raw and b"+AC0-" in raw


def test_strict_loading_checks_the_manifest_sizes(tmp_path):
    with pytest.raises(ChecksumError, match="stimuli_study2.tsv"):
        load_noncompsst(write_release(tmp_path))


def _replace(name, old, new):
    def m(files):
        files[name] = files[name].replace(old, new, 1)
        return files
    return m


@pytest.mark.parametrize("mutate,where", [
    (_replace("stimuli_flat.txt", b"the human story", b"the human stroy"), ("stimuli_flat.txt", "line 2", "left1")),
    (_replace("stimuli.tsv", b"of cheap tricks", b"of cheap trick"), ("stimuli.tsv", "line 2", "column 5")),
    (_replace("stimuli_study2.tsv", b"\tright\t", b"\tleft\t"),
     ("stimuli_study2.tsv", "line 3", "side to be replaced")),
    (_replace("maxabs_ranking.tsv", b"1.11", b"1.15"), ("maxabs_ranking.tsv", "line 2", "maxabs_rating")),
    (_replace("maxabs_ranking.tsv", b"5.33", b"seven"), ("maxabs_ranking.tsv", "line 2", "sentiment")),
])
def test_structure_errors_name_file_line_field(tmp_path, mutate, where):
    write_release(tmp_path, mutate=mutate)
    with pytest.raises(DataError) as ei:
        load_noncompsst(tmp_path, strict=False)
    e = ei.value
    assert e.path.endswith(where[0]) and e.record == where[1] and e.field == where[2], str(e)


def test_study2_controls_must_come_from_study1(tmp_path):
    def m(files):
        for name in ("stimuli_study2.tsv", "stimuli.tsv", "stimuli_flat.txt"):
            files[name] = files[name].replace(b"the helping", b"the helpless")
        files["stimuli_study1.tsv"] = files["stimuli_study1.tsv"].replace(b"the helping", b"the other")
        files["ungrammaticality.json"] = files["ungrammaticality.json"].replace(b"the helping", b"the helpless")
        return files
    write_release(tmp_path, mutate=m)
    with pytest.raises(DataError, match="not Study-1 candidates") as ei:
        load_noncompsst(tmp_path, strict=False)
    assert ei.value.record == "line 2"


def test_flags_must_cover_stimuli_and_never_unpickle(tmp_path):
    def m(files):
        d = json.loads(files["ungrammaticality.json"])
        d.pop(next(iter(d)))
        files["ungrammaticality.json"] = json.dumps(d).encode()
        return files
    write_release(tmp_path, mutate=m)
    with pytest.raises(DataError, match="no flag"):
        load_noncompsst(tmp_path, strict=False)
    bad = tmp_path / "x.json"
    bad.write_text('{"a": 1}')
    with pytest.raises(DataError, match="not true/false"):
        read_flags(bad)
    pk = tmp_path / "ungrammaticality.pickle"
    pk.write_bytes(b"\x80\x04N.")
    with pytest.raises(DataError, match="refusing to unpickle"):
        read_flags(pk)


def test_crlf_and_width_errors(tmp_path):
    f = tmp_path / "a.tsv"
    f.write_bytes(b"phrase\tmaxabs+AF8-rating\tsentiment\r\nx\t1\t2\r\n")
    with pytest.raises(DataError, match="carriage return"):
        read_text(f)
    f.write_bytes(b"phrase\tmaxabs+AF8-rating\tsentiment\nx\t1\n")
    with pytest.raises(DataError, match="expected 3") as ei:
        read_ranking(f)
    assert ei.value.record == "line 2"


# ---- the shipped release --------------------------------------------------------------------------
@pytest.mark.realdata
def test_shipped_release(data_dir):
    # checks every count of docs/protocols/noncompsst.md#data and all cross-file consistency
    data = load_noncompsst(data_dir)
    assert len(data.phrases) == 259 and len(data.lines) == 1813 and len(set(data.lines)) == 1811
    assert sum(data.flags.values()) == 109
    # the two duplicated control strings (1-based lines 11/355 and 698/1221)
    assert data.lines[10] == data.lines[354] == "the usual portrayals of growing up"
    assert data.lines[697] == data.lines[1220] == "its own grasp of preaching to the converted"
    # golden: "a nearly terminal case | of the cutes": human MAXABS 4.11, sentiment 5.33
    p = next(p for p in data.phrases if p.text == "a nearly terminal case of the cutes")
    assert (p.a, p.b) == ("a nearly terminal case", "of the cutes")
    h = data.human[p.text]
    assert (h.maxabs_printed, h.sentiment_printed) == ("4.11", "5.33")
    assert h.maxabs == Fraction(37, 9) and h.sentiment == Fraction(16, 3)
    # top-67: strictly above 1 (22 phrases sit exactly at 1)
    assert sum(1 for r in data.human.values() if r.maxabs > 1) == 67
    assert sum(1 for r in data.human.values() if r.maxabs == 1) == 22
    # JSON and TSV flags agree
    tsv = read_flags(data_dir / FILES["flags_tsv"])
    assert tsv == data.flags
    # study files decode to ASCII and the ranking header is the escaped one
    assert read_text(data_dir / FILES["study1"], utf7=True).isascii()
    assert (data_dir / FILES["ranking"]).read_bytes().startswith(b"phrase\tmaxabs+AF8-rating\tsentiment\n")
    assert len(read_study(data_dir / FILES["study1"], 4)) == 1000
