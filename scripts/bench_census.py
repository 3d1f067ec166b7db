#!/usr/bin/env python3
"""Benchmark the Rubik's Slide 4x4 hard-mode census (docs/puzzles.md): the
whole process's wall time and peak memory by /usr/bin/time -v, and each
level's time from the census's own --json, medians of --runs runs after
one warm-up (kernels compiled and cached).

    python scripts/bench_census.py --runs 3 --write   # into docs/puzzles.md
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_build import timed_output, wsdb_cmd  # noqa: E402

ARGS = ["census", "--puzzle", "rubiks-slide-hard", "--n", "4", "--method", "ranked", "--json", "--quiet"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="timed runs (medians printed)")
    ap.add_argument("--no-warm-up", action="store_true", help="skip the untimed first run")
    ap.add_argument("--write", action="store_true", help="print the tables into docs/puzzles.md")
    args = ap.parse_args()
    if not args.no_warm_up:
        timed_output(wsdb_cmd() + ARGS)
    runs = []
    for k in range(args.runs):
        wall, rss, out = timed_output(wsdb_cmd() + ARGS)
        runs.append((wall, rss, json.loads(out)))
        print(f"run {k + 1}: {wall:.1f} s, {rss:,.0f} MiB", flush=True)
    first = runs[0][2]
    if any(r[2]["levels"][d]["states"] != lv["states"] for r in runs for d, lv in enumerate(first["levels"])):
        sys.exit("the runs disagree on a level's states")
    wall = statistics.median(r[0] for r in runs)
    peak = max(r[1] for r in runs)
    total = [f"| whole process (start-up, table, every level) | {wall:.1f} s | {peak:,.0f} MiB | {args.runs} |"]
    rows = ["| depth | states | grown | median seconds |", "|---:|---:|---|---:|"]
    for d, lv in enumerate(first["levels"]):
        sec = statistics.median(r[2]["levels"][d]["seconds"] for r in runs)
        rows.append(f"| {d} | {lv['states']:,} | {lv['grown']} | {sec:.2f} |")
        print(rows[-1])
    print(total[0])
    if args.write:
        from docs_tables import write

        how = f"`python scripts/bench_census.py {' '.join(sys.argv[1:])}`"
        write(
            "docs/puzzles.md",
            "bench_census",
            "| census | median wall | peak memory | runs |\n|---|---:|---:|---:|\n" + total[0],
            how + ": the whole process by /usr/bin/time -v, kernels already compiled",
        )
        write(
            "docs/puzzles.md",
            "bench_census_levels",
            "\n".join(rows),
            how + ": each level's seconds from the census's --json (depth 0: start-up and the table)",
        )


if __name__ == "__main__":
    main()
