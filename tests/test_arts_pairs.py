"""ARTS corrected mode: a reversal never leaves a coordinated adjective pair or a list of praise half reversed
(checks 34-35, ``generate/arts/pairs.py``), and praise of a person takes a person's opposite
(``generate/arts/opposites.py``). Each failure form of the blind audit, in short made-up sentences, and a near
miss of the same shape that stays reversible.

Like ``test_arts_context.py`` the generator runs with ``rank="rules"`` (no language model)."""
from __future__ import annotations

import pytest

import _arts_kit
from test_arts_quality import refusal, run, variant


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def test_one_adjective_of_a_coordinated_pair_is_never_reversed_alone(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("d", "They have a great and large wine list.", [("wine list", "positive", ["large"])]),
        # both halves reversed together: a pair, not a mixed one
        ("b", "They have a great and large wine list.", [("wine list", "positive", ["great", "large"])]),
    ])
    assert variant(gen, "d_0_adv1") is None, variant(gen, "d_0_adv1").sentence  # never *a great and small list*
    assert "coordinated with 'great'" in (refusal(gen, "d_0", "revtgt") or ""), refusal(gen, "d_0", "revtgt")
    assert "coordinated with" not in (refusal(gen, "b_0", "revtgt") or ""), refusal(gen, "b_0", "revtgt")


def test_praise_of_a_person_takes_a_persons_opposite(tmp_path, kit):
    gen = run(tmp_path, kit, [
        ("w", "Our waiter was very charming.", [("waiter", "positive", ["charming"])]),
        ("d", "The decor was very charming.", [("decor", "positive", ["charming"])]),
    ])
    waiter = variant(gen, "w_0_adv1")
    assert waiter is not None and "unappealing" not in waiter.sentence, waiter or refusal(gen, "w_0", "revtgt")
    assert "unpleasant" in waiter.sentence or "rude" in waiter.sentence, waiter.sentence
    decor = variant(gen, "d_0_adv1")
    assert decor is not None and "unappealing" in decor.sentence, decor or refusal(gen, "d_0", "revtgt")


def test_one_item_of_a_list_of_praise_is_not_reversed_after_a_concession_or_between_dashes(tmp_path, kit):
    aspects = [("decor", "positive", ["beautiful"]), ("food", "positive", ["excellent"]),
               ("service", "positive", ["attentive"])]
    gen = run(tmp_path, kit, [
        ("a", "Although small, it has beautiful decor, excellent food and attentive service.", aspects),
        ("p", "Although small, it has beautiful decor, excellent food (the fish is fresh) and attentive service.",
         aspects),
        ("d", "also - excellent keyboard -- light weight -- excellent screen -- nice speakers",
         [("keyboard", "positive", ["excellent"])]),
        # a plain list with no concession: the last item takes *but* instead
        ("n", "It has beautiful decor, excellent food and attentive service.", aspects),
    ])
    for aid in ("a_2", "p_2", "a_0", "d_0"):  # never *Although small, ..., excellent food and inattentive service*
        assert variant(gen, aid + "_adv1") is None, variant(gen, aid + "_adv1").sentence
        assert "half reversed" in (refusal(gen, aid, "revtgt") or ""), refusal(gen, aid, "revtgt")
    assert variant(gen, "n_2_adv1") is not None, refusal(gen, "n_2", "revtgt")
