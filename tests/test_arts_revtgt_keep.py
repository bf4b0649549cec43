"""RevTgt keep rate without quality loss: lexicon readings that refused good reversals, and negations whose
reading is unclear (each case from the SemEval laptop or restaurant test file).

The corrected mode runs with ``rank="rules"`` (no language model); the in-domain lexicon comes from a small
training file written by the test where one is needed."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import _arts_kit

from sentiprobe.generate.arts import GenerateConfig
from sentiprobe.generate.arts.inputs import read_input
from sentiprobe.generate.arts.pipeline import generate
from sentiprobe.generate.arts.polarity import Polarity, domain_lexicon

RULES = GenerateConfig(rank="rules", phrase_source="template", strategies=("revtgt",))


@pytest.fixture(scope="module")
def kit():
    return _arts_kit.kit()


record = _arts_kit.towe_record


def write(path: Path, sents) -> Path:
    path.write_text(json.dumps({sid: record(sid, t, a) for sid, t, a in sents}), encoding="utf-8")
    return path


def run(tmp_path: Path, kit, sents, cfg: GenerateConfig = RULES):
    return generate(read_input(write(tmp_path / "in.json", sents)), cfg, kit)


def variant(gen, key: str):
    return next((v for v in gen.variants if v.key == key), None)


def refusal(gen, aid: str) -> str | None:
    return next((s.reason for s in gen.skipped if s.record == aid and s.stage == "revtgt"), None)


# a training file where a bare *not* is annotated as a negative opinion (as the laptop training file has it)
NOT_AS_OPINION = [(f"t{i}", f"The screen{i} is not.", [(f"screen{i}", "negative", ["not"])]) for i in range(3)]


def test_negation_cues_never_enter_the_in_domain_lexicon():
    dom = domain_lexicon([("not", "negative")] * 5 + [("no", "negative")] * 3 + [("sharp", "positive")] * 2)
    assert "not" not in dom and "no" not in dom and dom["sharp"] == 1
    assert Polarity(dom).phrase("not fix") == 0  # was +1: the cue counted as a negative word, then as a negation


def test_a_removed_negation_of_an_unknown_verb_is_reversed(tmp_path, kit):
    train = write(tmp_path / "train.json", NOT_AS_OPINION)
    cfg = GenerateConfig(rank="rules", phrase_source="template", strategies=("revtgt",), lexicon_files=(str(train),))
    text = "Note, however, that any existing MagSafe accessories you have will not work with the MagSafe 2 connection."
    gen = run(tmp_path, kit, [("m", text, [("MagSafe 2 connection", "negative", ["not work"])])], cfg)
    v = variant(gen, "m_0_adv1")
    assert v is not None, refusal(gen, "m_0")
    assert v.sentence == text.replace("will not work", "will work")


def test_no_negation_inside_a_presupposed_subordinate_clause(tmp_path, kit):
    text = "Now that I have upgraded to Lion I am much happier about MAC OS and have just bought an iMac for office."
    gen = run(tmp_path, kit, [("u", text, [("Lion", "positive", ["upgraded"])])])
    v = variant(gen, "u_0_adv1")
    assert v is None or "not upgraded" not in v.sentence, v.sentence


def test_no_negation_in_the_relative_clause_of_all(tmp_path, kit):
    text = "WiFi capability, disk drive and multiple USB ports to connect scale and printers was all that was required."
    gen = run(tmp_path, kit, [("w", text, [("USB ports", "positive", ["required"])])])
    v = variant(gen, "w_0_adv1")
    assert v is None or "was not required" not in v.sentence, v.sentence


def test_no_negation_of_the_verb_of_an_unknown_manner_adverb(tmp_path, kit):
    text = "Within a few hours I was using the gestures unconsciously."
    gen = run(tmp_path, kit, [("g", text, [("gestures", "positive", ["unconsciously"])])])
    v = variant(gen, "g_0_adv1")
    assert v is None or "not using" not in v.sentence, v.sentence


def in_domain(tmp_path: Path) -> GenerateConfig:
    """A training file as lexicon and vocabulary: *quick* positive, *unreliable* a word reviewers use."""
    sents = [(f"q{i}", f"The drive{i} is quick.", [(f"drive{i}", "positive", ["quick"])]) for i in range(3)]
    sents.append(("u", "The old one was unreliable.", [("old one", "negative", ["unreliable"])]))
    train = str(write(tmp_path / "train.json", sents))
    return GenerateConfig(rank="rules", phrase_source="template", strategies=("revtgt",), lexicon_files=(train,),
                          vocab_files=(train, str(tmp_path / "in.json")))


def test_a_review_adjective_the_tagger_read_as_a_proper_noun_or_adverb_gets_its_opposite(tmp_path, kit):
    gen = run(tmp_path, kit, [("b", "The BEST Chinese food Uptown!", [("Chinese food", "positive", ["BEST"])]),
                              ("q", "Runs real quick.", [("Runs", "positive", ["quick"])]),
                              ("a", "Amazing Performance for anything I throw at it.",
                               [("Performance", "positive", ["Amazing"])])], in_domain(tmp_path))
    got = {k: variant(gen, k) for k in ("b_0_adv1", "q_0_adv1", "a_0_adv1")}
    assert all(got.values()), [refusal(gen, k[:3]) for k, v in got.items() if v is None]
    assert got["b_0_adv1"].sentence == "The WORST Chinese food Uptown!"
    assert got["q_0_adv1"].sentence == "Runs real slow."
    assert got["a_0_adv1"].sentence.split()[0] in ("Awful", "Terrible")


def test_a_manner_adverb_takes_its_first_sense_antonym(tmp_path, kit):
    gen = run(tmp_path, kit, [("p", "The menu is interesting and quite reasonably priced.",
                               [("priced", "positive", ["reasonably"])]),
                              ("f", "Yet my mac continues to function properly.",
                               [("function", "positive", ["properly"])])])
    v = variant(gen, "p_0_adv1")
    assert v is not None and v.sentence == "The menu is interesting but quite unreasonably priced.", refusal(gen, "p_0")
    v = variant(gen, "f_0_adv1")
    assert v is not None and v.sentence.endswith("function improperly."), refusal(gen, "f_0")


def test_a_labelled_opinion_the_lexicon_does_not_know_takes_its_prefix_negation(tmp_path, kit):
    text = "I use it mostly for content creation (Audio, video, photo editing) and its reliable."
    gen = run(tmp_path, kit, [("r", text, [("Audio", "positive", ["reliable"])])], in_domain(tmp_path))
    v = variant(gen, "r_0_adv1")
    assert v is not None and v.sentence.endswith("and its unreliable."), refusal(gen, "r_0")
    # a prefix is added, never removed: *unconsciously* -> *consciously* is no opinion
    gen = run(tmp_path, kit, [("g", "Within a few hours I was using the gestures unconsciously.",
                               [("gestures", "positive", ["unconsciously"])])])
    v = variant(gen, "g_0_adv1")
    assert v is None or "consciously." not in v.sentence.replace("unconsciously", ""), v.sentence


def test_a_coordinated_pair_after_a_copula_is_negated_with_neither_nor(tmp_path, kit):
    gen = run(tmp_path, kit, [("o", "Owner is pleasant and entertaining.",
                               [("Owner", "positive", ["pleasant", "entertaining"])]),
                              ("s", "Everything is so easy and intuitive to setup or configure.",
                               [("setup", "positive", ["easy", "intuitive"])])])
    v = variant(gen, "o_0_adv1")
    assert v is not None and v.sentence == "Owner is neither pleasant nor entertaining.", refusal(gen, "o_0")
    v = variant(gen, "s_0_adv1")  # a degree word on the pair: *is neither so easy nor intuitive* is not offered
    assert v is None or "neither" not in v.sentence, v.sentence
    assert Polarity().phrase("neither wonderful nor imaginative") == -1


def test_review_opposites_of_laptop_opinions_and_manner_adverbs(tmp_path, kit):
    gen = run(tmp_path, kit, [("w", "It came in brand new and works perfectly.",
                               [("works", "positive", ["perfectly"])]),
                              ("e", "Everything is so easy and intuitive to setup or configure.",
                               [("setup", "positive", ["easy", "intuitive"])]),
                              ("n", "Plus two finger clicking as a replacement for the right click button is "
                                    "surprisingly intuitive.", [("right click button", "neutral", ["intuitive"])])])
    v = variant(gen, "w_0_adv1")
    assert v is not None and v.sentence == "It came in brand new and works poorly.", refusal(gen, "w_0")
    v = variant(gen, "e_0_adv1")
    assert v is not None and v.sentence == "Everything is so difficult and unintuitive to setup or configure.", \
        refusal(gen, "e_0")
    assert variant(gen, "n_0_adv1") is None  # a review-lexicon opposite is polar: never for a neutral target


def test_as_well_is_never_reversed():
    from sentiprobe.generate.arts.opposites import _manner_adverb
    from sentiprobe.generate.arts.resources import Parse

    p = Parse(("I", "like", "it", "as", "well"), ("PRP", "VBP", "PRP", "RB", "RB"),
              ("PRON", "VERB", "PRON", "ADV", "ADV"), (1, 1, 1, 4, 1), ("nsubj", "ROOT", "dobj", "advmod", "advmod"))
    assert not _manner_adverb(p, 4)
    q = Parse(("It", "works", "well"), ("PRP", "VBZ", "RB"), ("PRON", "VERB", "ADV"), (1, 1, 1),
              ("nsubj", "ROOT", "advmod"))
    assert _manner_adverb(q, 2)


def test_possession_of_enough_is_negated_and_a_subjectless_did_not_is_removed(tmp_path, kit):
    text = "It has enough memory and speed to run my business with all the flexibility that comes with a laptop."
    gen = run(tmp_path, kit, [("m", text, [("memory", "positive", ["enough"])]),
                              ("d", "Did not enjoy the new Windows 8 and touchscreen functions.",
                               [("Windows 8", "negative", ["not enjoy"])]),
                              ("w", "Well designed and fast.", [("designed", "positive", ["Well"])])])
    v = variant(gen, "m_0_adv1")
    assert v is not None and v.sentence.startswith("It doesn't have enough memory"), refusal(gen, "m_0")
    v = variant(gen, "d_0_adv1")
    assert v is not None and v.sentence in ("Enjoyed the new Windows 8 and touchscreen functions.",
                                            "Did enjoy the new Windows 8 and touchscreen functions."), \
        refusal(gen, "d_0")
    v = variant(gen, "w_0_adv1")
    assert v is not None and v.sentence == "Poorly designed and fast.", refusal(gen, "w_0")


def test_guards_on_the_new_candidates(tmp_path, kit):
    sents = [("u", "tech support would not fix the problem unless I bought your plan for $ 150 plus.",
              [("tech support", "negative", ["not fix"])]),
             ("r", "I must discourage anyone from visiting the Grand Central location due to their RUDE service.",
              [("service", "negative", ["RUDE"])]),
             ("m", "It has all the expected features plus a wide screen and more than roomy keyboard.",
              [("keyboard", "positive", ["roomy"])])]
    gen = run(tmp_path, kit, sents)
    assert variant(gen, "u_0_adv1") is None and "unless" in refusal(gen, "u_0")
    v = variant(gen, "r_0_adv1")  # an emphatic capital inside the sentence is not taken for a misparse
    assert v is None or ("FRIENDLY" not in v.sentence and "POLITE" not in v.sentence), v.sentence
    v = variant(gen, "m_0_adv1")
    assert v is None or "more than cramped" not in v.sentence, v.sentence



def test_a_degree_adverb_of_an_adjective_is_no_manner_adverb():
    """*Perfectly al dente pasta* (a restaurant RevNon) never becomes *Poorly al dente pasta*."""
    from sentiprobe.generate.arts.opposites import _manner_adverb
    from sentiprobe.generate.arts.resources import Parse

    p = Parse(("Perfectly", "al", "dente", "pasta"), ("RB", "JJ", "JJ", "NN"), ("ADV", "ADJ", "ADJ", "NOUN"),
              (2, 2, 3, 3), ("advmod", "amod", "amod", "ROOT"))
    assert not _manner_adverb(p, 0)


def test_a_manner_adverb_of_a_participle_takes_its_review_opposite(tmp_path, kit):
    # (after *get past*, check 17 refuses it: one gets past a badly designed set-up, never a well designed one)
    text = "You first have to learn how to use the poorly designed Windows 8 Set-Up and you may feel frustrated."
    gen = run(tmp_path, kit, [("d", text, [("Windows 8 Set-Up", "negative", ["poorly designed"])]),
                              ("c", "The food was extremely tasty, creatively presented and the wine excellent.",
                               [("food", "positive", ["tasty", "creatively presented"])])])
    v = variant(gen, "d_0_adv1")
    assert v is not None and "the well designed Windows 8 Set-Up" in v.sentence, refusal(gen, "d_0")
    v = variant(gen, "c_0_adv1")
    assert v is not None and "poorly presented" in v.sentence, refusal(gen, "c_0")


def test_review_opposites_of_a_recommendation_and_of_off_sense_wordnet_pairs(tmp_path, kit):
    gen = run(tmp_path, kit, [("t", "Be sure to try the Smoked Trout... Lamb Chops, Veal Chops, Rabbit, the potato "
                                    "gratin, on and on and on...", [("Smoked Trout", "positive", ["try"])]),
                              ("j", "Straight-forward, no surprises, very decent Japanese food.",
                               [("Japanese food", "positive", ["decent"])])])
    v = variant(gen, "t_0_adv1")
    assert v is not None and v.sentence.startswith("Be sure to avoid the Smoked Trout"), refusal(gen, "t_0")
    v = variant(gen, "j_0_adv1")  # WordNet offers only *indecent*, *improper* (another sense)
    assert v is not None and v.sentence.endswith("very poor Japanese food."), refusal(gen, "j_0")


def test_a_gapped_adjective_read_as_a_noun_gets_its_opposite(tmp_path, kit):
    text = ("It was pleasantly uncrowded, the service was delightful, the garden adorable, the food (from appetizers "
            "to entrees) was delectable.")
    gen = run(tmp_path, kit, [("g", text, [("garden", "positive", ["adorable"]),
                                           ("service", "positive", ["delightful"])])])
    v = variant(gen, "g_0_adv1")
    assert v is not None and "the garden unattractive," in v.sentence, refusal(gen, "g_0")


def test_a_contraction_without_its_apostrophe_is_a_removable_negation(tmp_path, kit):
    text = "Though please note that sometimes it crashes, and the sound quality isnt superb."
    gen = run(tmp_path, kit, [("i", text, [("sound quality", "negative", ["isnt superb"])])])
    v = variant(gen, "i_0_adv1")
    assert v is not None and v.sentence.endswith("the sound quality is superb."), refusal(gen, "i_0")


def test_unmatched_reads_positive_and_takes_lacking(tmp_path, kit):
    text = "Apple is unmatched in product quality, aesthetics, craftmanship, and customer service."
    gen = run(tmp_path, kit, [("u", text, [("product quality", "positive", ["unmatched"])])])
    v = variant(gen, "u_0_adv1")  # VADER reads *unmatched* negative (-0.3): the opinion was refused
    assert v is not None and v.sentence == text.replace("unmatched", "lacking"), refusal(gen, "u_0")
    assert Polarity().phrase("Apple is unmatched") == 1


def test_a_removed_negation_turns_its_clause_final_polarity_item(tmp_path, kit):
    gen = run(tmp_path, kit, [("e", "The settings are not user-friendly either.",
                               [("settings", "negative", ["not user-friendly"])]),
                              ("a", "I thought the food isn't cheap at all compared to Chinatown.",
                               [("food", "negative", ["isn't cheap"])]),
                              ("m", "but, the filet mignon was not very good at all cocktail hour includes free "
                                    "appetizers.", [("filet mignon", "negative", ["not very good"])])])
    v = variant(gen, "e_0_adv1")
    assert v is not None and v.sentence == "The settings are user-friendly too.", refusal(gen, "e_0")
    v = variant(gen, "a_0_adv1")
    assert v is not None and v.sentence == "I thought the food is cheap compared to Chinatown.", refusal(gen, "a_0")
    v = variant(gen, "m_0_adv1")  # *at all cocktail hour* is a misparse: 'at all' is not clause-final
    assert v is None or "at all" in v.sentence or "not" in v.sentence, v.sentence


def test_a_favourite_noun_becomes_a_least_favourite(tmp_path, kit):
    gen = run(tmp_path, kit, [("f", "Favourites include: potato spinach gnocchi and the lamb.",
                               [("lamb", "positive", ["Favourites"])]),
                              ("s", "My favs here are the Tacos Pastor and the Tostada de Tinga...",
                               [("Tacos Pastor", "positive", ["favs"])])])
    v = variant(gen, "f_0_adv1")
    assert v is not None and v.sentence == "Least favourites include: potato spinach gnocchi and the lamb.", \
        refusal(gen, "f_0")
    v = variant(gen, "s_0_adv1")
    assert v is not None and v.sentence.startswith("My least favs here are"), refusal(gen, "s_0")


def test_a_verb_of_liking_the_tagger_misread_takes_its_opposite(tmp_path, kit):
    text = "i especially like their soft shell crab sandwich with fries."
    gen = run(tmp_path, kit, [("l", text, [("soft shell crab sandwich with fries", "positive", ["like"])])])
    v = variant(gen, "l_0_adv1")  # *like* is a preposition to the tagger after a lower-case *i*
    assert v is not None and v.sentence == text.replace("like", "dislike"), refusal(gen, "l_0")


def test_a_coordinated_present_verb_with_an_object_takes_do_support(tmp_path, kit):
    text = "Not too expense and has enough storage for most users and many ports."
    gen = run(tmp_path, kit, [("h", text, [("storage", "positive", ["enough"])])])
    v = variant(gen, "h_0_adv1")  # *has* has no subject of its own: the coordination shares one
    assert v is not None and v.sentence == text.replace("has", "doesn't have"), refusal(gen, "h_0")


def test_a_plain_degree_adjective_is_its_own_base_for_review_opposites(tmp_path, kit):
    text = "Intimate but charming interior and extremely friendly and attentive service."
    gen = run(tmp_path, kit, [("c", text, [("interior", "positive", ["charming"])])])
    v = variant(gen, "c_0_adv1")  # lemminflect gives *charmy* for *charming*: no opposite was found
    assert v is not None and v.sentence == text.replace("charming", "unappealing"), refusal(gen, "c_0")


@pytest.mark.parametrize("text", ["It is a cosy spot to visit with a couple of friends.",
                                  "This is a nice spot to bring a few friends to hang out at."])
def test_companions_in_a_clause_about_the_target_hold_no_opinion(tmp_path, kit, text):
    opinion = "cosy" if "cosy" in text else "nice"
    gen = run(tmp_path, kit, [("f", text, [("spot", "positive", [opinion])])])
    v = variant(gen, "f_0_adv1")  # VADER rates *friends* and *few* polar: the clause read as an opinion of its own
    assert v is not None and v.polarity == "negative", refusal(gen, "f_0")



def test_coordinated_opinions_take_distinct_opposites(tmp_path, kit):
    text = "We liked the dessert and the crew was friendly, courteous and quick."
    gen = run(tmp_path, kit, [("d", text, [("crew", "positive", ["friendly", "courteous", "quick"])])],
              GenerateConfig(strategies=("revtgt",)))
    v = variant(gen, "d_0_adv1")  # both took *rude* (*rude, rude*) and the repetition check refused the variant
    assert v is not None and v.polarity == "negative", refusal(gen, "d_0")
    assert "rude, rude" not in v.sentence and "courteous" not in v.sentence


def test_an_emphatic_repetition_is_still_reversed_as_a_whole(tmp_path, kit):
    text = "It is fast, it is easy easy easy to set up."
    rec = record("e", text, [("set up", "positive", ["easy"])])
    spans = [[m.start(), m.end()] for m in re.finditer("easy", text)]
    rec["term_list"]["e_0"].update(opinion_words=["easy"] * 3, opinion_position=spans)
    (tmp_path / "in.json").write_text(json.dumps({"e": rec}), encoding="utf-8")
    gen = generate(read_input(tmp_path / "in.json"), GenerateConfig(strategies=("revtgt",)), kit)
    v = variant(gen, "e_0_adv1")  # the three opinions take one opposite together (*hard hard hard*)
    assert v is None or re.search(r"\b(\w+) \1 \1\b", v.sentence), v.sentence


def test_a_not_only_frame_around_the_target_becomes_a_statement(tmp_path, kit):
    text = "Not only was the pasta tasty, but the staff were kind."
    gen = run(tmp_path, kit, [("n", text, [("pasta", "positive", ["tasty"]), ("staff", "positive", ["kind"])])])
    v = variant(gen, "n_0_adv1")  # the frame refused every reversal inside it (*Not only was the pasta bland, but*)
    assert v is not None and v.sentence.startswith("The pasta was ") and "not only" not in v.sentence.lower(), \
        refusal(gen, "n_0")
    assert v.sentence.endswith(", but the staff were kind.") and v.polarity == "negative"
    assert variant(gen, "n_1_adv1") is None  # the opinion after *but*: the frame still ties it


def test_an_adjective_read_as_a_noun_in_a_list_of_adjectives_gets_its_opposite(tmp_path, kit):
    text = "It's quick, light, and simple to set up."
    gen = run(tmp_path, kit, [("l", text, [("set up", "positive", ["quick", "light", "simple"])])])
    v = variant(gen, "l_0_adv1")  # *light* tagged NN: only a negation of the whole list was offered
    assert v is not None, refusal(gen, "l_0")
    light = next(r for r in v.choices if "'light'" in r["site"])
    assert any(c["valid"] and c["op"] == "antonym" and "quick, heavy, and" in c["text"] for c in light["candidates"])


def test_a_long_battery_life_becomes_short(tmp_path, kit):
    text = "It has a long battery life."
    gen = run(tmp_path, kit, [("b", text, [("battery life", "positive", ["long"])])])
    v = variant(gen, "b_0_adv1")  # WordNet's *short* is not polar: it was refused as no primary-sense antonym
    assert v is not None and v.sentence == text.replace("long", "short"), refusal(gen, "b_0")
    text = "It is so nice that the battery last so long."
    gen = run(tmp_path, kit, [("d", text, [("battery", "positive", ["long"])])])
    assert all("short" not in v.sentence for v in gen.variants)  # a duration: never *last so short*


def test_the_verb_slow_becomes_speed_up(tmp_path, kit):
    gen = run(tmp_path, kit, [("s", "Startup slowed a lot after the update.", [("Startup", "negative", ["slowed"])]),
                              ("t", "Games slow it down a lot.", [("Games", "negative", ["slow"])])])
    v = variant(gen, "s_0_adv1")  # only *didn't slow* was offered
    assert v is not None, refusal(gen, "s_0")
    cands = [c["text"] for r in v.choices for c in r["candidates"] if c["valid"]]
    assert any("Startup sped up a lot" in c for c in cands), cands
    v = variant(gen, "t_0_adv1")
    assert v is not None, refusal(gen, "t_0")
    cands = [c["text"] for r in v.choices for c in r["candidates"] if c["valid"]]
    assert any("Games speed it up a lot" in c for c in cands), cands


def test_well_worth_becomes_not_worth(tmp_path, kit):
    text = "The new editor is great, well worth it."
    gen = run(tmp_path, kit, [("w", text, [("editor", "positive", ["great", "well worth"])])])
    v = variant(gen, "w_0_adv1")  # *well* is a degree word: every swap of *worth* or *well* was refused
    assert v is not None and v.sentence.endswith(", not worth it."), refusal(gen, "w_0")


@pytest.mark.parametrize(("text", "want"), [
    ("I highly recommend the pasta.", "I don't recommend the pasta."),
    ("I would highly recommend the pasta to anyone.", "I would not recommend the pasta to anyone."),
    ("We strongly recommend the pasta.", "We don't recommend the pasta."),
])
def test_a_negated_verb_drops_its_degree_adverb(tmp_path, kit, text, want):
    # never *I highly don't recommend* nor *would not highly recommend*: the degree adverb goes with the negation
    gen = run(tmp_path, kit, [("d", text, [("pasta", "positive", ["recommend"])])])
    v = variant(gen, "d_0_adv1")
    assert v is not None, refusal(gen, "d_0")
    assert v.sentence == want


def test_a_negation_keeps_fully_as_a_partial_denial(tmp_path, kit):
    # *not fully loaded* is plain English; *comes not loaded with* is not
    text = "Your mac comes fully loaded with all the basic programs."
    gen = run(tmp_path, kit, [("f", text, [("programs", "positive", ["loaded"])])])
    v = variant(gen, "f_0_adv1")
    assert v is None or "not loaded" not in v.sentence, v.sentence


@pytest.mark.parametrize(("text", "opinion", "want"), [
    ("The new printer works like a charm.", "charm", "The new printer works poorly."),
    ("The new printer runs like a dream, honestly.", "dream", "The new printer runs poorly, honestly."),
])
def test_the_idiom_like_a_charm_becomes_poorly(tmp_path, kit, text, opinion, want):
    # the noun has no opposite and *doesn't work like a charm* only denies perfection
    gen = run(tmp_path, kit, [("i", text, [("printer", "positive", [opinion])])])
    v = variant(gen, "i_0_adv1")
    assert v is not None, refusal(gen, "i_0")
    assert v.sentence == want


@pytest.mark.parametrize(("text", "label", "opinion", "want"), [
    ("The fries are much less expensive than elsewhere.", "positive", "less expensive",
     "The fries are much more expensive than elsewhere."),
    ("The fries are noticeably more expensive than elsewhere.", "negative", "more expensive",
     "The fries are noticeably less expensive than elsewhere."),
])
def test_an_analytic_comparison_turns_at_its_degree_word(tmp_path, kit, text, label, opinion, want):
    # never *much less cheap*: the antonym keeps the comparison's frame, the degree word reverses it
    gen = run(tmp_path, kit, [("a", text, [("fries", label, [opinion])])])
    v = variant(gen, "a_0_adv1")
    assert v is not None, refusal(gen, "a_0")
    assert v.sentence == want


@pytest.mark.parametrize(("text", "opinion", "want"), [
    ("The risotto literally melts in your mouth!", "melts", "The risotto doesn't melt in your mouth!"),
    ("This charger practically works on any outlet.", "works", "This charger doesn't work on any outlet."),
])
def test_a_focus_adverb_goes_with_the_negation_of_its_verb(tmp_path, kit, text, opinion, want):
    # never *literally doesn't melt*: the focus adverb stresses the praise, not its denial
    term = text.split()[1]
    gen = run(tmp_path, kit, [("l", text, [(term, "positive", [opinion])])])
    v = variant(gen, "l_0_adv1")
    assert v is not None, refusal(gen, "l_0")
    assert v.sentence == want


@pytest.mark.parametrize(("text", "opinion", "want"), [
    ("Order the soup, and stay away from the tacos.", "stay away", "Order the soup, and try the tacos."),
    ("I stayed away from the tacos after that.", "stayed away", "I tried the tacos after that."),
])
def test_an_idiom_of_avoidance_becomes_try(tmp_path, kit, text, opinion, want):
    # never *don't stay away from the tacos*: a double denial
    gen = run(tmp_path, kit, [("s", text, [("tacos", "negative", [opinion])])])
    v = variant(gen, "s_0_adv1")
    assert v is not None, refusal(gen, "s_0")
    assert v.sentence == want


@pytest.mark.parametrize("text", ["The falafel was dry but the lamb was fine.", "The lamb was decent."])
def test_mild_praise_takes_its_opposite_not_a_negation(tmp_path, kit, text):
    # never *the lamb was not fine*: mild praise reads oddly negated
    gen = run(tmp_path, kit, [("m", text, [("lamb", "positive", [text.split()[-1].rstrip(".")])])])
    v = variant(gen, "m_0_adv1")
    assert v is not None, refusal(gen, "m_0")
    assert "not " not in v.sentence and v.sentence != text, v.sentence


def test_fine_before_a_noun_is_a_kind_without_a_review_opposite(tmp_path, kit):
    # never *bad dining*: *fine dining* names a kind of restaurant
    gen = run(tmp_path, kit, [("d", "The chef is new to fine dining.", [("dining", "positive", ["fine"])])])
    v = variant(gen, "d_0_adv1")
    assert v is None or "bad" not in v.sentence, v.sentence


def test_fine_on_a_verb_of_doing_becomes_poorly(tmp_path, kit):
    # never *the printer works bad*: *fine* there is the verb's manner
    gen = run(tmp_path, kit, [("w", "The printer works fine.", [("printer", "positive", ["fine"])])])
    v = variant(gen, "w_0_adv1")
    assert v is not None, refusal(gen, "w_0")
    assert v.sentence == "The printer works poorly."


@pytest.mark.parametrize(("text", "opinion"), [
    ("The waiter was on point all night.", "on point"),
    ("The tacos are top notch as well.", "top notch"),
])
def test_a_fixed_phrase_of_praise_takes_its_opposite(tmp_path, kit, text, opinion):
    # never *was not on point*, *are not top notch as well*: a negated fixed phrase reads as a partial denial
    term = text.split()[1]
    gen = run(tmp_path, kit, [("p", text, [(term, "positive", [opinion])])])
    v = variant(gen, "p_0_adv1")
    assert v is not None, refusal(gen, "p_0")
    assert "not " not in v.sentence and opinion not in v.sentence, v.sentence


def test_high_praise_on_a_noun_without_a_scale_takes_a_plain_opposite(tmp_path, kit):
    # never *the lowest service*: *highest* measures no scale of the service; *high resolution* keeps its own reversals
    gen = run(tmp_path, kit, [("h", "They gave us the highest service every time.", [("service", "positive",
                                                                                        ["highest"])]),
                              ("k", "The resolution is high here.", [("resolution", "positive", ["high"])])])
    v = variant(gen, "h_0_adv1")
    assert v is not None, refusal(gen, "h_0")
    assert v.sentence == "They gave us the worst service every time."
    k = variant(gen, "k_0_adv1")
    assert k is not None and "poor" not in k.sentence, refusal(gen, "k_0")


def test_praise_of_a_small_addition_becomes_unwelcome(tmp_path, kit):
    # never *a bad hint of lime*: the addition's praise turns to *unwelcome*; a soft-touch finish keeps no antonym
    gen = run(tmp_path, kit, [("g", "The soup had a nice hint of lime.", [("soup", "positive", ["nice"])]),
                              ("t", "Soft touch, brushed aluminum lid.", [("aluminum lid", "positive", ["Soft"])])])
    v = variant(gen, "g_0_adv1")
    assert v is not None, refusal(gen, "g_0")
    assert v.sentence == "The soup had an unwelcome hint of lime."
    t = variant(gen, "t_0_adv1")
    assert t is None or "Hard" not in t.sentence, t.sentence
