#!/usr/bin/env python3
"""Benchmark the other puzzles (docs/puzzles.md): censuses, stored builds
and a lookup, whole processes timed by /usr/bin/time -v (wall clock,
peak resident memory), medians of --runs after one warm-up. The Rubik's
Slide 4x4 hard-mode census has its own script, level by level
(scripts/bench_census.py).

    python scripts/bench_puzzles.py
    python scripts/bench_puzzles.py --write   # into docs/puzzles.md
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_build import timed, wsdb_cmd  # noqa: E402

#: (what it is, wsdb arguments; {db} is a fresh database file per run)
CASES = [
    ("census: Rube-ish 3x3", ["census", "--puzzle", "rubeish", "--n", "3"]),
    ("census: Rubik's Slide 3x3 hard", ["census", "--puzzle", "rubiks-slide-hard", "--n", "3"]),
    ("census: 2x2 rotations 3x3, distinct dots", ["census", "--puzzle", "rotate2x2", "--n", "3"]),
    (
        "census: Rube-ish 4x4, one colour per row",
        ["census", "--puzzle", "rubeish", "--n", "4", "--goal", "1111/2222/3333/4444"],
    ),
    ("census: sliding puzzle 2x5", ["census", "--puzzle", "sliding", "--n", "2", "--m", "5"]),
    ("build: Rube-ish 3x3, a new file", ["build", "--puzzle", "rubeish", "--n", "3", "--db", "{db}"]),
    ("build: sliding puzzle 3x3, a new file", ["build", "--puzzle", "sliding", "--n", "3", "--db", "{db}"]),
    ("build: sliding puzzle 2x5, a new file", ["build", "--puzzle", "sliding", "--n", "2", "--m", "5", "--db", "{db}"]),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="timed runs per case (median printed)")
    ap.add_argument("--write", action="store_true", help="print the table into docs/puzzles.md")
    args = ap.parse_args()
    rows = ["| command | median wall | peak memory | runs |", "|---|---:|---:|---:|"]
    cases = [(what, argv, args.runs) for what, argv in CASES]
    with tempfile.TemporaryDirectory() as tmp:
        for what, argv, runs in cases:

            def run() -> tuple[float, float]:
                db = Path(tmp) / "p.sqlite"
                for part in Path(tmp).iterdir():
                    part.unlink()
                return timed(wsdb_cmd() + [a.replace("{db}", str(db)) for a in argv] + ["--quiet"])

            if runs > 1:
                run()  # warm-up: kernels compiled and cached
            times = [run() for _ in range(runs)]
            wall = statistics.median(w for w, _ in times)
            peak = max(r for _, r in times)
            print(f"{what:<48} {wall:8.2f} s {peak:7.0f} MiB", flush=True)
            shown = " ".join(a for a in argv if a not in ("--db", "{db}"))
            rows.append(f"| {what}: `wsdb {shown}` | {wall:.2f} s | {peak:,.0f} MiB | {runs} |")
    if args.write:
        from docs_tables import write

        write(
            "docs/puzzles.md",
            "bench_puzzles",
            "\n".join(rows),
            f"`python scripts/bench_puzzles.py {' '.join(sys.argv[1:])}`: whole processes with start-up, "
            "wall time and peak resident memory by /usr/bin/time -v, kernels already compiled",
        )


if __name__ == "__main__":
    main()
