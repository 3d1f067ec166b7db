#!/usr/bin/env python3
"""What more effort buys: the same states solved at several `--effort`
budgets, as stored solver runs (`wsdb eval`, the first states of `wsdb
random --seed 2016`), one whole process a run.

Per budget the table gives the mean and longest answer, the mean proven
lower bound, and the median and largest seconds a state (tables loaded; a
run's first use of a database derives them before its clock starts). The
answers depend only on the budget, so the lengths hold on any machine; the
seconds are this machine's. ``--reuse`` reads a run already stored with
the same grid, count, seed and effort instead of running it again (the
table says when each run started).

    python scripts/effort_curve.py --db /tmp/ev/w.sqlite --n 8 --c 4 --count 12 --effort 100 --effort 200 \
        --effort 400 --write
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pandas as pd

from wsdb.db.store import Store
from wsdb.stats.solves import run_summaries

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_build import wsdb_cmd  # noqa: E402

SEED = 2016


def stored_run(db: str, n: int, c: int, count: int, effort: float) -> pd.Series | None:
    """The newest finished `auto` run of this grid, count, seed and effort
    (its row of `wsdb stats --solves`), or None."""
    drawn = [r["run_id"] for r in Store.open(db).run_rows() if (r["count"], r["seed"]) == (count, SEED)]
    runs = run_summaries(db)
    mine = runs[
        (runs.n == n)
        & (runs.c == c)
        & (runs.method == "auto")
        & (runs.status == "done")
        & (runs.effort == effort)
        & runs.run_id.isin(drawn)
    ]
    return None if mine.empty else mine.iloc[-1]


def run(db: str, n: int, c: int, count: int, effort: float, reuse: bool) -> pd.Series:
    """One run's row of `wsdb stats --solves` (with ``reuse``, a stored run where there is one)."""
    found = stored_run(db, n, c, count, effort) if reuse else None
    if found is None:
        cmd = [
            *wsdb_cmd(),
            "eval",
            "--n",
            str(n),
            "--c",
            str(c),
            "--count",
            str(count),
            "--seed",
            str(SEED),
            "--effort",
            f"{effort:g}",
            "--db",
            db,
            "-q",
        ]
        print(" ".join(cmd), flush=True)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        found = stored_run(db, n, c, count, effort)
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True, help="a SQLite file holding the grid's builds (runs are stored there)")
    ap.add_argument("--n", type=int, default=8)
    ap.add_argument("--c", type=int, default=4)
    ap.add_argument("--count", type=int, default=12, help="states per run")
    ap.add_argument("--effort", type=float, action="append", help="millions of nodes a state (default 100 200 400)")
    ap.add_argument("--reuse", action="store_true", help="read runs already stored instead of running them again")
    ap.add_argument("--write", action="store_true", help="print the table into docs/solver.md")
    args = ap.parse_args()
    table = [
        "| effort (M nodes) | run started (UTC) | states | mean length | longest | mean lower bound "
        "| median s | max s |",
        "|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for effort in args.effort or [100.0, 200.0, 400.0]:
        r = run(args.db, args.n, args.c, args.count, effort, args.reuse)
        table.append(
            f"| {effort:g} | {r.started_at[:16].replace('T', ' ')} | {r.states} | {r.mean_length:.2f} | "
            f"{r.max_length} | {r.mean_lower_bound:.2f} | {r.median_seconds:.2f} | {r.max_seconds:.2f} |"
        )
    print("\n".join(table))
    if args.write:
        from docs_tables import write

        write(
            "docs/solver.md",
            "effort_curve",
            "\n".join(table),
            f"`python scripts/effort_curve.py {' '.join(sys.argv[1:])}`: {args.n}x{args.n} {args.c} colours, "
            f"stored runs (`wsdb eval --effort`, the first states of `wsdb random --seed {SEED}`), one run after "
            f"another, whole processes, seconds a state with the tables loaded",
        )


if __name__ == "__main__":
    main()
