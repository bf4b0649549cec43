"""Blind sheet: the released ARTS RevTgt variants on the sources the generator refuses and keeps, beside its own.

Why: the generator keeps a RevTgt for about 0.6 of the polar targets of the laptop and restaurant test files and
refuses the rest. The ARTS paper's released test sets (made by rules, then post-edited by people) have a RevTgt for
every polar target. Judging the released variant of a refused source says whether a fluent reversal by a local
edit was there to be had: if people post-editing the paper's rules did not find one, the refusal is the
generator declining what it cannot do well, not a loss.

Three groups of ``--per-group`` variants per file, drawn with ``--seed``: the released RevTgt of polar sources the
generator refused (``released-on-refused``), the released RevTgt of sources it kept (``released-on-kept``), and
the generator's own RevTgt of other kept sources (``generated-on-kept``). They are shuffled into one sheet in the
column layout of ``sentiprobe arts audit-sample`` (the judge sees the term and the sentence only); the key with the
groups is written beside it as ``<sheet>.key.json``. After judging, ``--score`` prints fluent, label-correct and
both per group with Wilson intervals.

    python tools/arts_released_sheet.py draw --generated laptop.json rest.json \\
        --released DATA/arts/arts_testset/laptop_test_enriched.json DATA/arts/arts_testset/rest_test_enriched.json \\
        --out sheet.csv --per-group 25 --seed 2046
    python tools/arts_released_sheet.py score sheet.csv
"""
from __future__ import annotations

import argparse
import csv
import json
import random
from pathlib import Path

from statsmodels.stats.proportion import proportion_confint

POLAR = ("positive", "negative")
GROUPS = ("released-on-refused", "released-on-kept", "generated-on-kept")


def draw(generated: list[Path], released: list[Path], out: Path, per_group: int, seed: int) -> int:
    """Write the blind sheet and its key; returns the number of rows."""
    rng = random.Random(seed)
    rows: list[dict[str, str]] = []
    for gen_path, rel_path in zip(generated, released, strict=True):
        gen = json.loads(gen_path.read_text(encoding="utf-8"))
        rel = json.loads(rel_path.read_text(encoding="utf-8"))
        sources = {k: v for k, v in gen.items() if "provenance" not in v}
        polar = sorted(k for k, v in sources.items() if v["polarity"] in POLAR and f"{k}_adv1" in rel)
        refused = [k for k in polar if f"{k}_adv1" not in gen]
        kept = [k for k in polar if f"{k}_adv1" in gen]
        on_refused = rng.sample(refused, per_group)
        on_kept = rng.sample(kept, 2 * per_group)
        for group, keys, store in ((GROUPS[0], on_refused, rel), (GROUPS[1], on_kept[:per_group], rel),
                                   (GROUPS[2], on_kept[per_group:], gen)):
            for k in keys:
                v = store[f"{k}_adv1"]
                rows.append({"group": group, "file": gen_path.stem, "key": f"{k}_adv1", "term": v["term"],
                             "sentence": v["sentence"], "label": v["polarity"]})
    rng.shuffle(rows)
    write_blind(rows, out, {"seed": seed, "per_group": per_group})
    return len(rows)


def write_blind(rows: list[dict[str, str]], out: Path, meta: dict[str, object]) -> None:
    """The blind sheet of ``rows`` in their order (the judge sees the term and the sentence only) and its key
    ``<out>.key.json`` (``meta`` plus each row's group, file, key, term, sentence and label, by sample id)."""
    with out.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["sample_id", "term", "sentence", "fluent", "label", "notes"])
        for i, r in enumerate(rows, 1):
            w.writerow([i, r["term"], r["sentence"], "", "", ""])
    key = {**meta, "items": {str(i): r for i, r in enumerate(rows, 1)}}
    Path(f"{out}.key.json").write_text(json.dumps(key, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def score(sheet: Path) -> list[str]:
    """Markdown rows per group (and per group and file): fluent, label correct, both, with Wilson 95 % intervals."""
    items = json.loads(Path(f"{sheet}.key.json").read_text(encoding="utf-8"))["items"]
    tally: dict[str, list[int]] = {}
    with sheet.open(newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            k = items[r["sample_id"]]
            fluent = r["fluent"].strip().lower() in ("1", "yes", "y")
            label = r["label"].strip().lower() == k["label"]
            for name in (k["group"], f"{k['group']} ({k['file']})"):
                t = tally.setdefault(name, [0, 0, 0, 0])
                t[0] += 1
                t[1] += fluent
                t[2] += label
                t[3] += fluent and label

    def ci(k: int, n: int) -> str:
        lo, hi = proportion_confint(k, n, method="wilson")
        return f"{k}/{n} = {k / n:.2f} [{lo:.2f}, {hi:.2f}]"

    return [f"| {g} | {ci(t[1], t[0])} | {ci(t[2], t[0])} | {ci(t[3], t[0])} |" for g, t in sorted(tally.items())]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draw")
    d.add_argument("--generated", nargs="+", type=Path, required=True, help="arts generate outputs, one per file")
    d.add_argument("--released", nargs="+", type=Path, required=True, help="released *_test_enriched.json, same order")
    d.add_argument("--out", type=Path, required=True)
    d.add_argument("--per-group", type=int, default=25)
    d.add_argument("--seed", type=int, required=True)
    s = sub.add_parser("score")
    s.add_argument("sheet", type=Path)
    a = ap.parse_args()
    if a.cmd == "draw":
        print(f"wrote {draw(a.generated, a.released, a.out, a.per_group, a.seed)} rows to {a.out}")
    else:
        print("\n".join(score(a.sheet)))


if __name__ == "__main__":
    main()
