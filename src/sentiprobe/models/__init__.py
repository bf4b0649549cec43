"""Model adapter registry. Importing this package registers every built-in adapter.

Heavy backends (torch, transformers, HTTP clients) are imported lazily inside the adapters,
so registering them costs nothing.
"""
from __future__ import annotations

from .base import MODELS, ModelAdapter, format_input, mark_aspect

from . import baselines  # noqa: F401
from . import llm  # noqa: F401
from . import local_lm  # noqa: F401
from . import encoder_models  # noqa: F401
from . import hf  # noqa: F401
from . import hf_finetune  # noqa: F401
from . import hf_seq2seq  # noqa: F401
from . import hf_nli  # noqa: F401
from . import lexicon  # noqa: F401
from . import constituents, probes  # noqa: F401
from . import gts  # noqa: F401
from . import triplet_rules  # noqa: F401

__all__ = ["MODELS", "ModelAdapter", "format_input", "mark_aspect", "create_model"]


def create_model(name: str, **kwargs) -> ModelAdapter:
    """Instantiate a registered model by name with keyword arguments (did-you-mean when unknown)."""
    return MODELS.create(name, **kwargs)
