"""``confidence`` is the one name of the level at every boundary; only ``stats/`` sees ``alpha``, and never with a
default, so a caller that forgets the run's level fails the type check (and the call) instead of silently getting
95% intervals. The commands that show intervals (``agree``, ``judge-agreement``, ``arts audit-score``) and the SOUL
judge summary draw them at the level they are given."""
from __future__ import annotations

import ast
import csv
import importlib
import inspect
import json
import pkgutil
from pathlib import Path

import pytest

import sentiprobe.stats as stats_pkg
from sentiprobe.cli import main
from sentiprobe.stats import alpha_of, confidence_of

SRC = Path(__file__).resolve().parents[1] / "src" / "sentiprobe"


def _stats_functions():
    """Every public function and method defined in a module of ``sentiprobe.stats`` (a new one included)."""
    for info in pkgutil.iter_modules(stats_pkg.__path__):
        mod = importlib.import_module(f"sentiprobe.stats.{info.name}")
        for name, obj in vars(mod).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != mod.__name__:
                continue
            if inspect.isfunction(obj):
                yield f"{mod.__name__}.{name}", obj
            elif inspect.isclass(obj):
                for mname, meth in vars(obj).items():
                    if inspect.isfunction(meth) and not mname.startswith("_"):
                        yield f"{mod.__name__}.{name}.{mname}", meth


def _with_alpha():
    found = [(n, f) for n, f in _stats_functions() if "alpha" in inspect.signature(f).parameters]
    assert len(found) >= 15  # the walk finds the interval functions (a broken walk would pass vacuously)
    return found


@pytest.mark.parametrize(("name", "fn"), _with_alpha(), ids=[n for n, _ in _with_alpha()])
def test_every_stats_interval_function_needs_alpha(name, fn):
    """Binding the call's required arguments without ``alpha`` is the TypeError a call without it raises."""
    sig = inspect.signature(fn)
    assert sig.parameters["alpha"].default is inspect.Parameter.empty, f"{name} defaults alpha"
    kwargs = {p.name: object() for p in sig.parameters.values()
              if p.name != "alpha" and p.default is inspect.Parameter.empty
              and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    assert not any(p.kind is p.POSITIONAL_ONLY for p in sig.parameters.values())
    with pytest.raises(TypeError, match="alpha"):
        sig.bind(**kwargs)
    sig.bind(**kwargs, alpha=0.05)


def test_no_stats_function_defaults_a_level():
    for name, fn in _stats_functions():
        p = inspect.signature(fn).parameters.get("confidence")
        assert p is None or p.default is inspect.Parameter.empty, f"{name} defaults confidence"


def test_the_agreement_coefficients_name_alpha_instead_of_passing_it_through_kwargs():
    from sentiprobe.stats import agreement

    for fn in (agreement.percent_agreement, agreement.fleiss_kappa, agreement.gwet_ac1, agreement.pairwise_cohen):
        assert inspect.signature(fn).parameters["alpha"].kind is inspect.Parameter.KEYWORD_ONLY
        with pytest.raises(TypeError, match="alpha"):
            fn([["a", "a"], ["b", "b"]], *([["r1", "r2"]] if fn is agreement.pairwise_cohen else []))


def _functions(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            a = node.args
            pos = a.posonlyargs + a.args
            defaults = dict(zip([x.arg for x in pos[len(pos) - len(a.defaults):]], a.defaults))
            defaults.update({x.arg: d for x, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
            yield node.name, [x.arg for x in pos + a.kwonlyargs], defaults


# The public entry points, whose default level is the run spec's DEFAULT_CONFIDENCE (as the CLI flags' is).
ENTRY_POINTS = {"api.py", "suites/base.py"}
READS_ALPHA = {("core/runspec.py", "confidence_of")}  # the one reading of an alpha as a level (the former --alpha)
SHOWS_A_RECORDED_LEVEL = {("report/html.py", "metrics_table")}  # a header; None: results that predate the record


def test_above_stats_the_level_is_confidence_and_only_entry_points_default_it():
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith("stats/"):
            continue
        for name, params, defaults in _functions(path):
            if not name.startswith("_") and (rel, name) not in READS_ALPHA:
                assert "alpha" not in params, f"{rel}: {name} takes alpha above stats/ (name it confidence)"
            if "confidence" in defaults and (rel, name) not in SHOWS_A_RECORDED_LEVEL:
                assert rel in ENTRY_POINTS, f"{rel}: {name} defaults confidence (pass the caller's level)"
                d = defaults["confidence"]
                assert isinstance(d, ast.Name) and d.id == "DEFAULT_CONFIDENCE", f"{rel}: {name}"


def test_alpha_of_and_confidence_of_are_each_others_inverse():
    assert alpha_of(0.95) == 0.05 and confidence_of(0.05) == 0.95
    assert all(confidence_of(alpha_of(c)) == c for c in (0.5, 0.8, 0.9, 0.95, 0.99))


# ---- end to end: the intervals follow the level given ---------------------------------------------------------

def _width(m: dict) -> float:
    return m["ci_high"] - m["ci_low"]


def test_soul_judge_summary_follows_the_confidence():
    from sentiprobe.suites.soul.judge import CRITERIA, JudgeRecord, summarize

    recs = [JudgeRecord(f"r{k}:1", f"r{k}", ["a"], {"a": "a"}, "p", "o",
                        scores={"a": {c: 1 + (7 * k + j) % 3 for j, c in enumerate(CRITERIA)}}) for k in range(40)]
    wide = summarize(recs, n_boot=400, seed=0, confidence=0.95)
    narrow = summarize(recs, n_boot=400, seed=0, confidence=0.5)
    assert wide["confidence"] == 0.95 and narrow["confidence"] == 0.5
    for c in CRITERIA:
        w, n = wide["systems"]["a"][c], narrow["systems"]["a"][c]
        assert w["value"] == n["value"] and _width(n) < _width(w)


def _ratings(path: Path, rows: list[list]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    return path


@pytest.mark.parametrize("ci", ["analytic", "bootstrap"])
def test_agree_follows_the_confidence(tmp_path, capsys, ci):
    labels = ["pos", "neg", "neu"]
    table = _ratings(tmp_path / "r.csv", [["id", "r1", "r2", "r3"]] + [
        [f"u{k}", labels[k % 3], labels[(k + (k % 4 == 0)) % 3], labels[(k + (k % 5 == 0)) % 3]] for k in range(60)])

    def doc(*flags: str) -> dict:
        assert main(["agree", str(table), "--ci", ci, "--n-boot", "300", "--json", *flags]) == 0
        return json.loads(capsys.readouterr().out)

    wide, narrow = doc(), doc("--confidence", "0.5")
    assert wide["details"]["confidence"] == 0.95 and narrow["details"]["confidence"] == 0.5
    for name in ("fleiss_kappa", "krippendorff_alpha", "gwet_ac1"):
        assert wide["metrics"][name]["value"] == narrow["metrics"][name]["value"]
        assert _width(narrow["metrics"][name]) < _width(wide["metrics"][name]), name


def test_judge_agreement_follows_the_confidence(tmp_path, capsys):
    from sentiprobe.suites.soul.judge import CRITERIA

    head = ["item_id", "system", *CRITERIA]
    a = [[f"i{k}", "s", *[1 + (k * (j + 1)) % 3 for j in range(5)]] for k in range(40)]
    b = [[r[0], r[1], *[v if (k + j) % 4 else 1 + v % 3 for j, v in enumerate(r[2:])]] for k, r in enumerate(a)]
    judge, human = _ratings(tmp_path / "j.csv", [head, *a]), _ratings(tmp_path / "h.csv", [head, *b])

    def doc(*flags: str) -> dict:
        assert main(["judge-agreement", "--judge", str(judge), "--human", str(human), "--n-boot", "300", "--json",
                     *flags]) == 0
        return json.loads(capsys.readouterr().out)

    wide, narrow = doc(), doc("--confidence", "0.5")
    assert wide["confidence"] == 0.95 and narrow["confidence"] == 0.5
    k_wide, k_narrow = wide["criteria"]["correctness"]["kappa_quadratic"], \
        narrow["criteria"]["correctness"]["kappa_quadratic"]
    assert k_wide["value"] == k_narrow["value"] and _width(k_narrow) < _width(k_wide)


def test_arts_audit_score_follows_the_confidence_and_keeps_alpha_as_its_former_name(tmp_path, capsys):
    from sentiprobe.generate.arts import audit_sample

    doc = {}
    for i in range(12):
        rec = {"sentence": f"The screen {i} is great.", "term": "screen", "polarity": "positive", "id": f"s{i}_0",
               "from": 4, "to": 10}
        doc[f"s{i}_0"] = rec
        doc[f"s{i}_0_adv1"] = {**rec, "sentence": f"The screen {i} is awful.", "polarity": "negative"}
    gen = tmp_path / "g.json"
    gen.write_text(json.dumps(doc), encoding="utf-8")
    sheet = tmp_path / "a.csv"
    audit_sample(gen, sheet, per_strategy=8, seed=1)
    rows = list(csv.DictReader(sheet.open(encoding="utf-8")))
    for k, r in enumerate(rows):
        r["fluent"], r["label"] = ("yes" if k % 3 else "no"), "positive"
    with sheet.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)

    def score(*flags: str) -> dict:
        assert main(["arts", "audit-score", str(sheet), "--json", *flags]) == 0
        return json.loads(capsys.readouterr().out)

    wide, narrow, former = score(), score("--confidence", "0.5"), score("--alpha", "0.5")
    assert wide["confidence"] == 0.95 and narrow["confidence"] == 0.5
    assert _width(narrow["overall"]["fluent"]) < _width(wide["overall"]["fluent"])
    assert former == narrow  # --alpha A is --confidence 1-A
    assert main(["arts", "audit-score", str(sheet), "--confidence", "0.9", "--alpha", "0.1"]) == 2  # one or other
    assert "not allowed with argument" in capsys.readouterr().err
    assert main(["arts", "audit-score", str(sheet), "--confidence", "0.5"]) == 0
    assert "(50.0% Wilson CIs)" in capsys.readouterr().out
