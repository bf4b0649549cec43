"""Cache keys include the code (issue 8, item 8) and adapters take their inputs as arguments (item 5)."""
from __future__ import annotations

import importlib
import sys
import textwrap
from typing import ClassVar

import numpy as np
import pytest

import sentiprobe
from sentiprobe.core.errors import ConfigError
from sentiprobe.core.types import Item, Prediction
from sentiprobe.models import create_model
from sentiprobe.models.base import (
    NUMERICS_PACKAGES,
    InputKindError,
    ModelAdapter,
    _numerics_versions,
    numerics_versions,
)

LABELS = ("positive", "negative", "neutral")

USER_MODULE = '''
from sentiprobe.core.types import Prediction
from sentiprobe.models.base import ModelAdapter


class UserModel(ModelAdapter):
    name = "user-model"

    def classify(self, items, labels, input_kind):
        return [Prediction(it.item_id, labels[{k}]) for it in items]
'''


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    """Writes (and rewrites) an importable module outside the sentiprobe package."""
    monkeypatch.syspath_prepend(str(tmp_path))
    name = f"user_adapter_{tmp_path.name.replace('-', '_')}"

    def write(k: int):
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(USER_MODULE.format(k=k)))
        importlib.invalidate_caches()
        mod = importlib.reload(sys.modules[name]) if name in sys.modules else importlib.import_module(name)
        return mod.UserModel

    yield write
    sys.modules.pop(name, None)


def test_user_adapter_source_change_changes_fingerprint(user_module):
    first = user_module(0)()
    fp, ident = first.fingerprint, first.code_identity()
    assert list(ident["sources"]) == [type(first).__module__]
    assert first.fingerprint == fp  # stable while the code is unchanged
    second = user_module(1)()
    assert second.fingerprint != fp
    assert second.code_identity()["sources"] != ident["sources"]


def test_user_subclass_of_a_builtin_adapter_is_keyed_by_its_source(user_module):
    cls = user_module(0)
    sub = type("Sub", (cls,), {"__module__": cls.__module__})
    assert sub().code_identity()["sources"] == cls().code_identity()["sources"]


def _sourceless(version):
    """An adapter class whose module has no readable source (as if defined with exec or in a REPL)."""
    ns: dict = {"ModelAdapter": ModelAdapter, "__name__": "sentiprobe_test_no_source"}
    exec("class NoSource(ModelAdapter):\n    name = 'no-source'\n", ns)
    cls = ns["NoSource"]
    if version is not None:
        cls.version = version
    return cls


def test_version_attribute_is_honoured_when_the_source_is_unreadable():
    with pytest.raises(ConfigError, match="version"):
        _ = _sourceless(None)().fingerprint
    a, b = _sourceless("1")(), _sourceless("2")()
    assert a.code_identity()["version"] == "1" and "sources" not in a.code_identity()
    assert a.fingerprint != b.fingerprint
    assert a.fingerprint == _sourceless("1")().fingerprint


def test_version_attribute_enters_the_key_with_the_source(user_module):
    cls = user_module(0)
    plain = cls().fingerprint
    versioned = type("V", (cls,), {"__module__": cls.__module__, "version": "2024.1"})
    assert versioned().code_identity()["version"] == "2024.1"
    assert versioned().fingerprint != plain


def test_sentiprobe_version_and_numerics_libraries_are_in_the_key(monkeypatch):
    m = create_model("majority")
    ident = m.code_identity()
    assert ident["sentiprobe"] == sentiprobe.__version__
    assert "sources" not in ident and "version" not in ident  # built-in adapters: the release identifies them
    assert set(ident["packages"]) <= set(NUMERICS_PACKAGES) and "numpy" in ident["packages"]
    assert ident["packages"] == numerics_versions()
    before = m.fingerprint
    monkeypatch.setattr(sentiprobe, "__version__", "999.0")
    assert m.code_identity()["sentiprobe"] == "999.0"
    assert m.fingerprint != before


def test_numerics_versions_skip_absent_packages(monkeypatch):
    import importlib.metadata as md

    real = md.version

    def fake(dist):
        if dist == "torch":
            raise md.PackageNotFoundError(dist)
        return real(dist)

    monkeypatch.setattr(md, "version", fake)
    _numerics_versions.cache_clear()  # read once per process
    try:
        assert "torch" not in numerics_versions()
    finally:
        _numerics_versions.cache_clear()


def test_request_includes_the_input_kind_and_the_fingerprint_does_not():
    m = create_model("tfidf-lr")
    it = Item("a", "a", "test", "the screen is great", aspect="screen", span=(4, 10))
    assert m.request(it, LABELS, "text") != m.request(it, LABELS, "text+aspect")
    assert m.request(it, LABELS, "text-pair")["input_kind"] == "text-pair"
    assert not hasattr(m, "input_kind")


def _lex_items(n: int, split: str = "train") -> list[Item]:
    out = []
    for i in range(n):
        lab = LABELS[i % 3]
        pol = {"positive": 1.0, "negative": -1.0, "neutral": 0.0}[lab]
        out.append(Item(f"{split}{i}", f"{split}{i}", split, f"the company reported results number {i}", label=lab,
                        features={"econ_polarity": pol + 0.01 * i, "other_count": float(i % 5)}))
    return out


def test_lexicon_adapters_read_item_features():
    tr, te = _lex_items(30), _lex_items(9, "test")
    m = create_model("tfidf-lr-lex", char=False, lexicon_features="pol", lex_weight=4)
    m.fit(tr, [], LABELS, input_kind="text", seed=0)
    assert m.lex_columns == ["econ_polarity"]
    preds = m.classify(te, LABELS, "text")
    assert np.mean([p.label == it.label for p, it in zip(preds, te)]) >= 0.9
    assert m.request(te[0], LABELS, "text")["features"] == [te[0].features["econ_polarity"]]
    with pytest.raises(InputKindError):
        m.classify(te, LABELS, "text-pair")
    legacy = [Item("x", "x", "train", "t", label="positive", meta={"features": {"econ_polarity": 1.0}})]
    with pytest.raises(ConfigError, match="no lexicon features"):
        create_model("tfidf-lr-lex").fit(legacy, [], LABELS, input_kind="text")
    score = create_model("lexicon-score", feature="econ_polarity", threshold=0.5)
    assert [p.label for p in score.classify(te, LABELS, "text")] == [it.label for it in te]
    assert score.request(te[0], LABELS, "text")["score"] == te[0].features["econ_polarity"]


class _Recorder(ModelAdapter):
    """Records what the runner hands it: the workdir and the input kinds of fit and classify."""

    name = "test-recorder"
    learns = True
    seen: ClassVar[list] = []

    def set_workdir(self, path):
        self.seen.append(("workdir", path))

    def fit(self, train, dev, labels, *, input_kind, seed=0):
        self.seen.append(("fit", input_kind))
        self.fitted_input_kind = input_kind

    def get_state(self):
        return ({"input_kind": self.fitted_input_kind}, {}) if self.fitted_input_kind else None

    def load_state(self, state):
        self.fitted_input_kind = state[0]["input_kind"]

    def classify(self, items, labels, input_kind):
        self.check_input_kind(input_kind)
        self.seen.append(("classify", input_kind))
        return [Prediction(it.item_id, labels[0]) for it in items]


def test_runner_passes_input_kind_and_workdir(tmp_path):
    import os
    from pathlib import Path

    import toy

    from sentiprobe import api
    from sentiprobe.models import MODELS

    toy.register()
    if _Recorder.name not in MODELS:
        MODELS.register(_Recorder.name, _Recorder)
    _Recorder.seen.clear()
    api.run(["toy"], [_Recorder.name], out=tmp_path / "run", n_boot=10, progress=False)
    assert ("fit", "text") in _Recorder.seen and ("classify", "text") in _Recorder.seen
    workdirs = [p for k, p in _Recorder.seen if k == "workdir"]
    assert workdirs == [Path(os.environ["SENTIPROBE_CACHE_DIR"]) / "checkpoints"]
