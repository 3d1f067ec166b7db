#!/usr/bin/env python3
"""Benchmark `wsdb solve` as a user meets it: the first solve of a grid
(which derives the solver's tables from the database and caches them
beside it) and a later one (tables cached), whole processes timed by
/usr/bin/time -v. Each first solve runs on a fresh copy of the database
with no cache beside it. The state is `wsdb random --n N --c C --seed 1`.

    python scripts/bench_solve.py --db db/wsdb.sqlite --grid 6x6c3 --grid 6x6c4
    python scripts/bench_solve.py --db db/wsdb.sqlite --write   # into docs/performance.md
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_build import timed, wsdb_cmd  # noqa: E402

from wsdb.puzzle import format_state, random_states, wrapslide  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", default="db/wsdb.sqlite", help="a SQLite file holding the grids' builds")
    ap.add_argument("--grid", action="append", default=None, help="NxNcC (default 6x6c3, 6x6c4)")
    ap.add_argument("--runs", type=int, default=3, help="timed later solves (median printed)")
    ap.add_argument("--first-runs", type=int, default=1, help="timed first solves, each on a fresh copy")
    ap.add_argument("--write", action="store_true", help="print the table into docs/performance.md")
    args = ap.parse_args()
    rows = [
        "| grid | first solve (derives and caches the tables) | its peak memory | a later solve | its peak memory |",
        "|---|---:|---:|---:|---:|",
    ]
    print(f"{'grid':<7} {'first s':>8} {'MiB':>6} {'later s':>8} {'MiB':>6}")
    for grid in args.grid or ["6x6c3", "6x6c4"]:
        n, c = int(grid[0]), int(grid.split("c")[1])
        state = format_state(random_states(wrapslide(n, c), 1, 1)[0])
        firsts = []
        with tempfile.TemporaryDirectory() as tmp:
            for _ in range(args.first_runs):
                copy = Path(tmp) / "copy.sqlite"
                for part in Path(tmp).iterdir():
                    part.unlink() if part.is_file() else shutil.rmtree(part)
                shutil.copy(args.db, copy)
                firsts.append(timed(wsdb_cmd() + ["solve", state, "--db", str(copy), "--quiet"]))
            later = [timed(wsdb_cmd() + ["solve", state, "--db", str(copy), "--quiet"]) for _ in range(args.runs)]
        first = statistics.median(w for w, _ in firsts)
        again = statistics.median(w for w, _ in later)
        fpeak, lpeak = max(r for _, r in firsts), max(r for _, r in later)
        print(f"{grid:<7} {first:>8.2f} {fpeak:>6.0f} {again:>8.2f} {lpeak:>6.0f}", flush=True)
        rows.append(f"| {n}x{n} c{c} | {first:.1f} s | {fpeak:,.0f} MiB | {again:.2f} s | {lpeak:,.0f} MiB |")
    if args.write:
        from docs_tables import write

        write(
            "docs/performance.md",
            "bench_solve",
            "\n".join(rows),
            f"`python scripts/bench_solve.py {' '.join(sys.argv[1:])}`: whole processes with start-up, "
            f"`wsdb solve` of `wsdb random --seed 1`, default trees built, the default 10 s limit; "
            f"first solves on a fresh copy of the database (median of {args.first_runs}), later ones "
            f"median of {args.runs}",
        )


if __name__ == "__main__":
    main()
