"""Every ``sentiprobe ...`` command of the docs is checked, so an example can no longer rot.

The commands are the ``sentiprobe`` lines of the fenced ``bash`` blocks of README.md and docs/**/*.md (continuation
lines joined, comments dropped, ``[--optional flags]`` of synopsis lines expanded with their first alternative,
shell variables of a ``for`` loop set to their first value). Each command is

- **parsed** by the real argument parser (the subcommand and every flag exist), and its suite names, model names,
  ``--suite-arg`` and ``--model-arg`` keys are checked against the registries the way ``run`` checks them;
- **run for real** when it is cheap and its inputs can be made from the shipped data (:data:`RUN`: the fixture
  files it names are written into a temporary working directory first), with its exit code and output checked;
- otherwise listed in :data:`PARSE_ONLY` with the reason (a server, a GPU, a checkpoint, minutes of training).

A command in neither list fails the test: a new example must be run or given a reason.
"""
from __future__ import annotations

import atexit
import contextlib
import csv
import io
import json
import re
import shlex
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^(?P<indent> *)```(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)```", re.S | re.M)
SHELLS = {"bash", "sh", "shell", "console"}


@dataclass(frozen=True)
class DocCommand:
    path: str      # e.g. docs/soul.md
    line: int      # 1-based line of the command's first line
    text: str      # the command as the reader sees it (continuations joined)
    argv: tuple[str, ...]   # what follows ``sentiprobe``

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text}"


def doc_files() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


def _synopsis(line: str) -> str:
    """``[--k 4]`` -> ``--k 4``; ``[--mode a|b]`` -> ``--mode a`` (optional groups of a synopsis line)."""
    def first(m: re.Match[str]) -> str:
        return " ".join(tok.split("|")[0] for tok in m.group(1).split(" "))
    while True:
        new = re.sub(r"\[(-[^\[\]]*)\]", first, line)
        if new == line:
            return new
        line = new


def extract(path: Path) -> list[DocCommand]:
    """The ``sentiprobe`` commands of the fenced shell blocks of one Markdown file."""
    text = path.read_text(encoding="utf-8")
    rel = path.relative_to(REPO).as_posix()
    out: list[DocCommand] = []
    for block in FENCE.finditer(text):
        if block.group("info").strip().split(" ")[0] not in SHELLS:
            continue
        first_line = text.count("\n", 0, block.start("body")) + 1
        variables: dict[str, str] = {}
        lines = block.group("body").splitlines()
        i = 0
        while i < len(lines):
            start = i
            logical = lines[i].strip()
            while logical.endswith("\\") and i + 1 < len(lines):
                i += 1
                logical = logical[:-1].rstrip() + " " + lines[i].strip()
            i += 1
            loop = re.match(r"for (\w+) in (\S+)", logical)
            if loop:
                variables[loop.group(1)] = loop.group(2)
                continue
            logical = re.sub(r"^\$ ", "", logical)
            for segment in re.split(r"\s(?:\|\||&&|\||;)\s", logical):
                words = shlex.split(segment, comments=True)
                while words and re.fullmatch(r"\w+=\S*", words[0]):
                    words = words[1:]  # VAR=value prefixes
                if not words or words[0] != "sentiprobe":
                    continue
                shown = " ".join(shlex.split(segment, comments=True))
                expanded = _synopsis(segment)
                for name, value in variables.items():
                    expanded = re.sub(rf"\$\{{?{name}\}}?", value, expanded)
                argv = shlex.split(expanded, comments=True)
                argv = argv[argv.index("sentiprobe") + 1:]
                out.append(DocCommand(rel, first_line + start, shown, tuple(argv)))
    return out


def all_commands() -> list[DocCommand]:
    return [c for p in doc_files() for c in extract(p)]


# ---- the commands that do not run here, and why -------------------------------------------------------------

#: (regex on the command text, reason): first match wins
PARSE_ONLY: tuple[tuple[str, str], ...] = (
    (r"openai-compatible", "needs an OpenAI-compatible server"),
    (r"--model smollm2", "loads SmolLM2 (about 45 s the first time, then minutes of CPU generation)"),
    (r"--model hf-(finetune|seq2seq|nli)", "needs a local checkpoint directory (and a GPU for the paper's recipes)"),
    (r"--executor ray|^sentiprobe sweep", "a sweep runs many jobs for minutes (Ray: needs a cluster)"),
    (r"--model gts-glove", "trains the GTS tagger for minutes"),
    (r"--model minilm-lr|--model probe-", "encodes thousands of texts with MiniLM (minutes on 2 cores)"),
    (r"--suite (sst7|noncompsst).*--model [\w,-]*tfidf-lr", "fits tf-idf on 7,730 SST-7 sentences (tens of s)"),
    (r"^sentiprobe run$", "the main job: every default model on every suite (minutes)"),
    (r"arts generate", "generation parses a TOWE file with spaCy and ranks edits with SmolLM2 (minutes)"),
    (r"arts-custom|arts audit|audit-sample|audit-score|arts fidelity", "needs the file `arts generate` writes"),
    (r"arts review", "serves a web page until its finish action (tested in tests/test_arts_review_browser.py)"),
    (r"runs/", "needs the run directory that an earlier command of the page writes (which is not run here)"),
    (r"judge-agreement", "needs judge.jsonl from a judge run (an LLM)"),
)


def parse_only_reason(cmd: DocCommand) -> str | None:
    return next((reason for pattern, reason in PARSE_ONLY if re.search(pattern, cmd.text)), None)


# ---- the commands that run for real, with the inputs they name ----------------------------------------------

def _link(src: Path, dst: Path) -> None:
    if not src.is_file():
        raise FileNotFoundError(src)
    dst.symlink_to(src)


def _arts_rest_jsonl(dst: Path, data: Path) -> None:
    """``item_id,label`` JSONL: MemNet's published restaurant predictions (CSV ``_adv4`` = JSON ``_adv3``)."""
    src = data / "arts" / "output" / "rest_results.csv"
    with src.open(newline="", encoding="utf-8") as f, dst.open("w", encoding="utf-8") as out:
        for row in csv.DictReader(f):
            out.write(json.dumps({"item_id": re.sub(r"_adv4$", "_adv3", row["id"]), "label": row["MemNet"]}) + "\n")


def _sentivent_abc(tmp: Path, data: Path) -> None:
    """Three task-A test prediction files: the two shipped runs and one that is always right on non-neutral."""
    a, b = sorted((data / "sentivent" / "predictions").glob("*.csv"))
    _link(a, tmp / "a.csv")
    _link(b, tmp / "b.csv")
    with a.open(newline="", encoding="utf-8") as f, (tmp / "c.csv").open("w", newline="", encoding="utf-8") as out:
        rows = list(csv.DictReader(f))
        w = csv.DictWriter(out, fieldnames=list(rows[0]))
        w.writeheader()
        for row in rows:
            w.writerow({**row, "pred": row["labels"] if row["labels"] != "neutral" else row["pred"]})


def _noncompsst_preds(dst: Path, data: Path) -> None:
    """``line,seed,label`` for the 1,813 stimuli and seeds 1-3 (the fixed synthetic set of the protocol page)."""
    n = sum(1 for _ in (data / "noncompsst" / "noncompsst" / "stimuli_flat.txt").open(encoding="utf-8"))
    with dst.open("w", encoding="utf-8") as out:
        out.write("line,seed,label\n")
        for s in (1, 2, 3):
            for i in range(n):
                out.write(f"{i},{s},{(((i + 1) * (2 * s + 3) * 2654435761) % 2**32) % 7}\n")


def _soul_preds(dst: Path, data: Path, jg: bool) -> None:
    """SOUL test predictions by item id ``<rid>:<n>``: always ``true``; JG justifications = the statement."""
    seen: dict[str, int] = {}
    with (data / "soul" / "test.csv").open(newline="", encoding="utf-8") as f, dst.open("w", encoding="utf-8") as out:
        if not jg:
            out.write("item_id,label\n")
        for row in csv.DictReader(f):
            seen[row["rid"]] = seen.get(row["rid"], 0) + 1
            item = f"{row['rid']}:{seen[row['rid']]}"
            if jg:
                out.write(json.dumps({"item_id": item, "label": "true", "justification": row["statement"]}) + "\n")
            else:
                out.write(f"{item},true\n")


def _triplet_preds(dst: Path, data: Path) -> None:
    """One record per joinedsemeval test sentence, no triplets."""
    sentences = json.loads((data / "sentivent" / "triplets" / "joinedsemeval" / "test.json").read_text("utf-8"))
    with dst.open("w", encoding="utf-8") as out:
        for s in sentences:
            out.write(json.dumps({"id": s["id"], "triplets": []}) + "\n")


FINETUNE = "save_to=my-checkpoint"


def _readme_finetune(tmp: Path, data: Path) -> None:
    """Runs the README's fine-tuning command in ``tmp``: the checkpoint the evaluation command reads."""
    from sentiprobe.cli import main

    cmd = next(c for c in extract(REPO / "README.md") if FINETUNE in c.text)
    with contextlib.chdir(tmp), contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(list(cmd.argv)) == 0, f"{cmd} failed"
    assert (tmp / "my-checkpoint" / "model.safetensors").is_file()


ARTS_GENERATE = "sentiprobe arts generate --input $(sentiprobe data path arts/src_data/laptop/test_sent_towe.json) " \
    "--rank rules --out gen.json"
STRATEGIES = ("revtgt", "revnon", "adddiff")
_GENERATED: dict[Path, Path] = {}   # data dir -> gen.json of the README's generation command, made once per session


def _check_generated(tmp: Path) -> None:
    """The README's generation wrote all three strategies (AddDiff from the training file beside the input)."""
    counts = json.loads((tmp / "gen.report.json").read_text(encoding="utf-8"))["counts"]
    assert all(counts.get(s, 0) > 0 for s in STRATEGIES), counts


def _readme_generated(tmp: Path, data: Path) -> None:
    """``gen.json`` of the README's generation command in ``tmp`` (run once, or copied from the run that made it)."""
    from sentiprobe.cli import main

    if data not in _GENERATED:
        work = _scratch()
        cmd = next(c for c in extract(REPO / "README.md") if c.text == ARTS_GENERATE)
        with contextlib.chdir(work), contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()):
            assert main(_shell_substitutions(list(cmd.argv))) == 0, f"{cmd} failed"
        _check_generated(work)
        _GENERATED[data] = work / "gen.json"
    shutil.copy(_GENERATED[data], tmp / "gen.json")


def _check_arts_custom(tmp: Path) -> None:
    """The arts-custom run over the generated file scored every strategy."""
    doc = json.loads((tmp / "runs" / "latest" / "vader" / "results.json").read_text(encoding="utf-8"))
    metrics = doc["suites"]["arts-custom"]["metrics"]
    assert {"ars", *(f"accuracy_{s}" for s in STRATEGIES)} <= set(metrics), sorted(metrics)


DATA_PATH = re.compile(r"\$\(sentiprobe data path ([^()\s]+)\)")


def _shell_substitutions(argv: list[str]) -> list[str]:
    """``$(sentiprobe data path FILE)`` replaced by what that command prints (run for real)."""
    from sentiprobe.cli import main

    def sub(m: re.Match[str]) -> str:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["data", "path", m.group(1)]) == 0, f"sentiprobe data path {m.group(1)} failed"
        return out.getvalue().strip()
    return [DATA_PATH.sub(sub, a) for a in argv]


Fixture = Callable[[Path, Path], None]   # (working directory, data directory)
#: command text -> (fixture writing the files it names into the working directory, text its stdout must contain)
RUN: dict[str, tuple[Fixture, str]] = {
    "sentiprobe list": (lambda tmp, data: None, "arts-laptop"),
    # the README's "your own classifier": fine-tune, save, evaluate the saved checkpoint (offline)
    "sentiprobe run --suite arts-laptop --model hf-finetune --model-arg train_limit=64 --model-arg epochs=1 "
    "--model-arg save_to=my-checkpoint --limit 20 --out runs/finetune": (lambda tmp, data: None, "arts-laptop"),
    "sentiprobe run --suite arts-laptop,arts-rest,sentivent-polar --model hf-classifier "
    "--model-arg path=my-checkpoint --limit 20 --out runs/mine": (_readme_finetune, "sentivent-polar"),
    # the README's ARTS generation on the shipped laptop test file, then arts-custom over what it wrote
    ARTS_GENERATE: (lambda tmp, data: None, "wrote gen.json"),
    "sentiprobe run --suite arts-custom --suite-arg path=gen.json --model vader": (_readme_generated, "arts-custom"),
    "sentiprobe list matrix": (lambda tmp, data: None, "arts-laptop"),
    "sentiprobe score --suite arts-laptop --predictions laptop_results.csv --column bert_pt --json":
        (lambda tmp, data: _link(data / "arts" / "output" / "laptop_results.csv", tmp / "laptop_results.csv"), '"ars"'),
    "sentiprobe score --suite arts-rest --predictions my_preds.jsonl --json":
        (lambda tmp, data: _arts_rest_jsonl(tmp / "my_preds.jsonl", data), '"ars"'),
    "sentiprobe compare --suite arts-laptop --predictions laptop_results.csv --column bert_pt --column MemNet":
        (lambda tmp, data: _link(data / "arts" / "output" / "laptop_results.csv", tmp / "laptop_results.csv"), "ars"),
    "sentiprobe compare --suite sentivent-polar --predictions a.csv b.csv c.csv --json": (_sentivent_abc, "macro_f1"),
    "sentiprobe run --model tfidf-lr --suite arts-laptop --limit 100": (lambda tmp, data: None, "published:bert_pt"),
    "sentiprobe agree ratings.csv --json":
        (lambda tmp, data: _link(data / "sentivent" / "iaa" / "sentiment_expressions-polarity_sentiment.csv",
                           tmp / "ratings.csv"), "alpha"),
    "sentiprobe score --suite noncompsst --predictions preds.csv --tables-out ratings/ --json":
        (lambda tmp, data: _noncompsst_preds(tmp / "preds.csv", data), "pearson_maxabs"),
    "sentiprobe score --suite noncompsst --predictions preds.csv --json --tables-out ratings/":
        (lambda tmp, data: _noncompsst_preds(tmp / "preds.csv", data), "pearson_maxabs"),
    "sentiprobe score --suite soul-rc --predictions preds.csv --json":
        (lambda tmp, data: _soul_preds(tmp / "preds.csv", data, jg=False), "f1_not_given"),
    "sentiprobe score --suite soul-jg --predictions preds.jsonl --suite-arg bertscore=0 --json":
        (lambda tmp, data: _soul_preds(tmp / "preds.jsonl", data, jg=True), "rougeL"),
    "sentiprobe score --suite absa-triplet-explicit --predictions preds.jsonl --json":
        (lambda tmp, data: _triplet_preds(tmp / "preds.jsonl", data), "triplet_f1"),
}


#: command text -> a check of the files it wrote (in the working directory)
CHECKS: dict[str, Callable[[Path], None]] = {
    ARTS_GENERATE: _check_generated,
    "sentiprobe run --suite arts-custom --suite-arg path=gen.json --model vader": _check_arts_custom,
}


def _keep(path: Path) -> Path:
    """A copy of ``path`` that outlives the test's working directory."""
    return Path(shutil.copy(path, _scratch() / path.name))


def _scratch() -> Path:
    """A directory for the session (the generated file outlives one test), removed when the session ends."""
    work = Path(tempfile.mkdtemp(prefix="readme-arts-"))
    atexit.register(shutil.rmtree, work, True)
    return work


# ---- checks --------------------------------------------------------------------------------------------------

COMMANDS = all_commands()


def _ids(cmds: list[DocCommand]) -> list[str]:
    return [f"{c.path}:{c.line}" for c in cmds]


def test_the_docs_have_commands():
    assert len(COMMANDS) >= 30
    assert {c.path for c in COMMANDS} >= {"README.md", "docs/soul.md", "docs/llm.md", "docs/noncompsst.md"}


def test_every_command_is_run_or_has_a_reason():
    undecided = [str(c) for c in COMMANDS if c.text not in RUN and parse_only_reason(c) is None]
    assert not undecided, ("commands in the docs that are neither run (RUN) nor parse-only with a reason "
                           "(PARSE_ONLY):\n" + "\n".join(undecided))
    stale = set(RUN) - {c.text for c in COMMANDS}
    assert not stale, f"RUN entries no doc contains any more: {sorted(stale)}"


def _names(values: list[str] | str | None) -> list[str]:
    if values is None:
        return []
    values = [values] if isinstance(values, str) else values
    return [n.strip() for v in values for n in v.split(",") if n.strip()]


@pytest.mark.parametrize("cmd", COMMANDS, ids=_ids(COMMANDS))
def test_command_parses_and_names_exist(cmd: DocCommand):
    from sentiprobe.cli import build_parser
    from sentiprobe.cli.run_cmd import parse_model_args
    from sentiprobe.cli.suite_args import parse_suite_args
    from sentiprobe.models import MODELS
    from sentiprobe.run.modelargs import assign_model_args, model_entries
    from sentiprobe.suites import SUITES

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            ns = build_parser().parse_args(list(cmd.argv))
        except SystemExit as exc:
            if exc.code == 0:  # --help
                return
            pytest.fail(f"{cmd}\n  does not parse: {err.getvalue().strip().splitlines()[-1]}")
    suites = []
    for name in _names(getattr(ns, "suite", None)):
        family = [s.name for s in SUITES if s.family == name]
        suites += family or [SUITES.get(name).name]  # unknown: ConfigError with did-you-mean
    models = model_entries(_names(getattr(ns, "model", None)))  # NAME or LABEL=NAME
    for e in models:
        MODELS.entry(e.name)
    if models and getattr(ns, "model_arg", None):
        assign_model_args({e.label: e.name for e in models}, parse_model_args(ns.model_arg))
    if suites and getattr(ns, "suite_arg", None):
        parse_suite_args(ns.suite_arg, suites, environ={})


@pytest.mark.realdata
@pytest.mark.parametrize("cmd", [c for c in COMMANDS if c.text in RUN],
                         ids=_ids([c for c in COMMANDS if c.text in RUN]))
def test_cheap_command_runs(cmd: DocCommand, data_dir, tmp_path, monkeypatch, capsys):
    from sentiprobe.cli import main

    fixture, expected = RUN[cmd.text]
    fixture(tmp_path, data_dir)
    monkeypatch.chdir(tmp_path)
    code = main(_shell_substitutions(list(cmd.argv)))
    out = capsys.readouterr()
    assert code == 0, f"{cmd}\n  exit {code}: {out.err[-2000:]}"
    assert expected in out.out, f"{cmd}\n  stdout lacks {expected!r}: {out.out[:1000]}"
    if cmd.text in CHECKS:
        CHECKS[cmd.text](tmp_path)
    if cmd.text == ARTS_GENERATE:
        _GENERATED.setdefault(data_dir, _keep(tmp_path / "gen.json"))
    if cmd.argv[-1] == "--json" or "--json" in cmd.argv:
        json.loads(out.out)
    if "--tables-out" in cmd.argv:
        assert any((tmp_path / cmd.argv[cmd.argv.index("--tables-out") + 1]).iterdir())
