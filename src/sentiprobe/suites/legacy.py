"""TRANSITIONAL: the old class-based suite interface and a bridge to :class:`~.spec.SuiteSpec`.

Packages not yet split into the stage modules of :mod:`.spec` register their class through
:func:`register_legacy`; this module goes away once every package is converted.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from pathlib import Path
from typing import Any, ClassVar

from ..core.errors import PredictionError
from ..core.types import Item, Prediction
from .spec import SuiteScore, SuiteSpec


class Suite(ABC):
    """One protocol on one dataset.

    Class attributes:
        name: registry name (``arts-laptop``).
        family: data family in the manifest (``arts``, ``noncompsst``, ``sst``, ``sentivent``, ...).
        labels: the label set predictions must come from.
        task: ``classify`` (needs ``ModelAdapter.classify``) or ``generate``.
        input_kind: what the model sees: ``text``, ``text+aspect`` or ``text-pair``.
        seeds: how many training seeds a learning model is run with (NonCompSST uses several).
    """

    name: ClassVar[str]
    family: ClassVar[str]
    labels: ClassVar[tuple[str, ...]]
    task: ClassVar[str] = "classify"
    input_kind: ClassVar[str] = "text"
    description: ClassVar[str] = ""
    n_seeds: ClassVar[int] = 1

    def __init__(self, data_dir: str | Path | None = None) -> None:
        from ..data import resolve_data_dir

        self.data_dir = resolve_data_dir(data_dir)
        self._cache: dict[str, list[Item]] = {}

    # ---- data -------------------------------------------------------------------------------
    @abstractmethod
    def data_files(self) -> list[str]:
        """Manifest paths (``family/relative/path``) the evaluation split needs."""

    @abstractmethod
    def _load(self, split: str) -> list[Item]:
        """Load the items of ``split`` (``train``, ``dev`` or ``test``); [] when the split does not exist."""

    def items(self, split: str = "test") -> list[Item]:
        if split not in self._cache:
            self._cache[split] = self._load(split)
        return self._cache[split]

    def train_items(self) -> list[Item]:
        return self.items("train")

    def dev_items(self) -> list[Item]:
        return self.items("dev")

    def path(self, rel: str) -> Path:
        """Path of a manifest file inside the data dir; raises MissingDataError with fetch advice."""
        from ..data import require_file

        return require_file(self.data_dir, f"{self.family}/{rel}" if not rel.startswith(self.family + "/") else rel)

    def available(self) -> bool:
        """True when every data file of the evaluation split is present in the data dir."""
        return all((self.data_dir / f).exists() for f in self.data_files())

    def train_fingerprint(self) -> str:
        """Hash of the training and dev items (keys fitted-model states in the cache)."""
        from ..core.hashing import stable_hash

        return stable_hash([[i.to_dict() for i in self.train_items()],
                            [i.to_dict() for i in self.dev_items()]], 32)

    def supports(self, model: Any) -> bool:
        """Whether a model adapter can be run on this suite (default: it has the suite's task capability)."""
        return self.task in model.capabilities

    # ---- predictions ---------------------------------------------------------------------------
    def predict(self, predictor: Any, items: Sequence[Item]) -> list[Prediction]:
        """Ask a (cached) predictor for predictions on items. Generation suites override this."""
        return predictor.classify(items, self.labels, self.input_kind)

    def read_predictions(self, path: str | Path, column: str | None = None) -> list[Prediction]:
        """Read predictions made elsewhere: CSV or JSONL with ``item_id`` and ``label`` columns.

        Suites override this to accept their published formats too.
        """
        from .predictions_io import read_label_file

        return read_label_file(path, column=column)

    def check_predictions(self, items: Sequence[Item], predictions: Sequence[Prediction], *,
                          missing: str = "error", path: str | Path | None = None) -> dict[str, Prediction]:
        """Index predictions by item id after validating them against the items.

        Unknown ids, duplicates and labels outside the label set raise PredictionError naming the
        first offenders. Missing predictions raise unless ``missing == "wrong"`` (they are then
        absent from the mapping and scored as wrong by the suite, which reports how many).
        """
        known = {it.item_id for it in items}
        by_id: dict[str, Prediction] = {}
        dups, unknown, bad = [], [], []
        allowed = set(self.labels)
        for p in predictions:
            if p.item_id in by_id:
                dups.append(p.item_id)
            by_id[p.item_id] = p
            if p.item_id not in known:
                unknown.append(p.item_id)
            elif p.label is not None and p.label not in allowed:
                bad.append(f"{p.item_id}={p.label}")
        if unknown:
            raise PredictionError(f"predictions for ids that are not in suite {self.name}", unknown, path=path)
        if dups:
            raise PredictionError("duplicate predictions", dups, path=path)
        if bad:
            raise PredictionError(f"labels outside the label set {list(self.labels)}", bad, path=path)
        absent = [it.item_id for it in items if it.item_id not in by_id]
        if absent and missing != "wrong":
            raise PredictionError(
                "missing predictions (use --missing wrong to count them as wrong)", absent, path=path)
        return by_id

    @abstractmethod
    def score(self, items: Sequence[Item], predictions: Sequence[Prediction], *, n_boot: int = 1000,
              seed: int = 0, missing: str = "error") -> SuiteScore:
        """Score predictions on items (pure function of its inputs and the seed)."""

    # ---- report ------------------------------------------------------------------------------
    def report_section(self, result: dict[str, Any]) -> str:
        """HTML fragment for this suite's section of the report (already escaped). Optional."""
        return ""

    def stats(self) -> dict[str, Any]:
        """Dataset statistics for ``sentiprobe data stats`` (JSON-able)."""
        out: dict[str, Any] = {}
        for split in ("train", "dev", "test"):
            try:
                its = self.items(split)
            except Exception as exc:  # a missing optional split is reported, not fatal
                out[split] = {"error": str(exc)}
                continue
            counts: dict[str, int] = {}
            for it in its:
                counts[str(it.label)] = counts.get(str(it.label), 0) + 1
            out[split] = {"items": len(its), "groups": len({i.group_id for i in its}), "labels": counts}
        return out




def spec_from_legacy(cls: type[Suite], description: str = "") -> SuiteSpec:
    """A SuiteSpec whose stages call an instance of the old-style class ``cls`` (kept in ``suite.memo``)."""

    def inst(s: Any) -> Suite:
        if "legacy" not in s.memo:
            s.memo["legacy"] = cls(data_dir=s.data_dir)
        return s.memo["legacy"]

    def predict(s: Any, predictor: Any, items: Sequence[Item]) -> list[Prediction]:
        return inst(s).predict(predictor, items)

    return SuiteSpec(
        name=cls.name, family=cls.family, version="1", description=description or cls.description,
        labels=tuple(cls.labels), task=cls.task, input_kind=cls.input_kind,
        load_items=lambda s, split: inst(s).items(split),
        data_files=lambda s: inst(s).data_files(),
        read_predictions=lambda s, path, column: inst(s).read_predictions(path, column=column),
        score=lambda s, items, preds, cfg: inst(s).score(items, preds, n_boot=cfg.n_boot, seed=cfg.seed,
                                                         missing=cfg.missing),
        render_section=lambda name, entry: cls(data_dir=None).report_section(entry),
        seeds=cls.n_seeds, accepts=frozenset(getattr(cls, "accepts", ()) or {cls.task}),
        statistics=lambda s: inst(s).stats(), predict=predict,
        training=lambda s: (inst(s).train_items(), inst(s).dev_items()))


def register_legacy(cls: type[Suite], description: str = "", **_: Any) -> None:
    from .base import SUITES

    if cls.name not in SUITES:
        SUITES.register(spec_from_legacy(cls, description))
