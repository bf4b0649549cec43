"""``sentiprobe judge`` and ``judge-agreement``: absent runs, unreadable ratings, numbers."""
from __future__ import annotations

from corpus import Case, nothing, write


def cases() -> list[Case]:
    return [
        Case("judge-absent-run", ("judge", "--run", "{dir}/absent", "--model", "majority"), nothing, 1, ("absent",)),
        Case("judge-n-zero", ("judge", "--run", "{dir}/absent", "--model", "majority", "--n", "0"), nothing, 2,
             ("argument --n",)),
        Case("judge-max-tokens-zero", ("judge", "--run", "{dir}/r", "--model", "majority", "--max-tokens", "0"),
             nothing, 2, ("argument --max-tokens",)),
        Case("judge-agreement-latin1", ("judge-agreement", "--judge", "{dir}/{file}", "--human", "{dir}/{file}"),
             write("j.csv", b"item_id,criterion,score\nx,a,\xe9\n"), 1, ("{file}",), "j.csv"),
        Case("judge-agreement-n-boot", ("judge-agreement", "--judge", "{dir}/{file}", "--human", "{dir}/{file}",
                                        "--n-boot", "-1"), write("j.csv", "item_id,criterion,score\n"), 2,
             ("argument --n-boot",), "j.csv"),
    ]
