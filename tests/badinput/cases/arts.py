"""``sentiprobe arts generate|fidelity|audit-sample|audit-score`` and the ``arts-custom`` suite: malformed
JSON/XML, entity bombs, directories, bad options and numbers. Every case fails while reading the input or the
options, before the spaCy/WordNet back-ends load."""
from __future__ import annotations

from corpus import Build, Case, both, mkdir, nothing, write

_LAUGHS = ('<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
           '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
           '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>\n'
           '<sentences><sentence id="1"><text>&lol3;</text></sentence></sentences>\n')
_XXE = ('<?xml version="1.0"?>\n<!DOCTYPE s [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n'
        '<sentences><sentence id="1"><text>&e;</text></sentence></sentences>\n')


def cases() -> list[Case]:
    """``sentiprobe arts generate|fidelity|audit-*``: malformed JSON/XML, entity bombs, directories, bad options.

    Every case fails while reading the input or the options, before the spaCy/WordNet back-ends load.
    """
    def gen(name: str, build: Build, expect: tuple[str, ...], file: str = "t.json", extra: tuple[str, ...] = ()
            ) -> Case:
        return Case(f"arts-generate-{name}", ("arts", "generate", "--input", "{dir}/{file}", "--out", "{dir}/o.json",
                                               *extra), build, 1, expect, file)

    return [
        gen("malformed-json", write("t.json", '{"1:1": {"sentence": "x",\n "term_list": }'),
            ("invalid JSON", "{file}", "line 2")),
        gen("top-level-list", write("t.json", "[1, 2]"), ("top level", "{file}")),
        gen("record-not-object", write("t.json", '{"1:1": 3}'), ("{file}", "'1:1'")),
        gen("malformed-jsonl", write("t.jsonl", '{"id": "a", "sentence": "ok", "aspects": []}\n{oops\n'),
            ("invalid JSON", "{file}", "line 2"), "t.jsonl"),
        gen("malformed-xml", write("t.xml", "<sentences><sentence id='1'><text>x</sentence>"),
            ("invalid XML", "{file}"), "t.xml"),
        gen("billion-laughs", write("t.xml", _LAUGHS), ("refused", "{file}"), "t.xml"),
        gen("external-entity", write("t.xml", _XXE), ("refused", "{file}"), "t.xml"),
        gen("directory", mkdir("t.json"), ("directory", "{file}")),
        gen("absent", nothing, ("not found", "{file}")),
        gen("latin1", write("t.json", b'{"1:1": {"sentence": "caf\xe9"}}'), ("not UTF-8", "{file}")),
        gen("binary", write("t.json", b"\x00\x01\x02"), ("binary", "{file}")),
        gen("unknown-strategy", write("t.json", "{}"), ("unknown strategies",), extra=("--strategies", "revtarget")),
        gen("adddiff-k-without-k", write("t.json", "{}"), ("--k",), extra=("--strategies", "adddiff_k")),
        gen("mined-without-pool", write("t.json", "{}"), ("--pool",), extra=("--phrase-source", "mined")),
        Case("arts-fidelity-absent", ("arts", "fidelity", "--generated", "{dir}/{file}", "--reference", "arts-laptop",
                                      "--data-dir", "{data}"), nothing, 1, ("not found", "{file}"), "g.json"),
        Case("arts-fidelity-malformed", ("arts", "fidelity", "--generated", "{dir}/{file}", "--reference",
                                         "arts-laptop", "--data-dir", "{data}"), write("g.json", "{"), 1,
             ("invalid JSON", "{file}"), "g.json"),
        Case("arts-audit-sample-directory", ("arts", "audit-sample", "--generated", "{dir}/{file}", "--out",
                                             "{dir}/s.csv"), mkdir("g.json"), 1, ("directory", "{file}"), "g.json"),
        Case("arts-audit-score-bad-judgement", ("arts", "audit-score", "{dir}/{file}", "--key", "{dir}/k.json"),
             both(write("s.csv", "sample_id,term,sentence,fluent,label,notes\n1,x,y,maybe,positive,\n"),
                  write("k.json", '{"schema_version": 2, "sample_id": "0123456789abcdef", "items": {"1": '
                                  '{"strategy": "revtgt", "label": "positive", "term": "x", "sentence": "y"}}}')),
             1, ("{file}", "line 2", "yes/no"), "s.csv"),
        Case("arts-audit-score-duplicated-row", ("arts", "audit-score", "{dir}/{file}", "--key", "{dir}/k.json"),
             both(write("s.csv", "sample_id,term,sentence,fluent,label,notes\n1,x,y,yes,positive,\n"
                                 "1,x,y,yes,positive,\n"),
                  write("k.json", '{"schema_version": 2, "sample_id": "0123456789abcdef", "items": {"1": '
                                  '{"strategy": "revtgt", "label": "positive", "term": "x", "sentence": "y"}}}')),
             1, ("{file}", "line 3", "appears twice"), "s.csv"),
        Case("arts-audit-score-key-of-another-sample", ("arts", "audit-score", "{dir}/{file}", "--key",
                                                        "{dir}/k.json"),
             both(write("s.csv", "sample_id,term,sentence,fluent,label,notes\n1,x,y,yes,positive,\n"),
                  write("k.json", '{"schema_version": 2, "sample_id": "0123456789abcdef", "items": {"1": '
                                  '{"strategy": "revtgt", "label": "positive", "term": "z", "sentence": "w"}}}')),
             1, ("{file}", "line 2", "another sample", "0123456789abcdef"), "s.csv"),
        Case("arts-audit-score-key-without-sample", ("arts", "audit-score", "{dir}/{file}", "--key",
                                                     "{dir}/k.json"),
             both(write("s.csv", "sample_id,term,sentence,fluent,label,notes\n1,x,y,yes,positive,\n"),
                  write("k.json", '{"schema_version": 1, "items": {"1": {"strategy": "revtgt", '
                                  '"label": "positive"}}}')),
             1, ("k.json", "draw the sample again"), "s.csv"),
        Case("arts-audit-score-latin1", ("arts", "audit-score", "{dir}/{file}"),
             write("s.csv", b"sample_id,strategy,valid\n1,revtgt,s\xed\n"), 1, ("not UTF-8", "{file}"), "s.csv"),
        Case("arts-audit-score-no-columns", ("arts", "audit-score", "{dir}/{file}"), write("s.csv", "a,b\n1,2\n"),
             1, ("'sample_id'", "{file}"), "s.csv"),
        Case("run-arts-custom-directory", ("run", "--suite", "arts-custom", "--suite-arg", "path={dir}/{file}",
                                           "--model", "majority", "--out", "{dir}/r", "--data-dir", "{data}",
                                           "--no-progress"), mkdir("e.json"), 1, ("directory", "{file}"), "e.json"),
        Case("run-arts-custom-no-path", ("run", "--suite", "arts-custom", "--model", "majority", "--out", "{dir}/r",
                                         "--data-dir", "{data}", "--no-progress"), nothing, 1, ("path=FILE",)),
        *number_cases(),
    ]


def number_cases() -> list[Case]:
    return [
        Case("arts-audit-sample-per-strategy-negative", ("arts", "audit-sample", "--generated", "{dir}/{file}",
                                                         "--out", "{dir}/s.csv", "--per-strategy", "-1"),
             write("g.json", "{}"), 2, ("argument --per-strategy",), "g.json"),
        Case("arts-audit-score-alpha-two", ("arts", "audit-score", "{dir}/{file}", "--alpha", "2"),
             write("s.csv", "sample_id,strategy,valid\n"), 2, ("argument --alpha",), "s.csv"),
        Case("arts-generate-seed-negative", ("arts", "generate", "--input", "{dir}/{file}", "--out", "{dir}/o.json",
                                             "--seed", "-1"), write("t.json", "{}"), 2, ("argument --seed",),
             "t.json"),
    ]
