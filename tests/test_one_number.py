"""One number, one meaning: a limited main job shows every (system, suite, headline metric) cell with the same
value, interval and ``n`` (the number of units, named by the unit) in all five places a reader meets it: the
console table, each per-model report, the comparison report, ``results.json`` and ``comparison.json``.

The defect this guards against: ``comparison.json``'s intervals came from a second engine and differed from the
console's, the reports' and ``results.json``'s in 59 of 77 cells of the main job, and ``n`` counted items on the
console (arts-laptop 1877) but units everywhere else (638). The JSON numbers are compared exactly; the console
and the HTML are compared after formatting the JSON numbers with the project's own formatter
(:func:`sentiprobe.render.format.format_value`, what the console and the templates call).
"""
from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from sentiprobe.cli import main
from sentiprobe.core.results import small_sample_note
from sentiprobe.render.format import format_value, unit_of
from sentiprobe.suites import SUITES

# one suite per unit kind: source examples with variants, reviews, items, sentences, phrases
RUN_SUITES = ["arts-laptop", "soul-rc", "sentivent-polar", "absa-triplet-explicit", "noncompsst"]
# default models that run in seconds (triplet-rules is the one that extracts triplets)
RUN_MODELS = ["majority", "tfidf-lr", "triplet-rules"]

Cell = tuple[str, str | None, str | None, int | None]
"""A cell as shown: formatted value, formatted interval bounds (None without an interval), n."""

CELL = re.compile(r"^(?P<v>n/a|[^\s%]+)%?(?: \[(?P<lo>[^,\]]+), (?P<hi>[^\]]+)\])?(?P<rest>.*)$", re.S)


def plural(unit: str, n: int) -> str:
    return unit if n == 1 else f"{unit}s"


def shown(m: dict[str, Any], name: str) -> Cell:
    """How a metric of a JSON document reads once formatted: what every display must show."""
    unit = unit_of(m, name)
    v = "n/a" if m.get("value") is None else format_value(name, m["value"], unit)
    lo = hi = None
    if m.get("value") is not None and m.get("ci_low") is not None:
        lo, hi = format_value(name, m["ci_low"], unit), format_value(name, m.get("ci_high"), unit)
    return v, lo, hi, m.get("n")


def parse_cell(text: str, n: int | None) -> tuple[Cell, str]:
    """A displayed cell (``6.67 [0.00, 20.00] \u2020`` / ``53.33 [..]\u26a0 note``) -> the cell and what follows."""
    match = CELL.match(text.strip())
    assert match, text
    return (match["v"], match["lo"], match["hi"], n), match["rest"].strip()


# ---- the console ---------------------------------------------------------------------------------------------
def console_cells(console: str, models: list[str]) -> tuple[dict[tuple[str, str, str], Cell], dict[str, Any]]:
    """(model, suite, metric) -> cell from the results table; per suite its heading's unit and footnotes."""
    cells: dict[tuple[str, str, str], Cell] = {}
    suites: dict[str, Any] = {}
    suite = None
    heads: list[str] = []
    lines = console.splitlines()
    for k, line in enumerate(lines):
        heading = re.fullmatch(r"(\S+)(?:  \(n = (.+)\))?", line)
        if heading and heading[1] in RUN_SUITES:
            suite = heading[1]
            suites[suite] = {"unit": heading[2], "notes": set(), "marked": set()}
            continue
        if not line.startswith("  ") or suite is None:
            suite = None if line and not line.startswith(" ") else suite
            continue
        parts = re.split(r"\s{2,}", line.strip())
        if parts[0] == "model":
            heads = [h.rsplit(" (", 1)[0] for h in parts[2:] if h != "seconds"]
            continue
        if line.startswith("  \u2020 "):
            suites[suite]["notes"].add(line[4:].strip())
            continue
        if parts[0] not in models or len(parts) < 3:
            continue
        model, n = parts[0], int(parts[1].rstrip("*"))
        if parts[-1].endswith("s") and len(parts) == 4:  # too wide: the first metric, then one per line
            texts = [parts[2]] + [lines[k + 1 + j].split(": ", 1)[1] for j in range(len(heads) - 1)]
        else:
            texts = parts[2:2 + len(heads)]
        for name, text in zip(heads, texts):
            cell, rest = parse_cell(text, n)
            cells[(model, suite, name)] = cell
            if rest == "\u2020":
                suites[suite]["marked"].add((model, name))
    return cells, suites


# ---- the HTML reports ------------------------------------------------------------------------------------------
class Tables(HTMLParser):
    """Every table's rows as lists of cell texts (``<br>`` as a newline), with the id of the section (the last
    ``<h2 id=...>``) and the table's class."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.section: str | None = None
        self.tables: list[dict[str, Any]] = []
        self.cell: list[str] | None = None
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "h2":
            self.section = a.get("id")
        elif tag == "table":
            self.depth += 1
            self.tables.append({"section": self.section, "class": a.get("class"), "rows": []})
        elif tag == "tr" and self.depth:
            self.tables[-1]["rows"].append([])
        elif tag in ("td", "th") and self.depth:
            self.cell = []
        elif tag == "br" and self.cell is not None:
            self.cell.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1]["rows"][-1].append("".join(self.cell).strip())
            self.cell = None
        elif tag == "table":
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def tables_of(path: Path) -> list[dict[str, Any]]:
    parser = Tables()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.tables


def html_cell(text: str, n: int | None) -> tuple[Cell, str]:
    """A report cell: value, interval, then the small-sample mark's note on its own line (empty if none)."""
    cell, rest = parse_cell(text.split("\n")[0], n)
    note = text.split("\n", 1)[1].strip() if "\n" in text else ""
    assert not rest, text
    return cell, note.removeprefix("\u26a0 ")


def model_report_cells(path: Path) -> tuple[dict[tuple[str, str], tuple[Cell, str]], dict[str, Any]]:
    """(suite, metric) -> (cell, note) from each suite's metrics table; the profile's (suite, metric) -> cell
    and its n with the unit's name."""
    cells = {}
    for t in tables_of(path):
        if t["section"] in RUN_SUITES and t["rows"] and t["rows"][0][:2] == ["metric", "value [95% CI]"]:
            head = t["rows"][0]
            for row in t["rows"][1:]:
                cells[(t["section"], row[0])] = html_cell(row[1], int(row[head.index("n")]))
    profile: dict[str, Any] = {}
    html = path.read_text(encoding="utf-8")
    body = html.split('class="profile"')[1].split("</table>")[0]
    for suite, n, unit, metrics in re.findall(
            r'<tr><td><a href="#([^"]+)">.*?<td class="num">(\d+) <span class="muted">([^<]*)</span></td>'
            r'<td>(.*?)</td></tr>', body):
        entries = {}
        for name, v, lo, hi, note in re.findall(
                r'<span class="metric"><code>([^<]+)</code> ([^ <]+)(?: <span class="muted">\[([^,\]]+), '
                r'([^\]]+)\]</span>)?(?: <span class="unreliable">\u26a0 ([^<]*)</span>)?</span>', metrics):
            entries[name] = ((v.removesuffix("%"), lo or None, hi or None, int(n)), unescape(note))
        profile[suite] = {"n": int(n), "unit": unescape(unit), "metrics": entries}
    return cells, profile


def comparison_report_cells(path: Path) -> tuple[dict[tuple[str, str, str], tuple[Cell, str]], dict[str, Any]]:
    """(system, suite, metric) -> (cell, note) from each suite's leaderboard; per suite its paired unit line."""
    cells = {}
    for t in tables_of(path):
        if t["class"] != "leaderboard" or t["section"] not in RUN_SUITES:
            continue
        head = t["rows"][0]
        names = [h.split(" [", 1)[0] for h in head[3:]]
        for row in t["rows"][1:]:
            if len(row) != len(head) or not row[2]:  # a model that did not run the suite: the reason instead
                continue
            system, n = row[1].split(" (", 1)[0], int(row[2])
            for name, text in zip(names, row[3:]):
                cells[(system, t["section"], name)] = html_cell(text, n)
    paired = {}
    for section in path.read_text(encoding="utf-8").split('<h2 id="')[1:]:
        line = re.search(r'<p class="muted">paired unit: ([^(<]+?) \(n = (\d+)\)', section.split("<h2")[0])
        if line:
            paired[section.split('"', 1)[0]] = (unescape(line[1]), int(line[2]))
    return cells, paired


# ---- the test -------------------------------------------------------------------------------------------------
def check_run(out: Path, console: str) -> int:
    """Compare every headline cell across the five outputs; returns how many (system, suite, metric) cells it
    compared (a floor, so the test cannot pass by finding nothing)."""
    summary = json.loads((out / "summary.json").read_text())
    systems = {m: out / r.get("dir", m) for m, r in summary["runs"].items()}
    models = list(systems)
    systems.update({name: out / r["dir"] for name, r in (summary.get("references") or {}).items()})
    results = {s: json.loads((d / "results.json").read_text()) for s, d in systems.items()}
    comparison = json.loads((out / "comparison.json").read_text())
    shown_console, console_suites = console_cells(console, models)
    board, paired = comparison_report_cells(out / "report.html")
    compared = 0
    for system, doc in results.items():
        own_cells, profile = model_report_cells(systems[system] / "report.html")
        for suite, entry in doc["suites"].items():
            metrics = entry["metrics"]
            heads = [h for h in SUITES.get(suite).headline if h in metrics]
            assert heads, (system, suite)
            units = {metrics[h].get("unit_name") for h in heads}
            assert len(units) == 1 and None not in units, (system, suite, units)
            unit = units.pop()
            comp = comparison["suites"].get(suite)
            # every metric's small-sample note names what its n counts (the engine's unit, never "units")
            for name, m in metrics.items():
                note = small_sample_note(m)
                if note and m.get("unit_name"):
                    assert note.startswith(f"{m['n']} {plural(m['unit_name'], m['n'])} < "), (system, suite, name)
            # the per-model report's metrics table: every metric, headline or not
            for name, m in metrics.items():
                assert own_cells[(suite, name)] == (shown(m, name), small_sample_note(m) or ""), \
                    (system, suite, name, own_cells[(suite, name)], m)
            # the profile at the top of the per-model report: n with the unit's name, and its metrics
            row = profile[suite]
            assert (row["n"], row["unit"]) == (metrics[heads[0]]["n"], f"{unit}s"), (system, suite, row)
            for name, (cell, note) in row["metrics"].items():  # the row's n is the headline's; others' in notes
                assert (cell[:3], note) == (shown(metrics[name], name)[:3], small_sample_note(metrics[name]) or ""), \
                    (system, suite, name)
            assert set(heads) <= set(row["metrics"]), (system, suite, row)
            for name in heads:
                m = metrics[name]
                want = shown(m, name)
                note = small_sample_note(m) or ""
                assert m["n"] == metrics[heads[0]]["n"], (system, suite, name)  # one n per row, as shown
                if system in models:  # the console shows the models that ran (references in the reports)
                    assert shown_console[(system, suite, name)] == want, (system, suite, name)
                    assert console_suites[suite]["unit"] == f"{unit}s", (suite, console_suites[suite])
                    marked = (system, name) in console_suites[suite]["marked"]
                    assert marked == bool(note), (system, suite, name)
                    assert not note or note in console_suites[suite]["notes"], (system, suite, name, note)
                if comp is not None:
                    c = comp["systems"][system][name]
                    for key in ("value", "ci_low", "ci_high", "n", "unit_name"):  # one engine: the same floats
                        assert c.get(key) == m.get(key), (system, suite, name, key, c.get(key), m.get(key))
                    assert small_sample_note(c) == small_sample_note(m), (system, suite, name)
                    assert paired[suite] == (unit, comp["n_units"]) and comp["unit"] == unit, (suite, paired)
                # the comparison report's leaderboard lists every system that ran the suite
                assert board[(system, suite, name)] == (want, note), (system, suite, name)
                compared += 1
    return compared


@pytest.mark.realdata
def test_every_cell_reads_the_same_in_all_five_outputs(tmp_path, capsys, data_dir):
    out = tmp_path / "run"
    code = main(["run", "--suite", ",".join(RUN_SUITES), "--model", ",".join(RUN_MODELS), "--limit", "40",
                 "--n-boot", "200", "--out", str(out), "--no-progress", "--skip-unsupported",
                 "--data-dir", str(data_dir)])
    console = capsys.readouterr().out
    assert code == 0, console
    compared = check_run(out, console)
    comparison = json.loads((out / "comparison.json").read_text())
    # four suites compared (absa-triplet-explicit has one system), references among the rows
    assert set(comparison["suites"]) == set(RUN_SUITES) - {"absa-triplet-explicit"}
    assert compared >= 30, compared

    # the check can fail: one interval bound moved in comparison.json, one n in a model's report
    doc = json.loads((out / "comparison.json").read_text())
    cell = doc["suites"]["soul-rc"]["systems"]["majority"]["accuracy"]
    cell["ci_low"] = cell["ci_low"] - 0.0001
    (out / "comparison.json").write_text(json.dumps(doc))
    with pytest.raises(AssertionError, match="ci_low"):
        check_run(out, console)
    (out / "comparison.json").write_text(json.dumps(comparison))
    page = out / "tfidf-lr" / "report.html"
    html = page.read_text(encoding="utf-8")
    page.write_text(html.replace('<td>%</td><td class="num">40</td>', '<td>%</td><td class="num">41</td>', 1),
                    encoding="utf-8")
    with pytest.raises(AssertionError):
        check_run(out, console)
    page.write_text(html, encoding="utf-8")
    with pytest.raises(AssertionError):  # the console's n for a suite: items instead of units
        check_run(out, re.sub(r"(\n  majority +)15\*", r"\g<1>41*", console, count=1))
    assert check_run(out, console) == compared


def test_a_metric_over_part_of_the_units_names_the_unit_it_counts():
    """ARTS's ``ars_polar`` counts 11 of 15 source examples: its small-sample note said "11 units", while its
    ``unit_name`` (and every other display of it) says source examples."""
    from types import SimpleNamespace

    from sentiprobe.core.results import mark_small_samples
    from sentiprobe.run.limit import unit_names

    items = [SimpleNamespace(group_id=f"g{i // 3}") for i in range(45)]  # 15 source examples, 45 items
    metrics = {"ars": {"value": 0.2, "ci_low": 0.0, "ci_high": 0.4, "n": 15, "unit_name": "source example"},
               "ars_polar": {"value": 0.1, "ci_low": 0.0, "ci_high": 0.3, "n": 11, "unit_name": "source example"},
               "legacy": {"value": 0.5, "ci_low": 0.1, "ci_high": 0.9, "n": 45}}
    names = unit_names(metrics, items, "source example")
    assert names == {"ars": "source example", "ars_polar": "source example", "legacy": "item"}
    marked = mark_small_samples(metrics, names)
    assert marked["ars_polar"]["small_sample_note"] == "11 source examples < 30: interval unreliable"
