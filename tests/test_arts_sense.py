"""Which opposite fits (sense.py): degree words, opposites attested with the aspect in the training file,
descriptors, negated extreme adjectives and tolerance frames. Each case has the form of a failure a blind
audit found in the generated RevTgt/RevNon variants, in short made-up sentences.

The corrected mode runs with ``rank="rules"`` (no language model); the training pool is a small TOWE file
written by the test."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import _arts_kit

from sentiprobe.generate.arts import GenerateConfig
from sentiprobe.generate.arts.inputs import read_input
from sentiprobe.generate.arts.pipeline import generate
from sentiprobe.generate.arts.sense import AspectOpinions

record = _arts_kit.towe_record


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def write(path: Path, sents) -> Path:
    path.write_text(json.dumps({sid: record(sid, t, a) for sid, t, a in sents}), encoding="utf-8")
    return path


def run(tmp_path: Path, kit, sents, train=(), strategies=("revtgt",)):
    pool = str(write(tmp_path / "train.json", train)) if train else None
    cfg = GenerateConfig(rank="rules", phrase_source="template", strategies=strategies, pool_file=pool)
    return generate(read_input(write(tmp_path / "in.json", sents)), cfg, kit)


def variant(gen, key: str):
    return next((v for v in gen.variants if v.key == key), None)


def refusal(gen, aid: str, stage: str = "revtgt") -> str | None:
    return next((s.reason for s in gen.skipped if s.record == aid and s.stage == stage), None)


def candidates(v) -> list[dict]:
    return [c for ch in v.choices for c in ch["candidates"]]


def test_a_degree_word_takes_its_degree_partner(tmp_path, kit):
    train = [(f"m{i}", f"There is much memory{i}.", [(f"memory{i}", "positive", ["much"])])
             for i in range(3)]  # the laptop training file reads *much* (the base of *more*) positive
    gen = run(tmp_path, kit, [("c", "Cost is more as compared to other brands.", [("Cost", "positive", ["more"])])],
              train)
    v = variant(gen, "c_0_adv1")  # WordNet pairs *more* with *little*: *Cost is littler*
    assert v is not None and v.sentence == "Cost is less as compared to other brands.", refusal(gen, "c_0")
    gen = run(tmp_path, kit, [("m", "Size and weight give optimal mobility.", [("mobility", "positive", ["optimal"])])])
    v = variant(gen, "m_0_adv1")  # WordNet: *optimal* ~ *best* <-> *worst*
    assert v is not None and v.sentence == "Size and weight give bad mobility.", refusal(gen, "m_0")
    gen = run(tmp_path, kit, [("b", "Best Indian food I have ever eaten.", [("Indian food", "positive", ["Best"])])])
    v = variant(gen, "b_0_adv1")  # a superlative (tagged JJ at the start) keeps its superlative antonym
    assert v is not None and v.sentence == "Worst Indian food I have ever eaten.", refusal(gen, "b_0")


SERVICE = [(f"s{i}", f"The service was slow{'!' * i}", [("service", "negative", ["slow"])]) for i in range(3)]


def test_an_opposite_never_used_with_the_aspect_yields_to_one_that_was(tmp_path, kit):
    train = [(f"p{i}", f"The prices are high{'!' * i}", [("prices", "negative", ["high"])]) for i in range(3)]
    train += [(f"l{i}", f"The battery life is short{'!' * i}", [("battery life", "negative", ["short"])])
              for i in range(2)]
    gen = run(tmp_path, kit, [("h", "Huge portions and pretty good prices.", [("prices", "positive", ["good"])]),
                              ("b", "The battery life is excellent.", [("battery life", "positive", ["excellent"])])],
              train)
    v = variant(gen, "h_0_adv1")  # was *pretty bad prices*
    assert v is not None and v.sentence == "Huge portions and pretty high prices.", refusal(gen, "h_0")
    v = variant(gen, "b_0_adv1")  # was *poor battery life*
    assert v is not None and v.sentence == "The battery life is short.", refusal(gen, "b_0")


def test_an_aspect_opinion_without_a_valid_opposite_takes_an_attested_one(tmp_path, kit):
    train = [(f"a{i}", f"The portions were plentiful{'!' * i}", [("portions", "positive", ["plentiful"])])
             for i in range(2)] + [(f"b{i}", f"The portions were small{'!' * i}", [("portions", "negative", ["small"])])
                                   for i in range(3)]
    gen = run(tmp_path, kit, [("p", "The portions were plentiful.", [("portions", "positive", ["plentiful"])])], train)
    v = variant(gen, "p_0_adv1")  # was *not plentiful* (*scarce* is no in-domain word)
    assert v is not None and v.sentence == "The portions were small.", refusal(gen, "p_0")


def test_two_coordinated_opinions_never_take_the_same_attested_word(tmp_path, kit):
    gen = run(tmp_path, kit, [("s", "The service was pleasant and prompt.",
                               [("service", "positive", ["pleasant", "prompt"])])], SERVICE)
    v = variant(gen, "s_0_adv1")
    assert v is not None, refusal(gen, "s_0")
    assert "slow and slow" not in v.sentence, v.sentence
    gen = run(tmp_path, kit, [("s", "The service was very great and very excellent.",
                               [("service", "positive", ["great", "excellent"])])],
              SERVICE + [(f"r{i}", f"The service was rude{'!' * i}", [("service", "negative", ["rude"])])
                         for i in range(3)])
    v = variant(gen, "s_0_adv1")  # each adjective of the pair its own attested word, in order
    assert v is not None and v.sentence == "The service was very rude and very slow.", refusal(gen, "s_0")


def test_an_opposite_used_with_the_aspect_is_kept(tmp_path, kit):
    train = SERVICE + [(f"r{i}", f"The service was rude{'!' * i}", [("service", "negative", ["rude"])])
                       for i in range(3)] + [("u", "The service was unfriendly.", [("service", "negative",
                                                                                     ["unfriendly"])])]
    train += [(f"b{i}", f"The place is bad{'!' * i}", [("place", "negative", ["bad"])]) for i in range(3)]
    gen = run(tmp_path, kit, [("f", "The service was friendly.", [("service", "positive", ["friendly"])]),
                              ("c", "The place is clean.", [("place", "positive", ["clean"])])], train)
    v = variant(gen, "f_0_adv1")
    assert v is not None and v.sentence == "The service was unfriendly.", refusal(gen, "f_0")
    v = variant(gen, "c_0_adv1")  # a specific opposite the file never uses beats a generic one it does
    assert v is not None and v.sentence == "The place is dirty.", refusal(gen, "c_0")


def test_the_label_of_an_attested_adjective_is_read_per_head():
    ops = AspectOpinions.from_pairs([("prices", "high", "negative")] * 3 + [("quality", "high", "positive")] * 3
                                    + [("Prices", "steep", "negative")] * 2 + [("price", "low", "positive")])
    assert ops.view("price").commonest("negative") == ("high", 3)
    assert ops.view("quality").commonest("negative") is None
    assert ops.view("prices").commonest("positive") is None  # *low* once: below the minimum
    assert ops.view("quality").attested("high", "positive") and not ops.view("quality").attested("high", "negative")


def test_a_descriptor_before_its_noun_keeps_its_referent(tmp_path, kit):
    train = [(f"n{i}", f"The keyboard{i} is new, the old one broke.", [(f"keyboard{i}", "positive", ["new"])])
             for i in range(3)]  # *new* reads positive in the domain, *old* is an in-domain word
    gen = run(tmp_path, kit, [("o", "The new operating system makes this computer into a super iPad.",
                               [("operating system", "positive", ["new"])])], train)
    v = variant(gen, "o_0_adv1")
    assert v is None or "old operating system" not in v.sentence, v.sentence
    gen = run(tmp_path, kit, [("f", "It is exactly what I wanted, and it has all the new features.",
                               [("features", "positive", ["wanted", "new"])])], train)
    v = variant(gen, "f_0_adv1")  # the target's other opinion carries the reversal; the descriptor stays
    assert v is not None and v.sentence == "It is exactly what I didn't want, and it has all the new features.", \
        refusal(gen, "f_0")


def test_a_negated_extreme_adjective_yields_to_its_plain_opposite(tmp_path, kit):
    gen = run(tmp_path, kit, [("e", "The display is excellent.", [("display", "positive", ["excellent"])]),
                              ("n", "Screen is bright and gorgeous.",
                               [("Screen", "positive", ["bright", "gorgeous"])])])
    v = variant(gen, "e_0_adv1")
    assert v is not None, refusal(gen, "e_0")
    negated = [c for c in candidates(v) if "not excellent" in c["text"]]
    assert negated and not any(c["valid"] for c in negated)
    v = variant(gen, "n_0_adv1")
    assert v is not None, refusal(gen, "n_0")
    pair = [c for c in candidates(v) if "neither" in c["text"]]
    assert pair and not any(c["valid"] for c in pair)
    assert "neither" not in v.sentence


def test_a_negative_object_of_a_tolerance_frame_is_not_reversed(tmp_path, kit):
    gen = run(tmp_path, kit, [("w", "We came back and put up with the waiters' bad manners.",
                               [("waiters", "negative", ["bad"])])])
    assert variant(gen, "w_0_adv1") is None
    assert "put up with" in (refusal(gen, "w_0") or "")


def test_a_boosted_negative_opinion_is_not_reversed_but_by_an_extreme_opposite(tmp_path, kit):
    # *not dreadfully slow*, *not highly disappointed*, *not completely dead* read as concessions, not praise, and
    # a swap keeps the booster on the opposite (*way reasonable*, *completely alive*)
    gen = run(tmp_path, kit, [
        ("d", "The service was dreadfully slow.", [("service", "negative", ["slow"])]),
        ("w", "The prices are way high for the area.", [("prices", "negative", ["high"])]),
        ("c", "The battery was completely dead.", [("battery", "negative", ["dead"])]),
        ("a", "The service is absolutely horrible.", [("service", "negative", ["horrible"])]),
        ("p", "I am fully satisfied with the keyboard.", [("keyboard", "positive", ["satisfied"])]),
    ])
    for sid in ("w", "c"):
        assert variant(gen, f"{sid}_0_adv1") is None, variant(gen, f"{sid}_0_adv1").sentence
        assert "boosted negative" in (refusal(gen, f"{sid}_0") or ""), refusal(gen, f"{sid}_0")
    # the review opposite stands without the booster (:mod:`sentiprobe.generate.arts.lexical`), never under it
    assert variant(gen, "d_0_adv1").sentence in ("The service was fast.", "The service was quick.")
    assert variant(gen, "a_0_adv1").sentence == "The service is absolutely excellent."
    assert variant(gen, "p_0_adv1") is not None, refusal(gen, "p_0")  # *not fully satisfied* reads negative


def test_an_indirect_antonym_of_another_reading_is_never_chosen(tmp_path, kit):
    # WordNet reaches *clean* through *lousy* ~ *dirty* (infested with lice), *old* through *fresh* ~ *new*,
    # *unattractive* through *personable* ~ *attractive* (pleasant in appearance): off-sense in a review
    gen = run(tmp_path, kit, [
        ("l", "Apart from the lousy speakers, it is fine.", [("speakers", "negative", ["lousy"])]),
        ("f", "They cook with fresh ingredients.", [("ingredients", "positive", ["fresh"])]),
        ("p", "The staff is really personable.", [("staff", "positive", ["personable"])]),
        ("m", "The music was fascinating.", [("music", "positive", ["fascinating"])]),
        ("r", "Price is a bit ridiculous.", [("Price", "negative", ["ridiculous"])]),
    ])
    for sid, wrong in (("l", "clean"), ("f", "old"), ("p", "unattractive"), ("m", "unattractive")):
        v = variant(gen, f"{sid}_0_adv1")
        assert v is not None, refusal(gen, f"{sid}_0")
        assert wrong not in v.sentence, v.sentence
        off = [c for c in candidates(v) if f" {wrong} " in f" {c['text']} ".replace(".", " ")]
        assert off and not any(c["valid"] for c in off), (sid, off)
    # a softened complaint takes no opposite under its softener (*a bit reasonable*) but the review opposite in its
    # place (:mod:`sentiprobe.generate.arts.lexical`), never the off-sense one
    v = variant(gen, "r_0_adv1")
    assert v is not None and v.sentence == "Price is reasonable.", refusal(gen, "r_0")
    off = [c for c in candidates(v) if "dignified" in c["text"]]
    assert off and not any(c["valid"] for c in off), off
    assert variant(gen, "l_0_adv1").sentence == "Apart from the good speakers, it is fine."
    assert variant(gen, "f_0_adv1").sentence == "They cook with stale ingredients."
    assert variant(gen, "p_0_adv1").sentence == "The staff is really unfriendly."
    assert variant(gen, "m_0_adv1").sentence == "The music was boring."


def test_an_excess_or_a_degree_well_takes_no_antonym(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("t", "The salsa was too sour.", [("salsa", "negative", ["sour"])]),
        ("w", "The margarita was well worth the money.", [("margarita", "positive", ["well worth"])]),
    ])
    v = variant(gen, "t_0_adv1")  # *too sweet* is an excess as well, never praise
    assert v is not None and v.sentence == "The salsa was not too sour.", refusal(gen, "t_0")
    v = variant(gen, "w_0_adv1")  # never *ill worth*, *well unworthy*: the degree word becomes the negation
    assert v is not None and v.sentence == "The margarita was not worth the money.", refusal(gen, "w_0")
    assert [c["text"] for c in candidates(v) if c["valid"] and c["op"] == "antonym"] == [
        "The margarita was not worth the money."]
    gen = run(tmp_path, kit, [
        ("m", "The case does feel a lot more solid than the old one.", [("case", "positive", ["solid"])]),
        ("g", "Thank goodness for the trackpad!", [("trackpad", "positive", ["goodness"])]),
        ("f", "We came after a few drinks elsewhere.", [("drinks", "neutral", ["few"])]),
    ])
    for sid, wrong in (("m", "more bad"), ("g", "badness"), ("f", "a many")):  # *more bad*, ...
        v = variant(gen, f"{sid}_0_adv1")
        assert v is None or wrong not in v.sentence, v.sentence
    # an additive *too* after the verb is no excess: *Avoid the hot dogs too*
    gen = run(tmp_path, kit, [("a", "Try the hot dogs too, they are great.", [("hot dogs", "positive", ["Try"])])])
    assert any(c["valid"] and "Avoid" in c["text"] for c in candidates(variant(gen, "a_0_adv1")))


def test_an_adjective_with_a_complement_takes_no_attested_word(tmp_path, kit):
    train = [(f"m{i}", f"The menu is limited{'!' * i}", [("menu", "negative", ["limited"])]) for i in range(3)]
    gen = run(tmp_path, kit, [("w", "The menu is worth every penny.", [("menu", "positive", ["worth"])])], train)
    v = variant(gen, "w_0_adv1")  # never *The menu is limited every penny*
    assert v is None or "limited" not in v.sentence, v.sentence
