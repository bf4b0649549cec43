"""One registry and one option system for suites and models (issue 25): every built-in model declares typed
options that ``MODELS.create``, ``--model-arg``, sweeps and ``sentiprobe list`` all read."""
from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass
from typing import Literal

import pytest

from sentiprobe.cli import main
from sentiprobe.core.errors import ConfigError, UnknownNameError
from sentiprobe.core.options import convert, describe_options, option, parse_options
from sentiprobe.core.registry import NameRegistry
from sentiprobe.models import MODELS
from sentiprobe.run.modelargs import assign_model_args
from sentiprobe.suites import SUITES


def _builtin() -> list:
    def module(f) -> str:
        return getattr(getattr(f, "func", f), "__module__", "")  # functools.partial: the function it wraps

    return [e for e in MODELS if e.name not in MODELS.plugin_names and module(e.factory).startswith("sentiprobe")]


def _signature(entry) -> inspect.Signature:
    """The parameters the factory really takes (a ``**kwargs`` wrapper: the class it builds)."""
    from sentiprobe.models.hf import HFClassifier
    from sentiprobe.models.lexicon import minilm_lr_lex_class, tfidf_lr_lex_class

    target = {"hf-classifier": HFClassifier, "tfidf-lr-lex": tfidf_lr_lex_class(),
              "minilm-lr-lex": minilm_lr_lex_class()}.get(entry.name, entry.factory)
    return inspect.signature(target)


def test_both_registries_are_the_one_generic_registry():
    assert isinstance(SUITES, NameRegistry) and isinstance(MODELS, NameRegistry)
    for reg, bad, good in ((SUITES, "arts-lap", "arts-laptop"), (MODELS, "majorty", "majority")):
        with pytest.raises(UnknownNameError, match=f"did you mean '{good}'"):
            reg.get(bad)
        assert good in reg and good in reg.names() and reg.names() == sorted(reg.names())
    assert [s.name for s in SUITES] == SUITES.names()
    assert set(MODELS.names(tag="default")) < set(MODELS.names())


def test_every_builtin_model_declares_options_its_factory_takes_with_the_same_defaults():
    entries = _builtin()
    assert len(entries) >= 25
    for e in entries:
        assert e.options is not None and dataclasses.is_dataclass(e.options), e.name
        params = _signature(e).parameters
        takes_any = any(p.kind is p.VAR_KEYWORD for p in params.values())
        described = describe_options(e.options)
        for name, d in described.items():
            assert d["help"], (e.name, name)
            assert name in params or takes_any, (e.name, name)
            p = params.get(name)
            if p is not None and p.default is not inspect.Parameter.empty and p.default is not None:
                assert d["default"] == p.default, (e.name, name, d["default"], p.default)
        # the factory's own named arguments are all declared (nothing reachable only from Python)
        named = [n for n, p in params.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
                 and n not in ("self", "key")]
        assert set(named) <= set(described), (e.name, set(named) - set(described))
        assert set(e.params) == set(described)  # the one-line documentation is derived from the options


def test_probe_models_default_to_their_representation():
    assert describe_options(MODELS.entry("probe-glove").options)["repr"]["default"] == "glove"
    assert describe_options(MODELS.entry("lexcomp-probe").options)["repr"]["default"] == "minilm"


def test_model_arg_values_are_typed_checked_before_anything_runs():
    out = assign_model_args(["tfidf-lr", "majority"], {"C": "auto", "tfidf-lr:window": "3"})
    assert out == {"tfidf-lr": {"C": "auto", "window": "3"}, "majority": {}}  # recorded as given
    for args, expected in (({"tfidf-lr:window": "2.5"}, "'window': expected an integer"),
                           ({"tfidf-lr:window": "500"}, "'window' must be <= 100"),
                           ({"tfidf-lr:char": "maybe"}, "'char': expected true/false"),
                           ({"C": "-1"}, "'C' must be > 0.0"),
                           ({"C": "lots"}, "or one of auto"),
                           ({"tfidf-lr:max_iters": "9"}, "did you mean 'max_iter'"),
                           ({"max_iters": "9"}, "did you mean 'max_iter'")):
        with pytest.raises(ConfigError, match=expected):
            assign_model_args(["tfidf-lr", "majority"], args)
    with pytest.raises(ConfigError, match="'backend' must be one of auto, torch, onnx, onnx-int8"):
        assign_model_args(["minilm-lr"], {"backend": "tensorrt"})


def test_create_converts_strings_as_the_cli_gives_them():
    from sentiprobe.models import create_model

    m = create_model("triplet-rules", min_valence="1", pos="ADJ", batch="16")
    assert (m.min_valence, m.pos, m.batch_size) == (1.0, "adj", 16)
    m = create_model("tfidf-lr", C="2", class_weight="none", char="off")
    assert (m.C, m.class_weight, m.char) == (2.0, None, False)
    with pytest.raises(ConfigError, match="model 'vader' argument 'threshold' must be <= 1.0"):
        create_model("vader", threshold="2")


def test_option_types():
    assert convert("auto", float | Literal["auto"], "x") == "auto"
    assert convert("AUTO", float | Literal["auto"], "x") == "auto"
    assert convert("0.5", float | Literal["auto"], "x") == 0.5
    assert convert("none", Literal["balanced"] | None, "x") is None
    with pytest.raises(ConfigError, match="x must be one of balanced"):
        convert("weighted", Literal["balanced"] | None, "x")
    assert convert("1e3", int, "x") == 1000 and convert("12345678901234567890", int, "x") == 12345678901234567890
    with pytest.raises(ConfigError, match="expected an integer"):
        convert("2.5", int, "x")
    with pytest.raises(ConfigError, match="finite"):
        convert("nan", float, "x")
    assert convert("a:b, c=none", dict[str, str | None] | None, "m") == {"a": "b", "c": None}
    assert convert("", dict[str, str | None] | None, "m") is None


def test_suite_and_model_options_share_messages():
    @dataclass(frozen=True)
    class Opts:
        mode: str = option("a", "mode", choices=("a", "b"))
        n: int = option(1, "count", lo=0)

    with pytest.raises(ConfigError, match=r"suite 's' option 'mode' must be one of a, b; 'c' is not one of them"):
        parse_options(Opts, {"mode": "c"}, suite="s")
    with pytest.raises(ConfigError, match=r"model 'm' argument 'n' must be >= 0, got -1"):
        parse_options(Opts, {"n": "-1"}, owner="model 'm'", noun="argument")
    with pytest.raises(ConfigError, match=r"unknown argument\(s\) 'nn' \(did you mean 'n'\?\)"):
        parse_options(Opts, {"nn": "1"}, owner="model 'm'", noun="argument")


def test_list_shows_suite_and_model_options_as_text(capsys):
    assert main(["list", "suites"]) == 0
    out = capsys.readouterr().out
    assert "--suite-arg train_domain=str" in out and "one of none|laptop|rest|mams" in out
    assert "env SENTIPROBE_ARTS_CUSTOM_PATH" in " ".join(out.split())  # the text is wrapped at 100 columns
    assert main(["list", "models"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # the text is wrapped at 100 columns
    assert "--model-arg backend=str" in out and "one of auto|torch|onnx|onnx-int8" in out
    assert "--model-arg window=int" in out and "default 6; [1, 100]" in out
    import json

    assert main(["list", "models", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    tfidf = next(m for m in doc["models"] if m["name"] == "tfidf-lr")
    assert tfidf["options"]["class_weight"]["default"] is None and "params" in tfidf
