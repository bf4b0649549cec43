"""The ``soul-rc`` and ``soul-jg`` suites (see ``docs/soul.md`` and the SOUL spec).

Suite options (constructor keyword, else environment variable, else default; all recorded in
``details["options"]``):

=================  ==================================  =========================================================
option             environment variable                meaning
=================  ==================================  =========================================================
train_file         SENTIPROBE_SOUL_TRAIN_FILE          the official ``train.csv`` (unpublished here), else
                                                       ``<data-dir>/soul/train.csv`` when present; otherwise
                                                       learning models train on dev as a stand-in
train_verify       SENTIPROBE_SOUL_TRAIN_VERIFY        check the train file's git blob id and counts (default 1)
mode               SENTIPROBE_SOUL_MODE                auto / generate / score / classify (``predict``)
prompt_style       SENTIPROBE_SOUL_PROMPT_STYLE        chat (zero-shot prompts) / seq2seq (``Review:\\n...``)
max_tokens         SENTIPROBE_SOUL_MAX_TOKENS          per reply, default 256 (spec 5.1)
temperature        SENTIPROBE_SOUL_TEMPERATURE         default 0 (spec 5.1)
bertscore          SENTIPROBE_SOUL_BERTSCORE           compute BERTScore for JG (default 1)
bertscore_model    SENTIPROBE_SOUL_BERTSCORE_MODEL     local model directory (default: packaged MiniLM)
bertscore_layers   SENTIPROBE_SOUL_BERTSCORE_LAYERS    layer (default 5 for the packaged MiniLM)
rouge_stemmer      SENTIPROBE_SOUL_ROUGE_STEMMER       Porter stemming in ROUGE (default 0)
=================  ==================================  =========================================================

``sentiprobe score`` flags ``--rouge-stemmer``, ``--no-bertscore``, ``--bertscore-model`` and
``--bertscore-layers`` override the text-metric options for one scoring.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from ...core.errors import DataError, SentiprobeError
from ...core.types import Item, Prediction
from ...models.utils import as_bool, as_float, as_int
from ..legacy import Suite
from ..spec import SuiteScore
from .load import EXPECTED, LABELS, TRAIN_STAND_IN, load_split, load_train_file, split_stats
from .predict import GenerationOptions, predict
from .prompts import template_for
from .score import score_predictions
from .textmetrics import TextMetricOptions

ENV = "SENTIPROBE_SOUL_"


def _option(value: Any, name: str, default: Any) -> Any:
    if value is not None:
        return value
    env = os.environ.get(ENV + name.upper())
    return env if env not in (None, "") else default


class SoulSuite(Suite):
    """Shared loading, options, prediction and scoring of the two SOUL suites."""

    family = "soul"
    labels = LABELS
    input_kind = "text-pair"
    soul_task: ClassVar[str] = "rc"
    accepts: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, data_dir: str | Path | None = None, *, train_file: str | Path | None = None,
                 train_verify: Any = None, mode: str | None = None, prompt_style: str | None = None,
                 max_tokens: Any = None, temperature: Any = None, bertscore: Any = None,
                 bertscore_model: str | None = None, bertscore_layers: Any = None, rouge_stemmer: Any = None) -> None:
        super().__init__(data_dir)
        tf = _option(train_file, "train_file", None)
        if not tf and (self.data_dir / "soul" / "train.csv").is_file():
            tf = self.data_dir / "soul" / "train.csv"  # placed in the data dir by the user
        self.train_file = str(tf) if tf else None
        self.train_verify = as_bool("train_verify", _option(train_verify, "train_verify", True))
        self.generation = GenerationOptions(
            mode=str(_option(mode, "mode", "auto")), prompt_style=str(_option(prompt_style, "prompt_style", "chat")),
            max_tokens=as_int("max_tokens", _option(max_tokens, "max_tokens", 256), lo=1),
            temperature=as_float("temperature", _option(temperature, "temperature", 0.0), lo=0.0, hi=2.0))
        template_for(self.soul_task, self.generation.prompt_style)  # validates the style early
        layers = _option(bertscore_layers, "bertscore_layers", None)
        self.text_options = TextMetricOptions(
            rouge_stemmer=as_bool("rouge_stemmer", _option(rouge_stemmer, "rouge_stemmer", False)),
            bertscore=as_bool("bertscore", _option(bertscore, "bertscore", True)),
            bertscore_model=_option(bertscore_model, "bertscore_model", None),
            bertscore_layers=None if layers is None else as_int("bertscore_layers", layers, lo=1, hi=48))
        self._train_info: dict[str, Any] | None = None

    # ---- data ---------------------------------------------------------------------------------
    def data_files(self) -> list[str]:
        return ["soul/dev.csv", "soul/test.csv"]

    def _load(self, split: str) -> list[Item]:
        if split in ("dev", "test"):
            return load_split(self.path(f"{split}.csv"), split)
        if split != "train":
            raise DataError(f"unknown SOUL split {split!r}")
        if not self.train_file:
            return []
        items, self._train_info = load_train_file(self.train_file, verify=self.train_verify)
        overlap = sorted({i.group_id for i in items} & {i.group_id for i in self.items("test")})
        if overlap:
            raise DataError(f"the training file shares {len(overlap)} review(s) with the test split "
                            f"(first: {overlap[:3]})", path=self.train_file)
        return items

    def train_items(self) -> list[Item]:
        """The official train split when ``train_file`` is set, else dev as a stand-in."""
        return self.items("train") if self.train_file else self.items("dev")

    def dev_items(self) -> list[Item]:
        """Dev, unless dev already stands in for train (then empty: no model selects on its training data)."""
        return self.items("dev") if self.train_file else []

    def train_source(self) -> dict[str, Any]:
        if not self.train_file:
            return {"train_source": TRAIN_STAND_IN, "dev_source": "none (dev is the training stand-in)"}
        if self._train_info is None:
            try:
                self.items("train")
            except SentiprobeError as exc:  # scoring does not need the training file; say why it is unknown
                return {"train_source": f"file {self.train_file} (could not be loaded: {exc})", "dev_source": "dev"}
        return {**(self._train_info or {}), "dev_source": "dev"}

    # ---- predictions ---------------------------------------------------------------------------
    def supports(self, model: Any) -> bool:
        return bool(self.accepts & set(getattr(model, "capabilities", ())))

    def predict(self, predictor: Any, items: Sequence[Item]) -> list[Prediction]:
        return predict(predictor, items, self.soul_task, self.generation)

    def read_predictions(self, path: str | Path, column: str | None = None) -> list[Prediction]:
        from .predfile import read_soul_predictions

        return read_soul_predictions(path, self.soul_task, column)

    @classmethod
    def add_score_arguments(cls, parser) -> None:
        if "--rouge-stemmer" in getattr(parser, "_option_string_actions", {}):
            return  # both SOUL suites share these flags
        g = parser.add_argument_group("SOUL (soul-rc, soul-jg)")
        g.add_argument("--rouge-stemmer", action="store_true", default=None,
                       help="SOUL JG: Porter stemming in ROUGE (default off)")
        g.add_argument("--no-bertscore", dest="bertscore", action="store_const", const=False, default=None,
                       help="SOUL JG: skip BERTScore")
        g.add_argument("--bertscore-model", default=None, metavar="DIR",
                       help="SOUL JG: local BERTScore model directory (default: the packaged all-MiniLM-L6-v2)")
        g.add_argument("--bertscore-layers", type=int, default=None, metavar="N",
                       help="SOUL JG: BERTScore layer (default 5 for the packaged MiniLM)")

    def score(self, items: Sequence[Item], predictions: Sequence[Prediction], *, n_boot: int = 1000,
              seed: int = 0, missing: str = "error", rouge_stemmer: bool | None = None,
              bertscore: bool | None = None, bertscore_model: str | None = None,
              bertscore_layers: int | None = None) -> SuiteScore:
        by_id = self.check_predictions(items, predictions, missing=missing)
        t = self.text_options
        opts = TextMetricOptions(
            rouge_stemmer=t.rouge_stemmer if rouge_stemmer is None else bool(rouge_stemmer),
            bertscore=t.bertscore if bertscore is None else bool(bertscore),
            bertscore_model=bertscore_model or t.bertscore_model,
            bertscore_layers=bertscore_layers if bertscore_layers is not None else t.bertscore_layers,
            bertscore_batch_size=t.bertscore_batch_size)
        metrics, details = score_predictions(items, by_id, task=self.soul_task, n_boot=n_boot, seed=seed,
                                             text_options=opts)
        tmpl = template_for(self.soul_task, self.generation.prompt_style)
        details.update({
            "task": self.soul_task, **self.train_source(),
            "parse": ("strict = exact label after lower-case/strip (reference code); lenient = spec 4.3 extraction"
                      if self.soul_task == "rc" else
                      "spec 4.3 extraction (strict and lenient coincide); justification per spec 4.4/5.4"),
            "prompt_template": tmpl.describe(),
            "options": {"mode": self.generation.mode, "prompt_style": self.generation.prompt_style,
                        "max_tokens": self.generation.max_tokens, "temperature": self.generation.temperature,
                        "missing": missing},
            "item_ids": "<rid>:<n>, n = 1-based position of the statement among its review's rows",
        })
        return SuiteScore(metrics, details)

    # ---- report / stats --------------------------------------------------------------------------
    def report_section(self, result: dict[str, Any]) -> str:
        from .report import render_section

        return render_section(result)

    def stats(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for split in ("train", "dev", "test"):
            try:
                its = self.items(split)
            except Exception as exc:  # a missing split is reported, not fatal
                out[split] = {"error": str(exc)}
                continue
            if split == "train" and not its:
                out[split] = {"available": False,
                              "note": "the official train split is unpublished (see soul/PROVENANCE.md); learning "
                                      "models train on dev as a stand-in; set SENTIPROBE_SOUL_TRAIN_FILE to the "
                                      "official train.csv to use it"}
                continue
            s = split_stats(its)
            out[split] = {"available": True, **s, "items": s["statements"], "groups": s["reviews"]}
        out["expected"] = {k: {"reviews": v.reviews, "statements": v.statements,
                               "labels": {"true": v.true, "false": v.false, "not-given": v.not_given}}
                           for k, v in EXPECTED.items()}
        out["train_source"] = TRAIN_STAND_IN if not self.train_file else f"file {self.train_file}"
        return out


class SoulRC(SoulSuite):
    """SOUL review comprehension: is the statement true, false or not-given given the review?"""

    name = "soul-rc"
    task = "classify"
    soul_task = "rc"
    accepts = frozenset({"classify", "generate", "score_labels"})
    description = "SOUL review comprehension (true / false / not-given), accuracy and per-class F1"


class SoulJG(SoulSuite):
    """SOUL justification generation: the label plus a justification, compared with the annotators'."""

    name = "soul-jg"
    task = "generate"
    soul_task = "jg"
    accepts = frozenset({"generate", "classify"})
    description = "SOUL justification generation: label accuracy + BLEU / ROUGE / BERTScore of justifications"
