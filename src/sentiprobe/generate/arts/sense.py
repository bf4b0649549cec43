"""Which opposite fits (corrected mode): the sense checks applied where a reversal's opposite is chosen.

WordNet antonyms and the review lexicon pair words, not readings: *more* -> *little* (inflected *littler*),
*good* -> *poor* (*poor prices*), *generous* -> *stingy* (*stingy service*), *new* -> *old* of a descriptor
(*the old operating system*). A negation of an extreme word (*not excellent*, *neither bright nor gorgeous*)
denies the extreme, not the quality: it reads as a mild reservation, not the opposite label. The rules here
are the ones that can be checked without guessing:

- **degree words** (:func:`degree_opposite`): a comparative or superlative of quantity reverses to its degree
  partner (*more* <-> *less*, *fewer* before a plural noun, *higher* <-> *lower*, *most* <-> *least*), never to a
  synthetic form of a WordNet antonym (*littler*); a plain adjective's antonym keeps the plain degree (*optimal
  mobility* -> *bad mobility*, never *worst mobility*);
- **aspect fit** (:func:`fit_swaps`): the domain's *training* TOWE pairs (the pool file, never the file being
  generated) say which adjectives reviewers use for an aspect head with each label. Where the best opposite of an
  adjective describing the aspect (its modifier or its copula's predicate) is weak there, that is, never used with
  the head under the new label and either generic (*poor prices*) or a WordNet antonym through another word's
  cluster (*optimal* ~ *best* -> *worst*), an adjective the file did use with the head is proposed first: an
  existing candidate, else the head's commonest adjective of the new label (at least :data:`MIN_ATTESTED` uses,
  :data:`PURITY` of that head's uses of it under that label) that is an evaluation and not a state (*high
  prices*, *short battery life*, never *black screen*); each adjective of a coordinated pair takes its own word.
  Where that word is specific, the weak swaps are then invalid, so the language model weighs it against the
  negation; a generic one (*bad food* for *poor food*) only competes with them.
  *pretty good prices* -> *pretty high prices*, *excellent battery life* -> *short battery life*. A specific
  opposite stays even where the file never uses it (*dirty*, *inauthentic*, *stingy*): the head's commonest
  word would change what is judged (*as cold as it gets*). Attestation only ever promotes a word; a few
  thousand training sentences cannot vouch against one, so an unseen head is left as it was;
- **descriptors** (:func:`descriptor`): an age adjective before its noun with a determiner (*the new operating
  system*) names which thing is meant; its antonym changes the referent, not the opinion. The site is refused,
  and a target with another opinion keeps this one as it is;
- **fixed phrases** (:func:`fixed_phrase`): an excess (*too sour*), *well* as a degree word (*well worth*), an
  analytic comparison (*more solid*) and an idiom (*Thank goodness*) take no antonym; an adjective with a
  complement (*worth every penny*) takes no attested word of the aspect (*limited every penny*);
- **extreme words** (:func:`extreme_negation`): the negation of an extreme adjective (*not excellent*,
  *neither bright nor gorgeous*) is invalid where a plain opposite is valid at the same site.

Frames that presuppose an opinion's polarity (*put up with the waiters' bad manners*) are checked once, with
the sentence's other discourse checks (:mod:`.context`).

Every resource is the generator's own (training pairs already read for the in-domain lexicon, the parse), so
the result is deterministic and offline; ties are broken alphabetically.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .morph import lemma
from .polarity import LABEL_SIGN, REVIEW_OPPOSITES
from .resources import Parse
from .site import Candidate, Reversal, Sent, article_fix
from .syntax import children

MIN_ATTESTED = 2
"""Uses of an adjective with an aspect head (under one label) before it counts as that head's attested opinion."""
PURITY = 0.8
"""Share of a head's uses of an adjective that must carry the label (*high prices* negative, *high quality*
positive: the label is read per head, never from the word alone)."""

DEGREE_OPPOSITES = {"more": "less", "less": "more", "fewer": "more", "most": "least", "least": "most",
                    "higher": "lower", "lower": "higher", "highest": "lowest", "lowest": "highest"}
"""Degree partners of comparative and superlative quantity words (WordNet pairs *more* with *little*)."""

EXTREME_ADJECTIVES = frozenset({
    "excellent", "amazing", "awesome", "fantastic", "wonderful", "incredible", "outstanding", "superb", "perfect",
    "exceptional", "phenomenal", "fabulous", "spectacular", "gorgeous", "stunning", "terrific", "impeccable",
    "flawless", "marvelous", "magnificent", "superior", "terrible", "awful", "horrible", "disgusting", "dreadful",
    "atrocious", "horrendous", "abysmal", "appalling", "pathetic"})
"""Adjectives at the end of their scale: *not excellent* is a reservation (still good), *not terrible* a
concession (still poor), so their negation does not reverse the label. *great*, *good*, *bad* and *the best* are
not here: *not great*, *not good*, *not bad* are the plain reversals English uses."""

BOOSTERS = frozenset({"highly", "dreadfully", "completely", "totally", "absolutely", "extremely", "incredibly",
                      "terribly", "awfully", "utterly", "insanely", "ridiculously", "exceptionally", "hugely",
                      "immensely", "wildly", "thoroughly", "entirely", "fully", "way"})
"""Adverbs that push an opinion to the end of its scale. Negated, a boosted negative opinion is a concession, not
praise (*not dreadfully slow*, *not highly disappointed*, *not completely dead*, *not way over salted*): its label
would not be positive; swapped, the booster stays on the opposite (*way reasonable*, *completely alive*). So a
boosted negative opinion has no reversal but an extreme opposite (*absolutely horrible* -> *absolutely
excellent*). A boosted positive one negates naturally (*not fully satisfied*, *not
totally into*)."""


def boosted_negative(p: Parse, f: int, head: int, sign: int) -> str | None:
    """Why the negative opinion at ``head`` (span from token ``f``) has no reversal: a booster (:data:`BOOSTERS`)
    modifies it or stands right before its span."""
    if sign >= 0:
        return None
    hit = booster(p, f, head)
    if hit is None:
        return None
    return (f"a boosted negative ({p.tokens[hit]!r} ... {p.tokens[head]!r}) has no reversal: negated it reads as a "
            "concession (*not dreadfully slow*), swapped the booster stays (*way reasonable*)")


def booster(p: Parse, f: int, head: int) -> int | None:
    """The token of a :data:`BOOSTERS` adverb on the opinion at ``head``: a modifier (or its modifier's) or one of
    the two tokens before its span (from ``f``)."""
    mods = [j for j in children(p, head) if p.deps[j] == "advmod"]
    near = [*mods, *(j for m in mods for j in children(p, m) if p.deps[j] == "advmod"),
            *(j for j in (f - 1, f - 2) if j >= 0)]
    return next((j for j in sorted(set(near)) if p.tokens[j].lower() in BOOSTERS), None)


STATE_BOOSTERS = frozenset({"highly", "utterly", "completely", "totally", "absolutely", "thoroughly", "fully",
                            "extremely", "incredibly"})
"""Boosters that take a participle of a reviewer's state of mind either way (*highly disappointed*, *highly
impressed*; *utterly disappointed*, *utterly delighted*), unlike a quality's opposite (*completely alive*)."""


def booster_fits(adverb: str, word: str, view: AspectView | None) -> bool:
    """Whether the booster ``adverb`` reads naturally on the opposite ``word`` a swap puts under it: a state
    booster (:data:`STATE_BOOSTERS`) before an *-ed* participle (*highly impressed*), or any booster the training
    file uses right before the word (``view.bigrams``). *dreadfully fast*, *way reasonable*, *completely alive* fit
    neither. A general degree adverb is no licence of its own: *incredibly rude* is often the strongest word of a
    complaint its clause goes on to describe (*were incredibly friendly and did everything they could to rush us
    out*, *everything echoes, is extremely quiet*)."""
    a, w = adverb.lower(), word.lower()
    if " " in w:
        return False
    if view is not None and f"{a} {w}" in view.bigrams:
        return True
    return a in STATE_BOOSTERS and w.endswith("ed")


AGE_DESCRIPTORS = frozenset({"new", "old", "newer", "older", "newest", "oldest", "latest", "recent", "previous",
                             "current", "modern", "original"})
"""Adjectives that identify which thing is meant when they stand before their noun with a determiner."""
_DETERMINERS = frozenset({"the", "this", "that", "these", "those", "my", "our", "your", "its", "their", "his", "her"})

@dataclass(frozen=True)
class AspectView:
    """The adjectives a training file uses with one aspect head (word -> label counts), and every one-word
    opinion of the file (``domain``)."""

    head: str
    words: dict[str, Counter] = field(default_factory=dict)
    domain: frozenset[str] = frozenset()
    bigrams: frozenset[str] = frozenset()  # *booster word* pairs of the file (:func:`booster_fits`)

    def attested(self, word: str, label: str) -> bool:
        """Whether ``word`` was used with the head under ``label`` at least once."""
        return self.words.get(word.lower(), Counter())[label] > 0

    def ranked(self, label: str, exclude: Iterable[str] = ()) -> list[tuple[str, int]]:
        """The adjectives used with the head under ``label`` (:data:`MIN_ATTESTED`, :data:`PURITY`), commonest
        first, ties alphabetical."""
        skip = {w.lower() for w in exclude}
        best = sorted((-c[label], w) for w, c in self.words.items() if w not in skip and c[label] >= MIN_ATTESTED
                      and c[label] / sum(c.values()) >= PURITY)
        return [(w, -n) for n, w in best]

    def commonest(self, label: str, exclude: Iterable[str] = ()) -> tuple[str, int] | None:
        """The adjective used most with the head under ``label`` (see :meth:`ranked`)."""
        found = self.ranked(label, exclude)
        return found[0] if found else None


@dataclass(frozen=True)
class AspectOpinions:
    """Adjective opinions per aspect head in a training file, and all its one-word opinions (module docstring)."""

    by_head: dict[str, dict[str, Counter]]
    domain: frozenset[str] = frozenset()
    bigrams: frozenset[str] = frozenset()

    @classmethod
    def from_pairs(cls, triples: Iterable[tuple[str, str, str]], others: Iterable[str] = ()) -> AspectOpinions:
        """From ``(aspect head word, adjective opinion, label)`` triples and the file's other one-word opinions."""
        by: dict[str, dict[str, Counter]] = {}
        domain = {w.lower() for w in others}
        for head, word, label in triples:
            domain.add(word.lower())
            if label not in ("positive", "negative") or not word.replace("-", "").isalpha():
                continue
            by.setdefault(head_key(head), {}).setdefault(word.lower(), Counter())[label] += 1
        return cls(by, frozenset(domain))

    @classmethod
    def from_prepared(cls, preps: Sequence) -> AspectOpinions:
        """From prepared training sentences: one-token opinions the tagger reads as plain adjectives."""
        triples, others = [], []
        for p in preps:
            for pa in p.aspects:
                for f, t in pa.opinions:
                    if t - f != 1:
                        continue
                    if p.parse.upos[f] == "ADJ" and p.parse.tags[f] == "JJ" and pa.span[1] > pa.span[0]:
                        triples.append((p.tokens[pa.span[1] - 1], p.tokens[f], pa.aspect.polarity))
                    else:
                        others.append(p.tokens[f])
        made = cls.from_pairs(triples, others)
        pairs = frozenset(f"{a.lower()} {b.lower()}" for p in preps for a, b in zip(p.tokens, p.tokens[1:])
                          if a.lower() in BOOSTERS)
        return cls(made.by_head, made.domain, pairs)

    def view(self, head_word: str) -> AspectView:
        key = head_key(head_word)
        return AspectView(key, self.by_head.get(key, {}), self.domain, self.bigrams)


def head_key(word: str) -> str:
    """An aspect head as the tables key it: the noun lemma, lower-cased (*Prices* -> *price*)."""
    return lemma(word.lower(), "NOUN")


def aspect_view(opinions: AspectOpinions | None, prep, pa) -> AspectView | None:
    """The view of ``pa``'s head (the term's last token) in ``opinions``; None without a training file."""
    if opinions is None or pa.span[1] <= pa.span[0]:
        return None
    return opinions.view(prep.tokens[pa.span[1] - 1])


def degree_opposite(s: Sent, head: int, cands: list[Candidate]) -> list[Candidate]:
    """*Cost is more* -> *Cost is less* (never *littler*), *more options* -> *fewer options*: the antonym
    candidates of a degree word collapse into its degree partner, with the best candidate's priority and
    polarity problems (the checks already ran on the pair). A plain adjective's graded antonym takes the plain
    degree (:func:`_plain`)."""
    p = s.parse
    low = p.tokens[head].lower()
    opp = DEGREE_OPPOSITES.get(low)
    if opp is None and p.tags[head] == "JJ":
        out, seen = [], set()
        for c in map(lambda c: _plain(s, head, c), cands):
            if _swap_word(c) not in seen or c.op != "antonym":
                out.append(c)
                seen.add(_swap_word(c))
        return out
    if opp is None or not cands:
        return cands
    if low == "less" and head + 1 < len(p.tokens) and p.tags[head + 1] == "NNS":
        opp = "more"
    if low == "more" and head + 1 < len(p.tokens) and p.tags[head + 1] == "NNS":
        opp = "fewer"
    best = min(cands, key=lambda c: c.priority)
    e = s.replace(head, opp, "antonym", f"degree opposite of {low!r}")
    # the partner is a plain word: the vocabulary check of the synthetic form (*littler*) does not apply to it
    problems = tuple(x for x in best.problems if "in-domain vocabulary" not in x)
    return [Candidate((e,), "antonym", e.detail, best.priority, problems)]


DESCRIPTOR = "a descriptor, not an opinion"
"""The start of :func:`descriptor`'s reason: a target with another opinion keeps this one as it is."""


def descriptor(p: Parse, head: int) -> str | None:
    """Why the opinion at ``head`` has no reversal: an age adjective before its noun with a determiner (*the new
    operating system*, *all the new features*) names which thing is meant, so its antonym changes the referent
    (*the old operating system makes this computer into a super iPad*) and its negation is no English."""
    if p.tokens[head].lower() in AGE_DESCRIPTORS and p.deps[head] == "amod" and any(
            p.tokens[j].lower() in _DETERMINERS for j in children(p, p.heads[head]) if j < head):
        return f"{DESCRIPTOR}: {p.tokens[head]!r} before its noun identifies which one is meant"
    return None


_PLAIN = {"best": "good", "worst": "bad", "better": "good", "worse": "bad"}
"""Plain degrees of the graded antonyms WordNet reaches through a cluster head (*optimal* ~ *best* -> *worst*)."""


def _plain(s: Sent, head: int, c: Candidate) -> Candidate:
    """*size and weight for optimal mobility* -> *for bad mobility*, never *for worst mobility*: a plain adjective's
    antonym keeps the plain degree."""
    word = _swap_word(c) if c.op == "antonym" and c.edits else ""
    if word not in _PLAIN or s.parse.tokens[head].lower() in _PLAIN:  # *Best Indian food* (tagged JJ at the
        return c  # start) keeps *Worst*
    e = s.replace(head, _PLAIN[word], "antonym", c.detail + f", plain degree of {word!r}")
    edits = [e]
    art = article_fix(s, head, _PLAIN[word])
    if art is not None:
        edits.insert(0, art)
    return Candidate(tuple(edits), c.op, e.detail, c.priority, c.problems)


def _swap_word(c: Candidate) -> str:
    return c.edits[-1].text.lower()


def extreme_word(c: Candidate) -> bool:
    """Whether swap ``c`` puts an extreme adjective (:data:`EXTREME_ADJECTIVES`) in place."""
    return _swap_word(c) in EXTREME_ADJECTIVES


GENERIC = frozenset({"poor", "bad", "terrible", "awful", "horrible", "lousy", "good", "great", "excellent", "nice",
                     "fine", "unpleasant", "pleasant"})
"""Opposites that fit any aspect only loosely (*poor prices*, *excellent battery life*): an adjective the
training file uses with the aspect head is more natural (*high prices*, *long battery life*)."""
SCALAR = frozenset({"high", "low", "short", "long", "small", "large", "big", "tiny", "huge", "limited", "slow",
                    "fast", "quick", "loud", "quiet", "cold", "hot", "dry", "thin", "thick", "heavy", "light",
                    "weak", "strong", "steep", "narrow", "wide", "cramped", "noisy", "dim", "bright", "cheap",
                    "expensive"})
"""Dimension words that are evaluations for the right aspect (*high prices*, *short battery life*), unlike a
state of the thing (*black screen*): VADER knows none of them as polar."""


def _weak(c: Candidate, view: AspectView, want: str) -> str | None:
    """Why the best swap ``c`` should yield to an attested one, if it should: it was never used with the head
    under the new label, and it is a generic evaluation (*poor prices*: ``"generic"``) or a WordNet antonym
    through another word's cluster (*optimal* ~ *best* -> *worst*: ``"indirect"``). A specific opposite stays,
    even one the file never uses (*clean* -> *dirty*, *authentic* -> *inauthentic*): the commonest attested word
    of the head would change what is judged (*as cold as it gets*)."""
    w = _swap_word(c)
    if view.attested(w, want):
        return None
    if w in GENERIC:
        return "generic"
    return "indirect" if "indirect antonym" in c.detail else None


_REVIEW_WORDS = frozenset(REVIEW_OPPOSITES) | frozenset(w for opp in REVIEW_OPPOSITES.values() for w in opp)
"""Every word of the review lexicon, as a key or an opposite (built once, not per candidate)."""


def _evaluative(word: str, r: Reversal) -> bool:
    """A VADER-polar word, a review-lexicon word or a dimension word of :data:`SCALAR`."""
    v = r.lexicon.vader.lexicon.get(word)
    return (v is not None and abs(v) >= 0.5) or word in SCALAR or word in _REVIEW_WORDS


_DEGREE_WELL = frozenset({"worth", "above", "below", "over", "under", "beyond", "within", "into", "past"})
"""Words after which *well* is a degree word, not a manner adverb (*well worth the wait*, *well above average*)."""


def fixed_phrase(p: Parse, head: int, text: str) -> list[str]:
    """Why an antonym of the word at ``head`` would not reverse its phrase: an excess (*too sour*, *way too
    salty*) stays an excess under any opposite (*too sweet* is no praise); *more solid* never becomes *more bad*,
    *thank goodness* never *thank badness*, *a few* never *a many*; *well* before *worth* or a preposition is a
    degree word (*well worth the wait* never becomes *ill worth* or *well unworthy*)."""
    low = p.tokens[head].lower()
    out = []
    if any(p.tokens[j].lower() == "too" for j in children(p, head) if j < head) or (
            head > 0 and p.tokens[head - 1].lower() == "too"):  # an additive *too* follows (*Try it too*)
        out.append(f"{low!r} is an excess (*too ...*): its antonym {text!r} would be one as well, not a reversal")
    if head > 0 and p.tokens[head - 1].lower() in ("more", "most") and text.lower() in ("bad", "good"):
        out.append(f"{text!r} takes no analytic comparison (*more solid* never becomes *more bad*)")
    if head > 0 and p.tokens[head - 1].lower() == "a" and low == "few":
        out.append(f"*a few* is a quantity: {text!r} takes no *a* (*after a few drinks* -> *a many drinks*)")
    if head > 0 and p.tokens[head - 1].lower() == "thank":
        out.append(f"*thank {low}* is an idiom: {text!r} does not reverse it")
    if (low == "well" and head + 1 < len(p.tokens) and p.tokens[head + 1].lower() in _DEGREE_WELL) or (
            low == "worth" and head > 0 and p.tokens[head - 1].lower() == "well"):
        out.append(f"'well' before 'worth' or a preposition is a degree word: {text!r} does not reverse the phrase")
    return out


def fit_swaps(s: Sent, head: int, ants: list[Candidate], r: Reversal, view: AspectView | None) -> list[Candidate]:
    """The antonym candidates of the opinion at ``head`` checked against the aspect (module docstring): a weak
    opposite yields to one the training file used with the aspect head under the new label (an existing
    candidate promoted, or the head's commonest adjective of that label added, never the opposite a coordinated
    adjective will take). Where no swap is valid at all, the attested adjective is offered too, provided the
    replaced word is an opinion with the old label (the file uses it with the head under that label, or the
    lexicon reads it so): the swap then stays within the aspect's own vocabulary."""
    p = s.parse
    low = p.tokens[head].lower()
    sign = LABEL_SIGN[r.label]
    if view is None or not sign or p.tags[head] != "JJ" or p.upos[head] != "ADJ" or _hedged(p, head) \
            or p.tokens[head].isupper():  # *battery life AMAZING*: a shouted attested word reads as a new claim
        return ants  # to the language model (*SHORT*), which then refuses the site; the lexical opposite stays
    if any(p.deps[j] in _COMPLEMENTS or (p.deps[j] == "prep" and p.tokens[j].lower() in _GOVERNED)
           for j in children(p, head)):
        return ants  # *is worth every penny*, *full of flavor*: a word of the head's table takes no complement
    noun = described(p, head)
    if noun is None or head_key(p.tokens[noun]) != view.head:  # *made me confident with my purchase: Build
        return ants  # Quality*: the adjective describes someone else, the aspect's table says nothing about it
    want = "negative" if sign > 0 else "positive"
    swaps = sorted((c for c in ants if c.valid and c.op == "antonym" and " " not in _swap_word(c)),
                   key=lambda c: c.priority)
    why = _weak(swaps[0], view, want) if swaps else "none"
    if why is None:
        return ants
    if not swaps and not (view.attested(low, r.label) or r.lexicon.word(low) == sign):
        return ants  # a rescue needs the word to be an opinion with the label
    top = swaps[0].priority - 1 if swaps else 1
    seen = [c for c in swaps if view.attested(_swap_word(c), want)]
    if seen:
        best = seen[0]
        best = Candidate(best.edits, best.op, best.detail + f" (used with {view.head!r} in the training file)", top,
                         best.problems)
        return _yield([best if c is seen[0] else c for c in ants], best, view, want)
    pair = sorted(coordinated_adjectives(p, head))
    siblings = [p.tokens[j].lower() for j in pair if j != head]  # *pleasant and prompt*: never *slow and slow*
    taken = {*siblings, *(o for w in siblings for o in REVIEW_OPPOSITES.get(w, ()))}
    found = [(w, n) for w, n in view.ranked(want, {low, *taken, *(_swap_word(c) for c in ants)})
             if r.lexicon.word(w) != sign and _evaluative(w, r)]  # an evaluation, not a state (*black screen*)
    if len(found) <= pair.index(head):
        return ants
    word, n = found[pair.index(head)]  # each adjective of a pair its own word, in order
    detail = f"opposite used {n}x with {view.head!r} under the {want} label in the training file"
    edits = [s.replace(head, word, "antonym", detail)]
    art = article_fix(s, head, word)
    if art is not None:
        edits.insert(0, art)
    cand = Candidate(tuple(edits), "antonym", detail, top, tuple(fixed_phrase(p, head, word)))
    if any(s.touches_protected(e) for e in edits):
        cand = cand.with_problems("the edit touches the target term")
    return _yield([cand, *ants], cand, view, want)


def _yield(ants: list[Candidate], best: Candidate, view: AspectView, want: str) -> list[Candidate]:
    """The weak swaps marked invalid in favour of ``best`` (when it is valid and specific): the language model then
    weighs the attested opposite against the negation, not against *poor prices* again."""
    if not best.valid or _swap_word(best) in GENERIC:  # *bad food* over *poor food* gains nothing: both compete
        return ants
    word = _swap_word(best)
    return [c.with_problems(f"{_swap_word(c)!r} is never used with {view.head!r} in the training file, "
                            f"{word!r} is") if c is not best and c.valid and c.op == "antonym"
            and " " not in _swap_word(c) and _weak(c, view, want) else c for c in ants]


_COMPLEMENTS = frozenset({"dobj", "npadvmod", "xcomp", "ccomp"})
"""Dependents that make an adjective take a complement (*worth every penny*)."""
_GOVERNED = frozenset({"of", "to", "than"})
"""Prepositions an adjective governs (*full of flavor*, *integral to fine dining*), unlike an adjunct (*perfect for
lunch*, *attentive about this*)."""
_HEDGES = frozenset({"bit", "little", "kinda", "sorta", "somewhat", "slightly", "rather", "fairly"})


def _hedged(p: Parse, head: int) -> bool:
    """A hedged adjective (*a bit ridiculous*) keeps its lexical opposite: an attested word may be an extreme one
    that takes no hedge (*a bit great*)."""
    return any(p.tokens[j].lower() in _HEDGES for j in children(p, head)) or any(
        p.tokens[j].lower() in _HEDGES for j in range(max(0, head - 2), head))


def described(p: Parse, head: int) -> int | None:
    """The noun an adjective describes: the one it modifies (*good prices*), or the subject of its copula (*the
    prices are good*, *the service was attentive and generous*); None otherwise."""
    a = head
    while p.deps[a] == "conj" and p.upos[p.heads[a]] == "ADJ" and p.heads[a] != a:
        a = p.heads[a]
    if p.deps[a] == "amod" and p.upos[p.heads[a]] in ("NOUN", "PROPN"):
        return p.heads[a]
    pred = p.heads[a] if p.deps[a] in ("acomp", "attr") else a if p.deps[a] == "ROOT" else None
    if pred is None:
        return None
    subj = [j for j in children(p, pred) if p.deps[j] in ("nsubj", "nsubjpass")]
    return subj[0] if subj and p.upos[subj[0]] in ("NOUN", "PROPN") else None


def coordinated_adjectives(p: Parse, head: int) -> list[int]:
    """The adjectives coordinated with ``head`` (itself included)."""
    a = head
    while p.deps[a] == "conj" and p.upos[p.heads[a]] == "ADJ" and p.heads[a] != a:
        a = p.heads[a]
    out = [a]
    stack = [a]
    while stack:
        for j in children(p, stack.pop()):
            if p.deps[j] == "conj" and p.upos[j] == "ADJ":
                out.append(j)
                stack.append(j)
    return out


def extreme_negation(s: Sent, head: int, negs: list[Candidate], ants: list[Candidate]) -> list[Candidate]:
    """Negations that deny an extreme adjective (*not excellent*, *neither bright nor gorgeous*, *is not
    [really] amazing*) are invalid (module docstring): where the site's own opinion is the extreme word, only when
    a plain opposite is valid at the site (its reversal then uses it); where the negation reaches another extreme
    word (a copula negated for the second opinion of *is wonderful, well worth it*), always."""
    p = s.parse
    own = p.tokens[head].lower() in EXTREME_ADJECTIVES
    if own and not any(c.valid for c in ants):
        return negs
    pair = [p.tokens[j] for j in coordinated_adjectives(p, head) if p.tokens[j].lower() in EXTREME_ADJECTIVES]
    out = []
    for c in negs:
        word = None
        if any(e.text.strip().lower() == "neither" for e in c.edits) and pair:
            word = pair[0]
        for e in c.edits:
            k = _next_content(s, e.end if e.start == e.end else e.start)
            if k is not None and p.tokens[k].lower() in EXTREME_ADJECTIVES and (k != head or own):
                word = p.tokens[k]
        if word is not None and c.valid:
            c = c.with_problems(f"a negated extreme adjective ({word!r}) reads as a reservation, not the opposite "
                                "(*not excellent*): its plain opposite is used instead")
        out.append(c)
    return out


_SKIPPED = frozenset({"really", "very", "so", "that", "too", "quite", "truly", "always", "just"})
"""Degree words between a negation and the adjective it denies; an article is not skipped (*not the perfect
size* negates a choice, as *not the best* does)."""


def _next_content(s: Sent, at: int) -> int | None:
    """The first token at or after character ``at`` that is no degree word."""
    for k, (a, _) in enumerate(s.offsets):
        if a >= at and s.parse.tokens[k].lower() not in _SKIPPED:
            return k
    return None


def kind_of(wn: Any) -> Callable[[str, str], bool]:
    """``is_kind(specific, general)``: whether the first noun sense of ``specific`` has one of ``general``'s first
    two among its WordNet hypernyms (*dumpling* -> *food*); only a physical thing covers another (a *price* is a
    kind of *value* and of *quality* in WordNet, never covered by *good quality*); never without WordNet (``wn``:
    the WordNet reader, or None)."""

    def is_kind(specific: str, general: str) -> bool:
        if wn is None or specific == general:
            return False
        key = (specific, general)
        if key not in _KINDS:
            goal = {g for g in wn.synsets(general, "n")[:2]
                    if _PHYSICAL in {x.name() for x in g.closure(lambda x: x.hypernyms())}}
            ups = {x for syn in wn.synsets(specific, "n")[:1]
                   for x in syn.closure(lambda x: x.hypernyms() + x.instance_hypernyms())}
            _KINDS[key] = bool(goal & ups) and not {x.name() for x in ups} & _NOT_KINDS
        return _KINDS[key]
    return is_kind


_KINDS: dict[tuple[str, str], bool] = {}
_PHYSICAL = "physical_entity.n.01"
_NOT_KINDS = frozenset({"beverage.n.01", "meal.n.01"})
"""A drink or a meal is no part of *the food* as reviews use it (*Great food, poor wine*; *an unpleasant dinner
..., food was well-prepared*): never a covered aspect."""
