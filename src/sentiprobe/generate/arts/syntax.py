"""Dependency-parse helpers of the corrected generator: heads, subtrees, predicates, negation scope.

The labels are those of spaCy's English models (ClearNLP style): a copula is the clause head with an
``acomp``/``attr`` complement (``The screen -> is <- great``), negation is ``neg``, auxiliaries are
``aux``/``auxpass``. Every function takes a :class:`~.resources.Parse` and token indices.
"""
from __future__ import annotations

from functools import lru_cache

from .resources import Parse

EMBEDDED = frozenset({"advcl", "ccomp", "parataxis", "relcl", "csubj"})
"""Dependents that open another clause: a negation of the governing predicate does not reach into them."""
CLAUSE_BOUNDARY = EMBEDDED | {"conj", "cc", "mark", "punct", "dep"}
"""Children of a predicate outside its negation scope (coordinated clauses, embedded clauses, punctuation)."""

BE = frozenset({"be", "is", "are", "was", "were", "am", "'s", "'re", "'m", "been", "being"})
"""The forms of *be*."""
SENTENCE_STOP = frozenset({".", "!", "?", ";"})
"""Marks that end a sentence or a clause that stands as one."""
COMPLEMENT = frozenset({"acomp", "attr", "oprd"})
SUBJECT = frozenset({"nsubj", "nsubjpass", "csubj", "expl"})
NEG_WORDS = frozenset({"not", "n't", "never", "no", "hardly", "barely", "scarcely", "nothing", "none", "nobody",
                       "neither", "nowhere", "nor", "cannot"})


def children(p: Parse, i: int) -> list[int]:
    return list(_kids(p)[i])


@lru_cache(maxsize=4096)
def _kids(p: Parse) -> tuple[tuple[int, ...], ...]:
    kids: list[list[int]] = [[] for _ in p.tokens]
    for j, h in enumerate(p.heads):
        if h != j and 0 <= h < len(kids):
            kids[h].append(j)
    return tuple(tuple(k) for k in kids)


def subtree(p: Parse, i: int, skip: frozenset[str] = frozenset()) -> set[int]:
    """``i`` and its descendants; children whose dependency label is in ``skip`` are cut with their subtrees."""
    out, todo = {i}, [i]
    kids = _kids(p)
    while todo:
        k = todo.pop()
        for j in kids[k]:
            if j not in out and p.deps[j] not in skip:
                out.add(j)
                todo.append(j)
    return out


def span_head(p: Parse, f: int, t: int) -> int:
    """The token of ``[f, t)`` whose head lies outside the span (the first one; ``t - 1`` if none)."""
    for i in range(f, min(t, len(p.tokens))):
        h = p.heads[i]
        if h == i or not f <= h < t:
            return i
    return min(t, len(p.tokens)) - 1


def ancestors(p: Parse, i: int) -> list[int]:
    out: list[int] = []
    while p.heads[i] != i and len(out) < len(p.tokens):
        i = p.heads[i]
        out.append(i)
    return out


def has_subject(p: Parse, i: int) -> bool:
    return any(p.deps[j] in SUBJECT for j in children(p, i))


def conjunct_root(p: Parse, pred: int) -> int:
    """The first of the coordinated predicates ``pred`` belongs to that share one subject: up the ``conj`` chain
    while a conjunct has no subject of its own (*is solicitous and friendly and always seems glad* -> *is*)."""
    root = pred
    while p.deps[root] == "conj" and not has_subject(p, root) and p.heads[root] != root:
        root = p.heads[root]
    return root


def is_clause(p: Parse, i: int) -> bool:
    """A verb or auxiliary, or a predicate word with its own subject (a clause head)."""
    return p.upos[i] in ("VERB", "AUX") or has_subject(p, i)


_CLIMB = frozenset({"amod", "compound", "pobj", "prep", "attr", "dobj", "acomp", "oprd", "advmod", "npadvmod", "nmod",
                    "poss", "appos", "det", "nummod", "quantmod", "pcomp", "conj"})
"""Dependencies climbed from an opinion word to the verb that governs it (never a subject: negating the verb
of *the great food arrived* would not reverse *great*)."""


def predicate(p: Parse, head: int) -> int | None:
    """The clause predicate that carries a negation of the opinion word ``head`` (None if the opinion has none).

    A verb -> itself; a complement (*is great*, *is a disappointment*, *looks nice*, *was out of this world*)
    -> its verb; a word inside a complement or an object (*is a great host*, *is one of my favorites*, *had a
    great meal*) or an adverb of a verb (*served promptly*) -> that verb. The climb stops at a subject, at a
    clause boundary (a relative clause's own verb counts) and after six steps.
    """
    up = p.upos[head]
    if up == "VERB" and p.deps[head] == "conj" and p.tags[head] in ("VBN", "VBG") and \
            not any(p.deps[j] in ("aux", "auxpass", "nsubj", "nsubjpass") for j in children(p, head)):
        head = p.heads[head]  # *was tasteless and burned*: the participle shares its first conjunct's verb
        up = p.upos[head]
    if up in ("VERB", "AUX"):
        return _copula_of(p, head)
    i = head
    for _ in range(6):
        h, dep = p.heads[i], p.deps[i]
        if h == i or dep not in _CLIMB:
            return None
        if dep == "conj" and p.upos[h] in ("VERB", "AUX"):
            return None  # a coordinated clause of its own
        if p.upos[h] in ("VERB", "AUX"):
            return _copula_of(p, h)
        i = h
    return None


def _copula_of(p: Parse, v: int) -> int:
    """A participle complement without auxiliaries of its own (*was carefully prepared*, parsed as ``acomp``) is
    negated at its copula."""
    if p.upos[v] == "VERB" and p.deps[v] in COMPLEMENT and p.upos[p.heads[v]] == "AUX" and \
            not any(p.deps[j] in ("aux", "auxpass") for j in children(p, v)):
        return p.heads[v]
    return v


def carriers(p: Parse, pred: int) -> list[int]:
    """Auxiliaries before the predicate, and the predicate itself when it is an auxiliary (a copula)."""
    aux = [j for j in children(p, pred) if p.deps[j] in ("aux", "auxpass") and j < pred]
    if p.upos[pred] == "AUX":
        aux.append(pred)
    return sorted(aux)


def negations(p: Parse, idx: int) -> list[int]:
    """Negation tokens attached to ``idx`` (``neg`` children, negative determiners and adverbs)."""
    return [j for j in children(p, idx) if p.deps[j] == "neg" or (p.tokens[j].lower() in NEG_WORDS and
                                                                  p.deps[j] in ("det", "advmod", "neg"))]


def scope(p: Parse, pred: int) -> set[int]:
    """Tokens a negation of ``pred`` reaches: its subtree without coordinated or embedded clauses."""
    out = {pred}
    for j in children(p, pred):
        if p.deps[j] not in CLAUSE_BOUNDARY:
            out |= subtree(p, j, EMBEDDED)
    return out
