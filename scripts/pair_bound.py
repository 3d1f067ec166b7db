#!/usr/bin/env python3
"""What the pair bound gives `--method optimal` on 6x6 four colours: a
stored solver run (`wsdb eval`, the first states of `wsdb random --seed
2016`) with a time limit per state and an effort too large to bind, so
the limit is the budget, against a database whose pair census is cached
beside it (the first optimal solve derives it: about 5 minutes).

For each state the table gives its answer, the lower bound proven, whether
that is optimal and the seconds taken; then how many were proven.

    python scripts/pair_bound.py --db /tmp/ev/w.sqlite --write
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
EFFORT = 100_000  # millions of nodes: far past any limit used here


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True, help="a database with the 6x6 two- and four-colour trees")
    ap.add_argument("--count", type=int, default=10, help="states")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds a state")
    ap.add_argument("--reuse", action="store_true", help="read the newest finished run stored instead")
    ap.add_argument("--write", action="store_true", help="print the table into docs/solver.md")
    args = ap.parse_args()
    query = (
        "select max(run_id) from solve_runs where n = 6 and c = 4 and method = 'optimal' and count = ? "
        "and status = 'done'"
    )
    if not args.reuse:
        cmd = [
            *wsdb_cmd(),
            "eval",
            "--n",
            "6",
            "--c",
            "4",
            "--count",
            str(args.count),
            "--seed",
            str(SEED),
            "--method",
            "optimal",
            "--effort",
            str(EFFORT),
            "--time-limit",
            f"{args.limit:g}",
            "--db",
            args.db,
            "-q",
        ]
        print(" ".join(cmd), flush=True)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with sqlite3.connect(args.db) as conn:
        run_id = conn.execute(query, (args.count,)).fetchone()[0]
        started = conn.execute("select started_at from solve_runs where run_id = ?", (run_id,)).fetchone()[0]
        rows = conn.execute(
            "select state, length, lower_bound, optimal, seconds from solves where run_id = ? order by idx", (run_id,)
        ).fetchall()
    table = ["| state | answer | lower bound proven | optimal | seconds |", "|---|---:|---:|---|---:|"]
    for state, length, lower, optimal, seconds in rows:
        table.append(f"| `{state}` | {length} | {lower} | {'yes' if optimal else 'no'} | {seconds:.1f} |")
    proven = [s for *_, optimal, s in rows if optimal]
    table.append(
        f"\n{len(proven)} of {len(rows)} proven optimal within {args.limit:g} s"
        + (f" (median {statistics.median(proven):.1f} s)" if proven else "")
        + f"; the run started {started[:16].replace('T', ' ')} UTC."
    )
    print("\n".join(table))
    if args.write:
        from docs_tables import write

        write(
            "docs/solver.md",
            "pair_bound",
            "\n".join(table),
            f"`python scripts/pair_bound.py {' '.join(sys.argv[1:])}`: a stored run (`wsdb eval --method optimal "
            f"--effort {EFFORT} --time-limit {args.limit:g}`, the first {args.count} states of `wsdb random "
            f"--seed {SEED}`), pair census cached, seconds a state with the tables loaded",
        )


if __name__ == "__main__":
    main()
