"""Reading prediction files made elsewhere (CSV / JSONL with item_id + label)."""
from __future__ import annotations

from pathlib import Path

from ..core.errors import DataError
from ..core.io import read_table
from ..core.types import Prediction

ID_COLUMNS = ("item_id", "id")
LABEL_COLUMNS = ("prediction", "predicted_label", "predicted", "pred", "label")
"""Label columns in order of precedence: a prediction-looking column always wins over ``label``, which in
files that also carry the gold standard (the SOUL reference code's output, for one) is the gold label."""
GOLD_COLUMNS = ("gold", "gold_label", "true_label", "labels")


def pick_label_column(header: list[str], column: str | None, path: Path) -> str:
    """The column to score: ``column`` when given (must exist), else the first of :data:`LABEL_COLUMNS`."""
    if column is not None:
        if column not in header:
            raise DataError(f"no column {column!r} (header has {header})", path=path, field=column)
        return column
    return _pick(header, LABEL_COLUMNS, path, "label")


def _pick(header: list[str], wanted: tuple[str, ...], path: Path, what: str) -> str:
    for w in wanted:
        if w in header:
            return w
    raise DataError(f"no {what} column (looked for {', '.join(wanted)}; header has {header})", path=path)


def read_label_file(path: str | Path, column: str | None = None) -> list[Prediction]:
    """Read ``item_id,label`` rows from CSV/TSV or JSONL (``.jsonl``/``.json`` lines).

    ``column`` selects the label column (default: the first of :data:`LABEL_COLUMNS`, prediction first).
    Empty labels become ``label=None, parse_ok=False`` (scored as wrong, counted).
    """
    path = Path(path)
    rows = read_table(path, "predictions file")
    if not rows:
        raise DataError("no predictions in file", path=path)
    header = list(rows[0].keys())
    idc = _pick(header, ID_COLUMNS, path, "id")
    labc = pick_label_column(header, column, path)
    out = []
    for i, r in enumerate(rows, 1):
        if idc not in r or r[idc] in (None, ""):
            raise DataError("missing id", path=path, record=f"row {i}", field=idc)
        if labc not in r:
            raise DataError("missing label column", path=path, record=r[idc], field=labc)
        lab = r[labc]
        lab = None if lab in (None, "") else str(lab)
        extra = {k: v for k, v in r.items() if k not in (idc, labc)}
        text = extra.pop("justification", None) or extra.pop("text", None)
        out.append(Prediction(str(r[idc]), lab, text=text if isinstance(text, str) else None,
                              parse_ok=lab is not None,
                              meta={"source": str(path), "column": labc, **({"blank": True} if lab is None else {})}))
    return out


_DUMP_TYPES: dict[str, tuple[type, ...]] = {
    "item_id": (str,), "label": (str, type(None)), "scores": (dict, type(None)), "text": (str, type(None)),
    "raw": (str, type(None)), "parse_ok": (bool,), "meta": (dict,), "seed": (int, type(None))}


def prediction_from_record(r: dict, path: Path, row: int) -> Prediction:
    """A Prediction from one line of a sentiprobe predictions dump, each field's type checked.

    A field of the wrong type (``meta`` that is not an object, a numeric label...) is a DataError naming the
    file, the row and the field, never an AttributeError later.
    """
    for name, types in _DUMP_TYPES.items():
        if (name in r and not isinstance(r[name], types)) or (name == "seed" and isinstance(r.get(name), bool)):
            want = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise DataError(f"{name} must be {want}, not {type(r[name]).__name__}", path=path, record=f"row {row}",
                            field=name)
    if isinstance(r.get("scores"), dict) and not all(isinstance(v, int | float) for v in r["scores"].values()):
        raise DataError("scores must map labels to numbers", path=path, record=f"row {row}", field="scores")
    return Prediction.from_dict(r)
