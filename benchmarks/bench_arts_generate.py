"""ARTS generation speed on one core (goals: >= 300 variants/s; <= 1.5x spaCy's bare parsing of the same sentences).

Input: the laptop and restaurant TOWE test files (823 sentences). ``generate`` is the whole pipeline with the
default options (corrected mode, lexical POS check, RevTgt + RevNon + AddDiff): Treebank tokenisation, one
batched spaCy parse per sentence (``nlp.pipe``), WordNet lookups and the edits. The floor is spaCy's bare
``nlp.pipe`` over the same raw sentences with the same pipeline (the model loads are excluded from both).
The parse, tokenisation and antonym caches are cleared before every timed run (cold). ``retag`` (the faithful
fidelity setting, which re-tags each antonym candidate) is timed too, for information.

    SENTIPROBE_DATA_DIR=../shared/data .venv/bin/python benchmarks/bench_arts_generate.py
"""
from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # one core: set before numpy/thinc load

from pathlib import Path  # noqa: E402

from _common import best_of, report, require_data  # noqa: E402

from sentiprobe.suites.arts.generate.inputs import Loaded, read_input  # noqa: E402
from sentiprobe.suites.arts.generate.pipeline import GenerateConfig, Toolkit, generate  # noqa: E402
from sentiprobe.suites.arts.generate.text import _tokenize  # noqa: E402


def main() -> None:
    data = Path(require_data()) / "arts" / "src_data"
    loaded = [read_input(data / dom / "test_sent_towe.json") for dom in ("laptop", "rest")]
    both = Loaded([s for lo in loaded for s in lo.sentences], [], "towe", True)
    texts = [s.text for s in both.sentences]
    kit = Toolkit()
    kit.parser.parse_texts(texts[:50])  # warm-up
    counts: dict[str, int] = {}

    def run(cfg: GenerateConfig):
        def go():
            kit.parser._cache.clear()  # cold caches: every sentence parsed and tokenised, every word looked up
            _tokenize.cache_clear()
            for wn in kit.wordnet.values():
                wn._cache.clear()
            gen = generate(both, cfg, kit)
            counts[cfg.pos_check] = len(gen.variants)
        return go

    bare = best_of(lambda: kit.parser.parse_texts(texts))
    default = best_of(run(GenerateConfig()))
    retag = best_of(run(GenerateConfig(mode="faithful", pos_check="retag")), repeat=1)
    report("arts_generate", {
        "sentences": len(texts), "variants_default": counts["lexical"], "variants_retag": counts["retag"],
        "bare_spacy_parse_s": round(bare, 3), "bare_spacy_sentences_per_s": round(len(texts) / bare, 1),
        "generate_s": round(default, 3), "variants_per_s": round(counts["lexical"] / default, 1),
        "ratio_to_bare_parse": round(default / bare, 2),
        "generate_retag_s": round(retag, 3), "variants_per_s_retag": round(counts["retag"] / retag, 1),
        "goals": {"variants_per_s": ">= 300", "ratio_to_bare_parse": "<= 1.5"}})


if __name__ == "__main__":
    main()
