"""The SOUL judge evaluation (docs/protocols/soul.md#judge): an LLM scores justifications on a 5-criterion 1-3 rubric.

Protocol:

1. **Sample** ``n`` (default 50) test items uniformly without replacement with a recorded seed, among the
   items every compared system has a prediction for.
2. **One request per item** holding the review, the statement, the gold label and justification and,
   for every system, its predicted label and justification, keyed by system name (optionally
   anonymised as ``System 1`` ... and shuffled per item, seeded; off by default, as in the paper).
3. **Rubric**: correctness, alignment, relevance, conciseness, originality; integers 1 (poor) to 3
   (excellent). The judge answers only with a JSON object ``{system: {criterion: score}}``.
4. **Parsing**: code fences stripped, JSON parser then a safe literal evaluator (``ast.literal_eval``),
   then the outermost ``{...}``; system names must match exactly and every score must be an integer in
   1-3. An invalid reply is retried once (a follow-up turn naming the problem), then the item is
   marked missing; missing items are counted and reported.
5. **Summary**: per system and criterion, the mean score with a percentile bootstrap CI over reviews.

The judge runs through any generate-capable adapter via the cached predictor (temperature 0). Every
request's prompt and raw reply (and the retry's) are kept in :class:`JudgeRecord` (``judge.jsonl``).
Agreement with human ratings (Cohen's weighted kappa per criterion) is in :mod:`.agreement`; a judge
not checked against humans is reported as "not validated against human ratings".
"""
from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ...core.errors import ConfigError
from ...core.hashing import stable_hash
from ...core.types import SCHEMA_VERSION, Item, Prediction
from ...stats.bootstrap import grouped_mean
from ...stats.level import alpha_of
from .prompts import PromptTemplate

CRITERIA = ("correctness", "alignment", "relevance", "conciseness", "originality")
RUBRIC = {
    "correctness": "given the gold label, does the reasoning make sense and hold together?",
    "alignment": "is the justification consistent with the label the system itself predicted?",
    "relevance": "does it address this statement?",
    "conciseness": "is it short and to the point, while staying clear and accurate?",
    "originality": "does it add reasoning of its own rather than copying the review or statement?",
}
SCORE_RANGE = (1, 3)
NOT_VALIDATED = "not validated against human ratings"

JUDGE_TEMPLATE = PromptTemplate("soul-judge", "1", (
    "You are rating justifications written by automatic systems for a review comprehension task. Each "
    "system read the review and the statement below, decided whether the statement is true, false or "
    "not-given according to the review, and wrote a justification for its answer.\n\n"
    "Review:\n{review}\n\n"
    "Statement:\n{statement}\n\n"
    "Gold label: {gold_label}\n"
    "Gold justification: {gold_justification}\n\n"
    "The systems' answers:\n\n{systems}\n\n"
    "Score each system's justification on the five criteria below, each with an integer from 1 (poor) to "
    "3 (excellent):\n{rubric}\n\n"
    "Answer only with a JSON object that maps each system name ({names}) to an object with the five "
    "integer scores, in the form {{\"<system name>\": {{{schema}}}}}. Do not write any other text."))

RETRY_TURN = ("Your reply could not be used: {reason}. Reply again with only the JSON object mapping each "
              "system name ({names}) to its five integer scores from 1 to 3.")


class JudgeParseError(ValueError):
    """A judge reply is not a valid score object (the message says why)."""


@dataclass(frozen=True)
class JudgeConfig:
    """How the judge is run (recorded with its results).

    Attributes:
        n: number of sampled test items (spec: 50).
        seed: sampling (and anonymisation) seed.
        anonymise: show systems as ``System k`` in a per-item shuffled order (reduces name bias).
        max_tokens: maximum tokens of a judge reply.
        temperature: judge sampling temperature (spec decision: 0).
    """

    n: int = 50
    seed: int = 0
    anonymise: bool = False
    max_tokens: int = 512
    temperature: float = 0.0
    schema_version: int = SCHEMA_VERSION

    def __post_init__(self) -> None:
        if self.n < 1:
            raise ConfigError(f"judge n must be >= 1, got {self.n}")


@dataclass(frozen=True)
class JudgeRecord:
    """One judged item (one line of ``judge.jsonl``).

    Attributes:
        item_id, group_id: the item and its review.
        systems: the real system names judged.
        shown_as: real name -> name shown to the judge (equal unless anonymised).
        prompt: the judge prompt; output: the judge's raw reply.
        retry_output: the reply to the retry turn (None when no retry was needed).
        scores: real system name -> criterion -> score, or None when both replies were invalid (missing).
        error: why the item is missing (the last parse error), else None.
        template: judge template name, version and hash.
    """

    item_id: str
    group_id: str
    systems: list[str]
    shown_as: dict[str, str]
    prompt: str
    output: str | None
    retry_output: str | None = None
    scores: dict[str, dict[str, int]] | None = None
    error: str | None = None
    template: dict[str, str] = field(default_factory=dict)
    schema_version: int = SCHEMA_VERSION

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# ---- sampling and prompts -----------------------------------------------------------------------
def sample_items(items: Sequence[Item], n: int, seed: int) -> list[Item]:
    """``n`` items drawn uniformly without replacement (seeded), in their original order."""
    k = min(n, len(items))
    idx = np.random.default_rng(seed).choice(len(items), size=k, replace=False)
    return [items[i] for i in sorted(int(i) for i in idx)]


def aliases(names: Sequence[str], item_id: str, cfg: JudgeConfig) -> dict[str, str]:
    """Real name -> shown name: identity, or ``System k`` in a seeded per-item shuffled order."""
    if not cfg.anonymise:
        return {n: n for n in names}

    rng = np.random.default_rng(int(stable_hash([cfg.seed, item_id], 12), 16))
    order = rng.permutation(len(names))
    return {names[int(j)]: f"System {k + 1}" for k, j in enumerate(order)}


def build_prompt(item: Item, answers: Mapping[str, tuple[str | None, str | None]], shown: Mapping[str, str]) -> str:
    """The judge prompt for one item; ``answers`` maps real name -> (predicted label, justification)."""
    blocks = []
    for real in sorted(answers, key=lambda r: shown[r]):
        label, text = answers[real]
        blocks.append(f"System \"{shown[real]}\":\n  predicted label: {label or '(no valid label)'}\n"
                      f"  justification: {text if text else '(empty)'}")
    names = ", ".join(json.dumps(shown[r]) for r in sorted(answers, key=lambda r: shown[r]))
    schema = ", ".join(f'"{c}": <1-3>' for c in CRITERIA)
    return JUDGE_TEMPLATE.render(
        review=item.text, statement=item.text_pair or "", gold_label=item.label or "",
        gold_justification=item.meta.get("justification") or "", systems="\n\n".join(blocks),
        rubric="\n".join(f"- {c}: {RUBRIC[c]}" for c in CRITERIA), names=names, schema=schema)


# ---- parsing ------------------------------------------------------------------------------------------
_FENCE = re.compile(r"^\s*```[a-zA-Z]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


def _load_object(text: str) -> Any:
    t = text.strip()
    m = _FENCE.match(t)
    if m:
        t = m.group(1).strip()
    candidates = [t]
    a, b = t.find("{"), t.rfind("}")
    if 0 <= a < b and (a, b) != (0, len(t) - 1):
        candidates.append(t[a:b + 1])
    for c in candidates:
        try:
            return json.loads(c)
        except (json.JSONDecodeError, ValueError):
            pass
        try:
            return ast.literal_eval(c)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            pass
    raise JudgeParseError("the reply is not a JSON object or Python dict")


def parse_judge_reply(text: str | None, names: Sequence[str]) -> dict[str, dict[str, int]]:
    """Scores ``{shown name: {criterion: 1..3}}`` from a judge reply; raises JudgeParseError."""
    if text is None or not str(text).strip():
        raise JudgeParseError("empty reply")
    obj = _load_object(str(text))
    if not isinstance(obj, dict):
        raise JudgeParseError(f"expected an object mapping system names to scores, got {type(obj).__name__}")
    got, want = set(map(str, obj)), set(names)
    if got != want:
        raise JudgeParseError(f"system names {sorted(got)} do not match {sorted(want)}")
    out: dict[str, dict[str, int]] = {}
    lo, hi = SCORE_RANGE
    for name, scores in obj.items():
        if not isinstance(scores, dict):
            raise JudgeParseError(f"scores of {name!r} are not an object")
        keys = {str(k).strip().lower(): v for k, v in scores.items()}
        if set(keys) != set(CRITERIA):
            raise JudgeParseError(f"criteria of {name!r} are {sorted(keys)}, expected {list(CRITERIA)}")
        row = {}
        for c in CRITERIA:
            v = keys[c]
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise JudgeParseError(f"{name!r} {c} = {v!r} is not an integer in {lo}-{hi}")
            row[c] = v
        out[str(name)] = row
    return out


# ---- running ------------------------------------------------------------------------------------------
def _answer(p: Prediction | None) -> tuple[str | None, str | None]:
    if p is None:
        return None, None
    return p.label, p.text


def run_judge(predictor: Any, items: Sequence[Item], systems: Mapping[str, Mapping[str, Prediction]],
              cfg: JudgeConfig) -> list[JudgeRecord]:
    """Judge the systems' justifications on a sample of ``items`` (see the module docstring)."""
    if not systems:
        raise ConfigError("the judge needs at least one system's predictions")
    names = list(systems)
    common = [it for it in items if all(it.item_id in systems[s] for s in names)]
    if not common:
        raise ConfigError("no item has a prediction from every system")
    sample = sample_items(common, cfg.n, cfg.seed)
    kw = {"max_tokens": cfg.max_tokens, "temperature": cfg.temperature}
    shown = [aliases(names, it.item_id, cfg) for it in sample]
    prompts = [build_prompt(it, {s: _answer(systems[s].get(it.item_id)) for s in names}, sh)
               for it, sh in zip(sample, shown)]
    # a reply cut off at the token limit comes as {"text", "finish_reason"}: the judge reads its text (and fails
    # to parse it if it is incomplete, which asks again below)
    outs = [o["text"] if isinstance(o, dict) and isinstance(o.get("text"), str) else o
            for o in predictor.generate(prompts, **kw)]
    parsed: list[dict | None] = []
    errors: list[str | None] = []
    retry_idx = []
    for k, (out, sh) in enumerate(zip(outs, shown)):
        try:
            parsed.append(parse_judge_reply(out, list(sh.values())))
            errors.append(None)
        except JudgeParseError as exc:
            parsed.append(None)
            errors.append(str(exc))
            retry_idx.append(k)
    retry_out: dict[int, str] = {}
    if retry_idx:
        convs = []
        for k in retry_idx:
            turn = RETRY_TURN.format(reason=errors[k], names=", ".join(json.dumps(v) for v in shown[k].values()))
            convs.append([{"role": "user", "content": prompts[k]},
                          {"role": "assistant", "content": outs[k] if isinstance(outs[k], str) else ""},
                          {"role": "user", "content": turn}])
        for k, out in zip(retry_idx, predictor.generate(convs, **kw)):
            out = out["text"] if isinstance(out, dict) and isinstance(out.get("text"), str) else out
            retry_out[k] = out
            try:
                parsed[k] = parse_judge_reply(out, list(shown[k].values()))
                errors[k] = None
            except JudgeParseError as exc:
                errors[k] = str(exc)
    tmpl = {"name": JUDGE_TEMPLATE.name, "version": JUDGE_TEMPLATE.version, "hash": JUDGE_TEMPLATE.hash}
    records = []
    for k, it in enumerate(sample):
        back = {v: r for r, v in shown[k].items()}
        got = parsed[k]
        scores = None if got is None else {back[v]: s for v, s in got.items()}
        records.append(JudgeRecord(it.item_id, it.group_id, names, shown[k], prompts[k], outs[k],
                                   retry_out.get(k), scores, errors[k], tmpl))
    return records


def summarize(records: Sequence[JudgeRecord], *, n_boot: int = 1000, seed: int = 0,
              confidence: float) -> dict[str, Any]:
    """Per system and criterion: mean score (1-3) with a bootstrap CI over reviews at ``confidence`` (the run's
    level, required: a forgotten one fails the type check), n and missing counts."""
    alpha = alpha_of(confidence)  # ConfigError before any work
    systems: list[str] = []
    for r in records:
        systems += [s for s in r.systems if s not in systems]
    ok = [r for r in records if r.scores is not None]
    out: dict[str, Any] = {"n_sampled": len(records), "n_judged": len(ok), "n_missing": len(records) - len(ok),
                           "n_retried": sum(1 for r in records if r.retry_output is not None),
                           "criteria": list(CRITERIA), "scale": "1 (poor) to 3 (excellent)",
                           "confidence": float(confidence), "systems": {}}
    for s in systems:
        rows = [r for r in ok if r.scores is not None and s in r.scores]
        per = {}
        for c in CRITERIA:
            m = grouped_mean(c, [r.scores[s][c] for r in rows if r.scores is not None], [r.group_id for r in rows],
                             n_boot=n_boot,
                             seed=seed, alpha=alpha, note="mean judge score (1-3); bootstrap over reviews")
            per[c] = m.to_dict()
        out["systems"][s] = per
    return out
