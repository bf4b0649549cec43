"""The suite contract: typed options (parsed, validated, recorded, in the fit key), narrow errors in runs,
the results schema, and the stage modules every built-in package has."""
from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

import toy
from sentiprobe import api
from sentiprobe.cli import main
from sentiprobe.cli.suite_args import parse_suite_args
from sentiprobe.core.errors import ConfigError, DataError
from sentiprobe.core.types import Item
from sentiprobe.core.results import ResultsSchemaError, read_results, validate_results
from sentiprobe.suites import SUITES, SuiteSpec, get_suite, option
from sentiprobe.suites.spec import describe_options, parse_options

toy.register()


@dataclass(frozen=True)
class ShiftOptions:
    """Options of the test suite below."""

    prefix: str = option("", "text prepended to every item (changes the items)", env="SENTIPROBE_TEST_PREFIX")
    n: int = option(30, "number of test items")
    strict: bool = option(True, "a boolean option")
    crash: str = option("none", "make a stage fail", choices=("none", "bug", "typed"))


def _load(suite, split):
    if suite.options.crash == "bug" and split == "test":
        raise ZeroDivisionError("a bug in a suite")
    items = toy._load(suite, split)[: suite.options.n] if split == "test" else toy._load(suite, split)
    return [Item(it.item_id, it.group_id, it.split, suite.options.prefix + it.text, it.label) for it in items]


def _spec(name):
    base = toy.toy_spec(name)
    return SuiteSpec(**{**{f: getattr(base, f) for f in base.__dataclass_fields__}, "load_items": _load,
                        "options": ShiftOptions})


if "toy-opt" not in SUITES:
    SUITES.register(_spec("toy-opt"))


def test_options_parse_validate_and_describe():
    o = parse_options(ShiftOptions, {"n": "5", "strict": "no", "prefix": "x"}, suite="toy-opt")
    assert (o.n, o.strict, o.prefix) == (5, False, "x")
    with pytest.raises(ConfigError, match="did you mean 'strict'"):
        parse_options(ShiftOptions, {"strikt": "1"}, suite="toy-opt")
    with pytest.raises(ConfigError, match="expected an integer"):
        parse_options(ShiftOptions, {"n": "many"}, suite="toy-opt")
    with pytest.raises(ConfigError, match="not one of"):
        parse_options(ShiftOptions, {"crash": "sometimes"}, suite="toy-opt")
    d = describe_options(ShiftOptions)
    assert d["prefix"]["env"] == "SENTIPROBE_TEST_PREFIX" and d["n"]["default"] == 30


def test_suite_args_cli_layer(monkeypatch):
    env = {"SENTIPROBE_TEST_PREFIX": "from-env "}
    assert parse_suite_args([], ["toy-opt"], environ=env) == {"toy-opt": {"prefix": "from-env "}}
    # an explicit --suite-arg wins over the environment
    assert parse_suite_args(["prefix=cli "], ["toy-opt"], environ=env)["toy-opt"]["prefix"] == "cli "
    # qualified keys, and keys that only some selected suites declare
    assert parse_suite_args(["toy-opt:n=3"], ["toy", "toy-opt"], environ={}) == {"toy-opt": {"n": "3"}}
    with pytest.raises(ConfigError, match="no option 'prefx'.*did you mean 'prefix'"):
        parse_suite_args(["prefx=1"], ["toy-opt"], environ={})
    with pytest.raises(ConfigError, match="no option 'n'"):  # toy has no options: inapplicable, not dropped
        parse_suite_args(["toy:n=3"], ["toy", "toy-opt"], environ={})
    # the suite itself never reads the environment
    monkeypatch.setenv("SENTIPROBE_TEST_PREFIX", "ignored ")
    assert not get_suite("toy-opt").items("test")[0].text.startswith("ignored")


def test_options_are_recorded_and_key_the_fitted_model(tmp_path):
    cache = tmp_path / "cache"
    a = api.run(["toy-opt"], ["slow-lexicon"], out=tmp_path / "a", cache_dir=str(cache), n_boot=0, progress=False,
                suite_options={"toy-opt": {"n": "12"}})["runs"]["slow-lexicon"]
    entry = a["suites"]["toy-opt"]
    assert entry["suite"]["options"] == {"prefix": "", "n": 12, "strict": True, "crash": "none"}
    assert entry["n_items"] == 12 and entry["fit"][0]["restored_from_cache"] is False
    assert set(entry["seconds"]) == {"load", "fit", "predict", "score"}
    b = api.run(["toy-opt"], ["slow-lexicon"], out=tmp_path / "b", cache_dir=str(cache), n_boot=0, progress=False,
                suite_options={"toy-opt": {"n": "12", "prefix": "so "}})["runs"]["slow-lexicon"]
    assert b["suites"]["toy-opt"]["fit"][0]["restored_from_cache"] is False  # other training items: refit
    assert b["suites"]["toy-opt"]["items_hash"] != entry["items_hash"]
    b2 = api.run(["toy-opt"], ["slow-lexicon"], out=tmp_path / "b2", cache_dir=str(cache), n_boot=0,
                 progress=False, suite_options={"toy-opt": {"n": "12", "strict": "0"}})["runs"]["slow-lexicon"]
    assert b2["suites"]["toy-opt"]["fit"][0]["restored_from_cache"] is True  # same training items: shared fit
    c = api.run(["toy-opt"], ["slow-lexicon"], out=tmp_path / "c", cache_dir=str(cache), n_boot=0, progress=False,
                suite_options={"toy-opt": {"n": "12"}})["runs"]["slow-lexicon"]
    assert c["suites"]["toy-opt"]["fit"][0]["restored_from_cache"] is True
    assert c["suites"]["toy-opt"]["items_hash"] == entry["items_hash"]
    doc = read_results(tmp_path / "a" / "slow-lexicon")
    assert doc["suites"]["toy-opt"]["suite"]["options"]["n"] == 12


def test_a_failing_suite_is_recorded_and_the_others_finish(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["run", "--suite", "toy,toy-opt", "--model", "slow-lexicon", "--out", str(out), "--n-boot", "0",
                 "--no-progress", "--suite-arg", "crash=bug"])
    assert code == 1
    err = capsys.readouterr().err
    assert "toy-opt failed: ZeroDivisionError" in err and "Traceback" not in err
    doc = json.loads((out / "slow-lexicon" / "results.json").read_text())
    assert "toy" in doc["suites"] and "toy-opt" not in doc["suites"]
    assert doc["errors"]["toy-opt"] == {"type": "ZeroDivisionError", "message": "a bug in a suite", "kind": "bug"}
    log = (out / "slow-lexicon" / "run.log").read_text()
    assert "Traceback" in log and "ZeroDivisionError" in log
    assert "failed" in (out / "slow-lexicon" / "report.html").read_text()


def test_missing_data_is_the_only_data_missing(tmp_path):
    (tmp_path / "empty").mkdir()  # a data directory without the suite's files (a missing directory is refused first)
    doc = api.run(["arts-laptop", "toy"], ["majority"], out=tmp_path / "r", data_dir=str(tmp_path / "empty"),
                  n_boot=0, progress=False)["runs"]["majority"]
    assert doc["errors"]["arts-laptop"]["kind"] == "missing-data"
    assert "toy" in doc["suites"]


@pytest.mark.parametrize("limit", [0, -1, -5])
def test_limit_must_be_positive(limit, tmp_path, capsys):
    assert main(["run", "--suite", "toy", "--model", "majority", "--out", str(tmp_path), "--limit", str(limit)]) == 1
    assert "--limit must be a positive" in capsys.readouterr().err


def test_results_schema_rejects_bad_documents(tmp_path):
    doc = api.run(["toy"], ["majority"], out=tmp_path / "r", n_boot=10, progress=False)["runs"]["majority"]
    validate_results(doc)
    bad = json.loads(json.dumps(doc))
    del bad["suites"]["toy"]["items_hash"]
    with pytest.raises(ResultsSchemaError, match="items_hash"):
        validate_results(bad)
    bad = json.loads(json.dumps(doc))
    bad["suites"]["toy"]["metrics"]["accuracy"]["ci_low"] = 2.0
    with pytest.raises(ResultsSchemaError, match="ci_low"):
        validate_results(bad)
    with pytest.raises(ResultsSchemaError, match="schema_version"):
        validate_results({**doc, "schema_version": 99})
    p = tmp_path / "x.json"
    p.write_bytes(b"\xff\xfe not json")
    with pytest.raises(DataError, match=r"results file is not UTF-8 text.*x\.json"):  # the input layer's message
        read_results(p)
    p.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(DataError, match=r"nested deeper than 100.*x\.json"):
        read_results(p)


def test_unexpected_exception_prints_one_line_and_a_log(monkeypatch, capsys):
    import sentiprobe.api as sp

    def boom(**kw):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(sp, "list_suites", boom)
    assert main(["list"]) == 3
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: kaboom" in err and "Traceback" not in err
    log = err.split("traceback is in ")[1].split(" ")[0]
    assert "Traceback" in Path(log).read_text()


STAGES = {"data": ("load_items", "data_files"), "predictions": ("read_predictions",), "score": ("score",),
          "report": ("render_section",)}


@pytest.mark.parametrize("package", ["arts", "lexcomp", "noncompsst", "sentivent", "soul", "triplets"])
def test_every_package_has_the_stage_modules(package):
    for module, functions in STAGES.items():
        mod = importlib.import_module(f"sentiprobe.suites.{package}.{module}")
        for fn in functions:
            assert callable(getattr(mod, fn)), f"{package}.{module}.{fn}"
    for spec in SUITES:
        # the triplet suites read the sentivent data family from their own package
        if spec.family == package or spec.load_items.__module__.startswith(f"sentiprobe.suites.{package}."):
            assert spec.load_items.__module__.endswith(".data")
            assert spec.load_items.__module__.split(".")[2] in (package, "triplets")


def suite_name_branches(source: str, names: set[str]) -> list[str]:
    """Where a module compares a ``.suite`` / ``.name`` attribute with a registered suite's name."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        named = any(isinstance(x, ast.Attribute) and x.attr in ("suite", "name") for x in sides)
        literal = [x.value for x in sides if isinstance(x, ast.Constant) and isinstance(x.value, str)]
        literal += [e.value for x in sides if isinstance(x, (ast.Tuple, ast.Set, ast.List)) for e in x.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if named and set(literal) & names:
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_suites_differ_through_their_specs_never_a_branch_on_their_name():
    names = {spec.name for spec in SUITES}
    some = sorted(names)[0]
    # the check can fail: a comparison and a membership test on a registered name
    assert suite_name_branches(f"if context.suite == {some!r}:\n    pass\n", names)
    assert suite_name_branches(f"ok = suite.name in ({some!r}, 'x')\n", names)
    root = Path(importlib.import_module("sentiprobe.suites").__file__).parent
    found = {str(f.relative_to(root)): hits for f in sorted(root.rglob("*.py"))
             if (hits := suite_name_branches(f.read_text(encoding="utf-8"), names))}
    assert not found, found


ENV_READS = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}


def environment_reads(source: str) -> list[str]:
    """Where a module touches the process environment: ``os.environ`` / ``os.getenv`` ... (however ``os`` is
    imported or aliased), ``from os import environ``, and the ``os`` module handed on by name."""
    import ast

    tree = ast.parse(source)
    os_names = {"os"} | {a.asname for n in ast.walk(tree) if isinstance(n, ast.Import)
                         for a in n.names if a.name == "os" and a.asname}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ENV_READS and isinstance(node.value, ast.Name) \
                and node.value.id in os_names:
            found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
        elif isinstance(node, ast.ImportFrom) and node.module in ("os", "posix", "nt") \
                and any(a.name in ENV_READS for a in node.names):
            found.append(f"line {node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
                and len(node.args) >= 2 and isinstance(node.args[0], ast.Name) and node.args[0].id in os_names \
                and not (isinstance(node.args[1], ast.Constant) and node.args[1].value not in ENV_READS):
            found.append(f"line {node.lineno}: getattr(os, ...)")
    return found


def test_the_environment_detector_finds_every_spelling():
    for src in ("import os\nx = os.environ.get('A')", "import os as o\no.getenv('A')",
                "from os import environ\n", "from os import getenv as g\n", "import os\nos.environ['A'] = '1'",
                "import os\ngetattr(os, 'environ')"):
        assert environment_reads(src), src
    assert environment_reads("import os\nos.cpu_count()\nos.path.join('a')\ngetattr(os, 'O_BINARY', 0)") == []


def test_the_environment_is_read_only_in_the_cli():
    """Every module of the package, not a few folders: only ``sentiprobe/cli/`` reads the process environment
    (the library sees what the command line installed, :mod:`sentiprobe.core.env`)."""
    root = Path(__import__("sentiprobe").__file__).parent
    offenders = {}
    for f in sorted(root.rglob("*.py")):
        rel = f.relative_to(root)
        if rel.parts[0] == "cli":
            continue
        reads = environment_reads(f.read_text(encoding="utf-8"))
        if reads:
            offenders[str(rel)] = reads
    assert offenders == {}
    assert len(list(root.rglob("*.py"))) > 150  # the walk saw the whole package


def test_the_api_does_not_see_an_environment_nobody_installed(monkeypatch, tmp_path):
    from sentiprobe.core import env
    from sentiprobe.data import resolve_data_dir

    monkeypatch.setenv("SENTIPROBE_DATA_DIR", str(tmp_path / "from-env"))
    assert resolve_data_dir() == tmp_path / "from-env"  # the tests install the environment, as the CLI does
    previous = env.install(None)
    try:
        assert resolve_data_dir() != tmp_path / "from-env"  # a program that did not opt in: its arguments only
        assert resolve_data_dir(tmp_path / "given") == tmp_path / "given"
    finally:
        env.install(previous)


def test_family_names_expand_to_their_suites(data_dir):
    from sentiprobe.api import expand_suite_groups

    got = expand_suite_groups(["lexcomp", "toy"], str(data_dir))
    assert got[-1] == "toy" and {s for s in got if s.startswith("lexcomp-")} >= {"lexcomp-nc-literality",
                                                                                  "lexcomp-phrase-type"}
    assert "arts-custom" not in expand_suite_groups(["arts"], str(data_dir))  # needs --suite-arg path=FILE


def test_results_record_the_model_configuration(tmp_path):
    doc = api.run(["toy"], ["slow-lexicon"], model_args={"batch_size": "7"}, out=tmp_path / "r", n_boot=0,
                  progress=False)["runs"]["slow-lexicon"]
    assert doc["suites"]["toy"]["model_config"] == {"batch_size": 7}
