#!/usr/bin/env python3
"""What a deeper tree gives the solver: the same stored solver runs
(`wsdb eval`, the first states of `wsdb random --seed 2016`) against
databases whose 6x6 trees are held to different depths.

Each --db is LABEL=PATH, or LABEL=PATH,PATH4 with the four-colour runs in a
database of their own (the label names the trees, e.g. 'depth 8' or
'depth 9'). For each label the script runs, as whole
processes: 6x6 three colours with `--method optimal` and with `auto` (100
states, the default time limit), and 6x6 four colours with `--method
optimal` (10 states, --c4-limit seconds each). It then prints, per run:
how many answers are proven optimal, how many are at the optimum where any
run proved it, how many took at most 1 s, and the median and largest
seconds a state (tables loaded; a run's first use of a database derives
them before its clock starts). ``--reuse optimal:4`` reads the
four-colour optimal runs already stored instead of running them again
(10 minutes each; the table says when each run started).

    python scripts/deeper_trees.py --db "depth 8=/tmp/d8/w.sqlite" --db "depth 9=/tmp/d9/w.sqlite,/tmp/d9c4/w.sqlite" \
        --write
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_build import wsdb_cmd  # noqa: E402

SEED = 2016


def run(db: str, c: int, method: str, count: int, limit: float | None, reuse: bool) -> tuple[str, list[tuple]]:
    """One `wsdb eval` (with ``reuse``, the newest finished one of the same
    grid, method and count already stored); when it started, and its rows
    (state, length, optimal, seconds)."""
    with sqlite3.connect(db) as conn:
        stored = conn.execute(
            "select max(run_id) from solve_runs where n = 6 and c = ? and method = ? and count = ? and status = 'done'",
            (c, method, count),
        ).fetchone()[0]
    if not (reuse and stored):
        cmd = [
            *wsdb_cmd(),
            "eval",
            "--n",
            "6",
            "--c",
            str(c),
            "--count",
            str(count),
            "--seed",
            str(SEED),
            "--method",
            method,
            "--db",
            db,
            "-q",
        ] + ([] if limit is None else ["--time-limit", str(limit)])
        print(" ".join(cmd), flush=True)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with sqlite3.connect(db) as conn:
        run_id = stored if reuse and stored else conn.execute("select max(run_id) from solve_runs").fetchone()[0]
        started = conn.execute("select started_at from solve_runs where run_id = ?", (run_id,)).fetchone()[0]
        return started[:16].replace("T", " "), conn.execute(
            "select state, length, optimal, seconds from solves where run_id = ? order by idx", (run_id,)
        ).fetchall()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", action="append", required=True, help="LABEL=PATH, a database and what its trees are")
    ap.add_argument("--count", type=int, default=100, help="three-colour states per run")
    ap.add_argument("--c4-count", type=int, default=10, help="four-colour states (optimal)")
    ap.add_argument("--c4-limit", type=float, default=60.0, help="seconds a four-colour state")
    ap.add_argument(
        "--reuse",
        action="append",
        default=[],
        metavar="METHOD[:C]",
        help="read this method's (on C colours only: METHOD:C) newest finished run already stored in "
        "each database (same grid and count) instead of running it again; the table says when "
        "each run started",
    )
    ap.add_argument("--write", action="store_true", help="print the table into docs/solver.md")
    args = ap.parse_args()
    jobs = [
        (3, "optimal", args.count, None),
        (3, "auto", args.count, None),
        (4, "optimal", args.c4_count, args.c4_limit),
    ]
    results = []
    for spec in args.db:
        label, _, paths = spec.partition("=")
        path3, _, path4 = paths.partition(",")
        for c, method, count, limit in jobs:
            results.append(
                (
                    label,
                    c,
                    method,
                    limit,
                    *run(
                        path4 or path3 if c == 4 else path3,
                        c,
                        method,
                        count,
                        limit,
                        method in args.reuse or f"{method}:{c}" in args.reuse,
                    ),
                )
            )
    exact = {state: length for *_, rows in results for state, length, optimal, _ in rows if optimal}
    table = [
        "| trees | grid | method | run started (UTC) | states | proven optimal | at the optimum (where proven) "
        "| at most 1 s | median s | max s | mean length |",
        "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, c, method, limit, started, rows in results:
        secs = [s for *_, s in rows]
        known = [(length, exact[state]) for state, length, _, _ in rows if state in exact]
        at = sum(length == best for length, best in known)
        table.append(
            f"| {label} | 6x6 c{c} | {method}{'' if limit is None else f' ({limit:g} s limit)'} | {started} | "
            f"{len(rows)} | {sum(bool(o) for _, _, o, _ in rows)} | {at} of {len(known)} | "
            f"{sum(s <= 1.0 for s in secs)} | {statistics.median(secs):.2f} | {max(secs):.2f} | "
            f"{statistics.mean(length for _, length, _, _ in rows):.2f} |"
        )
    print("\n".join(table))
    if args.write:
        from docs_tables import write

        write(
            "docs/solver.md",
            "deeper_trees",
            "\n".join(table),
            f"`python scripts/deeper_trees.py {' '.join(sys.argv[1:])}`: stored runs (`wsdb eval`, the "
            f"first states of `wsdb random --seed {SEED}`), whole processes, seconds a state with the tables loaded",
        )


if __name__ == "__main__":
    main()
