#!/usr/bin/env python3
"""Benchmark `wsdb build`: wall time and peak memory of whole processes.

Each run is one `wsdb build` into a new, empty SQLite file (or, with
--db URL, `wsdb build --force` on that server), timed from outside with
/usr/bin/time -v (wall clock, maximum resident set); the median of --runs
runs is printed per grid. Kernels are compiled once first (numba caches
them), so the figures are what a user sees after install. --wsdb times
another installation, e.g. an older version for a before/after figure.

    python scripts/bench_build.py                  # 4x4 c=2,3,4 and 6x6 c=2
    python scripts/bench_build.py --grid 4x4c4 --runs 5
    python scripts/bench_build.py --db postgresql://wsdb@127.0.0.1:5432/wsdb
    python scripts/bench_build.py --write          # and print the table into docs/performance.md
    python scripts/bench_build.py --grid 6x6c3 --grid 6x6c4 --grid 8x8c2 --grid 8x8c3 --grid 8x8c4 \
        --runs 1 --write --block bench_build_big   # the solver's default trees, one run each
"""

from __future__ import annotations

import argparse
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

GRIDS = {
    "4x4c2": (4, 2),
    "4x4c3": (4, 3),
    "4x4c4": (4, 4),
    "6x6c2": (6, 2),
    "6x6c3": (6, 3),
    "6x6c4": (6, 4),
    "8x8c2": (8, 2),
    "8x8c3": (8, 3),
    "8x8c4": (8, 4),
}
DEFAULT = ["4x4c2", "4x4c3", "4x4c4", "6x6c2"]


def wsdb_cmd(exe: str | None = None) -> list[str]:
    return [exe or shutil.which("wsdb") or str(Path(sys.executable).with_name("wsdb"))]


def timed(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, peak RSS MiB) of one process, by /usr/bin/time -v."""
    wall, rss, _ = timed_output(cmd)
    return wall, rss


def timed_output(cmd: list[str], env: dict | None = None) -> tuple[float, float, str]:
    """(wall seconds, peak RSS MiB, standard output) of one process (its
    environment ``env``, default this one's)."""
    res = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True, env=env)
    if res.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{res.stderr[-2000:]}")
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", res.stderr)
    h, m, s = (float(x) if x else 0.0 for x in wall.groups())
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", res.stderr).group(1))
    return h * 3600 + m * 60 + s, rss / 1024, res.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--grid", action="append", choices=sorted(GRIDS), help="grid(s) to time (default: " + ", ".join(DEFAULT) + ")"
    )
    ap.add_argument("--runs", type=int, default=3, help="timed runs per grid (median printed)")
    ap.add_argument("--db", help="a database URL to build into with --force (default: a new SQLite file per run)")
    ap.add_argument("--wsdb", help="the wsdb executable to time (default: the one on PATH)")
    ap.add_argument("--write", action="store_true", help="print the table into docs/performance.md")
    ap.add_argument(
        "--block",
        default=None,
        help="the block of docs/performance.md to replace (default bench_build, or "
        "bench_build_postgresql with a postgresql:// --db)",
    )
    args = ap.parse_args()
    rows = [
        "| build | depth | classes | median wall | min - max | peak memory | runs |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'grid':<7} {'median wall s':>13} {'min':>7} {'max':>7} {'peak MiB':>9}")
        for name in args.grid or DEFAULT:
            n, c = GRIDS[name]
            db = Path(tmp) / "bench.sqlite"

            def run() -> tuple[float, float]:
                if args.db:
                    return timed(
                        wsdb_cmd(args.wsdb)
                        + ["build", "--n", str(n), "--c", str(c), "--force", "--quiet", "--db", args.db]
                    )
                for part in Path(tmp).iterdir():
                    part.unlink() if part.is_file() else shutil.rmtree(part)
                return timed(wsdb_cmd(args.wsdb) + ["build", "--n", str(n), "--c", str(c), "--quiet", "--db", str(db)])

            if args.runs > 1 or not args.grid:
                run()  # warm-up: compile/load the kernel cache
            runs = [run() for _ in range(args.runs)]
            walls = [w for w, _ in runs]
            peak = max(r for _, r in runs)
            print(
                f"{name:<7} {statistics.median(walls):>13.2f} {min(walls):>7.2f} {max(walls):>7.2f} {peak:>9.0f}",
                flush=True,
            )
            height, classes = _built(db, n, c) if not args.db else ("", "")
            rows.append(
                f"| `wsdb build --n {n} --c {c}` | {height} | {classes} | {statistics.median(walls):.2f} s "
                f"| {min(walls):.2f} - {max(walls):.2f} s | {peak:,.0f} MiB | {len(walls)} |"
            )
    if args.write:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from docs_tables import write

        block = args.block or ("bench_build_postgresql" if args.db else "bench_build")
        where = "a local PostgreSQL 15 server" if args.db else "a new SQLite file each run"
        write(
            "docs/performance.md",
            block,
            "\n".join(rows),
            f"`python scripts/bench_build.py {' '.join(sys.argv[1:])}`: whole processes into {where}, "
            "wall time and peak resident memory by /usr/bin/time -v, kernels already compiled",
        )


def _built(db: Path, n: int, c: int) -> tuple[str, str]:
    """(height, classes) of the build the last run stored."""
    with sqlite3.connect(db) as conn:
        height, classes, complete = conn.execute(
            "select height, classes, complete from builds where n = ? and c = ? and root = 'all'", (n, c)
        ).fetchone()
    return (f"all ({height})" if complete else str(height)), f"{classes:,}"


if __name__ == "__main__":
    main()
