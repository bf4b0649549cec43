"""LexComp on the shipped data: loaders, split-key disjointness, majority goldens, options (realdata)."""
from __future__ import annotations

import pytest

from sentiprobe.core.errors import ConfigError
from sentiprobe.suites import SUITES, get_suite
from sentiprobe.protocols.lexcomp import baselines

pytestmark = pytest.mark.realdata

SIZES = {"lexcomp-vpc": (919, 209, 220), "lexcomp-lvc": (1521, 258, 383), "lexcomp-nc-literality": (2529, 323, 138),
         "lexcomp-nc-relations": (1274, 130, 162), "lexcomp-an-attributes": (837, 108, 106),
         "lexcomp-phrase-type": (3017, 372, 376)}


@pytest.mark.parametrize("name", sorted(SIZES))
def test_every_line_loads_and_split_keys_are_disjoint(data_dir, name):
    s = get_suite(name, data_dir)
    assert tuple(len(s.items(sp)) for sp in ("train", "dev", "test")) == SIZES[name]
    st = s.stats()
    if name != "lexcomp-phrase-type":
        assert st["split_key_overlap"] == {"train-dev": [], "train-test": [], "dev-test": []}
    assert SUITES.get(name).input_kind == "tokens" and SUITES.get(name).task == "classify"


def test_whitespace_tokens_counted(data_dir):
    st = get_suite("lexcomp-nc-literality", data_dir).stats()
    assert st["whitespace_tokens_dropped"] == {"train": 22, "dev": 6, "test": 3}


def _table(data_dir, name):
    s = get_suite(name, data_dir)
    return baselines.table(baselines.fit_all(s.items("train"), name.removeprefix("lexcomp-")), s.items("test"))


def test_golden_majority_vpc_and_nc_relations(data_dir):
    vpc = _table(data_dir, "lexcomp-vpc")
    assert round(100 * vpc["majority_all"], 1) == 23.6 and vpc["best"] == "majority_all"
    rel = _table(data_dir, "lexcomp-nc-relations")
    assert round(100 * rel["majority_all"], 1) == 50.0


def test_majority_table_of_every_task(data_dir):
    """The values docs/lexcomp.md reports (test accuracy, %), computed from the released files."""
    got = {n: {k: round(100 * v, 1) for k, v in _table(data_dir, n).items() if isinstance(v, float)}
           for n in ("lexcomp-vpc", "lexcomp-lvc", "lexcomp-nc-literality", "lexcomp-nc-relations",
                     "lexcomp-an-attributes")}
    assert got["lexcomp-lvc"] == {"majority_all": 25.8, "majority_first": 25.8, "majority_last": 56.9}
    assert got["lexcomp-nc-literality"] == {"majority_all": 66.7, "majority_first": 73.2, "majority_last": 66.7,
                                            "majority_target": 72.5}
    assert got["lexcomp-an-attributes"] == {"majority_all": 50.0, "majority_first": 50.0, "majority_last": 50.0}


def test_majority_models_run_end_to_end_without_text(data_dir, tmp_path):
    from sentiprobe import api

    r = api.run(["lexcomp-vpc"], ["majority"], out=tmp_path / "a", data_dir=str(data_dir), progress=False,
                n_boot=50)["runs"]["majority"]
    e = r["suites"]["lexcomp-vpc"]
    assert round(100 * e["metrics"]["accuracy"]["value"], 1) == 23.6
    assert "BNC ids only" in e["details"]["note"]
    r = api.run(["lexcomp-lvc"], ["majority-last"], out=tmp_path / "b", data_dir=str(data_dir), progress=False,
                n_boot=50)["runs"]["majority-last"]
    assert round(100 * r["suites"]["lexcomp-lvc"]["metrics"]["accuracy"]["value"], 1) == 56.9
    r = api.run(["lexcomp-phrase-type"], ["majority-word"], out=tmp_path / "c", data_dir=str(data_dir),
                progress=False, n_boot=50)["runs"]["majority-word"]
    m = r["suites"]["lexcomp-phrase-type"]["metrics"]
    assert round(100 * m["span_f1"]["value"], 1) == 4.0 and round(100 * m["span_f1_allennlp08"]["value"], 1) == 22.6


def test_probe_refuses_id_only_items_with_the_reason(data_dir):
    from sentiprobe.models import create_model

    s = get_suite("lexcomp-vpc", data_dir)
    m = create_model("probe-glove", max_epochs=1)
    with pytest.raises(ConfigError, match="bnc_dir"):
        m.fit(s.items("train")[:5], s.items("dev")[:5], s.labels, input_kind="tokens")


def test_options_typed_recorded_and_not_read_from_env(data_dir, monkeypatch, tmp_path):
    from sentiprobe.cli.suite_args import parse_suite_args

    with pytest.raises(ConfigError, match="did you mean 'bnc_dir'"):
        get_suite("lexcomp-vpc", data_dir, {"bnc_dri": "x"})
    monkeypatch.setenv("SENTIPROBE_BNC_DIR", str(tmp_path))
    s = get_suite("lexcomp-vpc", data_dir)
    assert s.options.bnc_dir is None and s.describe()["options"]["bnc_dir"] is None
    parsed = parse_suite_args([], ["lexcomp-vpc"], environ={"SENTIPROBE_BNC_DIR": str(tmp_path)})
    assert parsed == {"lexcomp-vpc": {"bnc_dir": str(tmp_path)}}
    a = get_suite("lexcomp-an-attributes", data_dir, ablation="phrase")
    it = a.items("test")[0]
    assert "something" in it.tokens and it.meta["span"][0] == it.meta["span"][1]
    assert a.describe()["options"] == {"ablation": "phrase"}


def test_vpc_lvc_without_sentences_refuse_every_model_but_the_majority_baselines(data_dir, tmp_path):
    """Issue 20: a text model there sees the phrase alone ('phrase only, no context: not the protocol's
    measure'), so it is refused before any data is read; the baselines run; with the sentences it may run."""
    from sentiprobe import api
    from sentiprobe.models import create_model
    from sentiprobe.run.config import RunConfig
    from sentiprobe.run.execute import run
    from sentiprobe.suites.lexcomp.data import PHRASE_ONLY

    vpc = get_suite("lexcomp-vpc", data_dir)
    for name in ("majority", "majority-first", "majority-last"):
        assert vpc.refusal(create_model(name)) is None
    for name in ("tfidf-lr", "minilm-lr", "probe-minilm"):
        assert PHRASE_ONLY in vpc.refusal(create_model(name))
    assert get_suite("lexcomp-vpc", data_dir, {"extracted_dir": str(tmp_path)}).refusal(create_model("tfidf-lr")) \
        is None
    assert get_suite("lexcomp-nc-literality", data_dir).refusal(create_model("tfidf-lr")) is None
    # named explicitly: an error with the reason; in a bare run (skip_unsupported): skipped with the reason
    doc = api.run(["lexcomp-vpc"], ["tfidf-lr"], out=tmp_path / "named", data_dir=str(data_dir), progress=False,
                  n_boot=10)["runs"]["tfidf-lr"]
    assert not doc["suites"] and PHRASE_ONLY in doc["errors"]["lexcomp-vpc"]["message"]
    doc = run(RunConfig(suites=("lexcomp-lvc", "lexcomp-nc-relations"), model="tfidf-lr", out_dir=str(tmp_path / "b"),
                        data_dir=str(data_dir), n_boot=10, skip_unsupported=True, progress=False,
                        cache_dir=str(tmp_path / "cache")))
    assert list(doc["suites"]) == ["lexcomp-nc-relations"] and PHRASE_ONLY in doc["skipped"]["lexcomp-lvc"]
    # the baselines' results carry the same words, so the report says why the suite has only them
    doc = api.run(["lexcomp-lvc"], ["majority"], out=tmp_path / "m", data_dir=str(data_dir), progress=False,
                  n_boot=10)["runs"]["majority"]
    assert PHRASE_ONLY in doc["suites"]["lexcomp-lvc"]["details"]["note"]
