"""Stage ``data``: LexComp records -> :class:`~sentiprobe.core.types.Item` (docs/protocols/lexcomp.md#tasks).

Item layout (what the probe adapters in ``models/probes.py`` read):

- ``tokens``: the whitespace-split sentence; ``text`` = the tokens joined by spaces;
- ``text_pair``: the paraphrase (NC Relations, AN Attributes);
- ``meta["probe"]``: the probe input of docs/protocols/lexcomp.md#tasks: ``span`` ([u_s; u_e]), ``target`` ([u_t; e_t]),
  ``pair`` ([u_s; u_e; u'_1; u'_l]), ``paraphrase`` ([u'_1; u'_l], the -(Context+Phrase) ablation) or
  ``tag`` (BIO tagging);
- ``meta["span"]``: inclusive token span ``[start, end]``; ``meta["target"]``: the NC Literality target;
- ``meta["first"]``/``meta["last"]``/``meta["target_word"]``: the constituents the majority baselines key on;
- ``label``: the gold label; Phrase Type: the tag sequence joined by spaces.

VPC/LVC without ``bnc_dir``/``extracted_dir``: items carry no sentence (``tokens`` is None, ``text`` is the
span's lemmas, e.g. ``take on``): labels and constituents are enough for the majority baselines, a text
model sees the phrase alone, and the probes refuse the items with the reason.
"""
from __future__ import annotations

import copy
import dataclasses
from pathlib import Path
from typing import Any

from ...core.errors import ConfigError, MissingDataError
from ...core.types import Item
from ...models.base import LABEL_PRIOR
from ...protocols.lexcomp import baselines
from ...protocols.lexcomp.transforms import ablate, control_labeller
from ..base import default_statistics
from . import bnc, load
from .score import LexCompContext

SPLIT_FILES = {"train": "train", "dev": "val", "test": "test"}
DIRS = {"vpc": "vpc_classification", "lvc": "lvc_classification", "nc-literality": "nc_literality",
        "nc-relations": "nc_relations", "an-attributes": "an_attribute_selection", "phrase-type": "mwe_type"}

PHRASE_ONLY = "phrase only, no context: not the protocol's measure"
NO_TEXT = ("the released {task} files hold BNC ids only (no sentences): only the majority baselines run; every other "
           "model (a probe, a text classifier) is refused, since it would see the phrase alone (" + PHRASE_ONLY
           + "). Pass the suite option bnc_dir=PATH (env SENTIPROBE_BNC_DIR) with a licensed BNC XML Edition, or "
           "extracted_dir=PATH with extracted train/val/test.jsonl, to run probes.")


def has_sentences(suite) -> bool:
    """Whether the suite's items carry their sentence (VPC/LVC only with ``bnc_dir`` or ``extracted_dir``)."""
    opts = suite.options
    return task_of(suite) not in ("vpc", "lvc") or opts.bnc_dir is not None or opts.extracted_dir is not None


def refuse(suite, model) -> str | None:
    """The ``SuiteSpec.refuse`` of the LexComp suites: without the sentences, VPC/LVC admit the majority
    baselines only (models with the ``label-prior`` capability).

    Why refuse rather than label: a text model there sees the phrase alone (``take on``), so every occurrence of
    a phrase gets the same answer; its accuracy measures the phrase types, not composition in context, and a
    labelled number would still sit in leaderboards and paired tests beside the baselines. Predictions made
    elsewhere (perhaps with the sentences) are still scored by ``sentiprobe score``.
    """
    if has_sentences(suite) or LABEL_PRIOR in getattr(model, "capabilities", ()):
        return None
    task = task_of(suite).upper()
    return (f"refused on {suite.name}: the released {task} files hold BNC ids only, so the model would see the "
            f"phrase alone, not its sentence ({PHRASE_ONLY}); without the sentences only the majority baselines "
            "(majority, majority-first, majority-last) run. Pass the suite option bnc_dir=PATH (env "
            "SENTIPROBE_BNC_DIR) or extracted_dir=PATH to run other models")


def task_of(suite) -> str:
    return suite.name.removeprefix("lexcomp-")


def data_files(suite) -> list[str]:
    task = task_of(suite)
    prefix = "ids_" if task in ("vpc", "lvc") else ""
    return [f"lexcomp/{DIRS[task]}/{prefix}test.jsonl"]


@dataclasses.dataclass(frozen=True)
class Loaded:
    """One split's validated records and what loading them found out (recorded in the results).

    Attributes:
        records: the validated records.
        no_text: the note of a VPC/LVC split read without its BNC text (None: the text is there).
        bnc: the BNC extraction report of a split read from ``bnc_dir`` (None: not extracted).
    """

    records: list[dict[str, Any]]
    no_text: str | None = None
    bnc: dict[str, Any] | None = None


def _records(suite, split: str) -> Loaded:
    task, name = task_of(suite), SPLIT_FILES[split]
    d = DIRS[task]
    if task in ("vpc", "lvc"):
        opts = suite.options
        if opts.extracted_dir is not None:
            p = Path(opts.extracted_dir) / f"{name}.jsonl"
            if not p.is_file():
                raise MissingDataError(p, f"extracted_dir must hold {name}.jsonl")
            return Loaded(load.read_bnc_extracted(p, task))
        ids = load.read_bnc_ids(suite.path(f"{d}/ids_{name}.jsonl"), task)
        if opts.bnc_dir is None:
            return Loaded(ids, no_text=NO_TEXT.format(task=task.upper()))
        recs, report = bnc.extract(Path(opts.bnc_dir), ids)
        return Loaded(recs, bnc=report)
    p = suite.path(f"{d}/{name}.jsonl")
    if task == "nc-literality":
        return Loaded(load.read_nc_literality(p))
    if task in ("nc-relations", "an-attributes"):
        return Loaded(load.read_span_paraphrase(p, task))
    return Loaded(load.read_mwe(p))


def loaded(suite, split: str) -> Loaded:
    """A split's records and loading notes (loaded once per bound suite)."""
    return suite.cached(f"lexcomp:{split}", lambda: _records(suite, split))


def records(suite, split: str) -> list[dict[str, Any]]:
    """Validated records of a split (loaded once per bound suite)."""
    return loaded(suite, split).records


def loading_notes(suite, splits: tuple[str, ...]) -> dict[str, Any]:
    """What loading ``splits`` found out: ``note`` (no BNC text) and ``bnc_extraction`` (report per split)."""
    out: dict[str, Any] = {}
    for split in splits:
        got = loaded(suite, split)
        if got.no_text is not None:
            out["note"] = got.no_text
        if got.bnc is not None:
            out.setdefault("bnc_extraction", {})[split] = copy.deepcopy(got.bnc)
    return out


def _item(suite, split: str, rec: dict[str, Any], task: str) -> Item:
    iid = f"{split}:{rec['line']}"
    toks: list[str] | None = rec.get("tokens")  # None: BNC ids only (VPC/LVC without --suite-arg bnc_dir)
    meta: dict[str, Any] = {"line": rec["line"], "task": task}
    if task == "phrase-type":
        meta["probe"] = "tag"
        words = list(toks or [])
        return Item(iid, iid, split, " ".join(words), " ".join(rec["tags"]), tokens=tuple(words), meta=meta)
    meta.update(first=rec["first"], last=rec["last"])
    for k in ("bnc_id", "span_text", "nc", "target_word"):
        if rec.get(k) is not None:
            meta[k] = rec[k]
    if toks is None:  # BNC ids only: the text is the phrase's lemmas, so text models see the phrase alone
        meta["probe"] = "none"
        return Item(iid, iid, split, rec["span_text"], rec["label"], meta=meta)
    meta["span"] = list(rec["span"])
    pair = None
    if task == "nc-literality":
        meta["probe"], meta["target"] = "target", rec["target"]
    elif "paraphrase" in rec:
        pair = " ".join(rec["paraphrase"])
        meta["probe"] = "paraphrase" if rec.get("paraphrase_only") else "pair"
    else:
        meta["probe"] = "span"
    return Item(iid, iid, split, " ".join(toks), rec["label"], text_pair=pair, tokens=tuple(toks), meta=meta)


def _plain_items(suite, split: str) -> list[Item]:
    task = task_of(suite)
    return [_item(suite, split, r, task) for r in records(suite, split)]


def load_items(suite, split: str) -> list[Item]:
    """Items of a split; classification items carry ``meta["control"]`` (their control-task label) and,
    under the ``ablation`` option, the ablated input (docs/protocols/lexcomp.md#ablations)."""
    if split not in SPLIT_FILES:
        raise ConfigError(f"unknown split {split!r}")
    items = _plain_items(suite, split)
    if task_of(suite) == "phrase-type":
        return items
    pick = control_labeller(_plain_items(suite, "train") if split != "train" else items, suite.labels)
    items = [dataclasses.replace(it, meta={**it.meta, "control": pick(it)}) for it in items]
    mode = getattr(suite.options, "ablation", "none")
    if mode != "none":
        items = [ablate(it, mode) for it in items]
    return items


def score_context(suite, trained: bool):
    """The frozen context of the score stage: the majority baselines fitted on the training split
    (docs/protocols/lexcomp.md#majority-baselines) and the notes the loading left (no BNC text, the BNC extraction
    report)."""
    task = task_of(suite)
    fitted = baselines.fit_all(suite.items("train"), task)
    provenance = loading_notes(suite, ("train", "test"))  # the splits scoring reports on
    return LexCompContext(suite.name, tuple(suite.labels), provenance, task=task, baselines=fitted)


def statistics(suite) -> dict[str, Any]:
    """Counts per split plus the split-key disjointness check of docs/protocols/lexcomp.md#tasks (overlaps are
    reported)."""
    out = default_statistics(suite)
    task = task_of(suite)
    if task == "phrase-type":
        for split in ("train", "dev", "test"):
            if isinstance(out.get(split), dict) and "labels" in out[split]:
                tags: dict[str, int] = {}
                for it in suite.items(split):
                    for t in (it.label or "").split():
                        tags[t] = tags.get(t, 0) + 1
                out[split]["labels"] = tags
        return out
    keys = {s: {r["key"] for r in records(suite, s)} for s in ("train", "dev", "test")}
    out["whitespace_tokens_dropped"] = {s: sum(r.get("ws_dropped", 0) for r in records(suite, s))
                                        for s in ("train", "dev", "test")}
    out["split_key_overlap"] = {"train-dev": sorted(keys["train"] & keys["dev"]),
                                "train-test": sorted(keys["train"] & keys["test"]),
                                "dev-test": sorted(keys["dev"] & keys["test"])}
    out.update(loading_notes(suite, ("train", "dev", "test")))
    return out
