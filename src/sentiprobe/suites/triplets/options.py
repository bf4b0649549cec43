"""Options of the triplet suites (recorded in ``results.json``; they change the items or the decoding).

``train_file`` exists because the paper's dataset lacks its train split: by default ``sentivent-triplet``
trains on the protocol's reconstruction (always labelled "reconstructed train"); a user who has the authors'
``train.json`` (or any GTS JSON) passes it here, and its sha256 is recorded.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..spec import option

PROTOCOLS = ("clean", "paper-faithful")
TRAIN_FILE_ENV = "SENTIPROBE_TRIPLETS_TRAIN_FILE"


@dataclass(frozen=True)
class TripletOptions:
    """Options of ``sentivent-triplet``, ``sentivent-triplet-direct`` and ``absa-triplet-explicit``."""

    train_file: Path | None = option(
        None, "GTS JSON train file used instead of the suite's train split (sentivent-triplet: instead of the "
        "reconstructed train); its sha256 is recorded", env=TRAIN_FILE_ENV, user_file=True)
    empty_sentences: bool = option(
        True, "keep sentences without triplets (false: the shipped -no-empty variant of the SENTiVENT datasets)")
    reference_quirk: bool = option(
        False, "decode with the reference implementation's cell reading (see docs/triplets.md) instead of (min, max)")
    protocol: str = option(
        "clean", "clean: epochs selected on dev, test scored once; paper-faithful: train on train+dev and "
        "early-stop on the TEST set (the authors' final script, see docs/triplets.md; results are labelled)",
        choices=PROTOCOLS)
    n_examples: int = option(10, "missed and spurious triplet examples kept for the report")
