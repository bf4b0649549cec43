"""AddDiff's fit: which appended clause a sentence can take (corrected mode).

- :func:`unfit_source`: a sentence that takes no appended contrast at all (a question, a requirement or a
  recommended action, a concession already, a list after a colon, an open parenthesis);
- :func:`sentence_lemmas`: the aspects and nouns of the sentence, whose clauses would speak of them again;
- :func:`clash`: a clause about a category the sentence already evaluates under another name (the same price, a
  whole and its part, the visit as a whole after its parts, a total failure after praise);
- :data:`OVERALL` / :data:`VISIT`: an overall verdict of the sentence, after which one clause at most follows.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .polarity import LABEL_SIGN
from .strategies import Prepared, aspect_terms

if TYPE_CHECKING:  # adddiff imports this module
    from .adddiff import PoolEntry

_CONCESSION = re.compile(r"\b(although|though|however|whereas|not only)\b|^\W*while\b|(^|[,;]\s*)yet\b",
                         re.IGNORECASE)
_STOP = frozenset({"the", "a", "an", "of", "and", "or", "to", "in", "on", "for", "with", "my", "its", "their", "this",
                   # heads too general to relate two aspects (college life / battery life, speaker / build quality)
                   "life", "quality", "list", "experience", "time"})


NO_EVALUATION = re.compile(
    r"\b(?:recommend|suggest|advise)(?:ed|s)?\s+(?:(?!(?:every|no|any|some)?thing\b|pudding\b|dumpling)\w+ing|"
    r"that (?:you|we|they|people))\b|"
    r"\bit (?:was|is|'s) (?:important|essential|necessary|crucial|vital) (?:that|to)\b",
    re.IGNORECASE)
"""A recommendation of an action (*I recommend getting a case*, *requesting a table by the window*) or a stated
requirement (*it was important that it was powerful enough*): the sentence does not evaluate its aspects, so a
contrast clause hangs on nothing."""


def unfit_source(sentence: str) -> str | None:
    """Why ``, but <clause>`` cannot be appended to ``sentence`` (corrected mode), or ``None``.

    A sentence that states a requirement or recommends an action evaluates nothing an appended clause could
    contrast. A sentence that already holds a concession would get a second contrast (``Though ..., but ...``); a
    colon-introduced list or a question does not take a trailing ``but`` clause. A plain ``but`` stays: the
    clauses are then joined with ``; still,`` (:func:`append_clauses`).
    """
    body = sentence.rstrip()
    if re.search(r"\?[!?.]*$", body):  # (*How can they survive serving mediocre food?!*)
        return "the sentence is a question: an appended contrast clause would not read"
    opened = body.rfind("(")
    if opened > 0 and ")" not in body[opened:]:  # (a sentence all in one parenthesis takes the clause inside it)
        return "the sentence ends inside an open parenthesis: an appended clause would land inside it"
    if re.search(r"\w:\s*\S[^:]*,", body):
        return "the sentence introduces a list with a colon: an appended contrast clause would not read"
    m = NO_EVALUATION.search(body)
    if m and not re.search(r"\bbut\b", body[m.end():], re.IGNORECASE):
        return (f"the sentence states a requirement or recommendation ({m.group(0).lower()!r}), not an evaluation: "
                "an appended contrast has nothing to contrast")
    m = _CONCESSION.search(body)
    if m:
        return (f"the sentence already holds a contrast or concession ({m.group(0).strip(' ,;').lower()!r}): "
                "an appended one would double it")
    return None


def _lemma(word: str) -> str:
    """A crude noun lemma (plural ``-s``/``-ies`` off) for comparing aspect words."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


_SAME = {"ambience": "atmosphere", "ambiance": "atmosphere", "vibe": "atmosphere", "display": "screen",
         "monitor": "screen", "panel": "screen", "lcd": "screen", "graphic": "screen", "resolution": "screen",
         "trackpad": "touchpad", "mousepad": "touchpad",
         "key": "keyboard", "storage": "memory", "os": "operating", "osx": "operating", "window": "operating",
         "vista": "operating", "xp": "operating", "win7": "operating", "win8": "operating", "leopard": "operating",
         "lion": "operating", "maverick": "operating", "employee": "staff", "worker": "staff", "waitstaff": "staff",
         "cost": "price"}
"""Words that name the same aspect (*the atmosphere* / *no ambience*, *the display* / *the screen*, *Windows 8* /
*the operating system*): a clause about one contradicts or repeats what the sentence says of the other."""


def content_lemmas(text: str) -> set[str]:
    """The content words of ``text`` as crude lemmas, one name per aspect (:data:`_SAME`)."""
    words = re.findall(r"[a-z0-9]+", text.lower().replace("operating system", "os"))
    return {_SAME.get(m, m) for m in (_lemma(w) for w in words if w not in _STOP)}


def sentence_lemmas(prep: Prepared) -> set[str]:
    """Lemmas of the sentence's aspect terms and nouns: an appended clause about one of them would contradict
    or blur what the sentence already says (``battery`` / ``battery life``, ``service`` / ``customer service``)."""
    out: set[str] = set()
    for t in aspect_terms(prep):
        out |= content_lemmas(t)
    for tok, up in zip(prep.parse.tokens, prep.parse.upos):
        if up in ("NOUN", "PROPN"):
            out |= content_lemmas(tok)
    return out


_PRICE = re.compile(r"\$|\b(?:prices?|priced|pricing|pricey|overpriced|expensive|cheap(?:er|ly)?|inexpensive|"
                    r"affordable|costs?|costly|bargain|pay|paid|money|dollars?|bucks|value|worth|wallet|bills?|"
                    r"(?:over)?charged|charges)\b",
                    re.IGNORECASE)
_SPEED = re.compile(r"\b(?:fast(?:er|est)?|quick(?:er|est|ly)?|speedy|speed|speeds|slow(?:er|est|ly|s|ness)?|sluggish|"
                    r"snappy|zippy|responsive|unresponsive|lag|lags|laggy|lagging|performance|performs?|"
                    r"(?:over)?heat(?:s|ing)?|(?:works?|runs?|running|working) (?:great|well|fine|perfectly|"
                    r"flawlessly|smoothly))\b", re.IGNORECASE)
"""Words of speed and performance: a clause that says the machine (or the service) is slow after a sentence that
calls it fast or says it runs well (*this thing is fast and clear as can be, but the computer runs extremely slowly*;
*amazing performance, but Internet Explorer was very slow*; *it works great, but the computer runs extremely
slowly*) speaks of the same thing twice, like two prices."""
_APPLE = frozenset({"apple", "mac", "macs", "macbook", "macbooks", "imac", "mbp", "osx", "ios", "safari", "itunes",
                    "iphoto", "imovie", "garageband", "lion", "leopard", "mavericks", "appleservice", "applecare"})
_WINDOWS = frozenset({"windows", "vista", "xp", "win7", "win8", "microsoft", "explorer", "pc", "pcs"})
_MAKERS = frozenset({"dell", "hp", "toshiba", "acer", "asus", "lenovo", "sony", "samsung", "gateway", "compaq", "ibm",
                     "thinkpad", "vaio", "alienware", "msi", "fujitsu", "chromebook"})
"""Platform words: Apple's (:data:`_APPLE`), Windows' (:data:`_WINDOWS`) and the Windows machines' makers."""


def _platforms(text: str) -> set[str]:
    words = set(re.findall(r"[a-z0-9]+", text.lower()))
    out = {f"maker:{w}" for w in words & _MAKERS}
    if words & _WINDOWS or out:
        out.add("windows")
    if words & _APPLE:
        out.add("apple")
    return out


def _platforms_differ(clause: str, sentence: str) -> bool:
    """Whether the clause names another platform than the sentence (*this machine has the snow lion, but my problem
    was with DELL customer service*; *excellent Mac OS ..., but Vista would run slowly*): Apple against Windows or
    one maker against another. Two reviews of two machines, not one."""
    a, b = _platforms(clause), _platforms(sentence)
    if not a or not b:
        return False
    for one, other in ((a, b), (b, a)):
        if "apple" in one and "windows" not in one and "windows" in other and "apple" not in other:
            return True
    ma, mb = {x for x in a if x.startswith("maker:")}, {x for x in b if x.startswith("maker:")}
    return bool(ma and mb and not ma & mb)


_FAILURE = re.compile(r"\b(?:dead|died|dies|broke|broken|crash(?:ed|es)?|corrupt(?:ed)?|stopped working|went out|"
                      r"(?:does|did|would|will)(?: not|n't) (?:work|turn on|boot|start))\b", re.IGNORECASE)
_FAMILIES = {
    "food": frozenset({"food", "meal", "meals", "dish", "dishes", "dinner", "lunch", "breakfast", "brunch", "cuisine"}),
    "service": frozenset({"service", "staff", "waitstaff"}),
    "place": frozenset({"place", "restaurant", "spot"}),
    "machine": frozenset({"computer", "machine", "laptop", "notebook", "netbook", "system", "product", "unit", "pc",
                          "mac", "macbook", "hardware"}),
}
"""Aspect heads that name a whole (the food, the service, the place, the machine): a clause about the whole
contradicts the sentence's evaluation of a part of it and the other way round (*their calamari is a winner, but
we got subpar food*; *great food, but the fish was not well prepared*)."""
_CORE = frozenset({"motherboard", "mainboard", "board", "logicboard", "kernel", "kernal"})
"""Parts without which the machine does nothing (its board, its system's kernel): their failure is the machine's."""
_PARTS = {
    "food": frozenset({"taste", "tastes", "flavor", "flavors", "flavour", "flavours", "seasoning"}),
    "service": frozenset({"waiter", "waiters", "waitress", "waitresses", "server", "servers", "bartender",
                          "bartenders", "host", "hostess", "manager", "busboy", "busboys", "staffs", "workers",
                          "employees", "member", "members"}),
    "place": frozenset({"space", "room", "area", "seating", "atmosphere", "ambience", "ambiance", "decor", "setting",
                        "interior", "table", "tables"}),
    "machine": frozenset({"performance", "speed", "processor", "cpu", "power", "runs", "works", "working", "operation",
                          "performs", "perform", "boot", "startup", "multitasking"}),
}


VISIT = frozenset({"meal", "meals", "experience", "experiences", "visit", "visits", "evening", "night", "dinner",
                    "lunch", "brunch", "breakfast"})
"""Heads that name the whole visit (*we had a terrible meal*, *the entire dining experience was wonderful*): a verdict
on everything the sentence evaluates, food, service and room alike."""
_PHYSICAL = frozenset({"small", "cramped", "crowded", "tiny", "narrow", "noisy", "loud", "big", "large", "huge",
                       "spacious", "roomy", "sleek", "modern", "cozy", "cosy", "dark", "bright", "clean", "dirty",
                       "filthy", "quiet", "packed", "busy", "decorated", "hot", "cold", "warm", "tight"})
"""What a place is as a room (*the place is small and cramped*, *sleek and modern*): an aspect of its own, not a
verdict on the visit (*the place is lovely*)."""


OVERALL = re.compile(
    r"\b(?:(?:highly|strongly|definitely|would|will|i) recommend\w*|(?:highly )?recommended|a must\b|must[- ](?:try|"
    r"visit|go|have)|never disappoint\w*|(?:will|would|'ll) (?:definitely |certainly |surely )?(?:be back|return|go "
    r"back|come back)|(?:won't|will not|never) (?:be back|return|go back|come back)|don't (?:ever )?bother|stay away|"
    r"(?:best|worst) (?:restaurant|place|meal|experience|laptop|computer|purchase)\b|a keeper\b|(?:great|wonderful|"
    r"amazing|fantastic|excellent|lovely|terrible|awful|horrible|bad) (?:experience|time|evening)\b)", re.IGNORECASE)
"""An overall verdict on the place or the product (*highly recommended*, *we'll be back*, *stay away*): one clause
against it reads as a concession, a pile of them contradicts it."""


def _verdict(term: str, text: str) -> bool:
    """Whether a clause about ``term`` reading ``text`` is a verdict on the whole visit: its head names the visit
    (:data:`VISIT`), or the place (*the place is lovely*) unless the clause says what the room is like."""
    head = head_word(term)
    if head in VISIT:
        return True
    return head in _FAMILIES["place"] and not _PHYSICAL.intersection(re.findall(r"[a-z]+", text.lower()))


def head_word(term: str) -> str:
    words = re.findall(r"[a-z0-9]+", term.lower())
    return words[-1] if words else ""


def _family(term: str, wn: Any) -> tuple[str | None, bool]:
    """The family of an aspect head and whether it names the whole: ``("food", True)`` for *food*, ``("food",
    False)`` for *calamari* or *hot dogs* (WordNet files it among foods), ``(None, False)`` for a head of no
    family."""
    head = head_word(term)
    for fam, whole in _FAMILIES.items():
        if head in whole:
            return fam, True
    for fam, parts in _PARTS.items():
        if head in parts:
            return fam, False
    words = re.findall(r"[a-z0-9]+", term.lower())
    # a dish named by what it is made of (*chicken milanese*, *lamb chop*): WordNet knows the modifier
    food = _is_food(term, wn) or _is_food(head, wn) or any(_is_food(w, wn) for w in words[:-1])
    return ("food", False) if food else (None, False)


def clash(entry: PoolEntry, prep: Prepared, labels: dict[str, str], sentence: str, wn: Any = None) -> str | None:
    """Why the appended ``entry`` would contradict the sentence rather than add a different aspect, or ``None``.

    - both speak of price (*the prices are really reasonable, but the pizza is overpriced*): the clause's term
      differs, but its opinion is about the same thing;
    - the clause is about a whole (*the food*, *the service*, *the machine*) and the sentence evaluates, with
      another polarity, a part of it (*calamari*: food by WordNet; *korma* in *the korma was bland*: a dish by
      its taste; *waiter*; *performance*), or the other way round; *everything* is the whole of any aspect;
    - the clause is a verdict on the whole visit (:func:`_verdict`: *we had a terrible meal*, *the place is
      lovely*) and the sentence evaluates anything with another polarity (*the gnocchi was the best I ever had*),
      or the sentence so evaluates the visit (*such a fantastic dining experience*) and the clause the whole food,
      service or place;
    - the clause states a total failure of the machine or its motherboard (*the motherboard is dead*) and the
      sentence praises something, or a failure of any part after the machine's function is praised (*performance
      is impressive*): a dead machine has no impressive performance.
    """
    sign = LABEL_SIGN.get(entry.label, 0)
    others = [o for o in prep.aspects if LABEL_SIGN.get(labels.get(o.aspect.id, ""), 0) == -sign != 0]
    if _PRICE.search(entry.text) and _PRICE.search(sentence):
        return "price"
    if _SPEED.search(entry.text) and _SPEED.search(sentence):
        return "speed"
    if _platforms_differ(entry.text, sentence):
        return "platform"
    head = head_word(entry.term)
    if others and head == "everything":
        return "whole"
    if others and _verdict(entry.term, entry.text):
        return "verdict"
    fam, whole = _family(entry.term, wn)
    if whole and any(head_word(o.aspect.term) in VISIT for o in others):
        return "verdict"  # *such a fantastic dining experience, but the staff was horrible*: the visit holds the staff
    if fam is None and _tasted(entry.text):
        fam = "food"
    if fam is not None:
        for o in others:
            ofam, owhole = _family(o.aspect.term, wn)
            if ofam is None and _tasted(" ".join(prep.sentence.text[a:b] for a, b in o.aspect.opinions)):
                ofam = "food"
            if ofam == fam and (whole or owhole):
                return "whole"
    if _FAILURE.search(entry.text):
        # a dead machine (or its motherboard) runs nothing the sentence praises; a dead part after a praised function
        # (*performance is impressive; the hard drive went out*) contradicts it; a dead charger after a great
        # keyboard does not
        core = (fam == "machine" and whole) or head in _CORE
        praised = others or (sign < 0 and "positive" in labels.values())
        if (core and praised) or any(_family(o.aspect.term, wn)[0] == "machine" for o in others):
            return "failure"
    return None


_TASTE = re.compile(r"\b(?:bland|salty|soggy|stale|tasteless|over-?cooked|under-?cooked|cooked|greasy|oily|delicious|"
                    r"tasty|yummy|flavou?rful|watery|juicy|tender|crispy|crunchy|burnt|tasted|tastes|seasoned|spicy|"
                    r"savou?ry|delectable|scrumptious|mushy|chewy|rubbery)\b", re.IGNORECASE)
"""Predicates only food takes: a clause or an opinion with one is about a dish even where WordNet does not know the
dish (*the korma was bland*, *the bruscetta is a bit soggy*: a part of the food after *really great food*)."""


def _tasted(text: str) -> bool:
    return bool(_TASTE.search(text))


def _is_food(word: str, wn: Any) -> bool:
    """Whether WordNet files a noun sense of ``word`` among foods (its ``noun.food`` lexicographer file) that is
    not a drink (*great food, but the sangria was weak* names two things)."""
    word = "_".join(re.findall(r"[a-z0-9]+", word.lower()))
    if wn is None or not word:
        return False
    key = (id(wn), word)
    if key not in _FOOD_CACHE:
        senses = wn.synsets(word, "n")[:3]
        drink = any(h.name() == "beverage.n.01" for s in senses for h in s.closure(lambda x: x.hypernyms()))
        _FOOD_CACHE[key] = word not in _NOT_FOOD and not drink and any(s.lexname() == "noun.food" for s in senses)
    return _FOOD_CACHE[key]


_FOOD_CACHE: dict[tuple[int, str], bool] = {}
_NOT_FOOD = frozenset({"menu", "menus", "selection", "variety", "choice", "choices", "options"})
"""Food-filed words that name the offer, not a dish: *great calamari, but the menu is limited* names two things."""
