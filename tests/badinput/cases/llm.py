"""The LLM adapter against misbehaving servers (a fake OpenAI-compatible server per case, ``Case.llm``): every
request failing, a structured mode refused with HTTP 500, rate limits on the structured-decoding probe, replies
cut off at the token limit, the API key echoed in every encoding, items the server never answers."""
from __future__ import annotations

from corpus import Case, nothing
from llm_servers import KEY

LLM = "openai-compatible"


def _run(suite: str, *extra: str) -> tuple[str, ...]:
    return ("run", "--suite", suite, "--model", LLM, "--model-arg", "base_url={server}", "--model-arg", "model=fake",
            "--limit", "8", "--limit-mode", "first", "--n-boot", "0", "--out", "{dir}/r", "--data-dir", "{data}",
            "--no-progress", *extra)


def cases() -> list[Case]:
    return [
        Case("llm-500-every-request", _run("sentivent-polar", "--model-arg", "structured=off"), nothing, 1,
             ("failing every request", "HTTP 500: CUDA error: out of memory", "{server}"), llm="500", timeout=90,
             tags=("sentivent-polar", LLM)),
        Case("llm-json-schema-refused-500", _run("sentivent-polar", "--model-arg", "structured=json_schema"),
             nothing, 1, ("LLMStructuredRefused", "HTTP 500", "structured=auto"), llm="refuse-json-schema-500",
             timeout=90, tags=("sentivent-polar", LLM)),
        Case("llm-auto-falls-back-on-500", _run("sentivent-polar"), nothing, 0,
             ("structured json_object", "parse failures 0.0%"), llm="refuse-json-schema-500",
             timeout=90, tags=("sentivent-polar", LLM)),
        Case("llm-probe-rate-limited-twice", _run("sentivent-polar", "--model-arg", "backoff=0.01"), nothing, 0,
             ("structured json_schema",), llm="429-twice", timeout=90,
             tags=("sentivent-polar", LLM)),
        Case("llm-truncated-finish-reason-length", _run("sentivent-polar", "--model-arg", "structured=json_schema"),
             nothing, 0, ("parse failures 100%",), llm="truncated", timeout=90, tags=("sentivent-polar", LLM)),
        Case("llm-key-echoed-in-every-encoding",
             _run("soul-jg", "--model-arg", "structured=json_schema", "--suite-arg", "bertscore=0"), nothing, 0,
             ("soul-jg",), llm="echo-key", env=(("SENTIPROBE_LLM_API_KEY", KEY),), forbid=(KEY,), timeout=120,
             tags=("soul-jg", LLM)),
        Case("llm-soul-unanswered-are-not-parse-failures",
             _run("soul-rc", "--model-arg", "structured=off", "--model-arg", "max_retries=0"), nothing, 0,
             ("got no answer from the model", "parse failures 0.0%"), llm="unanswered", timeout=90,
             tags=("soul-rc", LLM)),
        Case("llm-triplets-unanswered-are-not-parse-failures",
             _run("absa-triplet-explicit", "--model-arg", "structured=json_schema", "--model-arg", "max_retries=0"),
             nothing, 0, ("got no answer from the model", "parse failures 0.0%"), llm="unanswered-triplets",
             timeout=90, tags=("absa-triplet-explicit", LLM)),
    ]
