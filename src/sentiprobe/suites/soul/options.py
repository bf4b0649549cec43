"""The options of the SOUL suites (one frozen dataclass shared by ``soul-rc`` and ``soul-jg``).

Every setting that changes SOUL items, predictions or metrics is an option here, so a run records it
(``results.json`` -> ``suite_info.options``) and the cache sees it. The ``env`` names are the shell
variables the CLI (never this package) reads as defaults: ``SENTIPROBE_SOUL_<OPTION>``.

The generation options (``mode``, ``prompt_style``, ``max_tokens``, ``temperature``) reach the prediction
cache through the requests themselves: the prompt text (its style), the ``generate`` keyword arguments and
the called method (``generate`` / ``score_labels`` / ``classify``) are all part of the cache key
(:mod:`.predict`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from ...core.errors import ConfigError
from ..spec import option
from .predict import MODES, GenerationOptions
from .prompts import PROMPT_STYLES
from .textmetrics import MAX_BERTSCORE_LAYERS, TextMetricOptions

ENV = "SENTIPROBE_SOUL_"


@dataclass(frozen=True)
class SoulOptions:
    """Options of ``soul-rc`` / ``soul-jg`` (``--suite-arg KEY=VALUE``; env ``SENTIPROBE_SOUL_<KEY>``)."""

    # option() is a dataclasses.field specifier (ruff's RUF009 cannot tell)
    train_file: Path | None = option(
        None, "the official SOUL train.csv (unpublished); default <data-dir>/soul/train.csv when present, "
              "else learning models train on dev as a stand-in", env=ENV + "TRAIN_FILE", user_file=True)
    train_verify: bool = option(
        True, "check the training file's git blob id and the paper's counts (0: any SOUL-format file, "
              "recorded as unverified)", env=ENV + "TRAIN_VERIFY")
    mode: str = option("auto", "how a model answers: auto / generate / score (label log-probs, RC only) / classify",
                       choices=MODES, env=ENV + "MODE")
    prompt_style: str = option("chat", "chat (zero-shot prompts) or seq2seq ('Review:\\n...', fine-tuned models)",
                               choices=PROMPT_STYLES, env=ENV + "PROMPT_STYLE")
    max_tokens: int = option(256, "maximum new tokens per generated reply (Deng et al. 2023: 256)",
                             env=ENV + "MAX_TOKENS")
    temperature: float = option(0.0, "sampling temperature of generation, 0-2 (Deng et al. 2023: 0)",
                                env=ENV + "TEMPERATURE")
    bertscore: bool = option(True, "JG: compute BERTScore of justifications", env=ENV + "BERTSCORE")
    bertscore_model: Path | None = option(
        None, "JG: local BERTScore model directory (default: the packaged all-MiniLM-L6-v2)",
        env=ENV + "BERTSCORE_MODEL")
    bertscore_layers: int | None = option(
        None, f"JG: BERTScore layer, 1-{MAX_BERTSCORE_LAYERS} and at most the model's layer count "
              "(default 5 for the packaged MiniLM, the last layer otherwise)", env=ENV + "BERTSCORE_LAYERS")
    rouge_stemmer: bool = option(False, "JG: Porter stemming in ROUGE", env=ENV + "ROUGE_STEMMER")

    def __post_init__(self) -> None:
        # parse_options checks choices for string input; a directly built instance is checked here too
        if self.mode not in MODES:
            raise ConfigError(f"unknown SOUL mode {self.mode!r}; use one of {list(MODES)}")
        if self.prompt_style not in PROMPT_STYLES:
            raise ConfigError(f"unknown SOUL prompt style {self.prompt_style!r}; use one of {list(PROMPT_STYLES)}")
        if isinstance(self.max_tokens, bool) or not isinstance(self.max_tokens, int) or self.max_tokens < 1:
            raise ConfigError(f"SOUL max_tokens must be an integer >= 1, got {self.max_tokens!r}")
        t = self.temperature
        if isinstance(t, bool) or not isinstance(t, float | int) or not math.isfinite(t) or not 0.0 <= t <= 2.0:
            raise ConfigError(f"SOUL temperature must be in [0, 2], got {t!r}")
        n = self.bertscore_layers
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_BERTSCORE_LAYERS):
            raise ConfigError(f"SOUL bertscore_layers must be an integer in 1-{MAX_BERTSCORE_LAYERS}, got {n!r}")

    def generation(self) -> GenerationOptions:
        """The settings of the prediction stage."""
        return GenerationOptions(mode=self.mode, prompt_style=self.prompt_style, max_tokens=self.max_tokens,
                                 temperature=float(self.temperature))

    def text_metrics(self) -> TextMetricOptions:
        """The settings of the JG justification metrics."""
        return TextMetricOptions(rouge_stemmer=self.rouge_stemmer, bertscore=self.bertscore,
                                 bertscore_model=None if self.bertscore_model is None else str(self.bertscore_model),
                                 bertscore_layers=self.bertscore_layers)
