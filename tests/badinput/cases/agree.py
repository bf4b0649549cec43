"""``sentiprobe agree``: unreadable tables, bad values, and the tables that used to allocate gigabytes (memory
linear in units + categories now; these run under a small address-space cap)."""
from __future__ import annotations

import json

from corpus import Case, mkdir, nothing, write

ALL_DISTINCT = "unit,a,b,c\n" + "".join(f"{i},{i}.5,{i}.25,{i}.75\n" for i in range(1900))
CATS_60000 = "unit,a,b,c\n" + "".join(f"{i},c{3 * i},c{3 * i + 1},c{3 * i + 2}\n" for i in range(20_000))
ORDINAL_5000 = "unit,a,b\n" + "".join(f"{i},{(7 * i) % 5000},{(7 * i + 1) % 5000}\n" for i in range(5000))
SMALL = "unit,a,b\n" + "".join(f"{i},{i % 50},{(i + i % 2) % 50}\n" for i in range(300))


def cases() -> list[Case]:
    def c(name: str, build, exit: int, expect: tuple[str, ...], *extra: str, file: str = "r.csv",
          memory_mb: int = 1500) -> Case:
        return Case(f"agree-{name}", ("agree", "{dir}/{file}", *extra), build, exit, expect, file,
                    memory_mb=memory_mb)

    return [
        c("latin1", write("r.csv", b"unit,a,b\n1,x\xe9,x\n2,y,y\n"), 1, ("not UTF-8", "{file}")),
        c("binary", write("r.csv", b"\x00\x01\x02"), 1, ("{file}",)),
        c("directory", mkdir("r.csv"), 1, ("directory", "{file}")),
        c("absent", nothing, 1, ("{file}",)),
        c("empty", write("r.csv", ""), 1, ("{file}",)),
        c("one-rater", write("r.csv", "unit,a\n1,x\n2,y\n"), 1, ("{file}",)),
        c("nan-interval", write("r.csv", "unit,a,b\n1,1.0,nan\n2,2.0,2.0\n3,3,3\n"), 1, ("{file}",),
          "--level", "interval"),
        c("inf-interval", write("r.csv", "unit,a,b\n1,1.0,inf\n2,2.0,2.0\n3,3,3\n"), 1, ("{file}",),
          "--level", "interval"),
        c("duplicate-units", write("r.csv", "unit,a,b\n1,x,x\n1,y,y\n2,x,y\n"), 1, ("{file}", "duplicate")),
        c("ragged", write("r.csv", "unit,a,b\n1,x,x,x\n"), 1, ("{file}",)),
        c("many-distinct-interval", write("r.csv", ALL_DISTINCT), 0, ("alpha",), "--level", "interval",
          memory_mb=400),
        # 1,900 units with all-distinct values tried to allocate 204 GiB (units x categories^2)
        c("1900-units-all-distinct", write("r.csv", ALL_DISTINCT), 0, ("krippendorff_alpha", "fleiss_kappa"),
          "--ci", "bootstrap", "--n-boot", "100", memory_mb=400),
        c("20000-units-60000-categories", write("r.csv", CATS_60000), 0, ("3 raters, 20000 units", "fleiss_kappa"),
          memory_mb=600),
        c("5000-ordinal-categories", write("r.csv", ORDINAL_5000), 0, ("krippendorff_alpha",), "--level",
          "ordinal", "--weights", "quadratic", memory_mb=600),
        c("categories-5000-entries", write("r.csv", SMALL), 0, ("krippendorff_alpha",), "--level", "ordinal",
          "--categories", ",".join(str(i) for i in range(5000)), memory_mb=600),
        c("categories-duplicated", write("r.csv", SMALL), 1, ("duplicate categories",), "--categories", "1,2,1"),
        c("n-boot-10e9", write("r.csv", SMALL), 2, ("argument --n-boot",), "--ci", "bootstrap", "--n-boot",
          "1000000000"),
        c("seed-negative", write("r.csv", SMALL), 2, ("argument --seed",), "--seed", "-4"),
        c("ratio-negative", write("r.csv", "unit,a,b\n" + "".join(f"{i},{-1 if i % 2 else 1},1\n"
                                                                   for i in range(20))),
          1, ("negative", "{file}", "record '1'", "field 'a'"), "--level", "ratio"),
        c("jsonl", write("r.jsonl", "".join(json.dumps({"unit": f"u{i}", "a": i % 3, "b": (i % 3) or None}) + "\n"
                                            for i in range(30))), 0, ("30 units",), file="r.jsonl"),
        c("jsonl-list-value", write("r.jsonl", '{"unit": "u1", "a": ["pos"], "b": "pos"}\n'), 1,
          ("{file}", "line 1", "field 'a'"), file="r.jsonl"),
        c("jsonl-nested", write("r.jsonl", '{"unit": "u1", "a": ' + "[" * 100_000 + "]" * 100_000 + "}\n"), 1,
          ("{file}", "line 1", "nested deeper than 100"), file="r.jsonl"),
        c("jsonl-not-objects", write("r.jsonl", '["u1", "pos", "pos"]\n'), 1, ("{file}", "line 1", "JSON object"),
          file="r.jsonl"),
    ]
