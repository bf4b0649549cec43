"""Cost of verify-on-read (issue 15): hashing every shipped data file once, and the fast paths.

Measured over every manifest file present in the data dir, through ``require_file`` (what suites call):

- ``plain_hash_all``: sha256 of every file, no bookkeeping (best of 3, warm page cache);
- ``first_read_no_stamps``: a new process's first reads with an empty stamp store (hash + write stamps);
- ``new_process_with_stamps``: a new process (memo cleared) whose stamp store vouches for every file;
- ``same_process_again``: the same files read again in the same process (in-memory memo).

Re-measure:

    PYTHONPATH=src SENTIPROBE_DATA_DIR=/work/shared/data .venv/bin/python benchmarks/bench_verify_on_read.py
"""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

from _common import best_of, report, require_data


def main() -> None:
    require_data()
    from sentiprobe.core.hashing import file_sha256
    from sentiprobe.data import integrity, load_manifest, require_file, resolve_data_dir

    root = resolve_data_dir()
    paths = [e.path for e in load_manifest().files if (root / e.path).is_file()]
    size = sum((root / p).stat().st_size for p in paths)

    def hash_all() -> None:
        for p in paths:
            file_sha256(root / p)

    def read_all(stamps: Path) -> float:
        t0 = time.perf_counter()
        for p in paths:
            require_file(root, p, stamp_dir=stamps)
        return time.perf_counter() - t0

    plain = best_of(hash_all)
    firsts, stamped, again = [], [], []
    for _ in range(3):
        with tempfile.TemporaryDirectory() as tmp:
            integrity.clear_read_memo()
            firsts.append(read_all(Path(tmp)))
            integrity.clear_read_memo()  # a new process: nothing in memory, the stamp file on disk
            stamped.append(read_all(Path(tmp)))
            again.append(read_all(Path(tmp)))
    integrity.clear_read_memo()
    report("verify-on-read", {
        "files": len(paths), "bytes": size,
        "plain_hash_all_seconds": round(plain, 4),
        "first_read_no_stamps_seconds": round(min(firsts), 4),
        "new_process_with_stamps_seconds": round(min(stamped), 4),
        "same_process_again_seconds": round(min(again), 4),
    })


if __name__ == "__main__":
    main()
