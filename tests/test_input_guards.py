"""Issue 22's guards at unit level: the one JSON parser's depth and number limits, the YAML loader of sweep configs,
bounded reprs of hostile values, the sweep grid cap and index writes, LexComp tag checks through the common
prediction check, and a nested LLM reply as one counted triplet failure."""
from __future__ import annotations

import json

import pytest

from sentiprobe.core.errors import ConfigError, DataError, PredictionError, short_repr
from sentiprobe.core.io import MAX_JSON_DEPTH, JSONNestingError, loads_json, read_json
from sentiprobe.core.types import Item, Prediction


def test_loads_json_depth_and_numbers():
    ok = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert loads_json(ok) is not None
    for text in ("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1), "[" * 100_000 + "]" * 100_000,
                 '{"a": ' * 5000 + "1" + "}" * 5000):
        with pytest.raises(JSONNestingError, match=f"nested deeper than {MAX_JSON_DEPTH}"):
            loads_json(text)
    with pytest.raises(json.JSONDecodeError, match="more than 4300 digits"):
        loads_json("[" + "7" * 5000 + "]")
    assert loads_json('{"a": [1, {"b": null}]}') == {"a": [1, {"b": None}]}


def test_read_json_names_the_file(tmp_path):
    p = tmp_path / "x.json"
    p.write_text('{"a": 1,\n "b": }')
    with pytest.raises(DataError, match=r"invalid JSON.*x\.json.*line 2"):
        read_json(p)
    p.write_text("[" * 1000 + "]" * 1000)
    with pytest.raises(DataError, match=r"nested deeper than 100.*x\.json"):
        read_json(p)


def test_short_repr_is_bounded_on_an_alias_bomb():
    leaf = ["lol"] * 10
    for _ in range(8):  # 10^9 leaves through shared references
        leaf = [leaf] * 10
    text = short_repr({"C": leaf})
    assert len(text) < 500 and "..." in text  # 6 x 6 x 6 elements at most, not 10^9


def test_yaml_loader_refuses_duplicates_but_keeps_merge_keys():
    import yaml

    from sentiprobe.run.yamlsafe import load_yaml

    assert load_yaml("base: &b {x: 1, y: 2}\nc:\n  <<: *b\n  x: 3\n")["c"] == {"x": 3, "y": 2}
    with pytest.raises(yaml.YAMLError, match="found the key 'x' twice"):
        load_yaml("c: {x: 1, x: 2}\n")
    assert load_yaml("a: 1\n'1': 2\n1: 3\n") == {"a": 1, "1": 2, 1: 3}  # a string and an int key differ
    with pytest.raises(yaml.YAMLError, match="nested deeper than 5"):
        load_yaml("a: [[[[[[1]]]]]]\n", max_depth=5)
    with pytest.raises(yaml.YAMLError, match="expands to more than 50"):
        load_yaml("a: &a [1, 2, 3, 4, 5, 6, 7, 8]\nb: [*a, *a, *a, *a, *a, *a, *a, *a]\n", max_values=50)
    for recursive in ("a: &a [1, *a]\n", "a: &a {k: *a}\n"):  # contains itself: hung in a loop before
        with pytest.raises(yaml.YAMLError, match="expands to more than"):
            load_yaml(recursive)


def test_sweep_grid_cap_and_index_writes(tmp_path, monkeypatch):
    from sentiprobe.run import sweep

    with pytest.raises(ConfigError, match="10,001 jobs"):
        sweep.parse_config({"models": ["majority"], "suites": ["soul-rc"], "seeds": list(range(10_001))})
    cfg = sweep.parse_config({"models": ["majority"], "suites": ["soul-rc"], "seeds": [0, 1, 2, 3]})
    writes = []
    real = sweep.write_comparison

    class Ex(sweep.Executor):
        name = "fake"

        def run(self, todo, on_done):
            for jid, _ in todo:
                on_done(jid, {"status": "failed", "error": {"type": "X", "message": "y"}})

    import sentiprobe.core.io as cio

    orig = cio.write_json
    monkeypatch.setattr(sweep, "write_json", lambda p, o: (writes.append(str(p)), orig(p, o)))  # the driver's writes
    monkeypatch.setattr(sweep, "write_comparison", lambda *a, **k: None)
    sweep.run_sweep(cfg, tmp_path / "o", Ex())
    assert sum(w.endswith("sweep.json") for w in writes) == 2  # at the start and the end, not after each job
    doc = json.loads((tmp_path / "o" / "sweep.json").read_text())
    assert {r["status"] for r in doc["jobs"].values()} == {"failed"}
    assert real is not None


def _tag_items():
    return [Item("a", "a", "test", "x y", label="O B-NOUN", tokens=("x", "y")),
            Item("b", "b", "test", "z", label="O", tokens=("z",))]


def test_lexcomp_tag_check_is_the_common_check():
    from sentiprobe.suites.lexcomp.predictions import check_tags

    items = _tag_items()
    blank = Prediction("b", None, meta={"blank": True})
    with pytest.raises(PredictionError, match="blank labels"):
        check_tags("lexcomp-phrase-type", items, [Prediction("a", "O O"), blank])
    by_id = check_tags("lexcomp-phrase-type", items, [Prediction("a", "O O"), blank], missing="wrong")
    assert set(by_id) == {"a"}  # the blank one is missing, not "all O"
    for bad, why in (("O", "1 tags for 2 tokens"), ("O B-NOPE", "unknown tag"), (["O", "O"], "not a string"),
                     (3, "not a string")):
        with pytest.raises(PredictionError, match=why):
            check_tags("lexcomp-phrase-type", items, [Prediction("a", bad), Prediction("b", "O")])  # type: ignore[arg-type]


def test_a_nested_llm_reply_is_one_counted_failure():
    from sentiprobe.suites.triplets.parse import reply_triplets

    trip, fails, n = reply_triplets("Here you go: " + "[" * 100_000 + "]" * 100_000, ["a", "b"], "item 1")
    assert trip == [] and n == 1 and "nested deeper than 100" in fails[0]["reason"]
    trip, fails, _ = reply_triplets('```json\n[["a", "b", "positive"]]\n```', ["a", "b"], "item 2")
    assert trip == [(0, 0, 1, 1, "positive")] and not fails
