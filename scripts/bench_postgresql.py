#!/usr/bin/env python3
"""Benchmark PostgreSQL against SQLite on the same work: `wsdb build` of a
grid, and `wsdb import` of the same tree's Parquet levels.

Each run writes into a new, empty database: a new SQLite file, or a new
database on the PostgreSQL server at --server (made before the run and
dropped after it, outside the timing). The two stores run in turn, SQLite
then PostgreSQL, --runs pairs, so both see the same machine; the table
gives each one's median wall time and the median of the pair-by-pair
ratios. Whole `wsdb` processes, timed from outside with /usr/bin/time -v;
kernels compiled before the first run. The Parquet levels are grown once
with `wsdb build --engine dask` (not timed).

    python scripts/bench_postgresql.py --server postgresql://wsdb@127.0.0.1:5432/postgres
    python scripts/bench_postgresql.py --server ... --grid 6x6c2 --runs 5 --write
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_build import GRIDS, timed, wsdb_cmd  # noqa: E402


def fresh_pg(server: str, name: str) -> str:
    """Drop and make database ``name`` on the server; its URL."""
    import psycopg

    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"drop database if exists {name}")
        conn.execute(f"create database {name}")
    return server.rsplit("/", 1)[0] + "/" + name


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--server", required=True, help="a PostgreSQL URL with the right to create databases")
    ap.add_argument("--grid", action="append", choices=sorted(GRIDS), help="grid(s) (default 6x6c2)")
    ap.add_argument("--runs", type=int, default=3, help="pairs of runs per grid and command (median printed)")
    ap.add_argument("--write", action="store_true", help="print the table into docs/performance.md")
    args = ap.parse_args()
    wsdb = wsdb_cmd()
    rows = [
        "| command | grid | SQLite median wall | PostgreSQL median wall | PostgreSQL / SQLite (median of pairs) "
        "| PostgreSQL peak memory | pairs |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name in args.grid or ["6x6c2"]:
            n, c = GRIDS[name]
            board = ["--n", str(n), "--c", str(c)]
            levels = tmp / f"levels-{name}"
            subprocess.run(
                wsdb
                + [
                    "build",
                    *board,
                    "--engine",
                    "dask",
                    "--levels",
                    str(levels),
                    "-q",
                    "--db",
                    str(tmp / "dask.sqlite"),
                ],
                check=True,
            )
            for command, argv in (("build", ["build", *board]), ("import", ["import", str(levels)])):
                lite, pg, peak = [], [], 0.0
                for i in range(args.runs + 1):  # the first pair warms the caches, not counted
                    db = tmp / "bench.sqlite"
                    for f in tmp.glob("bench.sqlite*"):
                        f.unlink()
                    a, _ = timed(wsdb + argv + ["-q", "--db", str(db)])
                    url = fresh_pg(args.server, "wsdb_bench")
                    b, mem = timed(wsdb + argv + ["-q", "--db", url])
                    if i:
                        lite.append(a), pg.append(b)
                        peak = max(peak, mem)
                    print(f"{name} {command}: SQLite {a:.2f} s, PostgreSQL {b:.2f} s", flush=True)
                fresh_pg(args.server, "wsdb_bench")
                ratio = statistics.median(b / a for a, b in zip(lite, pg))
                rows.append(
                    f"| `wsdb {command}` | {n}x{n} c{c} | {statistics.median(lite):.2f} s | "
                    f"{statistics.median(pg):.2f} s | {ratio:.2f} | {peak:,.0f} MiB | {len(lite)} |"
                )
                print(rows[-1], flush=True)
    if args.write:
        from docs_tables import write

        write(
            "docs/performance.md",
            "bench_postgresql",
            "\n".join(rows),
            f"`python scripts/bench_postgresql.py {' '.join(a for a in sys.argv[1:] if '://' not in a)}`: "
            "whole processes into a new SQLite file and a new database on a local PostgreSQL 15 server "
            "(default configuration), in turn, wall time and peak resident memory by /usr/bin/time -v",
        )


if __name__ == "__main__":
    main()
