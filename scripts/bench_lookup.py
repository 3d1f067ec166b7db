#!/usr/bin/env python3
"""Benchmark `wsdb lookup`: batch throughput and single-lookup latency.

Batch: random states (fixed seed) piped to `wsdb lookup -` with move
sequences, as whole processes timed by /usr/bin/time -v; states/s counts
process start-up too. Single: one `wsdb lookup STATE`, cached kernels.
The database must already hold the grid (`wsdb build --n N --c C`).

    python scripts/bench_lookup.py --db db/wsdb.sqlite
    python scripts/bench_lookup.py --db postgresql://wsdb@127.0.0.1:5432/wsdb
    python scripts/bench_lookup.py --db db/wsdb.sqlite --write   # into docs/performance.md
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_build import timed, wsdb_cmd  # noqa: E402

from wsdb.puzzle import format_states, random_states, wrapslide  # noqa: E402


def states(n: int, c: int, count: int, seed: int = 2026) -> str:
    return "\n".join(format_states(random_states(wrapslide(n, c), count, seed), n)) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", default="db/wsdb.sqlite")
    ap.add_argument("--count", type=int, default=20000, help="states per batch")
    ap.add_argument("--runs", type=int, default=3, help="timed batch runs")
    ap.add_argument(
        "--single-runs", type=int, default=21, help="timed single lookups (start-up dominates them, and it is noisy)"
    )
    ap.add_argument("--grid", action="append", default=None, help="NxNcC, e.g. 4x4c4 (default 4x4c4, 6x6c2)")
    ap.add_argument("--wsdb", help="the wsdb executable to time (default: the one on PATH)")
    ap.add_argument("--write", action="store_true", help="print the table into docs/performance.md")
    args = ap.parse_args()
    rows = [
        "| grid | batch of random states, with moves | batch wall | peak memory | one `wsdb lookup STATE` |",
        "|---|---:|---:|---:|---:|",
    ]
    print(f"{'grid':<7} {'batch states/s':>15} {'wall s':>8} {'peak MiB':>9} {'single wall s':>14}")
    for grid in args.grid or ["4x4c4", "6x6c2"]:
        n, c = int(grid[0]), int(grid.split("c")[1])
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write(states(n, c, args.count))
        batch = wsdb_cmd(args.wsdb) + ["lookup", "-", "--db", args.db]
        runner = ["sh", "-c", f'exec "$0" "$@" < {f.name} > /dev/null', *batch]
        timed(runner)  # warm-up
        runs = [timed(runner) for _ in range(args.runs)]
        single = wsdb_cmd(args.wsdb) + ["lookup", states(n, c, 1).strip(), "--db", args.db]
        timed(single)  # warm-up
        one = statistics.median(timed(single)[0] for _ in range(args.single_runs))
        wall = statistics.median(w for w, _ in runs)
        peak = max(r for _, r in runs)
        print(f"{grid:<7} {args.count / wall:>15,.0f} {wall:>8.2f} {peak:>9.0f} {one:>14.2f}", flush=True)
        rows.append(
            f"| {n}x{n} c{c} | {args.count / wall:,.0f} states/s | {wall:.2f} s | {peak:,.0f} MiB | {one:.2f} s |"
        )
        Path(f.name).unlink()
    if args.write:
        from docs_tables import write

        server = "postgresql" in args.db
        write(
            "docs/performance.md",
            "bench_lookup_postgresql" if server else "bench_lookup",
            "\n".join(rows),
            f"`python scripts/bench_lookup.py {' '.join(sys.argv[1:])}`: `wsdb lookup -` of {args.count:,} "
            f"random states (medians of {args.runs} batches) and one lookup (median of {args.single_runs}), "
            "whole processes with start-up, by /usr/bin/time -v"
            + (", on a local PostgreSQL 15 server" if server else ""),
        )


if __name__ == "__main__":
    main()
