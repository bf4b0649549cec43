"""*and* -> *but* between the reversed predicate and a coordinated predicate of the same subject (corrected mode).

:func:`.clash.clashes` refuses a reversal where another predicate of the same subject keeps the old polarity
(*This laptop is fast, powerful, and runs super quiet*: *... and runs super loud* reads stitched). The
post-editor's variant contrasts the predicates: *is fast, powerful, but runs super loud*, *The OS is difficult,
and offers all kinds of surprises* -> *..., but offers ...*.

Only where one *and* joins two predicates (not the middle of three: *was fast, ran smoothly, and had no problems*),
nothing after it adds to what came before (*and even ignore their regulars*, *and were even more thrilled*), the
reversed predicate carries no clause of its own that still explains the old opinion (*is perfect for media editing,
which is mostly why I bought it*), no other annotated aspect keeps the old polarity and the sentence has no other
contrast; an adjective after a full verb (*it works great and is not a waste of money*) is left out: its antonym
there (*works terrible*) reads wrong.
"""
from __future__ import annotations

from collections.abc import Sequence

from .candidates import Sent
from .charedit import CharEdit
from .clash import CONTRASTS
from .polarity import LABEL_SIGN
from .resources import Parse
from .strategies import PreparedAspect
from .syntax import EMBEDDED, predicate, span_head, subtree

COORDINATED = "a coordinated predicate of the same subject"
"""The opening of :func:`.clash.clashes`'s reason this repair answers."""
_ADDING = frozenset({"even", "also", "more", "too", "still", "again", "then", "so"})


def coordination_repair(sent: Sent, pa: PreparedAspect, aspects: Sequence[PreparedAspect]) -> CharEdit | None:
    """The *and* -> *but* edit for ``pa``'s reversed predicate against a coordinated one (see the module), or
    None where the form is not the narrow one."""
    p = sent.parse
    if any(w.lower() in CONTRASTS or w.lower() in ("although", "though", "while", "however") for w in p.tokens):
        return None
    old = LABEL_SIGN[pa.aspect.polarity]
    if not old:
        return None
    turned = [o for o in aspects if o is pa or set(o.opinions) & set(pa.opinions)]
    if any(o not in turned and LABEL_SIGN[o.aspect.polarity] == old for o in aspects):
        return None
    preds = {predicate(p, span_head(p, a, b)) for a, b in pa.opinions}
    if len(preds) != 1 or None in preds:
        return None
    pred = preds.pop()
    assert pred is not None
    if p.upos[pred] == "VERB" and any(p.tags[span_head(p, a, b)] == "JJ" for a, b in pa.opinions):
        return None  # an adjective after a full verb (*it works great*): its antonym reads ungrammatical there
    ands = [j for j in range(len(p.tokens)) if p.tokens[j].lower() == "and" and p.deps[j] == "cc"
            and _joins(p, j, pred)]
    if len(ands) != 1:
        return None
    k = ands[0]
    host = p.heads[k]
    if sum(p.heads[j] == host and j != host and p.deps[j] == "conj" and p.upos[j] in ("VERB", "AUX")
           for j in range(len(p.tokens))) > 1:
        return None  # three predicates: one *but* splits a list
    if pred == host and p.deps[host] in ("conj", "dep"):
        return None  # the reversed predicate between two others (*was fast, ran smoothly, and had no problems*)
    if any(w.lower() in _ADDING for w in p.tokens[k + 1:k + 4]):
        return None
    after = max(k, pred)
    own = subtree(p, pred) if k < pred else set()
    if any(p.deps[j] in EMBEDDED and j > after for j in own) or any(p.tags[j] in ("WDT", "WP") and j > after
                                                                    for j in own):
        return None
    return sent.replace(k, "but", "and_to_but", "'and' joins predicates of one subject that now differ")


def _joins(p: Parse, k: int, pred: int) -> bool:
    """Whether *and* ``k`` joins predicate ``pred`` to a verb coordinated with it: ``pred`` is the verb after
    ``k`` coordinated with the one that governs ``k``, or the governor of ``k`` with the verb after it."""
    host = p.heads[k]
    if p.upos[host] not in ("VERB", "AUX"):
        return False
    nxt = next((j for j in range(k + 1, len(p.tokens)) if p.deps[j] == "conj" and p.heads[j] == host), None)
    if nxt is None or p.upos[nxt] not in ("VERB", "AUX"):
        return False
    return pred in (host, nxt)
