"""A small generated ARTS file (the generator's format, with provenance) for the review tests, with a ``<script>``
in its text to check escaping."""
from __future__ import annotations

import json
from pathlib import Path

XSS = "<script>document.documentElement.setAttribute('data-pwned','1')</script>"


def _rec(sentence: str, term: str, pol: str, sid: str, prov: dict | None = None, nth: int = 0) -> dict:
    start = -1
    for _ in range(nth + 1):
        start = sentence.index(term, start + 1)
    rec = {"sentence": sentence, "term": term, "polarity": pol, "id": sid, "from": start, "to": start + len(term)}
    if prov is not None:
        rec["provenance"] = prov
    return rec


def records() -> dict[str, dict]:
    s1 = "The food is good and the service is slow."
    s2 = f"Great pizza {XSS} here."
    s3 = "The wine list is long."
    return {
        "s1_0": _rec(s1, "food", "positive", "s1_0"),
        "s1_1": _rec(s1, "service", "negative", "s1_1"),
        "s1_0_adv1": _rec("The food is bad but the service is slow.", "food", "negative", "s1_0", {
            "strategy": "revtgt", "labels": {"s1_0": "negative", "s1_1": "negative"},
            "edits": [{"unit": "char", "start": 12, "end": 16, "text": "bad", "before": "good", "op": "antonym",
                       "detail": "review-lexicon opposite of 'good'"}],
            "notes": [f"a note with {XSS}"]}),
        "s1_0_adv2": _rec("The food is good and the service is fast.", "food", "positive", "s1_0", {
            "strategy": "revnon", "labels": {"s1_0": "positive", "s1_1": "positive"}, "edits": []}),
        "s1_1_adv1": _rec("The food is good and the service is fast.", "service", "positive", "s1_1", {
            "strategy": "revtgt", "labels": {"s1_0": "positive", "s1_1": "positive"}, "edits": []}),
        "s2_0": _rec(s2, "pizza", "positive", "s2_0"),
        "s2_1": _rec(s2, XSS, "neutral", "s2_1"),
        "s2_0_adv1": _rec(f"Terrible pizza {XSS} here.", "pizza", "negative", "s2_0", {
            "strategy": "revtgt", "labels": {"s2_0": "negative", "s2_1": "neutral"}, "edits": [],
            "verifier": {"fluent": True, "sentiment": "negative", "why": XSS}}),
        "s3_0": _rec(s3, "wine list", "neutral", "s3_0"),
        "s3_0_adv3": _rec(s3[:-1] + ", but the staff is rude.", "wine list", "neutral", "s3_0", {
            "strategy": "adddiff", "labels": {"s3_0": "neutral", "appended:staff": "negative"}, "edits": [],
            "appended": [{"text": "the staff is rude", "term": "staff", "label": "negative", "origin": "pool",
                          "form": "clause"}]}),
    }


def write(path: Path, recs: dict | None = None) -> Path:
    recs = recs if recs is not None else records()
    path.write_text(json.dumps({k: recs[k] for k in sorted(recs)}, indent=4) + "\n", encoding="utf-8")
    return path


def synthetic(path: Path, n: int) -> Path:
    """``n`` variants of distinct one-aspect sources (for the keystroke count)."""
    recs = {}
    for i in range(n):
        s = f"The dish number {i} was good."
        recs[f"x{i}_0"] = _rec(s, "dish", "positive", f"x{i}_0")
        recs[f"x{i}_0_adv1"] = _rec(s.replace("good", "bad"), "dish", "negative", f"x{i}_0",
                                    {"strategy": "revtgt", "labels": {f"x{i}_0": "negative"}, "edits": []})
    return write(path, recs)


REFUSAL = f"the frame 'as always' ties the clauses' polarity {XSS}"


def with_refused(path: Path) -> Path:
    """The fixture plus a positive source with no RevTgt variant, and the generation report beside it that refuses
    it under RevTgt (with a ``<script>`` in the reason), a neutral target and a target that has a variant."""
    recs = records()
    recs["s4_0"] = _rec("The staff was friendly, as always.", "staff", "positive", "s4_0")
    write(path, recs)
    skipped = [{"record": "s4_0", "stage": "revtgt", "reason": REFUSAL},
               {"record": "s4_0", "stage": "revtgt", "reason": "a second reason is not shown"},
               {"record": "s4_0", "stage": "revnon", "reason": "not eligible"},
               {"record": "s2_1", "stage": "revtgt", "reason": "neutral target with a polar opinion"},
               {"record": "s1_0", "stage": "revtgt", "reason": "refused by a verifier, then kept"}]
    path.with_name(path.stem + ".report.json").write_text(json.dumps({"skipped": skipped}), encoding="utf-8")
    return path
