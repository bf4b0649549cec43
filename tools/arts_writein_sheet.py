"""How far a person closes the RevTgt gap: write refused targets, then judge them blind beside the generator's own.

Why: the generator keeps a RevTgt variant for about 0.6 of the polar targets; ``sentiprobe arts review
--write-refused`` shows the rest for a reviewer to write. This tool measures that loop on a seeded sample, in three
steps, each re-runnable:

1. ``draw``: ``--per-file`` refused polar targets of each generated file (the items ``--write-refused`` shows),
   as a writer's sheet: the source, the target, the label it must read after the edit, the other aspects (which
   must stay in the text with their labels) and the generator's refusal. The writer fills ``written`` with the
   reversed sentence, or ``reject`` with a tag of ``sentiprobe.suites.arts.review.REASONS``.
2. ``apply``: every row through the review logic the page uses (``edit``, then ``accept``, or ``reject``), so a
   written sentence that loses an aspect is refused as on the page; prints written/rejected/refused counts and the
   characters changed per written item, and writes a blind judge sheet (``arts audit-sample`` columns) mixing the
   accepted items with as many of the generator's kept RevTgt variants of the same files, key beside it.
3. ``score``: fluent, label-correct and both per group (``written`` / ``generated``, and per file) with Wilson
   intervals (``arts_released_sheet.score``).

    python tools/arts_writein_sheet.py draw --generated laptop.json rest.json --out write.csv --per-file 30 \\
        --seed 2048
    python tools/arts_writein_sheet.py apply write.csv --judge judge.csv
    python tools/arts_writein_sheet.py score judge.csv
"""
from __future__ import annotations

import argparse
import csv
import difflib
import json
import random
from pathlib import Path

from arts_released_sheet import score, write_blind

from sentiprobe.core.errors import ConfigError
from sentiprobe.suites.arts.review import REASONS, apply, load_generated, new_state, view
from sentiprobe.suites.arts.writein import with_refused

WRITER_COLUMNS = ("row", "file", "key", "term", "label_after", "source", "keep_aspects", "refusal", "written",
                  "reject")


def draw(generated: list[Path], out: Path, per_file: int, seed: int) -> int:
    rng = random.Random(seed)
    rows = []
    for path in generated:
        gen = with_refused(load_generated(path))
        st = new_state(gen)
        for key in sorted(rng.sample(sorted(gen.written), min(per_file, len(gen.written)))):
            rec = gen.records[key]
            st.position = gen.variants.index(key)
            keep = "; ".join(f"{o['term']}: {o['label']}" for o in view(gen, st)["others"])
            rows.append([str(path), key, rec["term"], rec["polarity"], rec["sentence"], keep, gen.written[key]])
    with out.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(WRITER_COLUMNS)
        for i, r in enumerate(rows, 1):
            w.writerow([i, *r, "", ""])
    return len(rows)


def _chars_changed(a: str, b: str) -> int:
    """Characters deleted plus inserted between ``a`` and ``b`` (a character diff)."""
    return sum(max(i2 - i1, j2 - j1) for op, i1, i2, j1, j2 in
               difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op != "equal")


def apply_sheet(sheet: Path, judge: Path, seed: int) -> dict[str, object]:
    with sheet.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    gens = {p: with_refused(load_generated(p)) for p in sorted({r["file"] for r in rows})}
    states = {p: new_state(g) for p, g in gens.items()}
    written, rejected, refused, changed = [], [], [], []
    for r in rows:
        gen, st = gens[r["file"]], states[r["file"]]
        st.position = gen.variants.index(r["key"])
        try:
            if r["written"].strip():
                apply(gen, st, "edit", text=r["written"].strip())
                apply(gen, st, "accept", reviewer="writer")
                written.append(r)
                changed.append(_chars_changed(r["source"], r["written"].strip()))
            else:
                reason = r["reject"].strip() if r["reject"].strip() in REASONS else "other"
                apply(gen, st, "reject", reason=reason, reviewer="writer")
                rejected.append(r)
        except ConfigError as exc:
            refused.append((r["row"], str(exc)))
    rng = random.Random(seed)
    items = [{"group": "written", "file": r["file"], "key": r["key"], "term": r["term"],
              "sentence": r["written"].strip(), "label": r["label_after"]} for r in written]
    for path, gen in gens.items():
        mine = sum(1 for r in written if r["file"] == path)
        kept = sorted(k for k in gen.variants if gen.kinds[k] == "revtgt" and k not in gen.written)
        for k in rng.sample(kept, mine):
            rec = gen.records[k]
            items.append({"group": "generated", "file": path, "key": k, "term": rec["term"],
                          "sentence": rec["sentence"], "label": rec["polarity"]})
    rng.shuffle(items)
    write_blind(items, judge, {"seed": seed})
    return {"rows": len(rows), "written": len(written), "rejected": len(rejected), "refused_by_review": refused,
            "chars_changed_per_written": round(sum(changed) / len(changed), 1) if changed else None,
            "reject_tags": sorted({r["reject"].strip() or "other" for r in rejected})}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draw")
    d.add_argument("--generated", nargs="+", type=Path, required=True)
    d.add_argument("--out", type=Path, required=True)
    d.add_argument("--per-file", type=int, default=30)
    d.add_argument("--seed", type=int, default=2048)
    a = sub.add_parser("apply")
    a.add_argument("sheet", type=Path)
    a.add_argument("--judge", type=Path, required=True)
    a.add_argument("--seed", type=int, default=2048)
    s = sub.add_parser("score")
    s.add_argument("judge", type=Path)
    args = ap.parse_args()
    if args.cmd == "draw":
        print(f"{draw(args.generated, args.out, args.per_file, args.seed)} rows written to {args.out}")
    elif args.cmd == "apply":
        print(json.dumps(apply_sheet(args.sheet, args.judge, args.seed), indent=1))
    else:
        print("\n".join(score(args.judge)))


if __name__ == "__main__":
    main()
