"""One ARTS generation toolkit (spaCy + WordNet) per test session, with its WordNet copy in a temporary dir.

Both ``test_arts_generate*.py`` files use it, so the spaCy model loads once; the CLI tests pass the same
``--cache-dir`` and get the same in-process toolkit.
"""
from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from pathlib import Path


@functools.lru_cache(maxsize=1)
def cache_dir() -> Path:
    d = Path(tempfile.mkdtemp(prefix="sentiprobe-test-wn-"))
    atexit.register(shutil.rmtree, d, True)
    return d


def kit():
    from sentiprobe.generate.arts.pipeline import default_toolkit

    return default_toolkit(cache_dir())


def towe_record(sid: str, text: str, aspects) -> dict:
    """A TOWE-format record of ``text`` with ``aspects`` as (term, label, opinion words); offsets from the
    first occurrence of each string."""
    terms = {}
    for i, (term, pol, ops) in enumerate(aspects):
        a = text.index(term)
        spans = [[text.index(o), text.index(o) + len(o)] for o in ops]
        terms[f"{sid}_{i}"] = {"id": f"{sid}_{i}", "polarity": pol, "term": term, "from": a, "to": a + len(term),
                               "opinion_words": ops, "opinion_position": spans}
    return {"sentence": text, "term_list": terms, "contra": False, "multi": len(aspects) > 1, "id": sid}


def generate_towe(tmp_path: Path, kit, sents, cfg):
    """Generate with ``cfg`` from a TOWE file of ``sents`` as (id, text, aspects) written under ``tmp_path``."""
    import json

    from sentiprobe.generate.arts.inputs import read_input
    from sentiprobe.generate.arts.pipeline import generate

    path = tmp_path / "in.json"
    path.write_text(json.dumps({sid: towe_record(sid, t, a) for sid, t, a in sents}), encoding="utf-8")
    return generate(read_input(path), cfg, kit)


def flat_prep(text: str, aspects: list[tuple[str, str]]):
    """A prepared sentence with a flat stand-in parse (every token its own head, tagged NN): enough for AddDiff's
    pool and joint, which read the aspects and the words, not the tree."""
    from sentiprobe.generate.arts.inputs import Aspect, Sentence
    from sentiprobe.generate.arts.resources import Parse
    from sentiprobe.generate.arts.strategies import Prepared, prepare_aspects
    from sentiprobe.generate.arts.text import tokenize

    found = []
    for n, (term, polarity) in enumerate(aspects):
        a = text.index(term)
        found.append(Aspect(f"s1_{n}", term, polarity, a, a + len(term)))
    s = Sentence("s1", text, tuple(found))
    toks = tuple(tokenize(text))
    parse = Parse(toks, ("NN",) * len(toks), ("X",) * len(toks), tuple(range(len(toks))), ("",) * len(toks))
    return Prepared(s, toks, parse, prepare_aspects(s, toks))


def pool_entry(text: str, term: str, label: str):
    """A mined AddDiff pool clause."""
    from sentiprobe.generate.arts.adddiff import PoolEntry

    return PoolEntry(text, term, label, "train#1", "clause")


def mined_clauses(tmp_path: Path, pool, lexicon=None):
    """The clauses :func:`~sentiprobe.generate.arts.clauses.mine_clauses` keeps from a pool file of ``(id, text,
    [(term, label, opinion words)])`` records (the lexicon VADER's unless given), and its counted rejections."""
    import json

    from sentiprobe.generate.arts.clauses import mine_clauses
    from sentiprobe.generate.arts.inputs import read_input
    from sentiprobe.generate.arts.pipeline import prepare
    from sentiprobe.generate.arts.polarity import Polarity

    p = tmp_path / "pool.json"
    p.write_text(json.dumps({sid: towe_record(sid, t, a) for sid, t, a in pool}), encoding="utf-8")
    return mine_clauses(prepare(read_input(p).sentences, kit()), "pool.json", lexicon or Polarity())


def variant(gen, key: str):
    """The generated variant ``key`` (*s_0_adv1*), or None."""
    return next((v for v in gen.variants if v.key == key), None)


def refusal(gen, aid: str, stage: str = "revtgt") -> str | None:
    """Why ``stage`` refused the aspect ``aid``, or None."""
    return next((s.reason for s in gen.skipped if s.record == aid and s.stage == stage), None)


def reverse_one(tmp_path: Path, kit, cfg, text: str, term: str, label: str, opinions: list[str]):
    """Generate with ``cfg`` from one sentence with one aspect: its RevTgt variant (or None) and the reason RevTgt
    refused it (or None)."""
    gen = generate_towe(tmp_path, kit, [("s", text, [(term, label, opinions)])], cfg)
    return variant(gen, "s_0_adv1"), refusal(gen, "s_0")
