#!/usr/bin/env python3
"""Benchmark a proof spread over Dask workers (`wsdb bounds prove STATE
--at-least K --engine dask`) against the same proof in one process, for
docs/scale.md.

Each run is one whole `wsdb bounds prove` process, timed from outside with
/usr/bin/time -v (wall clock; peak resident set of the largest process, the
client or a worker), the one-process proof and each worker count taking
turns, so that a busy spell of the machine falls on all of them; the
median of --runs runs is printed. The database's caches (the pair census)
must be derived first (one `wsdb bounds prove` or `wsdb solve --method
optimal` on the grid). Each run stores its bound in the database, as the
command does.

    python scripts/bench_spread.py --db /tmp/ev/w.sqlite --workers 2 --runs 3 --write
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from bench_build import timed, wsdb_cmd  # noqa: E402  (the same /usr/bin/time -v measurement)

#: the witness of Θ(6,4) >= 20 (docs/frontier.md): bounds 15-18 searched in full for 19
STATE = "213433/312421/413141/234414/114232/224323"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True, help="a database with the grid's tree and its caches derived")
    ap.add_argument("--state", default=STATE)
    ap.add_argument("--at-least", type=int, default=19)
    ap.add_argument("--workers", type=int, action="append", help="LocalCluster workers (repeat to compare)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--write", action="store_true", help="print the table into docs/scale.md")
    args = ap.parse_args()
    # --fresh: every run searches the proof whole, not the shares an earlier run kept
    prove = wsdb_cmd() + [
        "bounds",
        "prove",
        args.state,
        "--at-least",
        str(args.at_least),
        "--db",
        args.db,
        "-q",
        "--fresh",
    ]
    cases = {"one process (2 threads)": prove}
    for k in args.workers or [2]:
        cases[f"dask, {k} worker{'s' * (k > 1)} of 1 thread"] = prove + ["--engine", "dask", "--workers", str(k)]
    times = {name: [] for name in cases}
    for run in range(args.runs):
        for name, cmd in cases.items():
            wall, rss = timed(cmd)
            times[name].append((wall, rss))
            print(f"run {run + 1}: {name}: {wall:.1f} s, {rss:,.0f} MiB", flush=True)
    base = statistics.median(w for w, _ in times["one process (2 threads)"])
    rows = [
        "| proof | runs | median wall s | min - max | peak MiB (largest process) | time vs one process |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, got in times.items():
        walls = [w for w, _ in got]
        med = statistics.median(walls)
        rows.append(
            f"| {name} | {len(got)} | {med:.1f} | {min(walls):.1f} - {max(walls):.1f} | "
            f"{max(r for _, r in got):,.0f} | {med / base:.2f}x |"
        )
    table = f"`wsdb bounds prove {args.state} --at-least {args.at_least}`, whole processes:\n\n" + "\n".join(rows)
    print(table)
    if args.write:
        from docs_tables import write

        write(
            "docs/scale.md",
            "spread_proof",
            table,
            "`python scripts/bench_spread.py " + " ".join(sys.argv[1:]).replace(" --write", "") + "`",
        )


if __name__ == "__main__":
    main()
