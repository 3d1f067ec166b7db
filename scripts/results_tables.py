#!/usr/bin/env python3
"""The exact results of docs/results.md, printed from a database's stored
builds (nothing typed in): the complete trees' God numbers, sizes and mean
distances, and the 6x6 two-colour tree level by level.

    python scripts/results_tables.py --db db/wsdb.sqlite           # print
    python scripts/results_tables.py --db db/wsdb.sqlite --write   # into docs/results.md
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from wsdb import stats

COLOURS = {2: "two", 3: "three", 4: "four"}


def complete_trees(db) -> str:
    df = stats.summary(db)
    df = df[(df.puzzle == "wrapslide") & (df.root == "all") & df.complete.astype(bool)].sort_values(["n", "c"])
    out = ["| grid | classes | states | God number | mean optimal length (over states) |", "|---|---:|---:|---:|---:|"]
    for r in df.itertuples():
        out.append(
            f"| {r.n}x{r.n} {COLOURS[r.c]} colours | {r.classes:,} | {r.states:,} | {r.god_number} "
            f"| {r.mean_distance_states:.4f} |"
        )
    return "\n".join(out)


def levels(db, n: int, c: int) -> str:
    df = stats.levels(db, n, c)
    out = ["| depth | classes | states |", "|---:|---:|---:|"]
    out += [f"| {r.depth} | {r.classes:,} | {r.states:,} |" for r in df.itertuples()]
    out.append(f"| total | {int(df.classes.sum()):,} | {int(df.states.sum()):,} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", default="db/wsdb.sqlite")
    ap.add_argument("--write", action="store_true", help="print the tables into docs/results.md")
    args = ap.parse_args()
    tables = {"results_complete": complete_trees(args.db), "results_6x6c2": levels(args.db, 6, 2)}
    for name, table in tables.items():
        print(f"{name}:\n{table}\n")
    if args.write:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from docs_tables import write

        for name, table in tables.items():
            write(
                "docs/results.md",
                name,
                table,
                f"`python scripts/results_tables.py {' '.join(sys.argv[1:])}`, from the stored builds",
            )


if __name__ == "__main__":
    main()
