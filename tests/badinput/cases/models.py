"""Every registered model (generated from the model registry): an unknown ``--model-arg`` is a typed error naming
it, before anything is loaded or trained; plus the recipes' own argument checks."""
from __future__ import annotations

from corpus import Case, models, nothing, write


def cases() -> list[Case]:
    out = [Case(f"run-model-{m}-unknown-arg", ("run", "--suite", "soul-rc", "--model", m, "--out", "{dir}/r",
                                                 "--data-dir", "{data}", "--model-arg", "bogus_option=1",
                                                 "--no-progress"), nothing, 1,
                ("unknown argument 'bogus_option'", m), tags=("soul-rc", m)) for m in models()]
    run = ("run", "--out", "{dir}/r", "--data-dir", "{data}", "--no-progress")
    out += [
        Case("run-hf-seq2seq-path-missing", (*run, "--suite", "soul-rc", "--model", "hf-seq2seq", "--model-arg",
                                             "path={dir}/nope"), nothing, 1, ("not a local directory",),
             tags=("soul-rc", "hf-seq2seq")),
        Case("run-hf-seq2seq-bad-task", (*run, "--suite", "soul-jg", "--model", "hf-seq2seq", "--model-arg",
                                         "path={dir}/m", "--model-arg", "task=nli"), write("m/config.json", "{}"),
             1, ("'task' must be one of rc, jg",), tags=("soul-jg", "hf-seq2seq")),
        Case("run-hf-nli-pickle-only", (*run, "--suite", "soul-rc", "--model", "hf-nli", "--model-arg",
                                        "path={dir}/m"), write("m/pytorch_model.bin", b"\x80\x04N."), 1, ("pickle",),
             tags=("soul-rc", "hf-nli")),
        Case("run-hf-finetune-bad-recipe", (*run, "--suite", "sst7", "--model", "hf-finetune", "--model-arg",
                                            "recipe=bert"), nothing, 1, ("'recipe' must be one of",),
             tags=("sst7", "hf-finetune")),
        Case("run-hf-finetune-head-without-lexicon", (*run, "--suite", "sentivent-polar", "--model", "hf-finetune",
                                                      "--model-arg", "head=sentivent"), nothing, 1,
             ("set lexicon_features",), tags=("sentivent-polar", "hf-finetune")),
        Case("run-minilm-unknown-backend", (*run, "--suite", "soul-rc", "--model", "minilm-lr", "--model-arg",
                                            "backend=tensorrt"), nothing, 1, ("backend", "onnx-int8"),
             tags=("soul-rc", "minilm-lr")),
        Case("run-model-arg-json-nested", (*run, "--suite", "soul-rc", "--model", "hf-classifier", "--model-arg",
                                           "path={dir}/m", "--model-arg",
                                           "label_map=" + "{\"a\": " * 50_000 + "1" + "}" * 50_000),
             write("m/config.json", "{}"), 1,
             ("label_map", "nested deeper than 100"), tags=("soul-rc", "hf-classifier")),
    ]
    return out
