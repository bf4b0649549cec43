"""Candidate edits of the corrected generator (issue 23): several ways to reverse or intensify one opinion,
each checked against the validity rules before anything is chosen.

For one opinion span of the sentence (token span of the one parse) this module proposes:

- **reversal** (RevTgt, and RevNon's same-label non-targets):
  - a present negation is removed (*isn't* -> *is*, *didn't like* -> *liked* or *did like*, *no longer* ->
    *still*, *never* -> deleted or *always*, *not-crowded* -> *crowded*); nothing is added then;
  - review-lexicon opposites (:data:`.polarity.REVIEW_OPPOSITES`: *great* -> *terrible*) and WordNet antonyms of
    the span's head in its own part of speech (first three senses), direct and (adjectives) through the head of
    a satellite's cluster, inflected like the head (*better* -> *worse*), with the article agreeing;
  - negation of the clause predicate that governs the opinion (:func:`.syntax.predicate`): ``not`` after its
    first auxiliary or copula (*is not great*, *would not recommend*, *not being ignored*), do-support for a
    finite lexical verb with a subject (*doesn't work*, *didn't like*), ``never`` for a past-tense verb,
    ``don't`` before an imperative, and ``not`` before a sentence-initial attributive adjective (*Not great
    pizza!*); the verb's degree adverb goes with the negation (*I highly recommend* -> *I don't recommend*);
  - the review opposite of a manner adverb on a participle (*poorly designed* -> *well designed*), a manner
    adverb for the idiom *like a charm* (*works like a charm* -> *works poorly*), the degree word of an analytic
    comparison (*much less expensive* -> *much more expensive*), *try* for an idiom of avoidance (*stay away from*),
    the opposite of a fixed phrase of praise (*on point* -> *off the mark*, *top notch* -> *subpar*), *worst* for a
    *highest* on a noun with no scale (*the highest service*), *unwelcome* for praise of a small addition (*a nice
    touch*), the opposites :mod:`.gaps` gives review opinions off the antonym path (*So much faster* -> *So much
    slower*, *yet lacking flavor* -> *yet full of flavor*); a removed
    negation turns the clause-final polarity item it would strand (*not ... either* -> *... too*);
- **intensification** (RevNon's differing non-targets): a degree adverb before a gradable adjective or adverb
  head (*very*, *really*; *really*, *absolutely* for extreme ones such as *great*) or before a finite verb
  (*really*, *highly recommend*), only where no degree word is there already, with the article fixed (*a* ->
  *an*).

Every candidate carries its **problems** (an empty tuple = valid): the antonym's polarity does not flip under
the lexicon (*right* -> *left*), a hedge would be negated (*not just ok*), a neutral target would get a polar
word or a negation, the negation's scope reaches another aspect's own opinion, the edit touches the target
term, and so on. The caller ranks the valid ones (language model or rules) and records all of them.
"""
from __future__ import annotations


from .charedit import CharEdit, upper_first
from .clausewords import negated_pair
from .flow import surroundings
from .gaps import interjection, lacking_object, misread_comparative, phrasal_complaint, purpose_perfect, quality_noun
from .emphasis import emphatic, kept_praise, litotes, neither_but
from .lexical import idiom_reversal, noun_opposite, plain_opposite, wish_reversal
from .misread import degree_reversals, middle_in_pair
from .morph import base_form, inflect
from .polarity import LABEL_SIGN, Polarity, is_hedge
from .quantity import quantity_comparison
from .resources import Parse
from .opposites import (above_below, analytic_comparison, antonym_candidates, avoidance, fixed_praise, garnish,
                        least_favorite, like_a_charm, misread_verb, not_worth, off_scale, participle_adverb, speed_up)
from .sense import booster, booster_fits, boosted_negative, descriptor, extreme_negation, extreme_word, fit_swaps
from .site import Candidate, Reversal, Sent, article_fix, sign_label
from .syntax import BE, COMPLEMENT, carriers, children, has_subject, negations, predicate, scope, span_head

INTENSIFIERS_ADJ = ("very", "really")
INTENSIFIERS_EXTREME = ("really", "absolutely")
EXTREME = frozenset({"great", "excellent", "amazing", "awesome", "fantastic", "wonderful", "incredible", "outstanding",
                     "superb", "perfect", "terrible", "awful", "horrible", "delicious", "exceptional", "phenomenal",
                     "fabulous", "spectacular", "disgusting", "dreadful", "atrocious", "best", "worst", "favorite"})
"""Extreme adjectives take *really*/*absolutely*, never *very* (*very great*)."""
NON_GRADABLE = frozenset({"free", "unlimited", "complimentary", "dead", "empty", "full", "main", "only", "same",
                          "unique", "entire", "whole", "complete", "total", "available", "open", "closed", "extra",
                          "many", "much", "few", "more", "less", "most", "least", "first", "last", "other"})
"""Adjectives and determiners no degree adverb modifies (*a very free dish*, *very many times*)."""
"""Degree adverbs licensed before a gradable adjective or adverb (a subset of the docs/protocols/arts.md#revnon list:
*barely* reverses, *deeply*, *highly*, *greatly*, *fully*, *indeed* do not modify most adjectives)."""
INTENSIFIERS_VERB = ("really",)
DEGREE_WORDS = frozenset({"very", "really", "so", "too", "extremely", "quite", "pretty", "rather", "fairly", "bit",
                          "somewhat", "slightly", "just", "most", "more", "less", "least", "incredibly", "super",
                          "truly", "highly", "absolutely", "totally", "completely", "especially", "particularly",
                          "extra", "overly", "way", "real", "simply", "definitely", "also", "always", "even",
                          "still", "all", "as", "how", "such"})
_FINITE = ("VBZ", "VBP", "VBD")
_AFTER_NEGATION = frozenset({"also", "still", "even", "definitely", "certainly", "probably", "surely", "clearly",
                             "obviously", "usually", "generally", "simply", "honestly", "actually", "surprisingly",
                             "unsurprisingly", "frankly", "truly"})
"""Adverbs a negation follows (*is also not*, *is definitely not*), unlike degree words (*is not very*)."""
_MILD = frozenset({"fine", "decent"})
"""Mild praise whose negation reads oddly (*was not fine*, *is not decent*, which reads as indecent) where an
opposite (*bad*, *poor*) reads plainly."""
_ADDITIVE = frozenset({"also", "too", "even"})
_DO = {"VBZ": "doesn't", "VBP": "don't", "VBD": "didn't"}
_VERB_DEGREE = frozenset({"highly", "strongly", "thoroughly", "greatly", "deeply", "fully", "wholeheartedly"})
"""Degree adverbs of a verb that a negation cannot follow (*I highly recommend* -> never *I highly don't recommend*)."""
_DROPPED_DEGREE = _VERB_DEGREE - {"fully"}
"""Those a negation drops (*I highly recommend* -> *I don't recommend*, *would highly recommend* -> *would not
recommend*, never *would not highly recommend*); *fully* stays, as *not fully loaded* is a plain partial denial."""
_FOCUS = frozenset({"literally", "practically", "virtually", "basically"})
"""Focus adverbs that stress a verb's praise and go with its negation (*literally melts in your mouth* -> *doesn't
melt in your mouth*, never *literally doesn't melt*: the stress reads odd on a denial)."""
_CONTRACTED_AUX = {"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}
_GLUED = {"isnt": "is", "wasnt": "was", "arent": "are", "werent": "were", "cant": "can", "couldnt": "could",
          "wouldnt": "would", "shouldnt": "should", "hasnt": "has", "havent": "have", "hadnt": "had",
          "doesnt": "does", "dont": "do", "didnt": "did"}
"""Contractions written without their apostrophe (one token to the tokenizer) and their positive forms."""


def reversal_candidates(s: Sent, span: tuple[int, int], r: Reversal) -> tuple[list[Candidate], str | None]:
    """Candidates that reverse the opinion ``span`` (token indices); a reason instead when none can exist."""
    p = s.parse
    f, t = span
    if not 0 <= f < t <= len(p.tokens):
        return [], "opinion span outside the sentence"
    head = span_head(p, f, t)
    pred = predicate(p, head)
    sign = LABEL_SIGN[r.label]
    words = [(p.tokens[i], p.upos[i]) for i in range(f, t)]
    span_text = s.text[s.chars(f, t)[0]:s.chars(f, t)[1]]
    negs = _present_negations(p, f, t, head, pred)
    lo = min([f, *negs])  # a negation outside the span (*wasn't cooked fresh*) belongs to its reading
    span_pol = r.lexicon.phrase(s.text[s.chars(lo, t)[0]:s.chars(lo, t)[1]] if lo < f else span_text)
    if sign and span_pol == -sign:
        fixed = degree_reversals(s, f, t, sign, r.lexicon)  # *way too sweet* -> *just sweet enough*
        fixed += wish_reversal(s, f, t, sign) + idiom_reversal(s, f, t, sign)  # *should be a bit more friendly* ->
        # *couldn't be more friendly*, *to die for* -> *nothing special* (:mod:`.lexical`)
        if fixed:
            return [_check_common(s, c, r, head) for c in fixed], None
        return [], f"opinion {span_text!r} reads {sign_label(span_pol)} under the lexicon, against the {r.label} label"
    if sign == 0 and span_pol != 0:
        return [], f"neutral target with a polar opinion {span_text!r}: no reversal keeps it neutral"
    if sign == 0 and is_hedge([*words, (p.tokens[head], p.upos[head])]):
        return [], f"neutral target with a hedged opinion {span_text!r}: its reversal has no clear label"
    frame = descriptor(p, head)
    if frame is not None:
        return [], frame
    out: list[Candidate] = []
    if pred is not None and any(p.deps[j] == "advcl" and any(p.tokens[m].lower() == "unless" for m in children(p, j))
                                for j in children(p, pred)):
        return [], f"the predicate of {span_text!r} has an 'unless' exception: its reversal reads as nonsense"
    if negs:
        if sign == 0:
            return [], f"neutral target with a negated opinion {span_text!r}"
        out += _remove_negation(s, negs, pred)
    ants = fit_swaps(s, head, antonym_candidates(s, head, r), r, r.fit)
    if head >= 2 and p.tokens[head - 2].lower() == "more" and p.tokens[head - 1].lower() == "than":
        ants = [c.with_problems("an antonym after 'more than' reads oddly (*more than cramped*)") for c in ants]
    if head + 1 < len(p.tokens) and p.tokens[head + 1].lower() == "enough":  # *bad enough to make it worth the trip*
        ants = [c.with_problems(f"an antonym before 'enough' changes what {span_text!r} is enough for") for c in ants]
    mixed = middle_in_pair(p, head) if sign < 0 else None
    if mixed is not None:
        ants = [c.with_problems(mixed) for c in ants]
    dropped: list[Candidate] = []  # *a bit slow* -> *fast*, *dreadfully slow* -> *fast* (:mod:`.lexical`)
    if sign < 0 and not negs and p.tags[head] not in ("JJR", "RBR") and _softened(p, head):
        dropped = plain_opposite(s, head, ants)
        ants = [c.with_problems("a softener fits a complaint, not praise: its opposite reads oddly (*a bit clean*, "
                                "*a little bit comfortable*)") for c in ants]
    added = garnish(s, head, sign) if not negs else None
    if added is not None:  # *a nice touch* -> *an unwelcome touch*, never *a bad touch*
        ants = [c.with_problems(f"an antonym of {p.tokens[head]!r} reads oddly on {p.tokens[p.heads[head]]!r} (*a bad "
                                "touch*, *bad hint of cocoa*)") for c in ants] + added
    scale = off_scale(s, head, sign) if not negs else None
    if scale is not None:  # *the highest service* -> *the worst service*, never *the lowest service*
        ants = [c.with_problems(f"{p.tokens[head]!r} is praise on a noun with no scale: its antonym reads oddly "
                                "(*the lowest service*)") for c in ants] + scale
    out += ants
    avoid: list[Candidate] = []
    if sign and not negs:
        out += degree_reversals(s, f, t, sign, r.lexicon)
        out += participle_adverb(s, f, t, head, r)
        out += least_favorite(s, head, sign)
        out += misread_verb(s, head, r)
        out += speed_up(s, head)
        out += not_worth(s, head)
        out += like_a_charm(s, head, sign)
        out += noun_opposite(s, head, sign)  # *the main draw* -> *the main drawback* (:mod:`.lexical`)
        # *faster* -> *slower*, *rudeness* -> *politeness*, *yum* -> *yuck*, *lacking flavor* -> *full of flavor*,
        # *watered down* -> *strong* (:mod:`.gaps`)
        out += misread_comparative(s, head, r) + quality_noun(s, head, r) + interjection(s, head, sign)
        out += lacking_object(s, head, sign) + phrasal_complaint(s, head, sign) + purpose_perfect(s, head, sign)
        avoid = avoidance(s, head, sign) + fixed_praise(s, f, t, sign)
        out += avoid
        out += analytic_comparison(s, head)
        out += quantity_comparison(s, head, sign)
        out += above_below(s, f, t, sign)
    if not negs and sign:
        hedge = is_hedge(words) or (pred is not None and is_hedge(
            (p.tokens[j], p.upos[j]) for j in children(p, head) if p.deps[j] == "advmod")) or (
            f > 0 and is_hedge([(p.tokens[f - 1], p.upos[f - 1])])) or _softened(p, head)  # *was rather over
        # cooked*; *a little slow* with *little* tagged an adjective (*was not a little slow*)
        neg = _add_negation(s, head, pred, r)
        if avoid:
            neg = [c.with_problems("a negated idiom (*don't stay away from*, *not on point*) reads as a double or "
                                   "partial denial: its counterpart reverses it") for c in neg]
        if p.tokens[head].lower() in _MILD and p.upos[head] == "ADJ" and any(c.valid for c in ants):
            neg = [c.with_problems(f"a negated mild {p.tokens[head]!r} reads oddly (*the chicken was not fine*): its "
                                   "opposite reverses it") for c in neg]
        if hedge:
            neg = [c.with_problems(f"the span {span_text!r} holds a hedge: its negation has no clear polarity")
                   for c in neg]
        if p.tokens[head].lower().startswith("un") and p.upos[head] == "ADJ" and any(c.valid for c in ants):
            neg = [c.with_problems(f"a negated {p.tokens[head]!r} is a litotes (*not unmatched*), weaker than its "
                                   "opposite") for c in neg]
        out += extreme_negation(s, head, neg, ants)
    elif not negs:
        out += [c.with_problems("a neutral target is never negated") for c in _add_negation(s, head, pred, r)]
    if not out:
        return [], f"no antonym and no negation site for {span_text!r}"
    out = surroundings(s, head, out, r)
    if not negs:  # *severely slow* -> *fast*, never *not severely slow* (:mod:`.emphasis`)
        out, plain = emphatic(s, head, sign, out, r.fit)
        out = kept_praise(s, head, pred, sign, neither_but(s, out), r.lexicon)
        dropped += plain
    boosted = None if negs else boosted_negative(p, f, head, sign)
    if boosted is not None:  # an extreme opposite takes the booster (*absolutely horrible* -> *absolutely excellent*),
        # so does an opposite the booster fits (*highly impressed*), unless a *so* before the booster heads a
        # result clause (*so incredibly rude that I will never go back*)
        at = booster(p, f, head) or 0
        so = at > 0 and p.tokens[at - 1].lower() == "so"
        fits = [c.op == "antonym" and bool(c.edits) and (
            extreme_word(c) or (not so and booster_fits(p.tokens[at], c.edits[-1].text, r.fit))) for c in out]
        if not any(fits):  # *absolutely horrible* -> *absolutely excellent* stays the only swap
            dropped += plain_opposite(s, head, out)
        out = [c if ok else c.with_problems(boosted) for c, ok in zip(out, fits)]
    out += dropped
    checked = [_check_common(s, c, r, head) for c in out]
    return (checked if negs else litotes(s, head, sign, checked)), None  # never *not poor* beside *good*


def _present_negations(p: Parse, f: int, t: int, head: int, pred: int | None) -> list[int]:
    found = {i for i in range(f, t) if p.tokens[i].lower() in ("not", "n't", "never", "no", "hardly", "barely",
                                                                 "scarcely", "nothing", "none", "nobody", "neither",
                                                                 "nowhere", "cannot")
             or p.tokens[i].lower().startswith(("not-", "non-")) or p.tokens[i].lower() in _GLUED}
    if f > 0 and p.tokens[f - 1].lower() in _GLUED:  # *the sound quality isnt superb* with the opinion *superb*
        found.add(f - 1)
    found |= set(negations(p, head))
    if pred is not None:
        found |= set(negations(p, pred))
        for c in carriers(p, pred):
            found |= set(negations(p, c))
    return sorted(found)


def _remove_negation(s: Sent, negs: list[int], pred: int | None) -> list[Candidate]:
    """Candidates that delete the present negation(s): the first option of every cue together, and one
    alternative per cue that has a second option (emphatic *did like*, *always* for *never*)."""
    opts = [_negation_options(s, n, pred) for n in negs]
    problems = tuple(o for o in opts if isinstance(o, str))
    lists = [o for o in opts if not isinstance(o, str)]
    if not lists:
        return [Candidate((), "negation_removed", "", 9, problems)]
    npi = _npi_edits(s, max(negs))
    first = [*(o[0] for o in lists), npi]
    out = [Candidate(tuple(e for o in first for e in o), "negation_removed",
                     "; ".join(e.detail for o in first for e in o), 0, problems)]
    for i, o in enumerate(lists):
        for alt in o[1:]:
            pick = [*first[:i], alt, *first[i + 1:]]
            out.append(Candidate(tuple(e for x in pick for e in x), "negation_removed",
                                 "; ".join(e.detail for x in pick for e in x), 1, problems))
    return out


def _npi_edits(s: Sent, after: int) -> tuple[CharEdit, ...]:
    """The clause-final polarity item a removed negation would strand, turned positive: *not user-friendly
    either.* -> *user-friendly too.*, *isn't cheap at all compared to* -> *is cheap compared to*. Only before
    punctuation or the end (*not very good at all cocktail hour* is a misparse, left to the stranding check)."""
    toks = s.parse.tokens
    n = len(toks)

    def final(k: int) -> bool:
        return k >= n or s.parse.upos[k] == "PUNCT" or toks[k].lower() in ("compared", "and", "but")

    for k in range(after + 1, n):
        low = toks[k].lower()
        if low == "either" and final(k + 1) and s.parse.deps[k] in ("advmod", "preconj", "cc"):
            return (s.replace(k, "too", "negation_removed", "'either' -> 'too' with the negation removed"),)
        if low == "at" and k + 1 < n and toks[k + 1].lower() == "all" and final(k + 2) and k > 0:
            a, b = s.offsets[k - 1][1], s.offsets[k + 1][1]
            return (CharEdit(a, b, "", s.text[a:b], "negation_removed", "'at all' dropped with the negation"),)
    return ()


def _negation_options(s: Sent, n: int, pred: int | None) -> list[tuple[CharEdit, ...]] | str:
    """Ways to delete the negation token ``n`` (best first), or why it has no simple reversal."""
    p = s.parse
    low = p.tokens[n].lower()
    prev = p.tokens[n - 1].lower() if n else ""
    if low in ("n't", "not") and prev in ("do", "does", "did") and pred is not None and p.upos[pred] == "VERB" \
            and pred > n:
        initial = s.offsets[n - 1][0] == s._first_char()
        if initial and prev == "do":
            return f"a sentence-initial {s.word(n - 1)!r} is an imperative: no simple reversal"
        tag = {"do": "VBP", "does": "VBZ", "did": "VBD"}[prev]
        verb = inflect(base_form(p.tokens[pred], p.tags[pred]), tag)
        if initial:  # a subject-less report (*Did not enjoy the new Windows 8* -> *Enjoyed the new Windows 8*)
            verb = upper_first(verb)
        ca, nb = s.offsets[n - 1][0], s.offsets[n][1]
        end = nb
        while end < len(s.text) and s.text[end] == " ":
            end += 1
        drop = CharEdit(ca, end, "", s.text[ca:end], "negation_removed", f"do-support {s.text[ca:nb]!r} removed")
        verb_edit = s.replace(pred, verb, "negation_removed", f"verb re-inflected as {tag}")
        return [(drop, verb_edit), (s.delete(n, "negation_removed", f"{low!r} removed, emphatic {prev!r} kept"),)]
    if low == "n't" and prev in _CONTRACTED_AUX:
        a, b = s.offsets[n - 1][0], s.offsets[n][1]
        return [(CharEdit(a, b, s._case(n - 1, _CONTRACTED_AUX[prev]), s.text[a:b], "negation_removed",
                          f"{s.text[a:b]!r} -> {_CONTRACTED_AUX[prev]!r}"),)]
    if low in ("n't", "not", "hardly", "barely", "scarcely"):
        return [(s.delete(n, "negation_removed", f"cue {low!r} removed"),)]
    if low in _GLUED:  # an apostrophe-less contraction the tokenizer keeps whole: *isnt* -> *is*
        return [(s.replace(n, _GLUED[low], "negation_removed", f"{p.tokens[n]!r} -> {_GLUED[low]!r}"),)]
    if low == "cannot":
        a, b = s.offsets[n]
        return [(CharEdit(a, b, s._case(n, "can"), s.text[a:b], "negation_removed", "'cannot' -> 'can'"),)]
    if low == "never":
        return [(s.delete(n, "negation_removed", "cue 'never' removed"),),
                (s.replace(n, "always", "negation_removed", "'never' -> 'always'"),)]
    if low == "no" and n + 1 < len(p.tokens) and p.tokens[n + 1].lower() == "longer":
        a, b = s.offsets[n][0], s.offsets[n + 1][1]
        return [(CharEdit(a, b, s._case(n, "still"), s.text[a:b], "negation_removed", "'no longer' -> 'still'"),)]
    if low == "no" and p.deps[n] == "det":
        return [(s.delete(n, "negation_removed", "determiner 'no' removed"),)]
    if low.startswith(("not-", "non-")):
        a, b = s.offsets[n]
        return [(CharEdit(a, b, s.text[a + 4:b], s.text[a:b], "negation_removed", f"prefix {low[:4]!r} removed"),)]
    return f"the negation {p.tokens[n]!r} has no simple reversal"


def _add_negation(s: Sent, head: int, pred: int | None, r: Reversal) -> list[Candidate]:
    p = s.parse
    out: list[Candidate] = []
    if pred is not None:
        cs = carriers(p, pred)
        if cs:
            c = cs[0]
            low = p.tokens[c].lower()
            at = c  # where the *not* goes: after the carrier and the sentence adverbs that follow it
            if low == "to":  # *time to enjoy* -> *time not to enjoy* reverses a purpose, not the opinion
                return []
            if p.tags[c] == "VBG":
                e = s.insert_before(c, "not", "negation_added", f"'not' before {p.tokens[c]!r}")
            elif low == "can" and c + 1 < len(p.tokens):
                e = s.replace(c, "cannot", "negation_added", "'can' -> 'cannot'")
            else:
                op = "copula_negated" if c == pred else "negation_added"
                while at + 1 < len(p.tokens) and p.tokens[at + 1].lower() in _AFTER_NEGATION:
                    at += 1
                e = s.insert_after(at, "not", op, f"'not' after the {'copula' if c == pred else 'auxiliary'} "
                                                  f"{p.tokens[c]!r}")
            degree = _verb_degree(p, pred, after=c)
            if degree is not None and p.tags[c] != "VBG" and low != "can" and degree == at + 1:
                # *would highly recommend* -> *would not recommend*, never *would not highly recommend*
                e = s.replace(degree, "not", e.op, e.detail + f", in place of the degree adverb {p.tokens[degree]!r}")
                cand = Candidate((e,), e.op, e.detail, 2)
            elif degree is not None:
                drop = s.delete(degree, e.op, f"the degree adverb {p.tokens[degree]!r} dropped with the negation")
                cand = Candidate((e, drop), e.op, e.detail, 2)
            else:
                cand = Candidate((e,), e.op, e.detail, 2)
            denied = negated_pair(p, head, at)
            if denied is not None:
                cand = cand.with_problems(denied)
            if any(p.tokens[j].lower() in _ADDITIVE for j in range(c + 1, at + 1)):
                cand = cand.with_problems("a negation after 'also' reads as adding to what came before "
                                          "(*is also not awesome*)")
            out.append(cand)
        elif p.tokens[pred].lower() in BE and p.tags[pred] in _FINITE:  # a main-verb *be*: *there's* -> *'s not*
            e = s.insert_after(pred, "not", "copula_negated", f"'not' after {p.tokens[pred]!r}")
            out.append(Candidate((e,), e.op, e.detail, 2))
        elif p.upos[pred] == "VERB" and p.tags[pred] == "VB" and p.deps[pred] in ("ROOT", "conj") and \
                not any(p.deps[j] in ("nsubj", "nsubjpass", "aux", "expl") for j in children(p, pred)) and \
                (p.deps[pred] == "ROOT" or p.tags[p.heads[pred]] == "VB"):
            e = s.insert_before(pred, "don't", "do_support", "imperative: 'don't' before the verb")
            out.append(Candidate((e,), "do_support", e.detail, 2))
        elif p.upos[pred] == "VERB" and p.tags[pred] in _FINITE and s.offsets[pred][0] != s._first_char() and \
                (has_subject(p, pred) or _shared_subject(p, pred, head)):
            # a finite verb has a subject (a VBD-tagged *overpriced* does not)
            tag = p.tags[pred]
            base = base_form(p.tokens[pred], tag)
            e = s.replace(pred, f"{_DO[tag]} {base}", "do_support", f"do-support: {_DO[tag]!r} + {base!r}")
            found = [Candidate((e,), "do_support", e.detail, 2)]
            if tag == "VBD":
                e2 = s.insert_before(pred, "never", "negation_added", "'never' before the past-tense verb")
                found.append(Candidate((e2,), "negation_added", e2.detail, 4))
            adv = _verb_degree(p, pred)
            if adv is not None:  # *I highly recommend* -> *I don't recommend*, never *I highly don't recommend*
                drop = s.delete(adv, "do_support", f"the degree adverb {p.tokens[adv]!r} dropped with the negation")
                found = [Candidate((*c.edits, drop), c.op, c.detail, c.priority, c.problems) for c in found]
            kept = [p.tokens[j] for j in children(p, pred)
                    if j < pred and p.deps[j] == "advmod" and p.tokens[j].lower() in _VERB_DEGREE - _DROPPED_DEGREE]
            if kept:
                found = [c.with_problems(f"a negation after the degree adverb {kept[0]!r} of the verb reads wrong "
                                         "(*I fully don't agree*)") for c in found]
            out += found
        if out:
            why = _negation_misreads(p, head, pred, r.lexicon) or _negation_unclear(p, head, pred, r.lexicon)
            if why:
                out = [c.with_problems(why) for c in out]
            pair = _neither_nor(s, head, pred, r)
            if pair is not None:
                out.append(pair)
            reach = scope(p, pred)
            for aid, toks in r.others.items():
                hit = toks & reach
                if hit:
                    words = " ".join(p.tokens[i] for i in sorted(hit))
                    out = [c.with_problems(f"the negation would also reach {aid}'s opinion {words!r}") for c in out]
            if r.guard & reach:
                out = [c.with_problems("the negation would reach the target") for c in out]
        return out
    if p.upos[head] == "ADJ" and p.deps[head] == "amod" and p.deps[p.heads[head]] == "ROOT" \
            and s.offsets[head][0] == s._first_char():
        e = s.insert_before(head, "not", "negation_added", "'not' before a sentence-initial attributive adjective")
        out.append(Candidate((e,), "negation_added", e.detail, 5))
    return out


def _verb_degree(p: Parse, pred: int, after: int = -1) -> int | None:
    """The degree or focus adverb of the predicate (*highly*, *strongly*, *literally*) between ``after`` and the
    predicate: a negation drops it (*I highly recommend* -> *I don't recommend*, *would highly recommend* ->
    *would not recommend*), as the negated degree (*would not highly recommend*) or a degree before the negation
    (*I highly don't recommend*) reads wrong."""
    found = [j for j in children(p, pred) if after < j < pred and p.deps[j] == "advmod"
             and p.tokens[j].lower() in _DROPPED_DEGREE | _FOCUS]
    return found[0] if found else None


def _shared_subject(p: Parse, pred: int, head: int) -> bool:
    """A present-tense verb coordinated with an earlier predicate shares its subject (*is light and has enough
    storage*, *Not too expense and has enough storage*): do-support negates it (*and doesn't have enough
    storage*). Only with an object or the opinion on the verb itself: a plural noun the tagger read as a verb
    (*great screen and features*) has neither; a past form may be a participle (*cold and overpriced*)."""
    if p.deps[pred] != "conj" or p.tags[pred] not in ("VBZ", "VBP") or pred == 0 or p.deps[pred - 1] != "cc":
        return False
    h = p.heads[pred]
    if not (has_subject(p, h) or p.deps[h] == "ROOT"):
        return False
    return head == pred or any(p.deps[j] in ("dobj", "obj") for j in children(p, pred))


def _negation_misreads(p: Parse, head: int, pred: int, lexicon: Polarity) -> str | None:
    """Why negating ``pred`` would not read as the reversal of the opinion at ``head``: the opinion is an
    adjective of the verb's object (*didn't make a dry and burnt crust* denies the making, not the dryness), or
    one of a coordinated pair of adjectives (*not nice and loud* may deny only one half). A polar verb is an
    opinion itself (*not loving the fast performance*) and keeps its negation."""
    possession = p.tokens[head].lower() == "enough" and base_form(p.tokens[pred], p.tags[pred]) == "have"
    # *doesn't have enough memory* denies the quantity itself
    if head != pred and p.upos[head] == "ADJ" and not lexicon.word(p.tokens[pred]) and not possession:
        a = head
        while p.deps[a] == "conj" and p.upos[p.heads[a]] == "ADJ":
            a = p.heads[a]
        if p.deps[a] == "amod" and p.deps[p.heads[a]] in ("dobj", "obj") and p.heads[p.heads[a]] == pred:
            return (f"the opinion {p.tokens[head]!r} describes the object of {p.tokens[pred]!r}: negating the verb "
                    "denies the act, not the opinion (*didn't make a dry crust*)")
    if p.upos[head] == "ADJ" and (any(p.deps[j] == "conj" and p.upos[j] == "ADJ" for j in children(p, head))
                                  or (p.deps[head] == "conj" and p.upos[p.heads[head]] == "ADJ")):
        return (f"the opinion {p.tokens[head]!r} is one of a coordinated pair: a negation before the pair may deny "
                "only one half (*not nice and loud*)")
    return None


def _neither_nor(s: Sent, head: int, pred: int, r: Reversal) -> Candidate | None:
    """*is smooth and seamless* -> *is neither smooth nor seamless*: a coordinated pair of bare adjectives right
    after a copula is negated as a whole, where a *not* before it may deny only one half. Neither adjective may
    be another aspect's opinion or read against the label, and no degree word or negation may stand on them."""
    p = s.parse
    a = head
    if p.upos[a] == "ADJ" and p.deps[a] == "conj" and p.upos[p.heads[a]] == "ADJ":
        a = p.heads[a]
    if p.upos[a] != "ADJ" or p.deps[a] not in COMPLEMENT or p.heads[a] != pred or a != pred + 1 \
            or p.upos[pred] != "AUX" or p.tokens[pred].lower() not in BE:
        return None
    conj = [j for j in children(p, a) if p.deps[j] == "conj"]
    if len(conj) != 1 or p.upos[conj[0]] != "ADJ" or conj[0] != a + 2 or p.tokens[a + 1].lower() != "and" \
            or p.deps[a + 1] != "cc":
        return None
    b = conj[0]
    if any(p.deps[j] not in ("cc", "conj", "punct") for j in children(p, a)) or children(p, b):
        return None  # *so easy and intuitive to set up*, *good and so popular that ...*
    sign = LABEL_SIGN[r.label]
    if any(toks & {a, b} for toks in r.others.values()) or -sign in (r.lexicon.word(p.tokens[a]),
                                                                      r.lexicon.word(p.tokens[b])):
        return None
    e1 = s.insert_before(a, "neither", "negation_added", "'neither' before a coordinated pair of adjectives")
    e2 = s.replace(a + 1, "nor", "negation_added", "'and' -> 'nor' in the negated pair")
    return Candidate((e1, e2), "negation_added", e1.detail, 3)


_PRESUPPOSING = frozenset({"because", "since", "once", "when", "whenever", "after", "before", "as", "while",
                           "although", "though", "now"})
"""Markers of a subordinate clause whose content the sentence takes as given (*Now that I have upgraded, I am
happier*): negating it leaves the main clause arguing for the old label."""
_QUANTIFIER_HEADS = frozenset({"all", "everything", "anything", "nothing"})


def _negation_unclear(p: Parse, head: int, pred: int, lexicon: Polarity) -> str | None:
    """Why a negation of ``pred`` has no clear reading as the reversal: the predicate is in a presupposed
    subordinate clause (*Now that I have not upgraded, I am much happier*), in the relative clause of *all*
    (*was all that was not required*), or the opinion is an adverb the lexicon does not know (*was not using the
    gestures unconsciously* may deny the use or the manner)."""
    kids = children(p, pred)
    marks = [j for j in kids if p.deps[j] == "mark"]
    if p.deps[pred] in ("advcl", "ccomp") and any(
            p.tokens[j].lower() in _PRESUPPOSING or (p.tokens[j].lower() == "that" and j > 0
                                                      and p.tokens[j - 1].lower() == "now") for j in marks):
        return (f"the opinion sits in a subordinate clause the sentence takes as given (*{p.tokens[marks[0]]} ...*): "
                "its negation leaves the main clause arguing for the old label")
    if p.deps[pred] == "relcl" and p.tokens[p.heads[pred]].lower() in _QUANTIFIER_HEADS:
        return (f"the opinion sits in a relative clause of {p.tokens[p.heads[pred]]!r}: its negation reads as "
                "nonsense (*was all that was not required*)")
    if head != pred and p.upos[head] == "ADV" and p.deps[head] == "advmod" and p.heads[head] == pred \
            and not lexicon.word(p.tokens[head]):
        return (f"the opinion {p.tokens[head]!r} is an adverb the lexicon does not know: a negation of its verb may "
                "deny the act rather than the manner")
    return None


def _check_common(s: Sent, c: Candidate, r: Reversal, head: int) -> Candidate:
    probs = []
    if any(s.touches_protected(e) for e in c.edits):
        probs.append("the edit touches the target term")
    return c.with_problems(*probs) if probs else c


# ---- intensification (RevNon) --------------------------------------------------------------------------

_SOFTENERS = frozenset({"bit", "slightly", "somewhat", "kinda", "sorta"})


def _softened(p: Parse, head: int) -> bool:
    """Whether a softener (*a bit*, *a little*, *slightly*, *somewhat*) stands in the three words before ``head``:
    it tones down a complaint (*a bit dirty*), and neither praise (*a bit clean*) nor a second degree word (*a
    little really big*) follows it."""
    before = [p.tokens[j].lower() for j in range(max(0, head - 3), head)]
    return bool(_SOFTENERS.intersection(before)) or any(
        w == "little" and i > 0 and before[i - 1] == "a" for i, w in enumerate(before))


def intensify_candidates(s: Sent, span: tuple[int, int]) -> tuple[list[Candidate], str | None]:
    """Degree-adverb insertions licensed by the parse before the head of the opinion ``span``."""
    p = s.parse
    f, t = span
    head = span_head(p, f, t)
    if _present_negations(p, f, t, head, predicate(p, head)):
        return [], "negated opinion: an intensifier would change its reading"
    if any(p.tokens[i].lower() in DEGREE_WORDS for i in range(f, t)) or any(
            p.deps[j] in ("advmod", "npadvmod") and p.tokens[j].lower() in DEGREE_WORDS for j in children(p, head)):
        return [], "the opinion already has a degree word"
    if (head > 0 and p.tokens[head - 1].lower() in DEGREE_WORDS) or _softened(p, head):
        return [], "the opinion already has a degree word"
    up, tag = p.upos[head], p.tags[head]
    if p.tokens[head].lower() in NON_GRADABLE:
        return [], f"{p.tokens[head]!r} is not gradable"
    if is_hedge([(p.tokens[head], up)]) or p.tokens[head].lower().startswith("very"):
        return [], f"{p.tokens[head]!r} is a middle-of-the-scale word: a degree adverb reads oddly (*very mediocre*)"
    if any(p.upos[j] == "ADV" and j < head for j in children(p, head)) or (head > 0 and p.upos[head - 1] == "ADV"):
        return [], "an adverb already modifies the opinion (*very surprisingly intuitive*, *very severely slow*)"
    if up == "ADV" and p.deps[head] == "advmod" and p.upos[p.heads[head]] in ("ADJ", "ADV"):
        return [], (f"{p.tokens[head]!r} modifies an adjective or adverb: a degree adverb before it stacks "
                    "(*very surprisingly intuitive*)")
    if (up == "ADJ" and tag == "JJ") or (up == "ADV" and tag == "RB"):
        advs: tuple[str, ...] = INTENSIFIERS_EXTREME if p.tokens[head].lower() in EXTREME else INTENSIFIERS_ADJ
    elif up == "VERB" and (tag in _FINITE or any(p.deps[j] in ("aux", "auxpass") for j in children(p, head))):
        advs = INTENSIFIERS_VERB + (("highly",) if base_form(p.tokens[head], tag) == "recommend" else ())
    else:
        return [], f"no degree adverb is licensed before a {up} ({tag})"
    out = []
    for rank, adv in enumerate(advs):
        e = s.insert_before(head, adv, "degree_adverb", f"degree adverb {adv!r} before the {up.lower()}")
        edits = [e]
        art = article_fix(s, head, adv)
        if art is not None:
            edits.insert(0, art)
        cand = Candidate(tuple(edits), "degree_adverb", e.detail, rank)
        if any(s.touches_protected(x) for x in edits):
            cand = cand.with_problems("the edit touches the target term")
        out.append(cand)
    return out, None
