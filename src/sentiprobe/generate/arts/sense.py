"""Which opposite fits (corrected mode): the sense checks applied where a reversal's opposite is chosen.

WordNet antonyms and the review lexicon pair words, not readings: *more* -> *little* (inflected *littler*),
*good* -> *poor* (*poor prices*), *generous* -> *stingy* (*stingy service*), *new* -> *old* of a descriptor
(*the old operating system*). A negation of an extreme word (*not excellent*, *neither bright nor gorgeous*)
denies the extreme, not the quality: it reads as a mild reservation, not the opposite label. The rules here
are the ones that can be checked without guessing:

- **degree words** (:func:`degree_opposite`): a comparative or superlative of quantity reverses to its degree
  partner (*more* <-> *less*, *fewer* before a plural noun, *higher* <-> *lower*, *most* <-> *least*), never to a
  synthetic form of a WordNet antonym (*littler*);
- **aspect fit** (:func:`fit_swaps`): the domain's *training* TOWE pairs (the pool file or ``--lexicon`` files,
  never the file being generated) say which adjectives reviewers use for an aspect head with each label. Where
  the best opposite was never used with the head under the new label and another adjective was (at least
  :data:`MIN_ATTESTED` times, with :data:`PURITY` of that head's uses of it carrying the label), that attested
  adjective is proposed first (*pretty good prices* -> *pretty high prices*, *very generous service* -> *very slow
  service*). Attestation only ever promotes a word; an unseen head or a rarely seen adjective leaves the lexical
  opposites as they were, since a few thousand training sentences cannot vouch against a word;
- **descriptors** (:func:`fit_swaps`): an age adjective before its noun with a determiner (*the new operating
  system*) names which thing is meant; its antonym changes the referent, not the opinion;
- **extreme words** (:func:`extreme_negation`): the negation of an extreme adjective (*not excellent*,
  *neither bright nor gorgeous*) is invalid where a plain opposite is valid at the same site;
- **tolerance frames** (:func:`tolerance_frame`): an opinion inside the object of *put up with*, *tolerate*,
  *complain about* presupposes a negative reading; reversing it to positive makes the frame nonsense
  (*put up with the waiters' good manners*).

Every resource is the generator's own (training pairs already read for the in-domain lexicon, the parse), so
the result is deterministic and offline; ties are broken alphabetically.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .morph import lemma
from .polarity import LABEL_SIGN
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

AGE_DESCRIPTORS = frozenset({"new", "old", "newer", "older", "newest", "oldest", "latest", "recent", "previous",
                             "current", "modern", "original"})
"""Adjectives that identify which thing is meant when they stand before their noun with a determiner."""
_DETERMINERS = frozenset({"the", "this", "that", "these", "those", "my", "our", "your", "its", "their", "his", "her"})

_TOLERATE = frozenset({"tolerate", "endure", "stand", "bear", "suffer", "forgive", "excuse", "overlook"})
_PHRASAL = {("put", "with"): "up", ("deal", "with"): "", ("complain", "about"): "", ("cope", "with"): "",
            ("live", "with"): ""}
"""(verb lemma, preposition) -> the particle the frame needs (*put up with*)."""


@dataclass(frozen=True)
class AspectView:
    """The adjectives a training file uses with one aspect head: word -> label counts."""

    head: str
    words: dict[str, Counter] = field(default_factory=dict)

    def attested(self, word: str, label: str) -> bool:
        """Whether ``word`` was used with the head under ``label`` at least once."""
        return self.words.get(word.lower(), Counter())[label] > 0

    def commonest(self, label: str, exclude: Iterable[str] = ()) -> tuple[str, int] | None:
        """The adjective used most with the head under ``label`` (:data:`MIN_ATTESTED`, :data:`PURITY`)."""
        skip = {w.lower() for w in exclude}
        best = [(-c[label], w) for w, c in self.words.items() if w not in skip and c[label] >= MIN_ATTESTED
                and c[label] / sum(c.values()) >= PURITY]
        if not best:
            return None
        n, w = min(best)
        return w, -n


@dataclass(frozen=True)
class AspectOpinions:
    """Adjective opinions per aspect head in a training file (see the module docstring)."""

    by_head: dict[str, dict[str, Counter]]

    @classmethod
    def from_pairs(cls, triples: Iterable[tuple[str, str, str]]) -> AspectOpinions:
        """From ``(aspect head word, adjective opinion, label)`` triples."""
        by: dict[str, dict[str, Counter]] = {}
        for head, word, label in triples:
            if label not in ("positive", "negative") or not word.replace("-", "").isalpha():
                continue
            by.setdefault(head_key(head), {}).setdefault(word.lower(), Counter())[label] += 1
        return cls(by)

    @classmethod
    def from_prepared(cls, preps: Sequence) -> AspectOpinions:
        """From prepared training sentences: one-token opinions the tagger reads as plain adjectives."""
        triples = []
        for p in preps:
            for pa in p.aspects:
                if pa.span[1] <= pa.span[0]:
                    continue
                for f, t in pa.opinions:
                    if t - f == 1 and p.parse.upos[f] == "ADJ" and p.parse.tags[f] == "JJ":
                        triples.append((p.tokens[pa.span[1] - 1], p.tokens[f], pa.aspect.polarity))
        return cls.from_pairs(triples)

    def view(self, head_word: str) -> AspectView:
        key = head_key(head_word)
        return AspectView(key, self.by_head.get(key, {}))


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
    polarity problems (the checks already ran on the pair)."""
    p = s.parse
    low = p.tokens[head].lower()
    opp = DEGREE_OPPOSITES.get(low)
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


def _swap_word(c: Candidate) -> str:
    return c.edits[-1].text.lower()


def fit_swaps(s: Sent, head: int, ants: list[Candidate], r: Reversal, view: AspectView | None) -> list[Candidate]:
    """The antonym candidates of the opinion at ``head`` checked against the aspect (module docstring): a
    descriptor's antonym is invalid; an opposite the training file never used with the aspect head under the
    new label yields to one it did use (an existing candidate promoted, or the head's commonest adjective of that
    label added)."""
    p = s.parse
    low = p.tokens[head].lower()
    if low in AGE_DESCRIPTORS and p.deps[head] == "amod" and any(
            p.tokens[j].lower() in _DETERMINERS for j in children(p, p.heads[head]) if j < head):
        return [c.with_problems(f"{p.tokens[head]!r} before its noun identifies which one is meant: its antonym "
                                "changes the referent, not the opinion (*the old operating system*)")
                for c in ants]
    sign = LABEL_SIGN[r.label]
    if view is None or not sign or p.tags[head] != "JJ" or p.upos[head] != "ADJ" or _hedged(p, head):
        return ants
    noun = described(p, head)
    if noun is None or head_key(p.tokens[noun]) != view.head:  # *made me confident with my purchase: Build
        return ants  # Quality*: the adjective describes someone else, the aspect's table says nothing about it
    want = "negative" if sign > 0 else "positive"
    swaps = sorted((c for c in ants if c.valid and c.op == "antonym" and " " not in _swap_word(c)),
                   key=lambda c: c.priority)
    if not swaps or view.attested(_swap_word(swaps[0]), want):
        return ants
    top = swaps[0].priority - 1
    seen = [c for c in swaps if view.attested(_swap_word(c), want)]
    if seen:
        promoted = seen[0]
        return [Candidate(c.edits, c.op, c.detail + f" (used with {view.head!r} in the training file)", top,
                          c.problems) if c is promoted else c for c in ants]
    found = view.commonest(want, {low, *(_swap_word(c) for c in ants)})
    if found is None or r.lexicon.word(found[0]) != -sign:  # an evaluation, not a state (*black screen*)
        return ants
    word, n = found
    detail = f"opposite used {n}x with {view.head!r} under the {want} label in the training file"
    edits = [s.replace(head, word, "antonym", detail)]
    art = article_fix(s, head, word)
    if art is not None:
        edits.insert(0, art)
    cand = Candidate(tuple(edits), "antonym", detail, top)
    if any(s.touches_protected(e) for e in edits):
        cand = cand.with_problems("the edit touches the target term")
    return [cand, *ants]


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


def _pair(p: Parse, head: int) -> list[int]:
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
    pair = [p.tokens[j] for j in _pair(p, head) if p.tokens[j].lower() in EXTREME_ADJECTIVES]
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


_SKIPPED = frozenset({"really", "very", "so", "that", "too", "quite", "the", "a", "an", "truly", "always", "just"})


def _next_content(s: Sent, at: int) -> int | None:
    """The first token at or after character ``at`` that is no degree word or article."""
    for k, (a, _) in enumerate(s.offsets):
        if a >= at and s.parse.tokens[k].lower() not in _SKIPPED:
            return k
    return None


def tolerance_frame(p: Parse, head: int, sign: int) -> str | None:
    """Why a negative opinion inside the object of a tolerance frame (*put up with the waiters' bad manners*,
    *complain about the slow service*) cannot become positive: the frame presupposes something to bear."""
    if sign >= 0:
        return None
    a, prev = head, head
    for _ in range(8):
        h = p.heads[a]
        if h == a:
            return None
        prev, a = a, h
        low = p.tokens[a].lower()
        if p.upos[a] in ("VERB", "AUX") and lemma(low, "VERB") in _TOLERATE and p.deps[prev] in ("dobj", "obj"):
            return f"the opinion is the object of {p.tokens[a]!r}: a positive one makes the frame nonsense"
        if p.upos[a] == "ADP" and p.heads[a] != a:
            verb = p.heads[a]
            key = (lemma(p.tokens[verb].lower(), "VERB"), low)
            if key in _PHRASAL and (not _PHRASAL[key] or any(
                    p.tokens[j].lower() == _PHRASAL[key] for j in children(p, verb))):
                words = " ".join(x for x in (p.tokens[verb], _PHRASAL[key], p.tokens[a]) if x)
                return f"the opinion is the object of {words!r}: a positive one makes the frame nonsense"
        if p.upos[a] in ("VERB", "AUX"):
            return None
    return None
