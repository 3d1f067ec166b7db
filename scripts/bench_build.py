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
"""
from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

GRIDS = {"4x4c2": (4, 2), "4x4c3": (4, 3), "4x4c4": (4, 4), "6x6c2": (6, 2)}


def wsdb_cmd(exe: str | None = None) -> list[str]:
    return [exe or shutil.which("wsdb") or str(Path(sys.executable).with_name("wsdb"))]


def timed(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, peak RSS MiB) of one process, by /usr/bin/time -v."""
    res = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{res.stderr[-2000:]}")
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", res.stderr)
    h, m, s = (float(x) if x else 0.0 for x in wall.groups())
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", res.stderr).group(1))
    return h * 3600 + m * 60 + s, rss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--grid", action="append", choices=sorted(GRIDS), help="grid(s) to time (default: all)")
    ap.add_argument("--runs", type=int, default=3, help="timed runs per grid (median printed)")
    ap.add_argument("--db", help="a database URL to build into with --force (default: a new SQLite file per run)")
    ap.add_argument("--wsdb", help="the wsdb executable to time (default: the one on PATH)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'grid':<7} {'median wall s':>13} {'min':>7} {'max':>7} {'peak MiB':>9}")
        for name in args.grid or list(GRIDS):
            n, c = GRIDS[name]

            def run() -> tuple[float, float]:
                if args.db:
                    return timed(wsdb_cmd(args.wsdb) + ["build", "--n", str(n), "--c", str(c), "--force",
                                                        "--quiet", "--db", args.db])
                db = Path(tmp) / "bench.sqlite"
                for part in Path(tmp).iterdir():
                    part.unlink() if part.is_file() else shutil.rmtree(part)
                return timed(wsdb_cmd(args.wsdb) + ["build", "--n", str(n), "--c", str(c), "--quiet",
                                                    "--db", str(db)])
            run()  # warm-up: compile/load the kernel cache
            runs = [run() for _ in range(args.runs)]
            walls = [w for w, _ in runs]
            print(f"{name:<7} {statistics.median(walls):>13.2f} {min(walls):>7.2f} {max(walls):>7.2f} "
                  f"{max(r for _, r in runs):>9.0f}", flush=True)


if __name__ == "__main__":
    main()
