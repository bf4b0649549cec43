"""AddDiff clauses that are sentences (issue 23): mined from a training split, or adjective templates.

**Mined clauses** (``phrase_source="clauses"``, the corrected mode's default when ``--pool`` is given): for every
polar aspect of the training file, the clause around it, read off the dependency parse: climb from the
aspect's head to the nearest verb or auxiliary that has its own subject, take its subtree without coordinated
or embedded clauses, conjunctions and edge punctuation. It is kept when it is a contiguous stretch of the
training sentence (copied character for character), holds a finite verb, 3-14 words, no other aspect of its
sentence, no contrast or question, the aspect's own opinion span when the file has spans, no additive or scalar
focus (*even the wine was good*, *their coffee is quite good too*: it presupposes an earlier statement that an
appended clause does not have; a narrative sequel that opens it, *then the hard drive failed*, is dropped for the
same reason), and reads with the aspect's gold label under the lexicon (:class:`~.polarity.Polarity`) through more
than a finite verb of the in-domain lexicon (*the menu changed* says no evaluation to a reader). The language-model
fluency filter
(:func:`fluent_subset`) then drops clauses that read badly on their own.

**Templates** (``phrase_source="template"`` in the corrected mode): ``the <term> is|are <adjective phrase>``,
made only when the opinion is an adjective phrase (an adjective with adverbs or a negation), with the same
polarity check. The faithful mode keeps the release's templates (:func:`.adddiff.template_pool`).
"""
from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .adddiff import ADDITIVE, PoolEntry
from .charedit import lower_first
from .fit import NO_EVALUATION as _NO_EVALUATION
from .polarity import COMPANY, LABEL_SIGN, THRESHOLD, Polarity
from .resources import Parse
from .strategies import Prepared
from .syntax import CLAUSE_BOUNDARY, EMBEDDED, children, span_head, subtree
from .text import token_offsets

_CUT = EMBEDDED | {"conj", "cc", "mark", "punct", "preconj", "dep", "discourse", "intj"}
_FINITE = frozenset({"VBZ", "VBP", "VBD", "MD"})
_BAD_WORDS = frozenset({"but", "although", "though", "however", "yet", "except", "nevertheless", "nonetheless",
                        "?", "(", ")", "''", "``", '"', ":", ";", "-", "--", "/"})
_OPENERS = frozenset({"that", "which", "who", "because", "when", "if", "so", "as", "while", "since", "though"})
_LOWER_I = re.compile(r"(?<![\w'])i(?=\s|'(?:m|ve|d|ll)\b|$)")
_DEBRIS = re.compile(r"\W|\d+[./)]")
_COSY = frozenset({"intimate", "cozy", "cosy", "quaint", "romantic", "charming", "homey", "snug"})
"""Words that praise what a small or quiet place is (*the place is small and intimate*): a negative clause that
holds one reads half as praise, and a contrasting *but* before it does not read; the lexicon does not know them."""
_SEQUEL = re.compile(r"(?:then|finally|eventually|afterwards|later on|later|and then|so then)\b,?\s+(?=\S)",
                     re.IGNORECASE)
"""A narrative sequel that opens a clause (*then the hard drive failed*, *finally the hard drive went out*): it
continues the story of its own sentence, and appended to another sentence it needs an earlier event there (*premium
price for the OS, but then the charger stopped working*). The clause reads alone without it."""
_EARLIER = re.compile(
    r"\bnow\b|\b(?:than|as) (?:before|in the past|last time|it used to|they used to|usual)\b|\bfrom then on\b|"
    r"^(?:the|my|our) (?:\w+ )?(?:issue|problem|complaint)s? (?:is|was|are|were) (?:with|that)\b|"
    r"\b(?:some|all|most|many|one) of the (?:issues|problems|complaints)\b", re.IGNORECASE)
"""A clause that speaks of an earlier state or statement (*the portions are now very small*, *portions were smaller
than before*, *my laptop now has no battery*) or names problems as already announced (*the issue is with the
graphics card*, *my problem was with customer service*, *Windows may be at fault for some of the problems*): appended
to another sentence it has no antecedent there (*the only problem is ...* names its flaw itself and stays)."""
_DENIED = re.compile(r"\b(?:few|no|zero|without|hardly any|not any|not many|little)\s+(?:\w+\s+)?(?:problems?|issues?|"
                     r"complaints?|glitch(?:es)?|troubles?|hiccups?|crash(?:es)?|bugs?)\b", re.IGNORECASE)
"""A word of trouble under a quantifier that denies it (*there is very few problems with system performance*, *no
issues at all*): the lexicon reads the trouble, a reader its absence."""
_ELSEWHERE = re.compile(r"\b(?:other|plenty of|many|lots of|a lot of|few) (?:\w+ )?(?:places|restaurants|spots|"
                        r"laptops|computers|machines|brands)\b", re.IGNORECASE)
"""A clause about other places or machines (*there are plenty of places to go for a good corned beef sandwich*):
appended to a sentence about one, it says nothing of it."""
_PRONOUNS = frozenset({"it", "they", "them", "he", "she", "him", "her", "his", "hers", "this", "that", "these", "those",
                       "one"})
MIN_WORDS, MAX_WORDS = 3, 14
CLAUSE_MIN_FLUENCY = -6.5
"""Lowest mean log-probability per token (nats) of a mined clause of :data:`SHORT_CLAUSE` words or more, read as a
sentence of its own (:func:`clause_floor` lowers it for shorter clauses)."""
SHORT_CLAUSE, SHORT_SLACK = 8, 0.375
"""A clause shorter than ``SHORT_CLAUSE`` words gets ``SHORT_SLACK`` nats per missing word below the floor: its first
tokens are predicted with almost no context, so the mean per token of a plain short clause is low (*the service
was terrible* -7.2, *the food is horrible* -6.9, *the portions are small* -8.0 under the packaged model), while
broken ones stay below even the lowered floor (*the food was bland oily* -8.0 at 5 words, *people are rude bit*
-10.7, *the servers forgot* -9.8)."""


def clause_floor(text: str, min_fluency: float = CLAUSE_MIN_FLUENCY) -> float:
    """The fluency floor of one clause: ``min_fluency``, lowered for a clause of fewer than :data:`SHORT_CLAUSE`
    words."""
    return min_fluency - SHORT_SLACK * max(0, SHORT_CLAUSE - len(text.split()))


def _clause_head(prep: Prepared, head: int) -> int | None:
    p = prep.parse
    h = head
    for _ in range(len(p.tokens)):
        if p.upos[h] in ("VERB", "AUX") and any(p.deps[j] in ("nsubj", "nsubjpass", "expl") for j in children(p, h)):
            return h
        if p.heads[h] == h:
            return None
        h = p.heads[h]
    return None


def _clause_tokens(prep: Prepared, h: int) -> list[int]:
    p = prep.parse
    toks = {h}
    for j in children(p, h):
        if p.deps[j] not in _CUT:
            toks |= subtree(p, j, EMBEDDED)
    out = sorted(toks)
    while out and (p.deps[out[0]] in ("cc", "mark", "punct") or p.upos[out[0]] in ("CCONJ", "PUNCT")):
        out.pop(0)
    while out and (p.upos[out[-1]] in ("PUNCT", "CCONJ") or p.deps[out[-1]] == "cc"):
        out.pop()  # (and a conjunction whose conjunct was cut: *the ambience is very romantic and*)
    return out


def mine_clauses(preps: Sequence[Prepared], origin: str, lexicon: Polarity) -> tuple[list[PoolEntry], Counter]:
    """Clauses of the training sentences, one per polar aspect at most (see the module docstring)."""
    out: list[PoolEntry] = []
    rejected: Counter = Counter()
    seen: set[str] = set()
    for prep in preps:
        offs = None
        p = prep.parse
        for pa in prep.aspects:
            lab = pa.aspect.polarity
            if lab not in ("positive", "negative"):
                continue
            h = _clause_head(prep, span_head(p, *pa.span))
            if h is None:
                rejected["no verb with its own subject above the aspect"] += 1
                continue
            toks = _clause_tokens(prep, h)
            why = _reject(prep, pa, toks) or stands_alone(prep, pa, toks, h, lexicon)
            if why:
                rejected[why] += 1
                continue
            if offs is None:
                offs = token_offsets(prep.sentence.text, prep.tokens)
            a, b = offs[toks[0]], offs[toks[-1]]
            if a is None or b is None:
                rejected["tokens not aligned with the text"] += 1
                continue
            text = prep.sentence.text[a[0]:b[1]]
            first = toks[0]
            sequel = _SEQUEL.match(text)
            if sequel:  # *then the hard drive failed* -> *the hard drive failed*
                text = text[sequel.end():]
                first = next((i for i in toks if (offs[i] or (0, 0))[0] >= a[0] + sequel.end()), first)
                if len(text.split()) < MIN_WORDS:
                    rejected[f"not {MIN_WORDS}-{MAX_WORDS} words"] += 1
                    continue
            if p.upos[first] != "PROPN":
                text = lower_first(text)
            text = _LOWER_I.sub("I", text)  # *i had to pay for lousy food*: the pronoun is written I
            if _DEBRIS.match(text):
                rejected["opens with a mark, a list number or a date (= Webcam ..., 2.The ..., 12/24/03 ...)"] += 1
                continue
            if lexicon.phrase(text) != LABEL_SIGN[lab]:
                rejected["does not read with the aspect's label under the lexicon"] += 1
                continue
            if abs(lexicon.vader.polarity_scores(text)["compound"]) <= THRESHOLD and not any(
                    (p.upos[i] in ("ADJ", "ADV", "NOUN") or p.tags[i] in ("VBG", "VBN"))
                    and lexicon.domain.get(p.tokens[i].lower()) for i in toks):
                # (*the service was lacking* stays: a participle predicate evaluates like an adjective)
                rejected["reads with its label only through an in-domain finite verb (the menu changed)"] += 1
                continue
            if lab == "negative" and _COSY.intersection(text.lower().split()):
                rejected["a negative clause with a word that praises small places (small and intimate)"] += 1
                continue
            if _EARLIER.search(text):
                rejected["speaks of an earlier state or an announced problem (now, than before, the issue is with)"
                         ] += 1
                continue
            if lab == "negative" and _DENIED.search(text):
                rejected["a trouble word under a denying quantifier (very few problems): reads the other way"] += 1
                continue
            if _fragment(p, toks):
                rejected["a verbless fragment after a comma (the screen is perfect, great computer)"] += 1
                continue
            if _NO_EVALUATION.search(text):
                rejected["recommends an action (I suggest getting a warranty): not an evaluation"] += 1
                continue
            if ADDITIVE.search(text):
                rejected["an additive or scalar focus (even, also, too) that needs an earlier statement"] += 1
                continue
            if text.lower() in seen:
                rejected["duplicate"] += 1
                continue
            seen.add(text.lower())
            out.append(PoolEntry(text, pa.aspect.term, lab, f"{origin}#{pa.aspect.id}", "clause"))
    return out, rejected


def _fragment(p: Parse, toks: list[int]) -> bool:
    """Whether a stretch after a comma holds a noun and no verb (*the screen is perfect, great computer*): a verdict
    tacked on to the clause, which speaks of more than its aspect (a list of adjectives, *attentive, friendly and
    quite attractive*, has no noun and stays)."""
    cuts = [n for n, i in enumerate(toks) if p.tokens[i] == ","]
    for a, b in zip(cuts, cuts[1:] + [len(toks)]):
        seg = toks[a + 1:b]
        if any(p.upos[i] in ("NOUN", "PROPN") for i in seg) and not any(p.upos[i] in ("VERB", "AUX") for i in seg):
            return True
    return False


def _reject(prep: Prepared, pa: Any, toks: list[int]) -> str | None:
    p = prep.parse
    if not toks or toks != list(range(toks[0], toks[-1] + 1)):
        return "not a contiguous stretch of the sentence"
    words = [t for t in toks if p.upos[t] != "PUNCT"]
    if not MIN_WORDS <= len(words) <= MAX_WORDS:
        return f"not {MIN_WORDS}-{MAX_WORDS} words"
    f, t = pa.span
    if not (toks[0] <= f and t - 1 <= toks[-1]):
        return "the aspect is not inside the clause"
    for o in prep.aspects:
        if o is not pa and toks[0] <= o.span[0] and o.span[1] - 1 <= toks[-1]:
            return "holds another aspect"
    if any(p.tokens[i].lower() in _BAD_WORDS for i in toks):
        return "contrast, question or quotation inside"
    if _cut_coordination(p, toks):
        return "a coordination cut off at its edge (the food is terrible and overall, tasty and portion sizes are)"
    if p.tokens[toks[0]].lower() in _OPENERS or p.tags[toks[0]] in ("WDT", "WP", "WRB", "IN"):
        return "opens like a subordinate clause"
    if any(p.tokens[i].lower() in _PRONOUNS for i in toks):
        return "a pronoun that needs its antecedent"
    if _ELSEWHERE.search(" ".join(p.tokens[i] for i in toks)):
        return "speaks of other places or machines (plenty of places to go for ...)"
    if any(p.tokens[i].lower() in _DEVICES for i in toks):
        return "names a kind of device (the netbook's hinge): appended to a review of another machine it is false"
    last = [i for i in toks if p.upos[i] != "PUNCT"][-1]
    if p.upos[last] == "AUX" or any(p.deps[c] in _COMPLEMENTS and c > toks[-1] for i in toks for c in children(p, i)):
        return "cut off before a complement (the final straw for me was [...], to say [...])"
    shouted = sum(p.tokens[i].isupper() and len(p.tokens[i]) > 1 for i in toks) > 1
    if any(_a_name(p, i, shouted) and not f <= i < t for i in toks):
        return "names a place, a brand or a product beside its aspect (at Kai, my MacBook): it belongs to its review"
    if any(p.deps[c] in ("relcl", "acl") and c > toks[-1] and min(subtree(p, c)) == toks[-1] + 1
           and p.tokens[toks[-1] + 1].lower() not in ("which", "where", "who")  # (they add, they do not restrict)
           for i in toks for c in children(p, i)):
        return "a relative clause cut off its noun (the OS is as fast as the day [I bought it])"
    if not any(p.tags[i] in _FINITE for i in toks):
        return "no finite verb"
    if len(toks) > 1 and p.upos[toks[0]] == "ADV" and p.tokens[toks[1]].lower() in _FIRST:
        return "a sentence adverb before the reviewer (mostly I love ...): it weighs its own sentence"
    if any(p.tags[i] in ("JJR", "RBR") and p.deps[i] != "amod" and p.tokens[i].lower() not in _NO_BASE
           for i in toks) and not any(p.tokens[i].lower() in ("than", "then", "ever") or p.deps[i] == "neg"
                                      for i in toks):  # (*I cannot be happier* is a superlative)
        return "a comparison without its second term (my macbook is so much better looking): it needs one"
    if pa.opinions and not any(toks[0] <= of and ot - 1 <= toks[-1] for of, ot in pa.opinions):
        return "the aspect's opinion is outside the clause"
    return None


_DEVICES = frozenset({"netbook", "netbooks", "desktop", "desktops", "tablet", "tablets", "chromebook", "chromebooks",
                      "ultrabook", "ultrabooks", "notebook", "notebooks", "phone", "phones"})
"""Kinds of machine a laptop review may be about or compare with; a mined clause naming one (*the netbook's hinge
is a bit loose*) speaks of that machine, which the appended sentence's review may not be."""
_COMPLEMENTS = frozenset({"ccomp", "xcomp", "dobj", "attr", "acomp", "pobj", "oprd", "dative", "pcomp"})
"""Dependents a clause cannot lose: one past the stretch's end means the stretch stops before what its verb,
copula or preposition needs (*the final straw for me was*, *I was interrupted by the waiter to say*)."""
_NO_BASE = frozenset({"more", "less", "fewer", "further", "later", "earlier"})
"""Comparative forms that need no second term (*more features*, *later*)."""
_NOT_NAMES = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "i"})


def _a_name(p: Parse, i: int, shouted: bool) -> bool:
    """Whether token ``i`` is a proper name (a place, a brand, a product: *Murrays*, *NYC*, *MacBook*), not a day
    nor, in a ``shouted`` clause (two words or more in capitals: *our SUPER HAPPY waiter*), a word in capitals. A
    clause that names one belongs to its own review: appended to another (*..., but each bite of food at Kai was
    delicious*; *..., but the layout of the MacBook is horrible* in a review of another laptop) it speaks of
    another place."""
    w = p.tokens[i]
    return p.tags[i] in ("NNP", "NNPS") and not (shouted and w.isupper()) and w.lower() not in _NOT_NAMES and any(
        c.isalpha() for c in w)


_DANGLING = frozenset({"overall", "plus", "then"})


def _cut_coordination(p: Parse, toks: list[int]) -> bool:
    """Whether the stretch ends in a conjunction and a sentence adverb the tagger read as its conjunct (*the food is
    terrible and overall*), opens with an adjective coordinated with what follows (*tasty and portion sizes are
    appropriate*), or holds a conjunction whose following conjunct lies past its end (a conjunction at the very end
    is trimmed with the edge, not refused)."""
    words = [t for t in toks if p.upos[t] != "PUNCT"]
    if len(words) > 1 and p.tokens[words[-1]].lower() in _DANGLING and p.deps[words[-2]] == "cc":
        return True
    if len(words) > 1 and p.tags[words[0]] == "JJ" and p.deps[words[1]] == "cc":
        return True
    for j in words[:-1]:
        if p.deps[j] == "cc":
            conjs = [c for c in children(p, p.heads[j]) if p.deps[c] == "conj" and c > j]
            if conjs and max(conjs) > toks[-1]:
                return True
    return False


_SECOND = frozenset({"you", "your", "yours", "yourself", "yourselves", "y'all", "ya", "u"})
_HYPOTHETICAL = frozenset({"could", "should", "might"})
"""Modals of what may or should be; *would* only with *have* or *like* (a habitual *programs would crash* stays);
*going to* (*there was going to be good pizza*) tells an expectation."""
_HANGING = frozenset({"if", "unless", "when", "whenever", "once", "until", "till", "whether", "before", "after"})
"""Subordinators whose clause, without them, tells a condition or circumstance as if it were a statement."""
_FIRST = frozenset({"i", "we"})
_REPORTING = frozenset({"say", "says", "saying", "said", "tell", "tells", "telling", "told", "show", "shows", "showing",
                        "showed", "claim", "claims", "claimed", "state", "states", "stating", "read", "reads",
                        "reading", "warn", "warns", "warning"})
_EXPERIENCE = frozenset({"have", "had", "get", "got", "received", "recieved", "ate", "tried", "ordered", "enjoy",
                         "enjoyed", "love", "loved", "like", "liked", "hate", "hated", "dislike", "disliked", "adore",
                         "prefer", "recommend", "found", "paid", "waited"})
"""Verbs whose first-person clause evaluates or reports an experience of the reviewed thing (*we had a great glass
of wine*, *I really like the decor*)."""


_PARTY = (COMPANY - {"alone"}) | frozenset({"husband", "wife", "son", "daughter", "kids", "kid", "children", "child",
                                            "boyfriend", "girlfriend", "mom", "dad", "mother", "father", "parents",
                                            "partner", "fiance", "fiancee", "brother", "sister", "guests", "wifey",
                                            "hubby"})
"""Who the reviewer came with: *our son loves pizza*, *my husband doesn't like vegetables* tell their taste."""


def stands_alone(prep: Prepared, pa: Any, toks: list[int], h: int, lexicon: Polarity | None = None) -> str | None:
    """Why a mined clause does not stand alone as an evaluation of its aspect, or ``None``.

    Appended after *but* the clause must read as a statement about the reviewed thing: a condition or circumstance
    (*[if] you are in the market for ...*, *[when] ...*) or a first-person report (*[saying] I have a bad internet
    connection*) lost what it hung on; a hypothetical or counterfactual (*I would not have been so disappointed
    with the portions*) says what did not happen; a second-person clause addresses a reader the appended sentence
    does not have; a first-person clause whose verb neither evaluates the aspect nor reports an experience of it
    tells the reviewer's story (*I pushed the power plug in too hard*, *we were sitting eating the subpar food*); a
    present-tense clause about the reviewer's party tells their taste (*our son loves pizza*, *my husband doesn't
    like vegetables*), where a past one reports the visit (*my wife loved the fish*).
    """
    p = prep.parse
    words = [p.tokens[i].lower() for i in toks]
    if any(p.tokens[j].lower() in _HANGING for j in children(p, h) if p.deps[j] == "mark" and j < toks[0]):
        return "a condition or circumstance (if, when, unless ...) in its sentence: it does not stand alone"
    if any(w in _HYPOTHETICAL or (w in ("would", "'d") and {"have", "'ve", "like"} & set(words[i + 1:i + 3]))
           or (w == "going" and words[i + 1:i + 2] == ["to"]) for i, w in enumerate(words)):
        return "a hypothetical or counterfactual (would have, could, should, might)"
    if any(w in _SECOND for w in words):
        return "addresses the reader (you): not a statement about the reviewed thing"
    subj = [j for j in children(p, h) if p.deps[j] in ("nsubj", "nsubjpass")]
    present = p.tags[h] in ("VBZ", "VBP") or any(
        p.deps[j] == "aux" and p.tokens[j].lower() in ("do", "does") for j in children(p, h))
    if present and any(p.tokens[j].lower() in _PARTY and any(p.tokens[c].lower() in ("my", "our")
                                                              for c in children(p, j)) for j in subj):
        return "a present taste of the reviewer's party (our son loves pizza): not about the reviewed thing"
    if not subj or not all(p.tokens[j].lower() in _FIRST for j in subj):
        return None
    gov = p.heads[h]
    if p.deps[h] == "ccomp" and p.tokens[gov].lower() in _REPORTING and not any(
            p.deps[j] in ("nsubj", "nsubjpass") and p.tokens[j].lower() in _FIRST for j in children(p, gov)):
        # *[the screen pops up saying] I have a bad internet connection*; *[I must say] I was happy ...* stays
        return "a first-person report (I have ..., we were ...) of its sentence: it does not stand alone"
    preds = [h] + [j for j in children(p, h) if p.deps[j] in ("acomp", "attr", "xcomp", "agent")]
    if any(of <= i < ot for of, ot in pa.opinions for i in preds):
        return None  # the opinion is the predicate: *I just hated the screen*
    if p.tokens[h].lower() in _EXPERIENCE:
        return None
    if lexicon is not None and any(p.deps[j] == "acomp" and lexicon.word(p.tokens[j])
                                   and pa.span[0] in subtree(p, j, CLAUSE_BOUNDARY) for j in preds):
        return None  # *I was thoroughly impressed with the food* (not *I was ready for a change and tired of ...*)
    if any(p.deps[j] == "agent" and pa.span[0] in subtree(p, j, CLAUSE_BOUNDARY) for j in preds):
        return None  # the aspect acts on the reviewer: *we were ignored by our waitress*
    return "a first-person story whose verb neither evaluates the aspect nor reports an experience of it"


def adjective_templates(preps: Sequence[Prepared], origin: str, lexicon: Polarity) -> tuple[list[PoolEntry], Counter]:
    """``the <term> is|are <adjective phrase>`` for opinions that are adjective phrases (corrected templates)."""
    out: list[PoolEntry] = []
    rejected: Counter = Counter()
    seen: set[str] = set()
    for prep in preps:
        p = prep.parse
        for pa in prep.aspects:
            lab = pa.aspect.polarity
            if lab not in ("positive", "negative") or not pa.opinions:
                continue
            f, t = pa.opinions[-1]
            head = span_head(p, f, t)
            if p.upos[head] != "ADJ" or any(p.upos[i] not in ("ADJ", "ADV", "PART") for i in range(f, t)):
                rejected["the opinion is not an adjective phrase"] += 1
                continue
            tf, tt = pa.span
            term = pa.aspect.term
            if p.upos[tf] != "PROPN":
                term = lower_first(term)
            det = "" if p.upos[tf] in ("PROPN", "DET", "PRON", "NUM") or p.tags[tf] == "PRP$" else "the "
            cop = "are" if p.tags[tt - 1] in ("NNS", "NNPS") else "is"
            opinion = " ".join(w.lower() if w != "I" else w for w in prep.tokens[f:t]).replace(" n't", "n't")
            text = f"{det}{term} {cop} {opinion}"
            if lexicon.phrase(text) != LABEL_SIGN[lab]:
                rejected["does not read with the aspect's label under the lexicon"] += 1
                continue
            if text.lower() in seen:
                continue
            seen.add(text.lower())
            out.append(PoolEntry(text, pa.aspect.term, lab, f"{origin}#{pa.aspect.id}", "adj_template"))
    return out, rejected


def fluent_subset(entries: Sequence[PoolEntry], lm: Any, needed: int, seed: str,
                  min_fluency: float = CLAUSE_MIN_FLUENCY) -> tuple[list[PoolEntry], dict[str, Any]]:
    """Up to ``needed`` entries that read fluently on their own, scored lazily in a seeded order.

    The entries are shuffled with ``seed`` and scored in chunks until ``needed`` pass (so a large training
    file costs only what the test set uses); one below its floor gets a second reading in a frame
    (:func:`in_context`); without a language model all entries are returned.
    """
    if lm is None:
        return list(entries), {"scored": 0, "kept": len(entries)}
    order = list(entries)
    random.Random(seed).shuffle(order)
    kept: list[PoolEntry] = []
    scored = rescued = 0
    i = 0
    while i < len(order) and len(kept) < needed:
        chunk = order[i:i + max(64, needed - len(kept))]
        i += len(chunk)
        means = lm.mean([upper_sentence(e.text) for e in chunk])
        scored += len(chunk)
        low = [e for e, m in zip(chunk, means) if m < clause_floor(e.text, min_fluency)]
        second = set(in_context(low, lm)) if low else set()
        rescued += len(second)
        kept += [e for e, m in zip(chunk, means) if m >= clause_floor(e.text, min_fluency) or e in second]
    return kept, {"scored": scored, "kept": len(kept), "min_fluency": min_fluency, "in_context": rescued}


CARRIER = "I have to say that"
CONTEXT_FLOOR = -4.8
"""A clause below its floor gets a second reading after :data:`CARRIER`, a frame any review may open with: the mean
log-probability per token of the clause's own tokens there (the frame's subtracted). Read alone, a short clause's
first tokens have no context, and plain ones score as low as broken ones (*the speakers are terrible* -8.5, *the
portions are small* -8.0 against *the food was bland oily* -8.0); after the frame they part (-4.6 and -4.2 against
-5.1 for *the battery will slowly less and less hold a charge*, -5.4 *the disc drive had been replaced*, -6.1 *the
expese was a little much*, -7.2 *already the mouse button has broke*), and a clause at :data:`CONTEXT_FLOOR` or
above is kept."""


def in_context(entries: Sequence[PoolEntry], lm: Any) -> list[PoolEntry]:
    """The ``entries`` that read fluently after :data:`CARRIER` (a language model without ``logprob`` keeps none)."""
    if not hasattr(lm, "logprob"):
        return []
    (base, n0), *rest = lm.logprob([CARRIER] + [f"{CARRIER} {e.text}." for e in entries])
    return [e for e, (t, n) in zip(entries, rest) if (t - base) / max(1, n - n0) >= CONTEXT_FLOOR]


def upper_sentence(text: str) -> str:
    """A clause as a sentence of its own (capitalised, with a full stop) for the fluency score."""
    return text[:1].upper() + text[1:] + "."
