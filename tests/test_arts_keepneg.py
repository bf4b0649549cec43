"""Reversals of negative opinions the generator used to refuse (RevTgt keep of negative targets): a booster that
fits the opposite (*highly disappointed* -> *highly impressed*), a middle-of-the-scale word with a clear opposite
(*very average* -> *very good*), and two phrases the lexicon misreads (*way too sweet*, *less than
accommodating*). Short made-up sentences of the failures' form; ``rank="rules"`` (no language model)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import _arts_kit

from sentiprobe.generate.arts import GenerateConfig
from sentiprobe.generate.arts.inputs import read_input
from sentiprobe.generate.arts.pipeline import generate

record = _arts_kit.towe_record


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def run(tmp_path: Path, kit, sents, train=()):
    def write(path: Path, rows) -> Path:
        path.write_text(json.dumps({sid: record(sid, t, a) for sid, t, a in rows}), encoding="utf-8")
        return path

    pool = str(write(tmp_path / "train.json", train)) if train else None
    cfg = GenerateConfig(rank="rules", phrase_source="template", strategies=("revtgt",), pool_file=pool)
    return generate(read_input(write(tmp_path / "in.json", sents)), cfg, kit)


def sentence(gen, sid: str) -> str | None:
    v = next((v for v in gen.variants if v.key == f"{sid}_0_adv1"), None)
    return None if v is None else v.sentence


def refusal(gen, sid: str) -> str | None:
    return next((s.reason for s in gen.skipped if s.record == f"{sid}_0" and s.stage == "revtgt"), None)


def test_a_booster_that_fits_the_opposite_keeps_it(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("h", "I was highly disappointed by the pasta.", [("pasta", "negative", ["disappointed"])]),
        ("u", "We were utterly disappointed with the pasta.", [("pasta", "negative", ["disappointed"])]),
        ("d", "The service was dreadfully slow.", [("service", "negative", ["slow"])]),
        ("w", "The prices are way high for the area.", [("prices", "negative", ["high"])]),
    ])
    assert sentence(gen, "h") == "I was highly impressed by the pasta.", refusal(gen, "h")
    assert sentence(gen, "u") in ("We were utterly delighted with the pasta.",
                                  "We were utterly impressed with the pasta."), refusal(gen, "u")
    for sid in ("d", "w"):  # *dreadfully fast*, *way reasonable*: the booster does not take the opposite, which
        # stands without it (:mod:`sentiprobe.generate.arts.lexical`)
        got = sentence(gen, sid)
        assert got is None or not any(w in got for w in ("dreadfully", "way")), got
    assert sentence(gen, "d") in ("The service was fast.", "The service was quick."), refusal(gen, "d")


def test_a_booster_attested_with_the_opposite_in_the_training_file_keeps_it(tmp_path, kit):
    train = [(f"t{i}", f"The waiter{i} was dreadfully quick.", [(f"waiter{i}", "positive", ["quick"])])
             for i in range(2)]
    gen = run(tmp_path, kit, [("d", "The service was dreadfully slow.", [("service", "negative", ["slow"])])], train)
    assert sentence(gen, "d") in ("The service was dreadfully quick.", "The service was dreadfully fast."), \
        refusal(gen, "d")


def test_a_negative_average_reverses_to_good(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("v", "We both felt the fish was very average.", [("fish", "negative", ["average"])]),
        ("b", "The fish was below average.", [("fish", "negative", ["below average"])]),
    ])
    assert sentence(gen, "v") == "We both felt the fish was very good.", refusal(gen, "v")
    assert sentence(gen, "b") == "The fish was above average.", refusal(gen, "b")  # never *below good*


def test_a_misread_too_or_less_than_is_reversed(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("t", "The soup was good and the sauce was way too sweet.",
         [("sauce", "negative", ["too sweet"]), ("soup", "positive", ["good"])]),
        ("l", "The manager was less than accommodating.", [("manager", "negative", ["less than accommodating"])]),
    ])
    assert sentence(gen, "t") == "The soup was good and the sauce was just sweet enough.", refusal(gen, "t")
    assert sentence(gen, "l") == "The manager was more than accommodating.", refusal(gen, "l")


def test_a_coordinated_average_and_a_too_much_are_not_swapped(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("i", "The room is small and average.", [("room", "negative", ["average"])]),
        ("m", "The drinks had far too much ice in them.", [("ice", "negative", ["too much"])]),
    ])
    assert sentence(gen, "i") is None, sentence(gen, "i")  # *small and good* reads mixed
    assert "not too much" not in (sentence(gen, "m") or ""), sentence(gen, "m")


def test_a_booster_after_so_is_not_swapped(tmp_path, kit):
    gen = run(tmp_path, kit, [("s", "The waiter was so incredibly rude that we left.",
                               [("waiter", "negative", ["rude"])])])
    assert sentence(gen, "s") is None, sentence(gen, "s")  # *so incredibly friendly that we left*


def test_a_general_degree_adverb_alone_does_not_license_the_swap(tmp_path, kit):
    gen = run(tmp_path, kit, [("i", "The hostess was incredibly rude and rushed us out.",
                               [("hostess", "negative", ["rude"])])])
    assert sentence(gen, "i") is None, sentence(gen, "i")  # *incredibly friendly and rushed us out*
