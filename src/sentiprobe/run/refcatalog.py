"""Reference systems: the papers' own systems, read from the prediction files that ship with the data.

A reference system is a kind of model that is never run: its predictions on a suite are a file (a published
results CSV column, a released prediction or error-analysis list, or a file a user registers) read through the
suite's own ``read_predictions`` and scored by the same score stage as any model's (:mod:`.references`). Why: a
researcher's claim "our model is more robust than BERT-PT on ARTS laptop" needs BERT-PT's own outputs on the same
source examples, paired by the same engine, not a number copied from a table.

This module is the catalogue (pure data: names, files, the paper and what each system covers) and the parsing of
user-registered references (``--reference-file LABEL=PATH[:COLUMN][,sha256=HEX][,suite=NAME]`` or a small YAML
file). Published files are named by their manifest path, so their sha256 comes from (and is verified through) the
data layer's manifest.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, DataError, did_you_mean
from ..core.io import read_user_text
from .modelargs import check_label
from .yamlsafe import load_yaml

PUBLISHED = "published"
"""Prefix of the shipped reference systems' names (``published:bert_pt``)."""
NOT_RERUN = "published, not re-run"
"""How a reference row is marked in tables and reports."""


@dataclass(frozen=True)
class ReferenceSource:
    """One prediction file of a reference system on one suite.

    Attributes:
        suite: the suite the file answers.
        path: manifest path under the data directory (``managed``), else a user file path.
        column: the label column to read (a model column of a published results CSV), or None.
        sha256: expected sha256 of a user file (None: not checked); published files are checked against the
            manifest instead.
        managed: the file is a data file of the manifest (verified on read by the data layer).
    """

    suite: str
    path: str
    column: str | None = None
    sha256: str | None = None
    managed: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"suite": self.suite, "path": self.path, "column": self.column, "sha256": self.sha256,
                "managed": self.managed}


@dataclass(frozen=True)
class ReferenceSystem:
    """A reference system: a stable name, its prediction file per suite, and what it is.

    Attributes:
        name: ``published:<name>`` for the shipped ones, the user's label for a registered file.
        kind: ``published`` or ``user``.
        sources: one :class:`ReferenceSource` per suite it covers.
        paper: the paper the predictions come from.
        cite: that paper, short (``Xing, Jin et al. 2020 (EMNLP)``).
        covers: what the predictions cover (in words).
        system: the system's name in the paper (``BERT-PT``).
        publication: where the system itself was published.
        training_data: what it was trained on.
    """

    name: str
    kind: str
    sources: tuple[ReferenceSource, ...]
    paper: str
    covers: str
    cite: str = ""
    system: str = ""
    publication: str = ""
    training_data: str = ""
    notes: Mapping[str, str] = field(default_factory=dict)

    @property
    def suites(self) -> tuple[str, ...]:
        return tuple(s.suite for s in self.sources)

    @property
    def slug(self) -> str:
        """Its directory name under ``<out>/references/`` (``published:bert_pt`` -> ``published-bert_pt``)."""
        return self.name.replace(":", "-")

    def source(self, suite: str) -> ReferenceSource | None:
        return next((s for s in self.sources if s.suite == suite), None)

    def identity(self) -> dict[str, Any]:
        """What the model identity table shows: the paper's name, training data, publication and the files."""
        cfg = {"system": self.system, "publication": self.publication, "training data": self.training_data,
               "predictions from": self.cite or self.paper,
               **{f"file ({s.suite})": s.path + (f" [{s.column}]" if s.column else "") for s in self.sources}}
        cfg = {k: v for k, v in cfg.items() if v}
        return {"adapter": f"reference system ({NOT_RERUN})" if self.kind == PUBLISHED
                else "reference system (user-registered predictions, not re-run)",
                "class": "reference", "capabilities": [], "config": cfg, "given": sorted(cfg), "not_given": []}

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "system": self.system, "paper": self.paper, "cite": self.cite,
                "publication": self.publication, "training_data": self.training_data, "covers": self.covers,
                "sources": [s.to_dict() for s in self.sources]}


# ---- the shipped reference systems --------------------------------------------------------------------------

ARTS_PAPER = ("Xing, Jin et al. (2020), Tasty Burgers, Soggy Fries: Probing Aspect Robustness in Aspect-Based "
              "Sentiment Analysis, EMNLP 2020 (output/<domain>_results.csv of zhijing-jin/ARTS_TestSet)")
ARTS_DOMAINS = (("arts-laptop", "laptop", "SemEval-2014 laptop"), ("arts-rest", "rest", "SemEval-2014 restaurant"),
                ("arts-mams", "mams", "MAMS"))
ARTS_SYSTEMS = (  # (results CSV column, the paper's name, publication of the system)
    ("TD_LSTM", "TD-LSTM", "Tang et al. 2016 (COLING)"),
    ("GCAE", "GatedCNN (GCAE)", "Xue and Li 2018 (ACL)"),
    ("ATAE_LSTM", "AttLSTM (ATAE-LSTM)", "Wang et al. 2016 (EMNLP)"),
    ("MemNet", "MemNet", "Tang et al. 2016 (EMNLP)"),
    ("ASGCN", "GCN (ASGCN)", "Zhang et al. 2019 (EMNLP)"),
    ("bert_pair", "BERT (sentence-aspect pair)", "Devlin et al. 2019 (NAACL)"),
    ("bert_sent", "BERT-Sent (sentence only)", "Xing, Jin et al. 2020 (EMNLP)"),
    ("bert_pt", "BERT-PT", "Xu et al. 2019 (NAACL)"),
    ("mams_capsnet", "CapsBERT", "Jiang et al. 2019 (EMNLP)"),
)

SENTIVENT_PAPER = ("Jacobs and Hoste (2021), Fine-Grained Implicit Sentiment in Financial News: Uncovering Hidden "
                   "Bulls and Bears, Electronics 10:2554 (GillesJ/sentivent-implicit-economic-sentiment)")
SENTIVENT_TRAIN = "SENTiVENT train split (228 docs; dev for selection)"


def _arts() -> list[ReferenceSystem]:
    return [ReferenceSystem(
        name=f"{PUBLISHED}:{col.lower()}", kind=PUBLISHED,
        sources=tuple(ReferenceSource(suite, f"arts/output/{dom}_results.csv", col) for suite, dom, _ in ARTS_DOMAINS),
        paper=ARTS_PAPER, cite="Xing, Jin et al. 2020 (EMNLP)", system=name, publication=pub,
        covers="every enriched test example (originals, RevTgt, RevNon, AddDiff) of laptop, restaurant and MAMS",
        training_data="each domain's original training set (" + ", ".join(d for _, _, d in ARTS_DOMAINS) + ")")
        for col, name, pub in ARTS_SYSTEMS]


def _sentivent() -> list[ReferenceSystem]:
    def one(name: str, suite: str, path: str, system: str, covers: str) -> ReferenceSystem:
        return ReferenceSystem(name=f"{PUBLISHED}:{name}", kind=PUBLISHED, sources=(ReferenceSource(suite, path),),
                               paper=SENTIVENT_PAPER, cite="Jacobs and Hoste 2021 (Electronics)", system=system,
                               publication="Jacobs and Hoste 2021 (Electronics)",
                               covers=covers, training_data=SENTIVENT_TRAIN)

    return [
        one("sentivent-roberta-large-lexall", "sentivent-polar", "sentivent/error-analysis/senti-error-analysis.tsv",
            "RoBERTa-large + lexall, task-A winner (iconic-sweep-7)",
            "every task-A test item, rebuilt from the released error-analysis list (an unlisted item was right)"),
        one("sentivent-clause-winner", "sentivent-clause", "sentivent/error-analysis/impliclaus-error-analysis.tsv",
            "task-B (clause) winner (encoder not in the released data)",
            "every task-B test clause, rebuilt from the released error-analysis list (an unlisted clause was right)"),
        one("sentivent-easy-sweep-17", "sentivent-polar", "sentivent/predictions/gold-test-easy-sweep-17.csv",
            "early RoBERTa run easy-sweep-17 (in no table of the paper)",
            "every task-A test item (released test predictions)"),
        one("sentivent-dauntless-sweep-93", "sentivent-polar",
            "sentivent/predictions/gold-test-dauntless-sweep-93.csv",
            "early RoBERTa run dauntless-sweep-93 (in no table of the paper)",
            "every task-A test item (released test predictions)"),
    ]


def published_references() -> list[ReferenceSystem]:
    """Every reference system whose predictions ship with the data (ARTS's nine models, SENTiVENT's systems)."""
    return _arts() + _sentivent()


# ---- selection and user-registered references -----------------------------------------------------------------

def parse_selection(value: str | Sequence[str] | None) -> str | list[str]:
    """``--reference``: ``all`` (default, also None), ``none``, or names (comma-separated string or a list)."""
    if value is None:
        return "all"
    names = [s.strip() for s in (value.split(",") if isinstance(value, str) else value) for s in str(s).split(",")]
    names = [n for n in names if n]
    if not names:
        raise ConfigError("--reference names nothing; give all, none or reference names")
    if len(names) == 1 and names[0] in ("all", "none"):
        return names[0]
    if "all" in names or "none" in names:
        raise ConfigError(f"--reference {','.join(names)}: all and none stand alone")
    return names


def select_references(selection: str | Sequence[str] | None, suites: Sequence[str],
                      user: Iterable[ReferenceSystem] = ()) -> list[ReferenceSystem]:
    """The reference systems of a run over ``suites``: the published ones of those suites (``all``), none, or those
    named; user-registered ones always (they were asked for by name). An unknown name is a ConfigError."""
    sel = parse_selection(selection)
    user = list(user)
    published = published_references()
    known = {r.name: r for r in published}
    for r in user:
        if r.name in known or r.slug in {p.slug for p in published}:
            raise ConfigError(f"reference label {r.name!r} is taken by a published reference system")
    if len({r.name for r in user}) != len(user):
        raise ConfigError(f"reference labels must be unique: {[r.name for r in user]}")
    if sel == "all":
        chosen = [r for r in published if set(r.suites) & set(suites)]
    elif sel == "none":
        chosen = []
    else:
        users = {r.name for r in user}
        chosen = []
        for n in sel:
            if n in users:
                continue
            if n not in known:
                raise ConfigError(f"unknown reference system {n!r}{did_you_mean(n, [*known, *users])}; "
                                  "`sentiprobe list models` lists them")
            if not set(known[n].suites) & set(suites):
                raise ConfigError(f"reference system {n!r} has predictions for {', '.join(known[n].suites)}, none of "
                                  f"the suites run ({', '.join(suites)})")
            chosen.append(known[n])
    return chosen + user


_SHA = re.compile(r"^[0-9a-fA-F]{64}$")
_KEYS = ("sha256", "suite", "column", "paper", "covers", "system")


def _user_reference(label: str, path: str, *, column: str | None = None, sha256: str | None = None,
                    suite: str | None = None, suites: Sequence[str] = (), where: str = "--reference-file",
                    **about: str) -> ReferenceSystem:
    check_label(label)
    if sha256 is not None and not _SHA.match(sha256):
        raise ConfigError(f"{where} {label}: sha256 must be 64 hexadecimal digits, not {sha256!r}")
    if suite is None:
        if len(suites) != 1:
            raise ConfigError(f"{where} {label}: the run has {len(suites)} suites; name the one the file answers "
                              "(suite=NAME)")
        suite = suites[0]
    elif suite not in suites:
        raise ConfigError(f"{where} {label}: suite {suite!r} is not among the suites run ({', '.join(suites)})")
    src = ReferenceSource(suite, str(path), column, sha256.lower() if sha256 else None, managed=False)
    return ReferenceSystem(name=label, kind="user", sources=(src,), paper=about.get("paper", ""),
                           covers=about.get("covers", "") or f"the items of {suite} that the file predicts",
                           system=about.get("system", "") or label)


def parse_reference_file(text: str, suites: Sequence[str]) -> list[ReferenceSystem]:
    """One ``--reference-file`` value: ``LABEL=PATH[:COLUMN][,sha256=HEX][,suite=NAME]``, or the path of a YAML
    file whose ``references`` list holds entries ``{label, path, column?, sha256?, suite?, paper?, covers?}``."""
    if "=" not in text:
        if Path(text).suffix.lower() not in (".yaml", ".yml"):
            raise ConfigError(f"--reference-file {text!r}: expected LABEL=PATH[:COLUMN][,sha256=HEX][,suite=NAME] or a "
                              ".yaml file of references")
        return _yaml_references(Path(text), suites)
    label, rest = (x.strip() for x in text.split("=", 1))
    parts = [p.strip() for p in rest.split(",")]
    target, opts = parts[0], parts[1:]
    kw: dict[str, str] = {}
    for o in opts:
        k, sep, v = o.partition("=")
        if not sep or k.strip() not in _KEYS:
            raise ConfigError(f"--reference-file {text!r}: expected LABEL=PATH[:COLUMN][,sha256=HEX][,suite=NAME], "
                              f"not the option {o!r}")
        kw[k.strip()] = v.strip()
    if not target:
        raise ConfigError(f"--reference-file {text!r}: no file")
    column = kw.pop("column", None)
    if column is None and not Path(target).exists() and ":" in target:
        target, column = target.rsplit(":", 1)
    return [_user_reference(label, target, column=column or None, suites=suites, **kw)]


def _yaml_references(path: Path, suites: Sequence[str]) -> list[ReferenceSystem]:
    doc = load_yaml(read_user_text(path, "reference file"))
    entries = doc.get("references") if isinstance(doc, dict) else None
    if not isinstance(entries, list) or not entries:
        raise DataError("expected a 'references' list of {label, path, ...} entries", path=path, field="references")
    out = []
    for i, e in enumerate(entries, 1):
        if not isinstance(e, dict) or not isinstance(e.get("label"), str) or not isinstance(e.get("path"), str):
            raise DataError("each reference needs a 'label' and a 'path' (strings)", path=path, record=f"entry {i}")
        extra = [k for k in e if k not in ("label", "path", *_KEYS)]
        if extra:
            raise DataError(f"unknown keys {extra}; known: label, path, {', '.join(_KEYS)}", path=path,
                            record=f"entry {i}")
        p = Path(e["path"])
        p = p if p.is_absolute() else path.parent / p
        kw = {k: str(e[k]) for k in _KEYS if e.get(k) is not None}
        out.append(_user_reference(e["label"], str(p), suites=suites, where=f"{path} entry {i}", **kw))
    return out
