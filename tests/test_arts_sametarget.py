"""ARTS corrected mode: a further opinion on the target that a tie check names is reversed with it
(``generate/arts/sametarget.py``). Each rule on a short sentence shaped like a test-file source, with a near miss of
the same shape whose tied word is about something else, which keeps its refusal (or its *and* -> *but*).

Like ``test_arts_pairs.py`` the generator runs with ``rank="rules"`` (no language model)."""
from __future__ import annotations

import pytest

import _arts_kit
from sentiprobe.generate.arts.charedit import apply
from test_arts_quality import refusal, run, variant


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


def _outside_identical(source: str, v) -> None:
    """The variant is the source with its recorded edits and nothing else."""
    assert apply(source, list(v.edits)) == v.sentence


def test_the_targets_second_predicate_is_reversed_with_it(tmp_path, kit):
    waitstaff = "The waitstaff is solicitous and friendly and always seems glad to see us."
    gen = run(tmp_path, kit, [
        ("w", waitstaff, [("waitstaff", "positive", ["solicitous", "friendly"])]),
        # the second predicate is the reviewers', about the bill: refused as before
        ("b", "We were so happy with our food and were even more thrilled when we saw the bill.",
         [("food", "positive", ["happy"])]),
    ])
    v = variant(gen, "w_0_adv1")
    assert v is not None, refusal(gen, "w_0", "revtgt")
    assert "glad" not in v.sentence and " but " not in v.sentence, v.sentence
    assert any(e.before == "glad" for e in v.edits), v.edits
    assert any("further opinion 'glad'" in n for n in v.notes), v.notes
    _outside_identical(waitstaff, v)
    b = variant(gen, "b_0_adv1")
    assert b is None or "thrilled" in b.sentence, b.sentence
    assert b is not None or "coordinated predicate" in (refusal(gen, "b_0", "revtgt") or "")


def test_an_adjective_paired_with_the_opinion_on_the_target_is_reversed_with_it(tmp_path, kit):
    food = "The food was fresh and delicious."
    gen = run(tmp_path, kit, [
        ("f", food, [("food", "positive", ["fresh"])]),
        # *amazing* is the computer's, not the use's: the target's own opinion alone is reversed
        ("c", "This computer is amazing and easy to use.", [("use", "positive", ["easy"])]),
    ])
    v = variant(gen, "f_0_adv1")
    assert v is not None, refusal(gen, "f_0", "revtgt")
    # never *The food was stale but delicious*: the target would read mixed
    assert "fresh" not in v.sentence and "delicious" not in v.sentence and " but " not in v.sentence, v.sentence
    _outside_identical(food, v)
    c = variant(gen, "c_0_adv1")
    assert c is None or "amazing" in c.sentence, c.sentence


def test_the_second_predicate_of_a_verb_target_stays_refused(tmp_path, kit):
    # the subject *it* is the laptop, the target *works* one of its aspects: *a waste of money* is its value
    gen = run(tmp_path, kit, [("t", "It works great and is not a waste of money.",
                               [("works", "positive", ["great"])])])
    v = variant(gen, "t_0_adv1")
    assert v is None or "not a waste" in v.sentence, v.sentence


def test_the_quality_a_with_phrase_gives_the_target_is_reversed_with_it(tmp_path, kit):
    food = "The food is delicious and homemade with the perfect balance of herbs and tomatoes."
    gen = run(tmp_path, kit, [
        ("f", food, [("food", "positive", ["delicious"])]),
        # *real* is the mozzarella's, deeper in the phrase: refused as before
        ("s", "The sauce is excellent (very fresh) with dabs of real mozzarella.",
         [("sauce", "positive", ["excellent", "fresh"])]),
    ])
    v = variant(gen, "f_0_adv1")
    assert v is not None, refusal(gen, "f_0", "revtgt")
    assert "perfect" not in v.sentence and "delicious" not in v.sentence, v.sentence
    _outside_identical(food, v)
    s = variant(gen, "s_0_adv1")
    assert s is None or "real mozzarella" in s.sentence, s.sentence


def test_a_tied_word_about_another_aspect_or_the_product_is_never_reversed_with_the_target(tmp_path, kit):
    # the refusal families a further opinion might seem to answer, where the tied word is not the target's: an
    # elaboration, an example, a *with* phrase and a clause that hold another aspect's opinion, and a *with*
    # phrase on the laptop's own predicate (*robust* is the laptop's, not the use's); each keeps that word
    gen = run(tmp_path, kit, [
        ("d", "Desserts are almost incredible: my personal favorite is their Tart of the Day.",
         [("Desserts", "positive", ["incredible"]), ("Tart of the Day", "positive", ["favorite"])]),
        ("k", "The overall build is great... eg the keyboard is one of the best to type on.",
         [("overall build", "positive", ["great"]), ("keyboard", "positive", ["best"])]),
        ("i", "Intimate but charming interior with extremely friendly and attentive service.",
         [("interior", "positive", ["charming"]), ("service", "positive", ["friendly", "attentive"])]),
        ("c", "The skillfully chosen Portuguese cheese cart paired with quality port provides the perfect Iberian "
              "ending.", [("port", "positive", ["quality"]), ("Portuguese cheese cart", "positive", ["perfect"])]),
        ("u", "It is robust, with a friendly use as all Apple products.", [("use", "positive", ["friendly"])]),
    ])
    for key, kept in (("d_0_adv1", "favorite"), ("k_0_adv1", "best"), ("i_0_adv1", "friendly"),
                      ("c_1_adv1", "quality port"), ("u_0_adv1", "robust")):
        v = variant(gen, key)
        assert v is None or kept in v.sentence, (key, v.sentence)
