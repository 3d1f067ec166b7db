#!/usr/bin/env python3
"""The solver table of docs/results.md, from the runs `wsdb eval` stored (issue 13).

With --run it first makes the standard runs: 100 states of seed 2016 per
grid with `auto` at the default effort, `optimal` on 6x6 three colours,
and on 10 six-by-six four-colour states with 1,000 M nodes each (39 s here)
(about 70 minutes on 2 cores with the default trees built: `wsdb build`
of 4x4 c2-c4, 6x6 c2-c4, 8x8 c2-c4).

With --hog GRID (repeatable) it makes that grid's standard runs again
with two processes burning both cores beside them, and prints (--write:
into docs/results.md) how many states got the very same moves as the
newest run of the same grid, method, effort and seed made without them. Then it prints one Markdown row per grid and method, from the
newest finished run of each, with the thesis' means (Tables 5.1/5.2)
beside them. The gap to the exact distance counts every state whose
distance any stored run knows (stored, or proven by `optimal`). Nothing in
the table is typed in.

    python scripts/solver_table.py --db db/wsdb.sqlite --run
    python scripts/solver_table.py --db db/wsdb.sqlite
    python scripts/solver_table.py --db db/wsdb.sqlite --write   # into docs/results.md
    python scripts/solver_table.py --db db/wsdb.sqlite --exclude 12 --write   # without run 12 (made under load)
    python scripts/solver_table.py --db db/wsdb.sqlite --hog 6x6c3 --hog 8x8c4 --write
    python scripts/solver_table.py --db db/wsdb.sqlite --compare 12 --compare 13 --write   # those runs again
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from wsdb.solver.evaluate import evaluate
from wsdb.stats import solves

#: a process burning a core until it is killed or its parent ends (a run killed before it could stop
#: its hogs leaves none behind)
HOG = "import os\np = os.getppid()\nwhile os.getppid() == p:\n    for _ in range(200_000): pass"

#: (n, c, method, states or None for --count, effort per state in millions or None for the default)
STANDARD = [
    (4, 2, "auto", None, None),
    (4, 3, "auto", None, None),
    (4, 4, "auto", None, None),
    (6, 2, "auto", None, None),
    (6, 3, "auto", None, None),
    (6, 4, "auto", None, None),
    (6, 3, "optimal", None, None),
    (6, 4, "optimal", 10, 1000),  # "as many as it can in about a minute": 39 s a state here
    (8, 2, "auto", None, None),
    (8, 3, "auto", None, None),
    (8, 4, "auto", None, None),
]


def table(db, exclude: list[int] = ()) -> str:
    runs = solves.run_summaries(db)
    rows = solves.solves(db)
    runs = runs[(runs.status == "done") & runs.effort.notna()]  # runs budgeted in work, not seconds
    runs = runs[~runs.run_id.isin(list(exclude))]  # runs made under load (--hog) are not the standard
    runs = runs.sort_values("run_id").groupby(["n", "c", "method"]).tail(1)
    known = rows[rows.exact.notna()].groupby("state").exact.first()
    out = [
        "| grid | method | effort (M nodes) | states | mean length | max | mean lower bound | proven optimal | gap to exact "
        "| median s | max s | finished by repairs / exchanges | thesis length / s |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in runs.sort_values(["n", "c", "method"]).itertuples():
        mine = rows[rows.run_id == r.run_id]
        fallback = (
            f"{int(mine.solved_by.str.contains('repair').sum())} / {int(mine.solved_by.str.contains('exchange').sum())}"
        )
        exact = mine.state.map(known)  # a distance another run proved counts here too
        have = exact.notna()
        gap = (
            "-"
            if not have.any()
            else f"{(mine.length[have] - exact[have]).mean():.2f}"
            + ("" if have.all() else f" ({int(have.sum())} known)")
        )
        thesis = (
            ""
            if r.thesis_mean_length != r.thesis_mean_length or r.thesis_mean_length is None
            else f"{r.thesis_mean_length} / {r.thesis_mean_seconds}"
        )
        out.append(
            f"| {r.n}x{r.n} c{r.c} | {r.method} | {r.effort:g} | {r.states} | {r.mean_length:.2f} | {r.max_length} "
            f"| {r.mean_lower_bound:.2f} | {round(100 * r.share_optimal)}% | {gap} "
            f"| {r.median_seconds:.2f} | {r.max_seconds:.2f} | {fallback} | {thesis} |"
        )
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", default="db/wsdb.sqlite")
    ap.add_argument("--run", action="store_true", help="make the standard runs first (about an hour)")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2016)
    ap.add_argument(
        "--grid",
        action="append",
        default=None,
        help="with --run: only these grids, NxNcC (default: every standard run)",
    )
    ap.add_argument(
        "--hog",
        action="append",
        default=None,
        metavar="NxNcC",
        help="that grid's standard runs again beside two CPU-burning processes, compared",
    )
    ap.add_argument(
        "--compare",
        action="append",
        type=int,
        default=None,
        metavar="RUN",
        help="print the --hog table again for these stored runs made under load",
    )
    ap.add_argument(
        "--exclude",
        action="append",
        type=int,
        default=[],
        metavar="RUN",
        help="leave this run out of the table (a run made under load by --hog)",
    )
    ap.add_argument("--write", action="store_true", help="print the table into docs/results.md")
    args = ap.parse_args()
    if args.hog:
        return under_load(args)
    if args.compare:
        return compare(args, args.compare)
    if args.run:
        for n, c, method, count, effort in STANDARD:
            if args.grid and f"{n}x{n}c{c}" not in args.grid:
                continue
            done = evaluate(n, c, count or args.count, args.seed, method, db=args.db, effort=effort)
            print(f"run {done.run_id}: {n}x{n} c{c} {method}, {done.stored} states", flush=True)
    text = table(args.db, args.exclude)
    print(text)
    if args.write:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from docs_tables import write

        write(
            "docs/results.md",
            "solver_table",
            text,
            f"`python scripts/solver_table.py {' '.join(sys.argv[1:])}`: the newest finished `wsdb eval` "
            f"run per grid and method (the first states of `wsdb random --seed {args.seed}`, as many as the "
            "table says), times per state with the tables loaded",
        )


def under_load(args) -> None:
    """The standard runs of the --hog grids with both cores kept busy, each
    against the newest run of the same settings made before it."""
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(2)]
    made = []
    try:
        for n, c, method, count, effort in STANDARD:
            if f"{n}x{n}c{c}" in args.hog:
                made.append(evaluate(n, c, count or args.count, args.seed, method, db=args.db, effort=effort).run_id)
                print(f"run {made[-1]}: {n}x{n} c{c} {method} under load", flush=True)
    finally:
        for h in hogs:
            h.kill()
    compare(args, made)


def compare(args, loaded: list[int]) -> None:
    """Each run of ``loaded`` (made under load) against the newest finished
    run of the same grid, method and effort made before it: states with
    the same moves, and means and median seconds over the states both have."""
    runs = solves.run_summaries(args.db)
    rows = solves.solves(args.db)
    out = [
        "| grid | method | effort (M nodes) | states | same moves as without the load | mean length without / "
        "with the load | median s without / with the load |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for run_id in loaded:
        r = runs.set_index("run_id").loc[run_id]
        same = runs[
            (runs.n == r.n)
            & (runs.c == r.c)
            & (runs.method == r.method)
            & (runs.effort == r.effort)
            & (runs.status == "done")
            & (runs.run_id < run_id)
            & ~runs.run_id.isin(loaded)
        ]
        if same.empty:
            raise SystemExit(
                f"no run of {r.n}x{r.n} c{r.c} {r.method} at effort {r.effort:g} to compare with: make it first (--run)"
            )
        a = rows[rows.run_id == run_id].set_index("idx")
        b = rows[rows.run_id == int(same.run_id.max())].set_index("idx")
        common = a.index.intersection(b.index)
        a, b = a.loc[common], b.loc[common]
        equal = int((a.moves == b.moves).sum())
        out.append(
            f"| {r.n}x{r.n} c{r.c} | {r.method} | {r.effort:g} | {len(common)} | {equal} "
            f"| {b.length.mean():.2f} / {a.length.mean():.2f} | {b.seconds.median():.2f} / "
            f"{a.seconds.median():.2f} |"
        )
    text = "\n".join(out)
    print(text)
    if args.write:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from docs_tables import write

        write(
            "docs/results.md",
            "solver_load",
            text,
            f"`python scripts/solver_table.py {' '.join(a for a in sys.argv[1:] if a != '--write')}`: each "
            "grid's standard `wsdb eval` run again beside two processes burning both cores, against the newest "
            "run of the same settings made without them, over the states both have",
        )


if __name__ == "__main__":
    main()
