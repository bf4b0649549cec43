"""``sentiprobe sweep``: unreadable and hostile configs (alias bombs, deep nesting, duplicated keys, huge grids,
out-of-range numbers)."""
from __future__ import annotations

from corpus import Case, both, mkdir, nothing, suites, write

SWEEP = ("sweep", "{dir}/{file}", "--out", "{dir}/o")
BOMB = ("lol: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        + "".join(f"l{k}: &{chr(98 + k)} [{', '.join([f'*{chr(97 + k)}'] * 10)}]\n" for k in range(8)))
"""Nine levels of ten aliases: 10^9 leaves from 10 lines."""


def c(name: str, text: str | bytes, exit: int, expect: tuple[str, ...], *extra: str) -> Case:
    return Case(f"sweep-{name}", (*SWEEP, *extra), write("s.yaml", text), exit, expect, "s.yaml", memory_mb=800,
                timeout=60)


def cases() -> list[Case]:
    return [
        c("latin1", b"models: [m\xe9]\n", 1, ("not UTF-8", "{file}")),
        Case("sweep-absent", SWEEP, nothing, 1, ("{file}",), "s.yaml"),
        Case("sweep-directory", SWEEP, mkdir("s.yaml"), 1, ("directory", "{file}"), "s.yaml"),
        c("bad-yaml", "models: [a\n", 1, ("not valid YAML", "{file}")),
        c("yaml-python-tag", "models: !!python/object/apply:os.system [echo hi]\n", 1, ("not valid YAML", "{file}")),
        c("not-mapping", "- majority\n", 1, ("a sweep config is a mapping", "{file}")),
        c("unknown-key", "models: [majority]\nsuites: [soul-rc]\nseed: [0]\n", 1, ("did you mean 'seeds'", "{file}")),
        c("unknown-model", "models: [majorty]\nsuites: [soul-rc]\n", 1, ("did you mean 'majority'", "{file}")),
        c("model-arg-typo", "models: [{name: tfidf-lr, args: {max_iters: 3}}]\nsuites: [soul-rc]\n", 1,
          ("did you mean 'max_iter'", "{file}")),
        c("model-arg-unknown-kwargs-factory", "models: [{name: tfidf-lr-lex, args: {bogus: 3}}]\nsuites: [soul-rc]\n",
          1, ("unknown argument(s) 'bogus'", "{file}")),
        c("seed-string", "models: [majority]\nsuites: [soul-rc]\nseeds: [one]\n", 1,
          ("every seed must be an integer", "{file}")),
        c("seed-negative", "models: [majority]\nsuites: [soul-rc]\nseeds: [-1]\n", 1,
          ("every seed must be an integer from 0", "{file}")),
        c("n-boot-10e12", "models: [majority]\nsuites: [soul-rc]\nn_boot: 1000000000000\n", 1,
          ("'n_boot' must be an integer from 0 to 100,000", "{file}")),
        c("retries-huge", "models: [majority]\nsuites: [soul-rc]\nretries: 1000000000\n", 1,
          ("'retries' must be an integer from 0 to 100", "{file}")),
        # an alias bomb inside model args: refused while loading, and no message prints 10^9 values
        c("alias-bomb-in-args", BOMB + "models: [{name: tfidf-lr, args: {C: *i}}]\nsuites: [soul-rc]\n", 1,
          ("expands to more than 100,000 values", "{file}")),
        c("alias-list-in-args", "models: [{name: tfidf-lr, args: {C: &a [1, 2]}}, {name: tfidf-lr, label: t2, args: "
          "{C: *a}}]\nsuites: [soul-rc]\n", 1, ("models[0].args.C must be a scalar", "[1, 2]")),
        c("alias-recursive", "models: &m [majority, *m]\nsuites: [soul-rc]\n", 1,
          ("expands to more than 100,000 values", "{file}")),
        c("models-nested-5000", "models: " + "[" * 5000 + "majority" + "]" * 5000 + "\nsuites: [soul-rc]\n", 1,
          ("nested deeper than 64 levels", "{file}")),
        c("duplicate-key", "models: [majority]\nsuites: [soul-rc]\nmodels: [tfidf-lr]\n", 1,
          ("found the key 'models' twice", "line 1", "{file}")),
        c("duplicate-key-nested", "models: [{name: tfidf-lr, args: {C: 1, C: 2}}]\nsuites: [soul-rc]\n", 1,
          ("found the key 'C' twice", "{file}")),
        c("grid-1.2-million", "models: [" + ", ".join(f"{{name: majority, label: m{i}}}" for i in range(20))
          + "]\nsuites: [" + ", ".join(suites()[:20]) + "]\nseeds: [" + ", ".join(map(str, range(3200))) + "]\n",
          1, ("jobs (20 model(s) x", "3200 seed(s)); a sweep runs at most 10,000", "{file}")),
        c("config-over-1-mib", "models: [majority]\nsuites: [soul-rc]\n#" + "x" * (1 << 20) + "\n", 1,
          ("bytes; a sweep config is at most", "{file}")),
        c("label-300-chars", "models: [{name: majority, label: " + "m" * 300 + "}]\nsuites: [soul-rc]\n", 1,
          ("models[0].label", "is 300 characters long", "{file}")),
        c("label-with-space", "models: [{name: majority, label: 'a b'}]\nsuites: [soul-rc]\n", 1,
          ("models[0].label 'a b' may hold only", "{file}")),
        Case("sweep-out-is-file", ("sweep", "{dir}/s.yaml", "--out", "{dir}/{file}/x"),
             both(write("s.yaml", "models: [majority]\nsuites: [soul-rc]\n"), write("f.txt", "x")),
             1, ("not a directory",), "f.txt"),
        Case("sweep-address-without-ray", (*SWEEP, "--address", "auto"),
             write("s.yaml", "models: [majority]\nsuites: [soul-rc]\n"), 1, ("--address applies to --executor ray",),
             "s.yaml"),
    ]
