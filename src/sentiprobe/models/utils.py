"""Helpers shared by the model adapters.

- model arguments are not here: they are typed options, parsed by :mod:`sentiprobe.core.options`;
- :class:`LinearHead`: a seeded scikit-learn logistic regression whose fitted state is plain numpy
  arrays, and whose probabilities are computed from those arrays (identical after a state round-trip);
- :func:`predictions_from_proba`: turn a probability matrix into :class:`Prediction` objects.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..core.errors import ConfigError, SentiprobeError
from ..core.types import Item, Prediction


class NotFittedError(SentiprobeError):
    """A learning model was asked to predict (or export its state) before ``fit``/``load_state``."""


# ---- training data ---------------------------------------------------------------------------
def labelled(items: Sequence[Item], labels: Sequence[str], what: str = "training") -> tuple[list[Item], list[str]]:
    """Items with a gold label, and those labels; labels outside ``labels`` raise ConfigError."""
    allowed = set(labels)
    keep, ys, bad = [], [], []
    for it in items:
        if it.label is None:
            continue
        if it.label not in allowed:
            bad.append(f"{it.item_id}={it.label}")
            continue
        keep.append(it)
        ys.append(it.label)
    if bad:
        raise ConfigError(f"{len(bad)} {what} item(s) have labels outside {list(labels)}: {', '.join(bad[:5])}")
    return keep, ys


# ---- a logistic-regression head stored as arrays ---------------------------------------------
class LinearHead:
    """Seeded multinomial logistic regression; state is ``coef``, ``intercept``, ``classes`` arrays.

    Probabilities are computed here from the arrays (softmax, or the logistic function for two
    classes, exactly as scikit-learn's ``predict_proba``), so a restored head predicts identically.
    """

    def __init__(self, C: float = 1.0, class_weight: str | None = None, max_iter: int = 2000) -> None:
        self.C = C
        self.class_weight = class_weight
        self.max_iter = max_iter
        self.coef: np.ndarray | None = None
        self.intercept: np.ndarray | None = None
        self.classes: list[str] = []

    def fit(self, X: Any, y: Sequence[str], seed: int = 0) -> LinearHead:
        from sklearn.linear_model import LogisticRegression

        classes = sorted(set(y))
        if len(classes) == 1:  # LR needs two classes: a constant predictor
            self.classes = classes
            self.coef = np.zeros((1, X.shape[1]))
            self.intercept = np.zeros(1)
            return self
        lr = LogisticRegression(C=self.C, class_weight=self.class_weight, max_iter=self.max_iter,
                                random_state=seed)
        import warnings

        from sklearn.exceptions import ConvergenceWarning

        from threadpoolctl import threadpool_limits

        # one BLAS thread: L-BFGS's vector operations gain nothing from more (measured: the NonCompSST tf-idf fit
        # 17 s on one thread, 23 s and twice the CPU on two), and the thread count changed the summation order,
        # hence the iterations and the fitted weights, from one machine to another
        with warnings.catch_warnings(), threadpool_limits(limits=1, user_api="blas"):
            warnings.simplefilter("ignore", ConvergenceWarning)
            lr.fit(X, list(y))
        self.coef = np.asarray(lr.coef_, dtype=np.float64)
        self.intercept = np.asarray(lr.intercept_, dtype=np.float64)
        self.classes = [str(c) for c in lr.classes_]
        return self

    @property
    def fitted(self) -> bool:
        return self.coef is not None

    def predict_proba(self, X: Any) -> np.ndarray:
        if self.coef is None or self.intercept is None:
            raise NotFittedError("the logistic-regression head is not fitted")
        if len(self.classes) == 1:
            return np.ones((X.shape[0], 1))
        z = np.asarray(X @ self.coef.T) + self.intercept
        if len(self.classes) == 2:
            p1 = 1.0 / (1.0 + np.exp(-z[:, 0]))
            return np.stack([1.0 - p1, p1], axis=1)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def meta(self) -> dict[str, Any]:
        return {"classes": list(self.classes), "C": self.C, "class_weight": self.class_weight}

    def arrays(self, prefix: str = "lr_") -> dict[str, np.ndarray]:
        if self.coef is None or self.intercept is None:
            raise NotFittedError("the logistic-regression head is not fitted")
        return {f"{prefix}coef": self.coef, f"{prefix}intercept": self.intercept}

    def load(self, meta: Mapping[str, Any], arrays: Mapping[str, np.ndarray], prefix: str = "lr_") -> LinearHead:
        try:
            self.classes = [str(c) for c in meta["classes"]]
            self.coef = np.asarray(arrays[f"{prefix}coef"], dtype=np.float64)
            self.intercept = np.asarray(arrays[f"{prefix}intercept"], dtype=np.float64)
        except KeyError as exc:
            raise ConfigError(f"fitted state lacks {exc.args[0]!r}") from None
        if self.coef.ndim != 2 or self.intercept.shape != (self.coef.shape[0],):
            raise ConfigError("fitted state has inconsistent coef/intercept shapes")
        return self


def predictions_from_proba(items: Sequence[Item], proba: np.ndarray, classes: Sequence[str | None],
                           labels: Sequence[str], model: str) -> list[Prediction]:
    """Predictions whose ``scores`` cover every suite label (absent classes score 0).

    Raises ConfigError when the model knows classes that are not suite labels.
    """
    extra = [c for c in classes if c not in set(labels)]
    if extra:
        raise ConfigError(f"model {model!r} was trained on labels {list(classes)}, "
                          f"which are not all in the suite's label set {list(labels)}")
    idx = [list(classes).index(lab) if lab in classes else -1 for lab in labels]
    out = []
    for it, row in zip(items, proba):
        scores = {lab: (float(row[j]) if j >= 0 else 0.0) for lab, j in zip(labels, idx)}
        best = max(labels, key=lambda lab: (scores[lab], -list(labels).index(lab)))
        out.append(Prediction(item_id=it.item_id, label=best, scores=scores))
    return out


def as_messages(prompt: Any, system: str | None) -> list[dict[str, str]]:
    """Chat messages for a prompt: a string becomes one user message; a list is validated."""
    if isinstance(prompt, str):
        msgs = [{"role": "user", "content": prompt}]
    elif isinstance(prompt, Sequence) and prompt and all(
            isinstance(m, Mapping) and isinstance(m.get("role"), str) and isinstance(m.get("content"), str)
            for m in prompt):
        msgs = [{"role": m["role"], "content": m["content"]} for m in prompt]
    else:
        raise ConfigError("a prompt must be a string or a non-empty list of {'role': str, 'content': str} messages")
    if system is not None and msgs[0]["role"] != "system":
        msgs.insert(0, {"role": "system", "content": system})
    return msgs
