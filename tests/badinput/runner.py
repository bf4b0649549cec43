"""The bad-input corpus runner: a fork server that runs each case in a child with bounded memory and time.

Why a fork server: a case must not take the machine down (a 204 GiB allocation, a hang), so it runs in its own
process under RLIMIT_AS and a wall-clock limit; a fresh interpreter per case would pay the imports (seconds)
hundreds of times. This process imports sentiprobe and reads the data once (``warm``), then forks a child per
request: the child inherits the imports and the verified-data memo, caps its address space at what it has plus
the case's budget, runs ``sentiprobe.cli.main(args)`` with stdout/stderr going to files, and exits with its
status. The server itself starts no threads, so forking is safe.

Protocol (JSON lines): the request ``{"args", "cwd", "env", "stdout", "stderr", "timeout", "memory_mb"}`` on
stdin; the answer ``{"exit", "signal", "timed_out", "seconds", "maxrss_mb"}`` on the original stdout.
"""
from __future__ import annotations

import json
import os
import resource
import signal
import sys
import time
import traceback


def _vm_bytes() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _child(req: dict) -> int:
    os.setpgid(0, 0)  # its own process group: a timeout kills whatever it started too
    os.chdir(req["cwd"])
    os.environ.update(req["env"])
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd, path in ((1, req["stdout"]), (2, req["stderr"])):
        f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(f, fd)
        os.close(f)
    limit = _vm_bytes() + int(req["memory_mb"]) * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from sentiprobe.cli import main

    return main(list(req["args"]))


def run(req: dict) -> dict:
    sys.stdout.flush()
    sys.stderr.flush()
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child
        code = 98
        try:
            code = _child(req)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:  # escaped main(): the test reports it (main itself turns bugs into exit 3)
            traceback.print_exc()
            code = 99
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code)
    deadline = t0 + float(req["timeout"])
    timed_out = False
    while True:
        wpid, status, usage = os.wait4(pid, os.WNOHANG)
        if wpid:
            break
        if time.monotonic() > deadline:
            timed_out = True
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            wpid, status, usage = os.wait4(pid, 0)
            break
        time.sleep(0.005)
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    return {"exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None, "signal": sig,
            "timed_out": timed_out, "seconds": round(time.monotonic() - t0, 3),
            "maxrss_mb": round(usage.ru_maxrss / 1024, 1)}


def warm(data_dir: str) -> None:
    """Import what the commands import and read (verify) every suite's test data once, in this process."""
    import sentiprobe.cli
    from sentiprobe.cli import build_parser
    from sentiprobe.suites import SUITES, get_suite

    build_parser()  # imports every command module
    for name in SUITES.names():  # the runner imports no test module: only sentiprobe's suites are registered
        try:
            get_suite(name, data_dir).items("test")
        except Exception:
            pass
    del sentiprobe.cli


def main() -> None:
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # anything printed while warming goes to stderr, never into the protocol
    warm(sys.argv[1])
    proto.write(json.dumps({"ready": True}) + "\n")
    for line in sys.stdin:
        if line.strip():
            proto.write(json.dumps(run(json.loads(line))) + "\n")


if __name__ == "__main__":
    main()
