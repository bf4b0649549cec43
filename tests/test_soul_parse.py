"""SOUL answer parsing (docs/protocols/soul.md#label-extraction, #justification-extraction, #answer-parsing) and prompt
templates."""
from __future__ import annotations

import pytest

from sentiprobe.core.errors import ConfigError
from sentiprobe.core.types import Item
from sentiprobe.suites.soul.parse import (
    exact_label,
    extract_justification,
    extract_label,
    parse_answer,
)
from sentiprobe.suites.soul.prompts import (
    JG_CHAT,
    JG_TARGET,
    RC_CHAT,
    SEQ2SEQ_SOURCE,
    PromptTemplate,
    prompt_text,
    seq2seq_target,
    template_for,
)


@pytest.mark.parametrize("reply, label", [
    ("true", "true"), (" False \n", "false"), ("NOT-GIVEN", "not-given"),
    ("false.", None), ("Not given", None), ("The statement is false", None), ("", None), (None, None),
    ("not_given", None), ("true false", None),
])
def test_strict_rc_is_exact_match_after_lower_strip(reply, label):
    assert exact_label(reply) == label


@pytest.mark.parametrize("reply, label", [
    ("untrue", "true"),                      # no word boundaries (quirk kept)
    ("not true", "true"),                    # negation ignored (quirk kept)
    ("falsely", "false"),
    ("true, false or not-given", "true"),    # repeated question -> first option
    ("Not given", "not-given"),              # "not given" -> "not-given"
    ("It is NOT GIVEN in the review", "not-given"),
    ("not  given", None),                    # only the exact two-word form is rewritten
    ("1. False\n2. The reviewer liked it", "false"),
    ("Label: not-given Justification: price is never mentioned", "not-given"),
    ("yes", None), ("", None), (None, None),
])
def test_spec_4_3_extraction_quirks(reply, label):
    assert extract_label(reply) == label


@pytest.mark.parametrize("reply, just", [
    ("Label: true Justification: The reviewer said so.", "The reviewer said so."),
    ("Label:\ntrue\nJustification:\nThe reviewer said so.", "The reviewer said so."),
    ("label: false\njustification:   It is never said.  ", "It is never said."),
    ("1. False\n2. The reviewer never mentions price.", "The reviewer never mentions price."),
    ("1. False 2. The reviewer never mentions price.", "The reviewer never mentions price."),
    ("1. True\nThe reviewer praises the staff.", "The reviewer praises the staff."),
    ("1. True, the reviewer praises the staff.", "True, the reviewer praises the staff."),
    ("Label: true The reviewer praises the staff.", "The reviewer praises the staff."),
    ("The reviewer praises the staff.", "The reviewer praises the staff."),
    ("", ""), (None, ""),
])
def test_justification_candidate(reply, just):
    assert extract_justification(reply) == just


def test_parse_answer_modes():
    rc = parse_answer("Not given.", "rc")
    assert rc.label is None and rc.label_lenient == "not-given" and rc.justification is None
    jg = parse_answer("1. Not given\n2. Price is not discussed.", "jg")
    assert jg.label == jg.label_lenient == "not-given"
    assert jg.justification == "Price is not discussed."
    bad = parse_answer("I cannot tell.", "jg")
    assert bad.label is None and bad.justification == "I cannot tell."


def _item(review="Great {food}, rude staff.", statement="The reviewer liked the food.\n\u200b"):
    return Item("yelp-1:1", "yelp-1", "test", review, "true", text_pair=statement)


def test_prompts_keep_inputs_verbatim_and_structure():
    it = _item()
    rc = prompt_text(RC_CHAT, it)
    assert it.text in rc and it.text_pair in rc  # braces and zero-width space kept verbatim
    assert rc.index(it.text) < rc.index(it.text_pair)
    assert "true, false or not-given" in rc and "lower case" in rc
    parts = rc.split("\n\n")
    assert len(parts) == 5 and parts[1] == it.text and parts[3] == it.text_pair
    jg = prompt_text(JG_CHAT, it)
    assert jg.endswith(it.text_pair)  # the statement comes at the very end
    assert "1." in jg and "2." in jg


def test_seq2seq_strings_match_spec():
    it = _item("R", "S")
    assert prompt_text(SEQ2SEQ_SOURCE, it) == "Review:\nR\n\nStatement:\nS"
    assert seq2seq_target("true") == "true"
    assert seq2seq_target("false", "Because.") == "Label:\nfalse\nJustification:\nBecause."
    assert JG_TARGET.render(label="x", justification="y") == "Label:\nx\nJustification:\ny"


def test_template_versions_and_hashes():
    assert template_for("rc") is RC_CHAT and template_for("jg") is JG_CHAT
    assert template_for("rc", "seq2seq") is SEQ2SEQ_SOURCE
    hashes = {t.hash for t in (RC_CHAT, JG_CHAT, SEQ2SEQ_SOURCE, JG_TARGET)}
    assert len(hashes) == 4
    changed = PromptTemplate(RC_CHAT.name, RC_CHAT.version, RC_CHAT.text + " ")
    assert changed.hash != RC_CHAT.hash
    assert RC_CHAT.describe()["hash"] == RC_CHAT.hash and RC_CHAT.describe()["version"] == "1"
    with pytest.raises(ConfigError):
        template_for("rc", "fancy")
