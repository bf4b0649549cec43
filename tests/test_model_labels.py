"""Model labels name directories beside the run's own files: the rule (``sentiprobe.run.labels``) refuses names
that would break the run directory and accepts every registered model name (a label defaults to the name)."""
from __future__ import annotations

import pytest

from sentiprobe.core.errors import ConfigError
from sentiprobe.models import MODELS
from sentiprobe.run.labels import RESERVED_LABELS, check_label, label_problem
from sentiprobe.run.modelargs import model_entries
from sentiprobe.run.rundir import MODEL_FILES, TOP_FILES


def test_every_registered_model_name_is_a_label():
    assert [n for n in MODELS.names() if label_problem(n) is not None] == []


@pytest.mark.parametrize("label", ["report.html", "SUMMARY.json", "comparison.json", "predictions", "a" * 65,
                                   ".hidden", "a/b", "a b", "", "x\u200by", "<b>", "-x"])
def test_labels_that_would_break_the_run_directory_are_refused(label):
    with pytest.raises(ConfigError, match="model label"):
        check_label(label)


def test_the_run_files_are_reserved():
    assert set(TOP_FILES) | set(MODEL_FILES) <= set(RESERVED_LABELS)


def test_labels_differing_only_in_case_are_one_directory():
    with pytest.raises(ConfigError, match="more than once"):
        model_entries(["A=majority", "a=majority"])
    assert [e.label for e in model_entries(["gpt-4o@t0.7=majority", "c_1+lex=majority"])] == ["gpt-4o@t0.7",
                                                                                               "c_1+lex"]
