"""AddDiff variants a reader takes for one review: no clause that repeats or contradicts the sentence under another
name (the speed it praises, another platform, a synonym of its aspect), no pile of three clauses, no exclusive
clause after a named flaw, no *; still,* after a turn that evaluates nothing, and mined clauses that need no earlier
statement. Short made-up sentences of the audited forms."""
from __future__ import annotations

import json
import random
from collections import Counter

import _arts_kit

from sentiprobe.generate.arts.adddiff import add_diff, append_clauses
from sentiprobe.generate.arts.polarity import Polarity
from sentiprobe.generate.arts.strategies import Prepared

_prep = _arts_kit.flat_prep
_entry = _arts_kit.pool_entry


def _terms(prep: Prepared, pool, seeds: int = 20, k: int | None = 1, lexicon=None) -> set[str]:
    a = prep.aspects[0].aspect
    pools = {"positive": [e for e in pool if e.label == "negative"],
             "negative": [e for e in pool if e.label == "positive"], "neutral": list(pool)}
    out: set[str] = set()
    for seed in range(seeds):
        v, why = add_diff(random.Random(seed), prep, a.id, prep.sentence.text, a.start, a.end, pools, k=k,
                          faithful=False, lexicon=lexicon)
        assert v is not None, why
        out |= {e["term"] for e in v.appended}
    return out


FILLER_NEG = _entry("the hinge is a bit loose", "hinge", "negative")
FILLER_POS = _entry("the keyboard is top notch", "keyboard", "positive")


def test_a_slow_clause_is_not_appended_to_a_sentence_that_praises_speed():
    slow = _entry("the computer runs extremely slowly", "runs", "negative")
    for text, term in (("This thing is fast and clear as can be.", "thing"),
                       ("Amazing performance for anything I throw at it.", "performance"),
                       ("It works great and is not a waste of money.", "works")):
        prep = _prep(text, [(term, "positive")])
        assert _terms(prep, [slow, FILLER_NEG]) == {"hinge"}, text
    assert "runs" in _terms(_prep("The case is pretty.", [("case", "positive")]), [slow, FILLER_NEG])


def test_a_clause_of_another_platform_is_redrawn():
    vista = _entry("Vista is a nightmare", "Vista", "negative")
    dell = _entry("my problem was the Dell support", "Dell support", "negative")
    prep = _prep("The MacBook looks great and the battery lasts.", [("battery", "positive")])
    assert _terms(prep, [vista, dell, FILLER_NEG]) == {"hinge"}
    prep = _prep("The battery lasts forever.", [("battery", "positive")])
    assert "Vista" in _terms(prep, [vista, FILLER_NEG])


def test_a_clause_about_the_same_aspect_under_another_name_is_redrawn():
    cases = [("The atmosphere is great.", "atmosphere", _entry("there was no ambience at all", "ambience", "negative")),
             ("I do not like Windows 8.", "Windows 8", _entry("the operating system is solid", "operating system",
                                                              "positive")),
             ("The display is clear.", "display", _entry("the TFT panel is broken", "TFT panel", "negative")),
             ("I love the screen display.", "screen display", _entry("the graphics were awful", "graphics",
                                                                     "negative"))]
    for text, term, clause in cases:
        label = "positive" if clause.label == "negative" else "negative"
        filler = FILLER_NEG if clause.label == "negative" else FILLER_POS
        assert _terms(_prep(text, [(term, label)]), [clause, filler]) == {filler.term}, text


def test_at_most_two_clauses_and_never_two_names_of_one_aspect():
    pool = [_entry("the display is awesome", "display", "positive"), _entry("the screen is nice", "screen", "positive"),
            _entry("the keyboard is top notch", "keyboard", "positive"), _entry("sound is good", "sound", "positive")]
    prep = _prep("The range is poor.", [("range", "negative")])
    pools = {"negative": pool}
    sizes = Counter()
    for seed in range(40):
        v, why = add_diff(random.Random(seed), prep, "s1_0", prep.sentence.text, 4, 9, pools, k=None, faithful=False)
        assert v is not None, why
        terms = {e["term"] for e in v.appended}
        sizes[len(terms)] += 1
        assert not {"display", "screen"} <= terms, v.sentence
    assert set(sizes) == {1, 2}, sizes


def test_an_exclusive_clause_does_not_follow_a_named_flaw():
    only = _entry("the only problem is the lack of screen resolutions", "screen resolutions", "negative")
    prep = _prep("I like the design but some things need to be improved.", [("design", "positive")])
    assert _terms(prep, [only, FILLER_NEG]) == {"hinge"}
    assert "screen resolutions" in _terms(_prep("I like the design.", [("design", "positive")]), [only, FILLER_NEG])


def test_still_needs_an_evaluation_after_the_turn():
    lex = Polarity()
    pools = {"positive": [FILLER_NEG], "negative": [FILLER_POS], "neutral": [FILLER_NEG, FILLER_POS]}
    prep = _prep("But I wanted the Pro for the DVD player.", [("DVD player", "positive")])
    v, why = add_diff(random.Random(0), prep, "s1_0", prep.sentence.text, 0, 0, pools, k=1, faithful=False,
                      lexicon=lex)
    assert v is None and "turns with 'but'" in (why or ""), v and v.sentence
    prep = _prep("Great screen but the battery was dreadful.", [("screen", "positive"), ("battery", "negative")])
    a = prep.aspects[1].aspect
    v, why = add_diff(random.Random(0), prep, a.id, prep.sentence.text, a.start, a.end, pools, k=1, faithful=False,
                      lexicon=lex)
    assert v is not None and v.sentence.endswith("dreadful; still, the keyboard is top notch."), (why, v)
    # a wish for improvement after the turn is a complaint: the negative clause agrees with it
    prep = _prep("I like the design but some things need to be improved.", [("design", "positive")])
    v, why = add_diff(random.Random(0), prep, "s1_0", prep.sentence.text, 0, 0, pools, k=1, faithful=False,
                      lexicon=lex)
    assert v is not None and v.sentence.endswith("improved, and the hinge is a bit loose."), (why, v)


def test_a_turn_between_two_opinions_of_the_target_is_what_the_sentence_says_last(tmp_path):
    from sentiprobe.generate.arts.inputs import read_input
    from sentiprobe.generate.arts.pipeline import prepare

    p = tmp_path / "in.json"
    rec = _arts_kit.towe_record("a", "Food was decent, but not great.", [("Food", "positive", ["decent", "not great"])])
    p.write_text(json.dumps({"a": rec}), encoding="utf-8")
    prep = prepare(read_input(p).sentences, _arts_kit.kit())[0]
    v, why = add_diff(random.Random(0), prep, "a_0", prep.sentence.text, 0, 4, {"positive": [FILLER_NEG]}, k=1,
                      faithful=False, lexicon=Polarity())
    assert v is not None and v.sentence == "Food was decent, but not great, and the hinge is a bit loose.", (why, v)


def test_a_dangling_dash_is_dropped_before_the_joint():
    assert append_clauses("Great size -- great weight -", ["the hinge is loose"], False) == (
        "Great size -- great weight, but the hinge is loose.")


def test_a_neutral_target_takes_the_polarity_with_room_left():
    neg = [_entry("the hinge is a bit loose", "hinge", "negative")]
    pos = [_entry(f"the {w} is great", w, "positive") for w in ("keyboard", "screen", "speaker")]
    prep = _prep("I bought it in May.", [("May", "neutral")])
    for seed in range(10):
        uses = Counter({"the hinge is a bit loose": 2})
        v, why = add_diff(random.Random(seed), prep, "s1_0", prep.sentence.text, 15, 18, {"neutral": neg + pos},
                          k=None, faithful=False, uses=uses, cap=3)
        assert v is not None and all(e["label"] == "positive" for e in v.appended), (why, v)


def test_mined_clauses_that_need_an_earlier_statement_or_read_the_other_way_are_left_out(tmp_path):
    pool = [("a", "The portions are now awful.", [("portions", "negative", ["awful"])]),
            ("b", "The main problem was with the horrible support.", [("support", "negative", ["horrible"])]),
            ("c", "There are very few problems with the system performance.",
             [("system performance", "negative", ["problems"])]),
            ("d", "The screen is perfect, great computer.", [("screen", "positive", ["perfect"])]),
            ("e", "The OS is as fast as the day I bought it.", [("OS", "positive", ["fast"])]),
            ("f", "The ambience is very romantic and the music is wonderful.",
             [("ambience", "positive", ["romantic"]), ("music", "positive", ["wonderful"])]),
            ("j", "The awful Vista causes some of the problems.", [("Vista", "negative", ["awful"])]),
            ("k", "The service from then on was outstanding.", [("service", "positive", ["outstanding"])]),
            ("l", "My keyboard is so much better looking.", [("keyboard", "positive", ["better looking"])]),
            ("m", "Mostly I love the awesome dock.", [("dock", "positive", ["love"])]),
            ("i", "Best of all is the lovely vibe.", [("vibe", "positive", ["lovely"])]),
            ("h", "I highly recommend getting the warranty.", [("warranty", "positive", ["highly recommend"])]),
            ("g", "The keyboard is great.", [("keyboard", "positive", ["great"])])]
    entries, rejected = _arts_kit.mined_clauses(tmp_path, pool)
    texts = sorted(e.text for e in entries)
    gone = ("now", "then on", "better looking", "ostly", "problem was", "of the problems", "few problems",
            "best of all", "great computer", "the day")
    assert "the keyboard is great" in texts and not any(w in t for t in texts for w in gone), (texts, rejected)
    assert not any(t.endswith(" and") for t in texts), texts
    reasons = " ".join(rejected)
    for part in ("earlier state", "denying quantifier", "verbless fragment", "relative clause cut", "recommends",
                 "additive", "sentence adverb", "second term"):
        assert part in reasons, rejected


def test_mined_clauses_cut_before_a_complement_or_about_another_thing_are_left_out(tmp_path):
    pool = [("a", "The worst occasion for me was when we waited an hour.", [("occasion", "negative", ["worst"])]),
            ("b", "We were rudely told by the waiter that the kitchen closed.", [("waiter", "negative", ["rudely"])]),
            ("c", "The netbook's hinge is a bit loose.", [("hinge", "negative", ["loose"])]),
            ("d", "His drinks are very inventive and classy.", [("drinks", "positive", ["inventive"])]),
            ("e", "There are plenty of other places with good sandwiches.", [("sandwiches", "positive", ["good"])]),
            ("f", "Nevertheless the soup is pretty good.", [("soup", "positive", ["good"])]),
            ("h", "I would highly recommend requesting the corner table.",
             [("corner table", "positive", ["highly recommend"])]),
            ("g", "The keyboard is great.", [("keyboard", "positive", ["great"])])]
    entries, rejected = _arts_kit.mined_clauses(tmp_path, pool)
    texts = sorted(e.text for e in entries)
    assert texts == ["the keyboard is great"], (texts, rejected)
    reasons = " ".join(rejected)
    for part in ("cut off before a complement", "kind of device", "pronoun that needs its antecedent",
                 "other places", "contrast, question", "recommends an action"):
        assert part in reasons, rejected


class _FrameLM:
    """A stand-in model: every clause reads badly alone; after the frame, the clauses listed read well."""

    def __init__(self, good: set[str]):
        self.good = good

    def mean(self, texts):
        return [-9.0 for _ in texts]

    def logprob(self, texts):
        from sentiprobe.generate.arts.clauses import CARRIER

        out = []
        for t in texts:
            n = len(t.split())
            if t == CARRIER:
                out.append((-20.0, n))
            else:
                clause = t[len(CARRIER) + 1:-1]
                out.append((-20.0 + (-4.0 if clause in self.good else -6.0) * (n - len(CARRIER.split())), n))
        return out


def test_a_short_clause_below_its_floor_gets_a_second_reading_in_a_frame():
    from sentiprobe.generate.arts.clauses import fluent_subset

    pool = [_entry("the speakers are terrible", "speakers", "negative"),
            _entry("the expese was a little much", "expese", "negative")]
    kept, stats = fluent_subset(pool, _FrameLM({"the speakers are terrible"}), 10, "s")
    assert [e.text for e in kept] == ["the speakers are terrible"] and stats["in_context"] == 1, (kept, stats)
    # a model without log-probabilities keeps its floor alone
    plain = type("M", (), {"mean": lambda self, texts: [-9.0 for _ in texts]})()
    assert fluent_subset(pool, plain, 10, "s")[0] == []


def test_praise_after_a_closing_wish_turns_with_but():
    from sentiprobe.generate.arts.adddiff import contrasts

    lexicon = Polarity()
    for text in ("So happy with this purchase, I just wish it came with Word.",
                 "I only wish this mac had a DVD player built in."):
        term = "Word" if "Word" in text else "DVD player"
        prep = _prep(text, [(term, "neutral")])
        assert contrasts(prep, {prep.aspects[0].aspect.id: "neutral"}, "positive", text, lexicon), text
    # a wish to have come sooner is praise: praise after it is added with *and*
    text = "Great little place, I wish I had found it sooner."
    prep = _prep(text, [("place", "neutral")])
    assert not contrasts(prep, {prep.aspects[0].aspect.id: "neutral"}, "positive", text, lexicon)


def test_a_denied_fault_reads_as_praise_and_praise_after_it_is_added_with_and():
    from sentiprobe.generate.arts.adddiff import contrasts

    lexicon = Polarity()
    # VADER lacks *issues*: the lone *no* read the denial as a complaint and praise after it took *but*
    assert lexicon.phrase("found no issues with software or updates") == 1
    assert lexicon.phrase("they were having issues with the mother boards") == -1
    text = "I've had it for about 2 months now and found no issues with software or updates."
    prep = _prep(text, [("software", "neutral")])
    assert not contrasts(prep, {prep.aspects[0].aspect.id: "neutral"}, "positive", text, lexicon)
    text = "They told me that they were having issues with the mother boards."
    prep = _prep(text, [("mother boards", "neutral")])
    assert contrasts(prep, {prep.aspects[0].aspect.id: "neutral"}, "positive", text, lexicon)
