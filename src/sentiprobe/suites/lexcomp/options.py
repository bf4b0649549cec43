"""Suite options of the LexComp suites (typed; the CLI maps the environment variables to them).

- VPC/LVC (:class:`BncOptions`): where the sentences come from. The released files are BNC ids only.
- NC Relations / AN Attributes (:class:`ImplicitOptions`): the docs/protocols/lexcomp.md#ablations ablations.
Control tasks need no option: every classification item carries its control label in ``meta["control"]``
and the probe adapter's ``control=true`` trains a control probe beside the task probe.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..spec import option

ABLATIONS = ("none", "phrase", "context", "context+phrase")


@dataclass(frozen=True)
class BncOptions:
    """Options of VPC and LVC: the BNC sentences the released id files point to."""

    bnc_dir: Path | None = option(
        None, "BNC XML Edition directory (Texts/...): extract the VPC/LVC sentences", env="SENTIPROBE_BNC_DIR")
    extracted_dir: Path | None = option(
        None, "directory with already extracted {train,val,test}.jsonl (bnc_id, sentence, start, end, span_text, "
        "label)", env="SENTIPROBE_LEXCOMP_EXTRACTED_DIR")


@dataclass(frozen=True)
class ImplicitOptions:
    """Options of NC Relations and AN Attributes."""

    ablation: str = option("none", "ablation (docs/lexcomp.md): -Phrase, -Context, -(Context+Phrase)",
                           choices=ABLATIONS)
