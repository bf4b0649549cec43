"""RevTgt keep rate of laptop complaints and comparisons: forms a post-editor reverses in one natural edit
(a complaint frame that is itself the opinion, a compared quantity), with the forms that stay refused.

The corrected mode runs with ``rank="rules"`` (no language model)."""
from __future__ import annotations

from pathlib import Path

import pytest

import _arts_kit

from sentiprobe.generate.arts import GenerateConfig

RULES = GenerateConfig(rank="rules", phrase_source="template", strategies=("revtgt",))


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def run(tmp_path: Path, kit, sents):
    return _arts_kit.generate_towe(tmp_path, kit, sents, RULES)


def text_of(gen, aid: str) -> str | None:
    return next((v.sentence for v in gen.variants if v.key == aid + "_adv1"), None)


def label_of(gen, aid: str) -> str | None:
    return next((v.polarity for v in gen.variants if v.key == aid + "_adv1"), None)


def test_a_complaint_frame_that_is_the_opinion_turns_into_praise(tmp_path, kit):
    sents = [("b", "Biggest complaint is the fan.", [("fan", "negative", ["complaint"])]),
             ("m", "My only gripe would be the speakers.", [("speakers", "negative", ["gripe"])]),
             ("d", "The only thing I dislike about this laptop is the trackpad.",
              [("trackpad", "negative", ["dislike"])])]
    gen = run(tmp_path, kit, sents)
    assert text_of(gen, "b_0") == "Best thing is the fan."
    assert text_of(gen, "m_0") == "My favorite thing would be the speakers."
    assert text_of(gen, "d_0") == "The thing I like most about this laptop is the trackpad."
    assert {label_of(gen, k) for k in ("b_0", "m_0", "d_0")} == {"positive"}


def test_a_complaint_frame_stays_refused_where_it_names_more_than_the_target(tmp_path, kit):
    sents = [("l", "My only complaint is the total lack of drivers.", [("drivers", "negative", ["lack"])]),
             ("c", "My one complaint is that there was no card reader.",
              [("card reader", "negative", ["complaint", "no"])]),
             ("r", "The only thing I dislike is the touchpad, it is often unresponsive.",
              [("touchpad", "negative", ["dislike"])]),
             ("n", "My only gripe would be the need to add more RAM.", [("RAM", "negative", ["gripe"])])]
    gen = run(tmp_path, kit, sents)
    for aid in ("l_0", "c_0", "r_0", "n_0"):
        assert text_of(gen, aid) is None, aid


def test_a_compared_quantity_or_degree_of_praise_turns_at_the_degree_word(tmp_path, kit):
    sents = [("q", "It offers much more storage for photos.", [("storage", "positive", ["more"])]),
             ("p", "This model has more ports.", [("ports", "positive", ["more"])]),
             ("s", "The hinge feels a lot more solid than before.", [("hinge", "positive", ["solid"])])]
    gen = run(tmp_path, kit, sents)
    assert text_of(gen, "q_0") == "It offers much less storage for photos."
    assert text_of(gen, "p_0") == "This model has fewer ports."
    assert text_of(gen, "s_0") == "The hinge feels a lot less solid than before."
    assert {label_of(gen, k) for k in ("q_0", "p_0", "s_0")} == {"negative"}


def test_a_lowered_degree_that_presupposes_the_old_one_stays_refused(tmp_path, kit):
    sents = [("e", "We liked the food and were even more thrilled by the bill.", [("bill", "positive", ["thrilled"])]),
             ("n", "It has even more storage.", [("storage", "positive", ["more"])])]
    gen = run(tmp_path, kit, sents)
    assert text_of(gen, "e_0") is None and text_of(gen, "n_0") is None


def test_fewer_takes_far_for_much_and_a_boast_keeps_its_quantity(tmp_path, kit):
    sents = [("f", "Macbooks come with much more features.", [("features", "positive", ["more"])]),
             ("b", "The model boasted more memory.", [("memory", "positive", ["more"])])]
    gen = run(tmp_path, kit, sents)
    assert text_of(gen, "f_0") == "Macbooks come with far fewer features."
    assert text_of(gen, "b_0") is None


def test_a_boast_keeps_the_quantity_of_a_coordinated_object(tmp_path, kit):
    sents = [("c", "The model boasted a faster chip, more memory and a bigger disk.",
              [("memory", "positive", ["more"])])]
    assert text_of(run(tmp_path, kit, sents), "c_0") is None


def test_a_complaint_frame_in_the_present_perfect_turns_into_praise(tmp_path, kit):
    sents = [("h", "Finally, the biggest problem has been the support.", [("support", "negative", ["problem"])])]
    assert text_of(run(tmp_path, kit, sents), "h_0") == "Finally, the best thing has been the support."


def test_a_lowered_degree_of_something_else_than_the_quality_stays_refused(tmp_path, kit):
    sents = [("i", "The price is more important to me than the looks.", [("price", "positive", ["important"])]),
             ("v", "I prefer a place with a slightly more relaxed vibe.", [("vibe", "positive", ["relaxed"])])]
    gen = run(tmp_path, kit, sents)
    # an antonym may still reverse them (its own checks): never the lowered degree
    assert "less important" not in (text_of(gen, "i_0") or "")
    assert "less relaxed" not in (text_of(gen, "v_0") or "")
