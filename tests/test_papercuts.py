"""First-hour papercuts: each test failed before its fix (README quick starts, usage errors, hints)."""
from __future__ import annotations

import pytest

from sentiprobe.core.errors import ConfigError


def test_finetune_save_to_needs_a_checkpoint_hf_classifier_loads(tmp_path):
    from sentiprobe.models import MODELS

    with pytest.raises(ConfigError, match="save_to .*head=auto"):
        MODELS.create("hf-finetune", head="noncompsst", save_to=str(tmp_path / "ckpt"))
    model = MODELS.create("hf-finetune", save_to=str(tmp_path / "ckpt"), train_limit="8")
    assert model.config()["train_limit"] == 8
