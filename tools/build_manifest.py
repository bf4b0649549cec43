#!/usr/bin/env python3
"""Build ``src/sentiprobe/data/manifest.json`` from the PROVENANCE.md files and the data itself.

    python tools/build_manifest.py [--data-dir /work/shared/data] [--out src/sentiprobe/data/manifest.json]
    python tools/build_manifest.py --check      # rebuild in memory and fail if the committed JSON differs

For every file under the data directory (``PROVENANCE.md`` excepted) the manifest records the manifest
path (``family/relative/path``), the upstream repository/commit/path it was copied from and the pinned
raw GitHub URL, its sha256, size and git blob id (all computed from the file itself), and a licence note.
Each value that a PROVENANCE table states (size, sha256, git blob, repository path) is cross-checked against
the real file; any disagreement, or any file that no PROVENANCE accounts for, stops the build.

Files that are not byte copies of an upstream file get ``"url": null`` with an ``origin`` text, plus a
``derive`` recipe when sentiprobe can rebuild them. Files upstream never published (or that the reference
snapshot lacks) are listed with ``"status": "unpublished"``, their expected git blob when known, what
sentiprobe uses instead and how to supply them. Their git blob ids are checked to appear in the PROVENANCE.

Standard library only.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path
from urllib.parse import quote

SCHEMA_VERSION = 1
REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = REPO_ROOT / "src" / "sentiprobe" / "data" / "manifest.json"
FAMILIES = ("arts", "noncompsst", "sst", "sentivent", "lexcomp", "soul")
HEX40 = re.compile(r"\b[0-9a-f]{40}\b")


class BuildError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
def raw_url(repo: str, commit: str, path: str) -> str:
    if not HEX40.fullmatch(commit):
        raise BuildError(f"commit {commit!r} of {repo} is not a full 40-hex id")
    return f"https://raw.githubusercontent.com/{repo}/{commit}/{quote(path, safe='/')}"


def git_blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def md_tables(text: str) -> list[list[dict[str, str]]]:
    """Every markdown table in ``text`` as a list of row dicts (header -> cell, backticks removed)."""
    tables, block = [], []
    for line in text.splitlines() + [""]:
        if line.lstrip().startswith("|"):
            block.append(line.strip())
            continue
        if len(block) >= 2:
            cells = [_cells(r) for r in block]
            header = [re.sub(r"\s*\(.*\)$", "", c.lower()) for c in cells[0]]
            rows = [dict(zip(header, r)) for r in cells[2:] if len(r) == len(header)]
            if len(rows) != len(cells) - 2:
                raise BuildError(f"malformed markdown table starting {block[0]!r}")
            tables.append(rows)
        block = []
    return tables


def _cells(row: str) -> list[str]:
    return [c.strip().strip("`").strip() for c in row.strip().strip("|").split("|")]


def table_with(tables: list[list[dict[str, str]]], *columns: str) -> list[dict[str, str]]:
    out = [t for t in tables if t and all(c in t[0] for c in columns)]
    if not out:
        raise BuildError(f"no PROVENANCE table with columns {columns}")
    return [r for t in out for r in t]


def number(cell: str) -> int:
    return int(cell.replace(",", "").strip())


def first(pattern: str, text: str, what: str, flags: int = 0) -> re.Match:
    m = re.search(pattern, text, flags)
    if not m:
        raise BuildError(f"PROVENANCE: cannot find {what} (pattern {pattern!r})")
    return m


# ---------------------------------------------------------------------------------------------
# licence notes (summaries of the "Licence" sections of each PROVENANCE.md)
# ---------------------------------------------------------------------------------------------
LICENCE = {
    "arts": ("No licence: zhijing-jin/ARTS_TestSet has no LICENSE file and states no terms (all rights reserved "
             "by default); research and evaluation use only, do not redistribute. Bundles SemEval-2014 Task 4, "
             "MAMS and TOWE data whose own terms are not restated."),
    "noncompsst": ("No licence: vernadankers/NonCompSST has no LICENSE file. Stimuli are built from Stanford "
                   "Sentiment Treebank phrases (Rotten Tomatoes snippets), distributed without an explicit "
                   "licence."),
    "sst": ("No licence: Stanford distributes SST without an explicit licence; neither source repository "
            "(slee288/project4, clir/clearnlp-sa) has a LICENSE file."),
    "sentivent": ("No licence: the SENTiVENT repositories have no LICENSE file; treat as all rights reserved "
                  "by the authors, published for replication; cite Jacobs & Hoste (2021)."),
    "lexcomp": ("Apache-2.0 (vered1986/lexcomp LICENSE.txt, Copyright 2019 Vered Shwartz) for the released "
                "files; underlying corpora keep their own terms (BNC ids only; Wikipedia contexts CC BY-SA; "
                "STREUSLE CC BY-SA 4.0 annotations over EWT text)."),
    "soul": ("MIT (DAMO-NLP-SG/SOUL LICENSE, Copyright (c) 2023 Multilingual NLP Team at Alibaba DAMO Academy) "
             "for the annotations; the MIT notice (soul/LICENSE) must travel with copies. Review texts are "
             "IMDb (Maas et al. 2011, no formal licence) and Yelp (Yelp Dataset User Agreement: non-commercial, "
             "no redistribution): research use only."),
}
LICENCE_OVERRIDES = {  # manifest-path prefix -> note (most specific wins)
    "sentivent/lexicons/": ("Lexicon owners' terms apply (Henry 2008; Loughran & McDonald master dictionary; "
                            "NTUSD-Fin, Chen et al. 2018); not recorded upstream: check before redistributing. "
                            "The upstream README says they cannot be included because of copyright."),
    "sentivent/coarse/sentifm-fine-en.csv": ("SentiFM corpus (Van de Kauter et al.); no licence in the "
                                             "repository."),
    "sentivent/triplets/joinedsemeval/": ("Derived from SemEval 2014-2016 ABSA data with the annotations of "
                                          "Wu et al. (2020, NJUNLP/GTS); no licence file."),
    "soul/LICENSE": "MIT licence text of DAMO-NLP-SG/SOUL (must accompany copies of the SOUL data).",
}


def licence_for(path: str) -> str:
    best = ""
    for prefix in LICENCE_OVERRIDES:
        if path.startswith(prefix) and len(prefix) > len(best):
            best = prefix
    return LICENCE_OVERRIDES[best] if best else LICENCE[path.split("/", 1)[0]]


FAMILY_INFO = {
    "arts": ("ARTS aspect robustness test sets and source ABSA data",
             "Xing, Jin et al. 2020. Tasty Burgers, Soggy Fries: Probing Aspect Robustness in Aspect-Based "
             "Sentiment Analysis. EMNLP."),
    "noncompsst": ("NonCompSST stimuli, human rankings and SST-7 evaluation splits",
                   "Dankers and Lucas 2023. Non-Compositionality in Sentiment: New Data and Analyses. Findings "
                   "of EMNLP."),
    "sst": ("Stanford Sentiment Treebank files (for SST-7 training)",
            "Socher et al. 2013. Recursive Deep Models for Semantic Compositionality Over a Sentiment "
            "Treebank. EMNLP."),
    "sentivent": ("SENTiVENT implicit economic sentiment, triplets, lexicons, IAA tables",
                  "Jacobs and Hoste 2021. Fine-Grained Implicit Sentiment in Financial News: Uncovering Hidden "
                  "Bulls and Bears. Electronics 10:2554."),
    "lexcomp": ("LexComp lexical-composition probing tasks",
                "Shwartz and Dagan 2019. Still a Pain in the Neck: Evaluating Text Representations on Lexical "
                "Composition. TACL."),
    "soul": ("SOUL review comprehension (true / false / not-given) with justifications",
             "Deng, Zhang, Pan and Bing 2023. SOUL: Towards Sentiment and Opinion Understanding of Language. "
             "EMNLP."),
}


# ---------------------------------------------------------------------------------------------
# per-family parsers: each returns (sources, {relpath: record}) where record has the keys
# source (short name or None), repo_path, size, sha256, git_blob (PROVENANCE values or None),
# status, origin, derive
# ---------------------------------------------------------------------------------------------
def _rec(source, repo_path, size=None, sha256=None, git_blob=None, status="upstream", origin=None,
         derive=None):
    return {"source": source, "repo_path": repo_path, "size": size, "sha256": sha256, "git_blob": git_blob,
            "status": status, "origin": origin, "derive": derive}


def parse_arts(text: str):
    repo = first(r"Repository: GitHub `([^`]+)`", text, "repository").group(1)
    commit = first(r"Snapshot commit: `([0-9a-f]{40})`", text, "snapshot commit").group(1)
    files = {}
    for r in table_with(md_tables(text), "file here", "repository path", "sha256"):
        files[r["file here"]] = _rec("main", r["repository path"], number(r["size"]), r["sha256"])
    return {"main": {"repository": repo, "commit": commit}}, files


def parse_noncompsst(text: str):
    m = first(r"GitHub `([^`]+)`, commit\s+`([0-9a-f]{40})`", text, "repository and commit")
    files = {}
    for r in table_with(md_tables(text), "file", "git blob id"):
        files[r["file"]] = _rec("main", r["file"], number(r["bytes"]), r["sha256"], r["git blob id"])
    derived = table_with(md_tables(text), "file", "what")
    how = first(r"How they were made:(.*?)\*\*Use", text, "derivation prose", re.S).group(1)
    how = " ".join(how.split())
    pickle = "noncompsst/noncompsst/ungrammaticality.pickle"
    for r in derived:
        fmt = "json" if r["file"].endswith(".json") else "tsv"
        recipe = {"recipe": f"pickle-dict-to-{fmt}", "inputs": [pickle], "source": None,
                  "params": ({"indent": 1, "ensure_ascii": True, "trailing_newline": True} if fmt == "json"
                             else {"header": ["stimulus", "ungrammatical"], "true": "1", "false": "0"})}
        files[r["file"]] = _rec(None, None, number(r["bytes"]), r["sha256"], status="derived",
                                origin=f"Derived by the data curators, not in the repository: {r['what']}. {how}",
                                derive=recipe)
    return {"main": {"repository": m.group(1), "commit": m.group(2)}}, files


def parse_sst(text: str):
    sources = {}
    for m in re.finditer(r"\*\*([A-Z])\*\* = GitHub `([^`]+)`, commit `([0-9a-f]{40})`", text):
        sources[m.group(1)] = {"repository": m.group(2), "commit": m.group(3)}
    if set(sources) != {"A", "B", "C"}:
        raise BuildError(f"sst: expected sources A, B, C; found {sorted(sources)}")
    files = {}
    for r in table_with(md_tables(text), "file", "from", "path in source"):
        rp = r["file"] if r["path in source"] == "same" else r["path in source"]
        files[r["file"]] = _rec(r["from"], rp, number(r["bytes"]), r["sha256"], r["git blob id"])
    return sources, files


SENTIVENT_HYPERPARAM_NAMES = {
    # The PROVENANCE records only the pattern senti-<lex>-<model>-wandb_export_<timestamp>.csv and the
    # timestamp range; the exact upstream names (timestamps with spaces) were read from the tree of
    # GillesJ/sentivent-implicit-economic-sentiment. Checked below against the prose pattern and range.
    "senti-lexall-bert-base-cased.csv": "2021-05-19T10 28 24.061+02 00",
    "senti-lexall-bert-large-cased.csv": "2021-05-19T10 30 50.674+02 00",
    "senti-lexall-roberta-base.csv": "2021-05-18T17 53 12.451+02 00",
    "senti-lexall-roberta-large.csv": "2021-05-18T17 57 33.450+02 00",
    "senti-lexecon-bert-base-cased.csv": "2021-05-19T10 27 24.296+02 00",
    "senti-lexecon-bert-large-cased.csv": "2021-05-19T10 29 52.896+02 00",
    "senti-lexecon-roberta-base.csv": "2021-05-18T17 56 45.900+02 00",
    "senti-lexecon-roberta-large.csv": "2021-05-18T17 59 58.922+02 00",
    "senti-nolex-bert-base-cased.csv": "2021-05-19T10 29 14.134+02 00",
    "senti-nolex-roberta-base.csv": "2021-05-18T17 55 36.863+02 00",
    "senti-nolex-roberta-large.csv": "2021-05-18T18 01 13.422+02 00",
}


def _expand_braces(name: str) -> list[str]:
    m = re.search(r"\{([^}]*)\}", name)
    if not m:
        return [name]
    return [x for alt in m.group(1).split(",") for x in _expand_braces(name[:m.start()] + alt + name[m.end():])]


def parse_sentivent(text: str):
    sources = {}
    for r in table_with(md_tables(text), "short name", "repository", "commit"):
        sources[r["short name"]] = {"repository": r["repository"], "commit": r["commit"]}
    sizes = {r["file"]: r for r in table_with(md_tables(text), "file", "bytes", "sha256")}
    section = first(r"## File map.*?\n(.*?)\n## ", text, "file map section", re.S).group(1)
    bullets, cur = [], None
    for line in section.splitlines():
        if line.startswith("- "):
            cur = [line[2:]]
            bullets.append(cur)
        elif line.startswith("  ") and cur is not None:
            cur.append(line.strip())
    files = {}
    for b in bullets:
        bullet = " ".join(b)
        lhs, arrow, rhs = bullet.partition(" <- ")
        if not arrow:
            continue
        names, d = [], ""
        for raw in re.findall(r"`([^`]+)`", lhs):
            if "/" not in raw and d:
                raw = d + raw
            d = raw.rsplit("/", 1)[0] + "/" if "/" in raw else ""
            names.extend(_expand_braces(raw))
        if rhs.startswith("transcribed"):
            blob = first(r"\(blob ([0-9a-f]{40})\)", rhs, "splits.json source blob").group(1)
            src = first(r"in (\w+):(\S+?\.py)", rhs, "splits.json source file")
            const = first(r"`(\w+)` constant", rhs, "splits.json constant").group(1)
            s = sources[src.group(1)]
            for n in names:
                files[n] = _rec(None, None, status="transcribed",
                                origin=f"Transcribed (not a downloadable file): {' '.join(rhs.split())}",
                                derive={"recipe": "python-literal-to-json", "inputs": [],
                                        "source": {"url": raw_url(s["repository"], s["commit"], src.group(2)),
                                                   "git_blob": blob, "repository": s["repository"],
                                                   "commit": s["commit"], "path": src.group(2)},
                                        "params": {"name": const, "indent": 1, "ensure_ascii": True,
                                                   "trailing_newline": False}})
            continue
        m = first(r"^(\w+):(.+?)(?=\s+\(|$)", rhs, f"repository path in bullet {bullet[:60]!r}")
        short, target = m.group(1), m.group(2).strip()
        if short not in sources:
            raise BuildError(f"sentivent: unknown source {short!r} in bullet {bullet[:60]!r}")
        for n in names:
            if "<lex>-<model>" in n:
                continue  # expanded below from the files table
            if target.endswith("<same path>"):
                rp = target.replace("<same path>", n.split("/", 1)[1])
            elif target.endswith("/"):
                rp = target + n.rsplit("/", 1)[-1]
            else:
                if len(names) != 1:
                    raise BuildError(f"sentivent: one target for several files in {bullet[:60]!r}")
                rp = target
            files[n] = _rec(short, rp)
        if any("<lex>-<model>" in n for n in names):
            pat = first(r"(\w+):(\S+)/senti-<lex>-<model>-wandb_export_<timestamp>\.csv", rhs,
                        "hyper-parameter export pattern")
            lo, hi = first(r"timestamps (\S+) \.\. (\S+?),", rhs, "timestamp range").groups()
            for n, stamp in SENTIVENT_HYPERPARAM_NAMES.items():
                if not (lo <= stamp.replace(" ", ":", 1)[:16] <= hi):
                    raise BuildError(f"sentivent: timestamp {stamp} of {n} outside {lo}..{hi}")
                rp = f"{pat.group(2)}/{n[:-4]}-wandb_export_{stamp}.csv"
                files[f"results-hyperparameter-search/{n}"] = _rec(pat.group(1), rp)
    for rel, rec in files.items():
        if rel not in sizes:
            raise BuildError(f"sentivent: {rel} is in the file map but not in the files table")
        rec["size"], rec["sha256"] = number(sizes[rel]["bytes"]), sizes[rel]["sha256"]
    missing = set(sizes) - set(files)
    if missing:
        raise BuildError(f"sentivent: files table entries with no source in the file map: {sorted(missing)}")
    return sources, files


def parse_lexcomp(text: str):
    repo, commit = first(r"Repository: `([^`]+)` \(GitHub\), snapshot at commit\s+`([0-9a-f]{40})`", text,
                         "repository and commit").groups()
    base = first(r"copied from `([^`<]+)/<task>/`", text, "repository data folder").group(1)
    files = {}
    for r in table_with(md_tables(text), "file", "bytes", "sha256"):
        files[r["file"]] = _rec("main", f"{base}/{r['file']}", number(r["bytes"]), r["sha256"])
    return {"main": {"repository": repo, "commit": commit}}, files


def parse_soul(text: str):
    repo, commit = first(r"Repository: GitHub `([^`]+)`, snapshot at commit\s+`([0-9a-f]{40})`", text,
                         "repository and commit").groups()
    paths = re.findall(r"`(data/[\w.]+)`", first(r"Paths: ([^\n]+)", text, "repository paths").group(1))
    by_name = {p.rsplit("/", 1)[1]: p for p in paths}
    files = {}
    for r in table_with(md_tables(text), "file", "bytes", "sha256", "git blob id"):
        if "missing" in r["sha256"]:
            continue  # listed as unpublished below
        files[r["file"]] = _rec("main", by_name[r["file"]], number(r["bytes"]), r["sha256"], r["git blob id"])
    lic = first(r"copied verbatim beside the data as `(\w+)` \(([\d,]+) bytes\)", text, "LICENSE copy")
    files[lic.group(1)] = _rec("main", "LICENSE", number(lic.group(2)))
    return {"main": {"repository": repo, "commit": commit}}, files


PARSERS = {"arts": parse_arts, "noncompsst": parse_noncompsst, "sst": parse_sst, "sentivent": parse_sentivent,
           "lexcomp": parse_lexcomp, "soul": parse_soul}


# ---------------------------------------------------------------------------------------------
# unpublished files: what the PROVENANCE notes say is missing and sentiprobe can use if supplied
# ---------------------------------------------------------------------------------------------
def unpublished(sources: dict[str, dict[str, dict[str, str]]]) -> list[dict]:
    def src(fam, short, path):
        s = sources[fam][short]
        return {"source": {"repository": s["repository"], "commit": s["commit"], "path": path},
                "url": raw_url(s["repository"], s["commit"], path)}

    def place(p, flag=None):
        how = f"place the file at <data-dir>/{p}"
        if flag:
            how += f" or pass it to the suite with {flag}"
        return how + "; `sentiprobe data verify` then checks it against the expected git blob when known."

    out = [
        dict(path="soul/train.csv", git_blob="6d107a408acc1b175f1ebe9152e8a8ed459b75e5", **src(
            "soul", "main", "data/train.csv"),
            reason=("SOUL training split (about 6.77 MB; 8,834 statements over 2,182 reviews per the paper). In "
                    "the upstream tree, but the reference snapshot drops files of 4 MiB or more."),
            substitute=("Zero-shot evaluation and scoring need only dev/test; models that learn are fitted on "
                        "the dev split as a stand-in, and results say so."),
            how_to_supply=place("soul/train.csv", "--train-file") + (
                " Also on the Hugging Face Hub: DAMO-NLP-SG/SOUL train.csv at revision "
                "aef002daaa10d151457958a28b162fc996825023. `git hash-object train.csv` must give the blob.")),
        dict(path="noncompsst/sst7/train.tsv", git_blob="1515ba4e626b4f7eca87a1d8993cf83f9647bd00", **src(
            "noncompsst", "main", "sst7/train.tsv"),
            reason=("Phrase-level ('unrolled') SST-7 training set the NonCompSST authors trained on; in the "
                    "upstream tree (4 MiB or more) but not in the reference snapshot."),
            substitute=("Sentence-level SST-7 rebuilt exactly from sst/ (SSTB_*.csv + sentiment_labels.txt), "
                        "optionally with the 0-4 phrase labels of the PTB trees."),
            how_to_supply=place("noncompsst/sst7/train.tsv", "--train-file")),
        dict(path="sst/stanfordSentimentTreebank/dictionary.txt",
             git_blob="1cb6a347bd8bc9f23e7e5de6bfb1c9e5e6562119",
             **src("sst", "A", "stanfordSentimentTreebank/dictionary.txt"),
             reason="Phrase text -> phrase id map of the official SST archive (4 MiB or more; not in the snapshot).",
             substitute="Sentence-level labels via derived/slee288_project4/SSTB_*.csv; phrase labels from the "
                        "PTB trees only.",
             how_to_supply=place("sst/stanfordSentimentTreebank/dictionary.txt") + (
                 " It is also in stanfordSentimentTreebank.zip from Stanford.")),
        dict(path="sst/stanfordSentimentTreebankRaw/sentlex_exp12.txt",
             git_blob="db9488721b38fa45b237064b35d37303667ef8b1",
             **src("sst", "B", "src/Stanford Sentiment/stanfordSentimentTreebankRaw/sentlex_exp12.txt"),
             reason="Raw id -> phrase text of the official raw archive (4 MiB or more; not in the snapshot).",
             substitute="Not needed for any suite; raw scores are used by id only.",
             how_to_supply=place("sst/stanfordSentimentTreebankRaw/sentlex_exp12.txt") + (
                 " It is also in stanfordSentimentTreebankRaw.zip from Stanford.")),
        dict(path="sst/derived/slee288_project4/SSTB_phrases_without_sentences.csv",
             git_blob="f390a8c1def31a9fef1c6e44758a90b09708574f",
             **src("sst", "A", "stanfordSentimentTreebank/SSTB_phrases_without_sentences.csv"),
             reason="Third-party table of phrase-level values (4 MiB or more; not in the snapshot).",
             substitute="Sentence-level SST-7 only.",
             how_to_supply=place("sst/derived/slee288_project4/SSTB_phrases_without_sentences.csv")),
        dict(path="sentivent/triplets/sentivent-event-devproto/train.json",
             git_blob="7c809b7a9d469872930c5f899a82b2ced5baab84",
             **src("sentivent", "GTS", "data/sentivent-event-devproto/train.json"),
             reason=("Training split of the paper's triplet experiment (directly annotated + event-induced "
                     "triplets); 4 MiB or more, absent from the snapshot. Statistics survive in "
                     "triplets/eda_stats.txt."),
             substitute=("The directly-annotated-only variant triplets/sentivent-devproto/train.json (complete); "
                         "the event dev/test splits are present for evaluation."),
             how_to_supply=place("sentivent/triplets/sentivent-event-devproto/train.json", "--train-file")),
        dict(path="sentivent/triplets/sentivent-event-devproto-no-empty/train.json",
             git_blob="71c23bd6a5e981cfe5a6a3367587640ac6d86857",
             **src("sentivent", "GTS", "data/sentivent-event-devproto-no-empty/train.json"),
             reason="As sentivent-event-devproto/train.json, without sentences that have no triplet.",
             substitute="triplets/sentivent-devproto-no-empty/train.json (directly annotated only).",
             how_to_supply=place("sentivent/triplets/sentivent-event-devproto-no-empty/train.json",
                                 "--train-file")),
        dict(path="sentivent/lexicons/SentiWordNet_3.0.0.txt",
             git_blob="1ccf18b7286b9f531d6dea9e887a5c6ba5227c82",
             **src("sentivent", "IMPL", "lexicons/SentiWordNet_3.0.0.txt"),
             reason="SentiWordNet 3.0 lexicon in the upstream tree (4 MiB or more; absent from the snapshot).",
             substitute=("The three present lexicons (Henry 2008, Loughran-McDonald 2019, NTUSD-Fin); "
                         "SentiWordNet features are left out and results say so."),
             how_to_supply=place("sentivent/lexicons/SentiWordNet_3.0.0.txt") + (
                 " SentiWordNet 3.0 is also distributed by its authors (sentiwordnet.isti.cnr.it).")),
    ]
    for task in ("vpc_classification", "lvc_classification"):
        for split in ("train", "val", "test"):
            p = f"lexcomp/{task}/{split}.jsonl"
            out.append(dict(
                path=p, git_blob=None, url=None, source=None,
                reason=(f"{task.split('_')[0].upper()} sentences come from the BNC, whose licence the upstream "
                        "repository complies with by shipping ids only (ids_*.jsonl). The sentence files are "
                        "produced locally by lexcomp's preprocessing/get_sentences_from_bnc.py from the BNC XML "
                        "Edition (Oxford Text Archive resource 2554)."),
                substitute=("Only majority/span-lemma baselines from ids_*.jsonl (span_text and label); the probe "
                            "is skipped and the report says why."),
                how_to_supply=place(p) + (
                    " Lines must be {bnc_id, sentence, start, end, span_text, label} as written by "
                    "get_sentences_from_bnc.py; no expected hash (the output depends on the spaCy version).")))
    return out


# ---------------------------------------------------------------------------------------------
def build(data_dir: Path) -> dict:
    files_out, families_out, all_sources = [], {}, {}
    provenance_texts = {}
    for fam in FAMILIES:
        prov = data_dir / fam / "PROVENANCE.md"
        text = prov.read_text(encoding="utf-8")
        provenance_texts[fam] = text
        sources, recs = PARSERS[fam](text)
        all_sources[fam] = sources
        on_disk = sorted(p.relative_to(data_dir / fam).as_posix() for p in (data_dir / fam).rglob("*")
                         if p.is_file() and p.name != "PROVENANCE.md")
        unaccounted = sorted(set(on_disk) - set(recs))
        absent = sorted(set(recs) - set(on_disk))
        if unaccounted or absent:
            raise BuildError(f"{fam}: files on disk not in PROVENANCE: {unaccounted}; in PROVENANCE but not on "
                             f"disk: {absent}")
        total = 0
        for rel in on_disk:
            rec = recs[rel]
            data = (data_dir / fam / rel).read_bytes()
            sha, size, blob = hashlib.sha256(data).hexdigest(), len(data), git_blob_id(data)
            for key, actual in (("sha256", sha), ("size", size), ("git_blob", blob)):
                if rec[key] is not None and rec[key] != actual:
                    raise BuildError(f"{fam}/{rel}: PROVENANCE {key} {rec[key]} != actual {actual}")
            total += size
            src = sources.get(rec["source"]) if rec["source"] else None
            files_out.append({
                "path": f"{fam}/{rel}", "family": fam, "status": rec["status"],
                "url": raw_url(src["repository"], src["commit"], rec["repo_path"]) if src else None,
                "source": ({"repository": src["repository"], "commit": src["commit"], "path": rec["repo_path"]}
                           if src else None),
                "sha256": sha, "size": size, "git_blob": blob, "licence": licence_for(f"{fam}/{rel}"),
                "origin": rec["origin"], "derive": rec["derive"],
                "reason": None, "substitute": None, "how_to_supply": None,
            })
        title, citation = FAMILY_INFO[fam]
        families_out[fam] = {"name": fam, "title": title, "citation": citation, "licence": LICENCE[fam],
                             "provenance": f"{fam}/PROVENANCE.md",
                             "sources": [{"name": k, **v} for k, v in sources.items()],
                             "files": len(on_disk), "bytes": total}
    for u in unpublished(all_sources):
        fam = u["path"].split("/", 1)[0]
        if u["git_blob"] and u["git_blob"] not in provenance_texts[fam]:
            raise BuildError(f"{u['path']}: git blob {u['git_blob']} does not appear in {fam}/PROVENANCE.md")
        if (data_dir / u["path"]).exists():
            raise BuildError(f"{u['path']} is listed as unpublished but exists in {data_dir}")
        files_out.append({
            "path": u["path"], "family": fam, "status": "unpublished", "url": u["url"], "source": u["source"],
            "sha256": None, "size": None, "git_blob": u["git_blob"], "licence": licence_for(u["path"]),
            "origin": None, "derive": None, "reason": u["reason"], "substitute": u["substitute"],
            "how_to_supply": u["how_to_supply"]})
    files_out.sort(key=lambda f: f["path"])
    return {"schema_version": SCHEMA_VERSION,
            "generated_by": "tools/build_manifest.py (from each family's PROVENANCE.md and the files themselves)",
            "families": families_out, "files": files_out}


def render(manifest: dict) -> str:
    return json.dumps(manifest, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", default="/work/shared/data", type=Path)
    ap.add_argument("--out", default=DEFAULT_OUT, type=Path)
    ap.add_argument("--check", action="store_true", help="fail if --out differs from a fresh build")
    args = ap.parse_args(argv)
    try:
        text = render(build(args.data_dir))
    except BuildError as exc:
        print(f"build_manifest: {exc}", file=sys.stderr)
        return 1
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"build_manifest: {args.out} is out of date; rerun tools/build_manifest.py", file=sys.stderr)
            return 1
        print(f"{args.out} is up to date")
        return 0
    tmp = args.out.with_name(args.out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(args.out)
    m = json.loads(text)
    n_unpub = sum(f["status"] == "unpublished" for f in m["files"])
    print(f"wrote {args.out}: {len(m['files']) - n_unpub} files + {n_unpub} unpublished entries, "
          f"{sum(f['bytes'] for f in m['families'].values()):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
