#!/usr/bin/env python3
"""Benchmark numba's first compiles (docs/performance.md): each command run
as a whole process with an empty numba cache (it compiles the kernels it
needs, then works), then again with that cache filled (it only works); the
difference is the compile time. Medians of --runs runs, a new cache folder
and a new SQLite file each run.

    python scripts/bench_compile.py --runs 3 --write   # into docs/performance.md
    python scripts/bench_compile.py --src ../other     # another checkout's wsdb
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_build import timed_output  # noqa: E402

#: what a first command compiles: the builder's kernels at one key word and at
#: two, and the ranked census's
CASES = {
    "`wsdb build --n 4 --c 4`": ["build", "--n", "4", "--c", "4", "-q"],
    "`wsdb build --n 6 --c 3 --max-depth 6`": ["build", "--n", "6", "--c", "3", "--max-depth", "6", "-q"],
    "`wsdb census --puzzle rubiks-slide-hard --n 3 --method ranked`": [
        "census",
        "--puzzle",
        "rubiks-slide-hard",
        "--n",
        "3",
        "--method",
        "ranked",
        "-q",
    ],
}


def first_and_later(args: list[str], src: str | None) -> tuple[float, float]:
    """(wall seconds with an empty numba cache, wall seconds with it filled)."""
    with tempfile.TemporaryDirectory(prefix="wsdb-compile-") as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "numba"))
        if src:
            env["PYTHONPATH"] = str(Path(src).resolve())
        walls = []
        for run in ("first", "later"):
            cmd = [sys.executable, "-m", "wsdb", *args]
            if args[0] == "build":
                cmd += ["--db", str(Path(tmp) / f"{run}.sqlite")]
            wall, _, _ = timed_output(cmd, env=env)
            walls.append(wall)
        return walls[0], walls[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="runs per command (medians printed)")
    ap.add_argument("--src", help="the checkout whose wsdb to time (default: the installed one)")
    ap.add_argument("--write", action="store_true", help="print the table into docs/performance.md")
    args = ap.parse_args()
    rows = ["| command | first run (compiles) | later runs | compiling |", "|---|---:|---:|---:|"]
    for name, cmd in CASES.items():
        runs = [first_and_later(cmd, args.src) for _ in range(args.runs)]
        first = statistics.median(r[0] for r in runs)
        later = statistics.median(r[1] for r in runs)
        compiling = statistics.median(r[0] - r[1] for r in runs)
        rows.append(f"| {name} | {first:.1f} s | {later:.1f} s | {compiling:.1f} s |")
        print(rows[-1], flush=True)
    if args.write:
        from docs_tables import write

        write(
            "docs/performance.md",
            "bench_compile",
            "\n".join(rows),
            f"`python scripts/bench_compile.py {' '.join(sys.argv[1:])}`: whole processes by /usr/bin/time -v, "
            "each first with an empty numba cache, then with the cache it filled; medians",
        )


if __name__ == "__main__":
    main()
