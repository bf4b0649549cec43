"""The bad-input corpus: hostile but fair single-command cases over every command and suite family.

Each :class:`Case` writes its input files into a fresh directory and names the CLI arguments, the expected exit
status and text the error must contain (``{file}`` stands for the case's main input file, so every file error is
checked to name the file). ``python tests/badinput/corpus.py OUT_DIR`` writes every case's files and a
``cases.json`` index, for running them by hand; ``tests/test_badinput.py`` runs them all through the CLI and
asserts the exit status, the message and the absence of a traceback.

New suites add their cases: a suite family's entry in :data:`SCORE_SUITES` (suite name -> a valid id of its
test items, a valid label) gets the whole predictions-file battery.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

Build = Callable[[Path], None]


@dataclass(frozen=True)
class Case:
    """One bad-input case.

    Attributes:
        id: stable case id (``score-arts-laptop-latin1``).
        args: CLI arguments; ``{dir}`` is the case directory, ``{data}`` the data dir, ``{file}`` the main file.
        build: writes the case's files into its directory.
        exit: expected exit status (1: a typed error; 0: accepted, e.g. a BOM that is simply removed).
        expect: substrings the stderr (or stdout for exit 0) must contain; ``{file}`` is replaced by the path.
        file: the main input file's name inside the case directory.
    """

    id: str
    args: tuple[str, ...]
    build: Build
    exit: int = 1
    expect: tuple[str, ...] = ()
    file: str = "p.csv"
    tags: tuple[str, ...] = field(default=())


def _write(name: str, data: bytes | str) -> Build:
    def build(d: Path) -> None:
        p = d / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)

    return build


def _mkdir(name: str) -> Build:
    return lambda d: (d / name).mkdir(parents=True, exist_ok=True)


def _nothing(d: Path) -> None:
    return None


# suite -> (key column, a valid key of a test item, a valid label, label column name)
SCORE_SUITES: dict[str, tuple[str, str, str]] = {
    "arts-laptop": ("item_id", "0:1_0", "positive"),
    "arts-rest": ("item_id", "@@FIRST@@", "positive"),
    "arts-mams": ("item_id", "@@FIRST@@", "positive"),
    "sentivent-polar": ("item_id", "@@FIRST@@", "positive"),
    "sentivent-clause": ("item_id", "@@FIRST@@", "positive"),
    "soul-rc": ("item_id", "@@FIRST@@", "true"),
    "soul-jg": ("item_id", "@@FIRST@@", "true"),
    "noncompsst": ("line", "0", "3"),
    "sst7": ("item_id", "@@FIRST@@", "3"),
}


def _predictions_battery(suite: str, key: str, first: str, label: str) -> list[Case]:
    """The predictions-file cases every suite gets (first = a valid key, or @@FIRST@@ resolved at build time)."""
    base = ("score", "--suite", suite, "--data-dir", "{data}", "--predictions", "{dir}/{file}")
    head = f"{key},label\n"
    row = f"{first},{label}\n"

    def c(name: str, build: Build, expect: tuple[str, ...] = ("{file}",), *, file: str = "p.csv",
          extra: tuple[str, ...] = (), exit: int = 1) -> Case:
        return Case(f"score-{suite}-{name}", (*base, *extra), build, exit, expect, file, (suite,))

    return [
        c("latin1", _write("p.csv", head.encode() + f"{first},".encode() + b"positiv\xe9\n"),
          ("not UTF-8", "{file}")),
        c("nul-bytes", _write("p.csv", head + row + "\x00\x00\n"), ("binary content", "{file}")),
        c("gzip", _write("p.csv", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\x00"), ("{file}",)),
        c("directory", _mkdir("p.csv"), ("is a directory", "{file}")),
        c("absent", _nothing, ("not found", "{file}")),
        c("empty", _write("p.csv", ""), ("{file}",)),
        c("header-only", _write("p.csv", head), ("{file}",)),
        c("ragged-row", _write("p.csv", head + row + f"{first},{label},extra\n"), ("{file}",)),
        c("duplicated-header", _write("p.csv", f"{key},label,label\n{first},{label},{label}\n"),
          ("duplicated column", "{file}")),
        c("no-id-column", _write("p.csv", "label\n" + label + "\n"), ("{file}",)),
        c("no-label-column", _write("p.csv", f"{key}\n{first}\n"), ("{file}",)),
        c("unknown-id", _write("p.csv", head + f"no-such-id-xyz,{label}\n"), ("no-such-id-xyz",)),
        # SOUL reads labels like model replies: an unparseable one is a wrong answer (counted), so the
        # one-row file fails on the missing rows instead
        c("label-outside-set", _write("p.csv", head + f"{first},definitely-not-a-label\n"),
          ("missing", "{file}") if suite.startswith("soul") else ("definitely-not-a-label",)),
        c("duplicate-ids", _write("p.csv", head + row + row), ("{file}",)),
        c("blank-label", _write("p.csv", head + f"{first},\n"), ("{file}",)),
        c("missing-predictions", _write("p.csv", head + row), ("missing", "{file}")),
        c("bom-header", _write("p.csv", "\ufeff" + head + row), ("missing", "{file}")),
        c("unknown-column", _write("p.csv", head + row), ("nope",), extra=("--column", "nope")),
        c("jsonl-broken", _write("p.jsonl", f'{{"{key}": "{first}", "label": "{label}"}}\n{{"{key}": \n'),
          ("invalid JSON", "{file}"), file="p.jsonl"),
        c("jsonl-not-object", _write("p.jsonl", f'["{first}", "{label}"]\n'), ("JSON object", "{file}"),
          file="p.jsonl"),
        c("jsonl-meta-not-dict", _write("p.jsonl", json.dumps({"item_id": first, "label": label, "meta": [1, 2],
                                                                "parse_ok": True}) + "\n"),
          ("{file}",), file="p.jsonl"),
        c("huge-field", _write("p.csv", head + f'{first},"{"x" * 300_000}"\n'), ("{file}",)),
        c("unknown-suite-arg", _write("p.csv", head + row), ("no option 'bogus_option'",),
          extra=("--suite-arg", "bogus_option=1")),
        c("tables-out-unsupported" if suite != "noncompsst" else "tables-out-missing-preds",
          _write("p.csv", head + row), ("{file}",) if suite == "noncompsst" else ("no extra tables",),
          extra=("--tables-out", "{dir}/tables", "--missing", "wrong") if suite != "noncompsst" else
          ("--tables-out", "{dir}/tables")),
    ]


def _other_cases() -> list[Case]:
    ok = "item_id,label\ntest-0,pos\n"
    cases = [
        # run
        Case("run-limit-zero", ("run", "--suite", "soul-rc", "--model", "majority", "--out", "{dir}/r", "--data-dir",
                                "{data}", "--limit", "0"), _nothing, 1, ("--limit must be a positive",)),
        Case("run-limit-negative", ("run", "--suite", "soul-rc", "--model", "majority", "--out", "{dir}/r",
                                    "--data-dir", "{data}", "--limit", "-1"), _nothing, 1,
             ("--limit must be a positive",)),
        Case("run-limit-junk", ("run", "--suite", "soul-rc", "--model", "majority", "--out", "{dir}/r",
                                "--data-dir", "{data}", "--limit", "ten"), _nothing, 1,
             ("--limit must be a positive", "'ten'")),
        Case("run-limit-fraction-above-one", ("run", "--suite", "soul-rc", "--model", "majority", "--out", "{dir}/r",
                                              "--data-dir", "{data}", "--limit", "1.5"), _nothing, 1,
             ("fraction in (0, 1]",)),
        Case("run-jobs-zero", ("run", "--suite", "soul-rc", "--model", "majority,tfidf-lr", "--out", "{dir}/r",
                               "--data-dir", "{data}", "--jobs", "0"), _nothing, 1, ("--jobs must be a positive",)),
        Case("run-jobs-junk", ("run", "--suite", "soul-rc", "--model", "majority,tfidf-lr", "--out", "{dir}/r",
                               "--data-dir", "{data}", "--jobs", "many"), _nothing, 1,
             ("--jobs must be a positive", "'many'")),
        Case("run-model-arg-other-model", ("run", "--suite", "soul-rc", "--model", "tfidf-lr", "--out", "{dir}/r",
                                           "--data-dir", "{data}", "--model-arg", "majority:C=3"), _nothing, 1,
             ("not among the selected models",)),
        Case("run-out-other-config", ("run", "--suite", "soul-rc", "--model", "majority", "--out", "{dir}/r",
                                      "--data-dir", "{data}", "--no-progress"),
             _write("r/summary.json", '{"config_hash": "another"}'), 1, ("--overwrite",), "r/summary.json"),
        Case("export-not-a-run", ("export", "{dir}/{file}"), _mkdir("empty"), 1, ("not a run directory", "{file}"),
             "empty"),
        Case("run-unknown-suite", ("run", "--suite", "arts-lap", "--model", "majority", "--out", "{dir}/r"),
             _nothing, 1, ("did you mean 'arts-laptop'",)),
        Case("run-unknown-model", ("run", "--suite", "arts-laptop", "--model", "majorty", "--out", "{dir}/r"),
             _nothing, 1, ("did you mean 'majority'",)),
        Case("run-unknown-suite-arg", ("run", "--suite", "soul-rc", "--model", "majority", "--out", "{dir}/r",
                                       "--data-dir", "{data}", "--suite-arg", "promt_style=chat"), _nothing, 1,
             ("did you mean 'prompt_style'",)),
        Case("run-suite-arg-no-equals", ("run", "--suite", "soul-rc", "--model", "majority", "--out", "{dir}/r",
                                         "--suite-arg", "prompt_style"), _nothing, 1, ("KEY=VALUE",)),
        Case("run-model-arg-unknown", ("run", "--suite", "soul-rc", "--model", "tfidf-lr", "--out", "{dir}/r",
                                       "--data-dir", "{data}", "--model-arg", "CC=3"), _nothing, 1,
             ("unknown argument",)),
        Case("run-minilm-unknown-backend", ("run", "--suite", "soul-rc", "--model", "minilm-lr", "--out", "{dir}/r",
                                            "--data-dir", "{data}", "--model-arg", "backend=tensorrt"), _nothing, 1,
             ("backend", "onnx-int8")),
        Case("run-out-is-file", ("run", "--suite", "soul-rc", "--model", "majority", "--out", "{dir}/{file}/x",
                                 "--data-dir", "{data}"), _write("f.txt", "x"), 1, ("not a directory",), "f.txt"),
        Case("run-empty-data-dir", ("run", "--suite", "soul-rc", "--model", "majority", "--out", "{dir}/r",
                                    "--data-dir", "{dir}/empty", "--no-progress"), _mkdir("empty"), 1,
             ("missing data file",)),
        Case("run-bad-n-boot", ("run", "--suite", "soul-rc", "--model", "majority", "--out", "{dir}/r",
                                "--n-boot", "-3"), _nothing, 1, ("--n-boot",)),
        # model recipes (hf-seq2seq, hf-nli, hf-finetune): refused before any training
        Case("run-hf-seq2seq-path-missing", ("run", "--suite", "soul-rc", "--model", "hf-seq2seq", "--out", "{dir}/r",
                                             "--data-dir", "{data}", "--model-arg", "path={dir}/nope",
                                             "--no-progress"), _nothing, 1, ("not a local directory",)),
        Case("run-hf-seq2seq-bad-task", ("run", "--suite", "soul-jg", "--model", "hf-seq2seq", "--out", "{dir}/r",
                                         "--data-dir", "{data}", "--model-arg", "path={dir}/m", "--model-arg",
                                         "task=nli", "--no-progress"), _write("m/config.json", "{}"), 1,
             ("'task' must be one of rc, jg",)),
        Case("run-hf-nli-pickle-only", ("run", "--suite", "soul-rc", "--model", "hf-nli", "--out", "{dir}/r",
                                        "--data-dir", "{data}", "--model-arg", "path={dir}/m", "--no-progress"),
             _write("m/pytorch_model.bin", b"\x80\x04N."), 1, ("pickle",)),
        Case("run-hf-finetune-bad-recipe", ("run", "--suite", "sst7", "--model", "hf-finetune", "--out", "{dir}/r",
                                            "--data-dir", "{data}", "--model-arg", "recipe=bert",
                                            "--no-progress"), _nothing, 1, ("'recipe' must be one of",)),
        Case("run-hf-finetune-head-without-lexicon", ("run", "--suite", "sentivent-polar", "--model", "hf-finetune",
                                                      "--out", "{dir}/r", "--data-dir", "{data}", "--model-arg",
                                                      "head=sentivent", "--no-progress"), _nothing, 1,
             ("set lexicon_features",)),
        # compare
        Case("compare-one-file", ("compare", "--suite", "soul-rc", "--data-dir", "{data}", "--predictions",
                                  "{dir}/{file}"), _write("p.csv", ok), 1, ("at least two",)),
        Case("compare-bad-reference", ("compare", "--suite", "soul-rc", "--data-dir", "{data}", "--predictions",
                                       "{dir}/{file}", "{dir}/{file}", "--reference", "zz"), _write("p.csv", ok), 1,
             ("--reference 'zz'",)),
        Case("compare-alpha-nan", ("compare", "--suite", "soul-rc", "--data-dir", "{data}", "--predictions",
                                   "{dir}/{file}", "{dir}/{file}", "--alpha", "nan"), _write("p.csv", ok), 1,
             ("--alpha",)),
        Case("compare-n-boot-negative", ("compare", "--suite", "soul-rc", "--data-dir", "{data}", "--predictions",
                                         "{dir}/{file}", "{dir}/{file}", "--n-boot", "-5"), _write("p.csv", ok), 1,
             ("--n-boot",)),
        Case("compare-noncompsst", ("compare", "--suite", "noncompsst", "--data-dir", "{data}", "--predictions",
                                    "{dir}/{file}", "{dir}/{file}"), _write("p.csv", "line,label\n0,3\n"), 1,
             ("missing", "{file}")),
        Case("compare-latin1", ("compare", "--suite", "sentivent-polar", "--data-dir", "{data}", "--predictions",
                                "{dir}/{file}", "{dir}/{file}"), _write("p.csv", b"item_id,label\nx,n\xe9g\n"), 1,
             ("not UTF-8", "{file}")),
        Case("compare-directory", ("compare", "--suite", "sentivent-polar", "--data-dir", "{data}", "--predictions",
                                   "{dir}/{file}", "{dir}/{file}"), _mkdir("p.csv"), 1, ("directory", "{file}")),
        # agree
        Case("agree-latin1", ("agree", "{dir}/{file}"), _write("r.csv", b"unit,a,b\n1,x\xe9,x\n2,y,y\n"), 1,
             ("not UTF-8", "{file}"), "r.csv"),
        Case("agree-binary", ("agree", "{dir}/{file}"), _write("r.csv", b"\x00\x01\x02"), 1, ("{file}",), "r.csv"),
        Case("agree-directory", ("agree", "{dir}/{file}"), _mkdir("r.csv"), 1, ("directory", "{file}"), "r.csv"),
        Case("agree-absent", ("agree", "{dir}/{file}"), _nothing, 1, ("{file}",), "r.csv"),
        Case("agree-empty", ("agree", "{dir}/{file}"), _write("r.csv", ""), 1, ("{file}",), "r.csv"),
        Case("agree-one-rater", ("agree", "{dir}/{file}"), _write("r.csv", "unit,a\n1,x\n2,y\n"), 1, ("{file}",),
             "r.csv"),
        Case("agree-nan-interval", ("agree", "{dir}/{file}", "--level", "interval"),
             _write("r.csv", "unit,a,b\n1,1.0,nan\n2,2.0,2.0\n3,3,3\n"), 1, ("{file}",), "r.csv"),
        Case("agree-inf-interval", ("agree", "{dir}/{file}", "--level", "interval"),
             _write("r.csv", "unit,a,b\n1,1.0,inf\n2,2.0,2.0\n3,3,3\n"), 1, ("{file}",), "r.csv"),
        Case("agree-duplicate-units", ("agree", "{dir}/{file}"),
             _write("r.csv", "unit,a,b\n1,x,x\n1,y,y\n2,x,y\n"), 1, ("{file}", "duplicate"), "r.csv"),
        Case("agree-ragged", ("agree", "{dir}/{file}"), _write("r.csv", "unit,a,b\n1,x,x,x\n"), 1, ("{file}",),
             "r.csv"),
        Case("agree-many-distinct-interval", ("agree", "{dir}/{file}", "--level", "interval"),
             _write("r.csv", "unit,a,b,c\n" + "".join(f"{i},{i}.5,{i}.25,{i}.75\n" for i in range(1900))), 0,
             ("alpha",), "r.csv"),
        # data
        Case("data-stats-empty-dir", ("data", "stats", "sentivent-polar", "--data-dir", "{dir}/empty"),
             _mkdir("empty"), 1, ("missing",)),
        Case("data-stats-unknown", ("data", "stats", "sentivent-polr", "--data-dir", "{data}"), _nothing, 2,
             ("did you mean",)),
        Case("data-verify-empty", ("data", "verify", "soul", "--data-dir", "{dir}/empty"), _mkdir("empty"), 1, ()),
        Case("data-fetch-bad-mirror", ("data", "fetch", "soul", "--data-dir", "{dir}/d", "--mirror", "{dir}/m"),
             _mkdir("m"), 1, ()),
        # sweep
        Case("sweep-latin1", ("sweep", "{dir}/{file}", "--out", "{dir}/o"), _write("s.yaml", b"models: [m\xe9]\n"),
             1, ("not UTF-8", "{file}"), "s.yaml"),
        Case("sweep-absent", ("sweep", "{dir}/{file}", "--out", "{dir}/o"), _nothing, 1, ("{file}",), "s.yaml"),
        Case("sweep-directory", ("sweep", "{dir}/{file}", "--out", "{dir}/o"), _mkdir("s.yaml"), 1,
             ("directory", "{file}"), "s.yaml"),
        Case("sweep-bad-yaml", ("sweep", "{dir}/{file}", "--out", "{dir}/o"), _write("s.yaml", "models: [a\n"), 1,
             ("not valid YAML", "{file}"), "s.yaml"),
        Case("sweep-yaml-python-tag", ("sweep", "{dir}/{file}", "--out", "{dir}/o"),
             _write("s.yaml", "models: !!python/object/apply:os.system [echo hi]\n"), 1,
             ("not valid YAML", "{file}"), "s.yaml"),
        Case("sweep-not-mapping", ("sweep", "{dir}/{file}", "--out", "{dir}/o"), _write("s.yaml", "- majority\n"), 1,
             ("a sweep config is a mapping", "{file}"), "s.yaml"),
        Case("sweep-unknown-key", ("sweep", "{dir}/{file}", "--out", "{dir}/o"),
             _write("s.yaml", "models: [majority]\nsuites: [soul-rc]\nseed: [0]\n"), 1,
             ("did you mean 'seeds'", "{file}"), "s.yaml"),
        Case("sweep-unknown-model", ("sweep", "{dir}/{file}", "--out", "{dir}/o"),
             _write("s.yaml", "models: [majorty]\nsuites: [soul-rc]\n"), 1, ("did you mean 'majority'", "{file}"),
             "s.yaml"),
        Case("sweep-model-arg-typo", ("sweep", "{dir}/{file}", "--out", "{dir}/o"),
             _write("s.yaml", "models: [{name: tfidf-lr, args: {max_iters: 3}}]\nsuites: [soul-rc]\n"), 1,
             ("did you mean 'max_iter'", "{file}"), "s.yaml"),
        Case("sweep-seed-string", ("sweep", "{dir}/{file}", "--out", "{dir}/o"),
             _write("s.yaml", "models: [majority]\nsuites: [soul-rc]\nseeds: [one]\n"), 1,
             ("every seed must be an integer", "{file}"), "s.yaml"),
        Case("sweep-out-is-file", ("sweep", "{dir}/s.yaml", "--out", "{dir}/{file}/x"),
             lambda d: (_write("s.yaml", "models: [majority]\nsuites: [soul-rc]\n")(d), _write("f.txt", "x")(d)),
             1, ("not a directory",), "f.txt"),
        Case("sweep-address-without-ray", ("sweep", "{dir}/{file}", "--out", "{dir}/o", "--address", "auto"),
             _write("s.yaml", "models: [majority]\nsuites: [soul-rc]\n"), 1, ("--address applies to --executor ray",),
             "s.yaml"),
        # judge
        Case("judge-absent-run", ("judge", "--run", "{dir}/absent", "--model", "majority"), _nothing, 1, ("absent",)),
        Case("judge-agreement-latin1", ("judge-agreement", "--judge", "{dir}/{file}", "--human", "{dir}/{file}"),
             _write("j.csv", b"item_id,criterion,score\nx,a,\xe9\n"), 1, ("{file}",), "j.csv"),
    ]
    return cases


_LAUGHS = ('<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
           '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
           '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>\n'
           '<sentences><sentence id="1"><text>&lol3;</text></sentence></sentences>\n')
_XXE = ('<?xml version="1.0"?>\n<!DOCTYPE s [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n'
        '<sentences><sentence id="1"><text>&e;</text></sentence></sentences>\n')


def _arts_generate_cases() -> list[Case]:
    """``sentiprobe arts generate|fidelity|audit-*``: malformed JSON/XML, entity bombs, directories, bad options.

    Every case fails while reading the input or the options, before the spaCy/WordNet back-ends load.
    """
    def gen(name: str, build: Build, expect: tuple[str, ...], file: str = "t.json", extra: tuple[str, ...] = ()
            ) -> Case:
        return Case(f"arts-generate-{name}", ("arts", "generate", "--input", "{dir}/{file}", "--out", "{dir}/o.json",
                                               *extra), build, 1, expect, file)

    return [
        gen("malformed-json", _write("t.json", '{"1:1": {"sentence": "x",\n "term_list": }'),
            ("invalid JSON", "{file}", "line 2")),
        gen("top-level-list", _write("t.json", "[1, 2]"), ("top level", "{file}")),
        gen("record-not-object", _write("t.json", '{"1:1": 3}'), ("{file}", "'1:1'")),
        gen("malformed-jsonl", _write("t.jsonl", '{"id": "a", "sentence": "ok", "aspects": []}\n{oops\n'),
            ("invalid JSON", "{file}", "line 2"), "t.jsonl"),
        gen("malformed-xml", _write("t.xml", "<sentences><sentence id='1'><text>x</sentence>"),
            ("invalid XML", "{file}"), "t.xml"),
        gen("billion-laughs", _write("t.xml", _LAUGHS), ("refused", "{file}"), "t.xml"),
        gen("external-entity", _write("t.xml", _XXE), ("refused", "{file}"), "t.xml"),
        gen("directory", _mkdir("t.json"), ("directory", "{file}")),
        gen("absent", _nothing, ("not found", "{file}")),
        gen("latin1", _write("t.json", b'{"1:1": {"sentence": "caf\xe9"}}'), ("not UTF-8", "{file}")),
        gen("binary", _write("t.json", b"\x00\x01\x02"), ("binary", "{file}")),
        gen("unknown-strategy", _write("t.json", "{}"), ("unknown strategies",), extra=("--strategies", "revtarget")),
        gen("adddiff-k-without-k", _write("t.json", "{}"), ("--k",), extra=("--strategies", "adddiff_k")),
        gen("mined-without-pool", _write("t.json", "{}"), ("--pool",), extra=("--phrase-source", "mined")),
        Case("arts-fidelity-absent", ("arts", "fidelity", "--generated", "{dir}/{file}", "--reference", "arts-laptop",
                                      "--data-dir", "{data}"), _nothing, 1, ("not found", "{file}"), "g.json"),
        Case("arts-fidelity-malformed", ("arts", "fidelity", "--generated", "{dir}/{file}", "--reference",
                                         "arts-laptop", "--data-dir", "{data}"), _write("g.json", "{"), 1,
             ("invalid JSON", "{file}"), "g.json"),
        Case("arts-audit-sample-directory", ("arts", "audit-sample", "--generated", "{dir}/{file}", "--out",
                                             "{dir}/s.csv"), _mkdir("g.json"), 1, ("directory", "{file}"), "g.json"),
        Case("arts-audit-score-bad-judgement", ("arts", "audit-score", "{dir}/{file}", "--key", "{dir}/k.json"),
             lambda d: (_write("s.csv", "sample_id,term,sentence,fluent,label,notes\n1,x,y,maybe,positive,\n")(d),
                        _write("k.json", '{"schema_version": 1, "items": {"1": {"strategy": "revtgt", '
                                         '"label": "positive"}}}')(d)), 1, ("{file}", "line 2", "yes/no"), "s.csv"),
        Case("arts-audit-score-latin1", ("arts", "audit-score", "{dir}/{file}"),
             _write("s.csv", b"sample_id,strategy,valid\n1,revtgt,s\xed\n"), 1, ("not UTF-8", "{file}"), "s.csv"),
        Case("arts-audit-score-no-columns", ("arts", "audit-score", "{dir}/{file}"), _write("s.csv", "a,b\n1,2\n"),
             1, ("'sample_id'", "{file}"), "s.csv"),
        Case("run-arts-custom-directory", ("run", "--suite", "arts-custom", "--suite-arg", "path={dir}/{file}",
                                           "--model", "majority", "--out", "{dir}/r", "--data-dir", "{data}",
                                           "--no-progress"), _mkdir("e.json"), 1, ("directory", "{file}"), "e.json"),
        Case("run-arts-custom-no-path", ("run", "--suite", "arts-custom", "--model", "majority", "--out", "{dir}/r",
                                         "--data-dir", "{data}", "--no-progress"), _nothing, 1, ("path=FILE",)),
    ]


def _triplet_cases() -> list[Case]:
    """Triplet predictions (``absa-triplet-explicit``): a bad record is a counted failure naming it (exit 0, shown
    in ``--json`` details and ``parse_failure_rate``); only an unreadable file is an error."""
    suite = "absa-triplet-explicit"
    base = ("score", "--suite", suite, "--data-dir", "{data}", "--predictions", "{dir}/{file}", "--json",
            "--n-boot", "20")

    def c(name: str, data: str | bytes | None, expect: tuple[str, ...], exit: int = 0) -> Case:
        build = _mkdir("p.jsonl") if data is None else _write("p.jsonl", data)
        return Case(f"score-{suite}-{name}", base, build, exit, expect, "p.jsonl", (suite,))

    def line(trip: object) -> str:
        return json.dumps({"id": "@@FIRST@@", "triplets": [trip]}) + "\n"

    return [
        c("broken-json", '{"id": "@@FIRST@@", "triplets": [[0, 0\n', ("parse_failure_rate", "line 1",
                                                                        "broken JSON")),
        c("out-of-range", line([0, 0, 998, 999, "positive"]), ("out of range", "line 1 (")),
        c("unknown-polarity", line([0, 0, 1, 1, "ecstatic"]), ("unknown polarity", "'ecstatic'")),
        c("overlapping-spans", line([0, 1, 1, 2, "positive"]), ("overlap", "line 1 (")),
        c("text-not-in-sentence", line({"target": "zzqxw", "polar": "great", "polarity": "positive"}),
          ("not in the sentence",)),
        c("unknown-sentence", json.dumps({"id": "no-such:1", "triplets": []}) + "\n", ("no-such:1",)),
        c("missing-sentences", line([0, 0, 2, 2, "positive"]), ("missing_rate", "missing_sentences")),
        c("directory", None, ("is a directory", "{file}"), exit=1),
        c("empty", "\n\n", ("no records", "{file}"), exit=1),
        c("latin1", b'{"id": "x\xe9"}\n', ("not UTF-8", "{file}"), exit=1),
    ]


def all_cases() -> list[Case]:
    out: list[Case] = []
    for suite, (key, first, label) in SCORE_SUITES.items():
        out += _predictions_battery(suite, key, first, label)
    out += _triplet_cases()
    out += _other_cases()
    out += _arts_generate_cases()
    from arts_generate_cases import cases as arts_generate_hardening  # issue 22's arts generate/custom block

    out += arts_generate_hardening()
    ids = [c.id for c in out]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    return out


def first_key(suite: str, data_dir: Path) -> str:
    """A valid key of the suite's test items (resolves ``@@FIRST@@``)."""
    from sentiprobe.suites import get_suite

    return get_suite(suite, data_dir).items("test")[0].item_id


def materialise(case: Case, root: Path, data_dir: Path, first: Callable[[str], str]) -> tuple[list[str], Path]:
    """Write the case's files under ``root`` and return (CLI arguments, main file path)."""
    root.mkdir(parents=True, exist_ok=True)
    case.build(root)
    main_file = root / case.file
    if main_file.is_file() and "@@FIRST@@" in main_file.read_bytes().decode("utf-8", "replace"):
        suite = case.tags[0]
        raw = main_file.read_bytes().replace(b"@@FIRST@@", first(suite).encode())
        main_file.write_bytes(raw)
    args = [a.replace("{dir}", str(root)).replace("{data}", str(data_dir)).replace("{file}", case.file)
            for a in case.args]
    return args, main_file


if __name__ == "__main__":  # pragma: no cover - a tool for running the corpus by hand
    out = Path(sys.argv[1])
    data = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("../shared/data")
    index = []
    for c in all_cases():
        args, f = materialise(c, out / c.id, data, lambda s: first_key(s, data))
        index.append({"id": c.id, "args": args, "exit": c.exit, "expect": [e.replace("{file}", str(f))
                                                                             for e in c.expect]})
    (out / "cases.json").write_text(json.dumps(index, indent=2))
    print(f"{len(index)} cases written to {out}")
