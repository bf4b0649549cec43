"""``--suite-arg [SUITE:]KEY=VALUE`` parsing, with environment-variable defaults (the only place they are read).

An unqualified ``KEY=VALUE`` applies to every selected suite that declares ``KEY``; ``SUITE:KEY=VALUE`` to that
suite alone. A key no selected suite declares is an error (with did-you-mean), never silently dropped.
Environment variables declared by an option (``option(..., env=...)``) supply defaults; an explicit
``--suite-arg`` wins. The effective values end up in ``results.json`` through the suites' options.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.errors import ConfigError, did_you_mean


def parse_suite_args(pairs: Sequence[str], suites: Sequence[str],
                     environ: Mapping[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """``{suite: {option: raw value}}`` for ``suites`` from ``--suite-arg`` pairs and the environment."""
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import suite_option_names

    environ = os.environ if environ is None else environ
    options = {s: suite_option_names(s) for s in suites}
    declared = {s: options[s][0] for s in suites}
    out: dict[str, dict[str, Any]] = {s: {} for s in suites}
    for s in suites:
        for key, var in options[s][1].items():
            if environ.get(var, "") != "":
                out[s][key] = environ[var]
    for pair in pairs:
        if "=" not in pair:
            raise ConfigError(f"--suite-arg expects [SUITE:]KEY=VALUE, got {pair!r}")
        key, value = pair.split("=", 1)
        key = key.strip()
        target: list[str]
        if ":" in key:
            suite, key = key.split(":", 1)
            if suite not in out:
                suite_option_names(suite)  # unknown suite name: did-you-mean
                raise ConfigError(f"--suite-arg {pair!r}: suite {suite!r} is not among the selected suites "
                                  f"({', '.join(suites)})")
            target = [suite]
        else:
            target = [s for s in suites if key.replace("-", "_") in declared[s]]
        key = key.replace("-", "_")
        if not target or any(key not in declared[s] for s in target):
            known = sorted({k for s in (target or suites) for k in declared[s]})
            where = ", ".join(target or suites)
            raise ConfigError(f"--suite-arg {pair!r}: no option {key!r} in suite(s) {where}{did_you_mean(key, known)}; "
                              f"known: {', '.join(known) or 'none'}")
        for s in target:
            out[s][key] = value
    return {s: v for s, v in out.items() if v}
