#!/usr/bin/env python3
"""What one more bound, and one more tree level, cost a proof: IDA*
handing over to the stored tree (`wsdb solve --method optimal`, `wsdb
bounds prove`), one iteration at a time, on the first states of `wsdb
random --n 6 --c 4 --seed 2016` (the eval sample), against databases whose
6x6 four-colour tree is held to different depths. The search is the
optimal method's: the pair bound (its census cached beside each database)
and the visit table.

Each --db is LABEL=PATH. For every state and database the script searches
every bound in full, from the gather bound up to --up-to, and records each
iteration's seconds and nodes (tables loaded first; an iteration that finds
an answer ends the state). It then prints, per tree, the median cost of each
bound and the median factor from one bound to the next, and across trees
the median factor at the same bound, so the figures say how far a deeper
tree and how far a faster search would carry a proof of distance d, which
needs every bound below d searched in full.

    python scripts/bound_costs.py --db "depth 8=/tmp/d8/w.sqlite" --db "depth 9=/tmp/d9c4/w.sqlite" --write
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from wsdb.db.store import Store  # noqa: E402
from wsdb.puzzle import format_state, random_states, wrapslide  # noqa: E402
from wsdb.solver import effort  # noqa: E402
from wsdb.solver.guide import guide_for  # noqa: E402
from wsdb.solver.ida import ida_to_tree  # noqa: E402

SEED = 2016


def iterations(db: str, states: list, up_to: int) -> tuple[int, dict[tuple[int, int], tuple[float, float]]]:
    """The tree's height, and (state index, bound): (seconds, nodes) of every
    iteration searched in full; an iteration that finds an answer is left
    out (it stops early), as are the bounds after it."""
    store = Store.open(db)
    guide = guide_for(wrapslide(6, 4), store, pairs=True)  # as the optimal method reads it
    eg = guide.endgame
    eg.depth(states[0][None])  # the tables, loaded before any clock starts
    costs = {}
    for i, cells in enumerate(states):
        bound = max(guide.bound(cells), eg.height + 1)
        while bound <= up_to:
            t0 = time.perf_counter()
            with effort.metered() as meter:
                found, reached, _ = ida_to_tree(guide, cells, float("inf"), bound, upper=bound + 1)
            if found is not None:
                break
            costs[i, bound] = (time.perf_counter() - t0, meter.spent)
            print(f"{db}: state {i} bound {bound}: {costs[i, bound][0]:.1f} s", file=sys.stderr, flush=True)
            bound = reached
    return eg.height, costs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", action="append", required=True, help="LABEL=PATH, a database and its tree's depth")
    ap.add_argument("--count", type=int, default=3, help="states of the sample")
    ap.add_argument("--up-to", type=int, default=16, help="the last bound searched in full")
    ap.add_argument("--write", action="store_true", help="print the table into docs/solver.md")
    args = ap.parse_args()
    states = random_states(wrapslide(6, 4), args.count, seed=SEED)
    runs = {}
    for spec in args.db:
        label, _, path = spec.partition("=")
        runs[label] = iterations(path, states, args.up_to)
    bounds = sorted({b for _, costs in runs.values() for _, b in costs})
    table = [
        "| tree | height | bound | states | median s | median M nodes | s vs the bound before |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for label, (height, costs) in runs.items():
        for b in bounds:
            here = [v for (_, bb), v in costs.items() if bb == b]
            secs = statistics.median(s for s, _ in here) if here else 0.0
            if secs < 0.05:  # too short to time
                continue
            # the same state's bound before, where that took long enough to time
            up = [
                s / costs[i, b - 1][0]
                for (i, bb), (s, _) in costs.items()
                if bb == b and costs.get((i, b - 1), (0.0,))[0] >= 0.1
            ]
            table.append(
                f"| {label} | {height} | {b} | {len(here)} | {secs:.2f} | "
                f"{statistics.median(n for _, n in here) / 1e6:.1f} | "
                f"{f'{statistics.median(up):.1f}x' if up else '-'} |"
            )
    labels = list(runs)
    lines = []
    for a, b in zip(labels, labels[1:]):
        ca, cb = runs[a][1], runs[b][1]
        both = [k for k in ca if k in cb and ca[k][0] >= 1.0]  # iterations long enough to time
        if both:
            lines.append(
                f"{b} against {a}, the same iterations of at least 1 s ({len(both)}): "
                f"median {statistics.median(ca[k][0] / cb[k][0] for k in both):.1f}x fewer seconds, "
                f"{statistics.median(ca[k][1] / cb[k][1] for k in both):.1f}x fewer nodes."
            )
    text = "\n".join(table + [""] + lines)
    print(text)
    if args.write:
        from docs_tables import write

        write(
            "docs/solver.md",
            "bound_costs",
            text,
            f"`python scripts/bound_costs.py {shlex.join(sys.argv[1:])}`: the first {args.count} states of "
            f"`wsdb random --n 6 --c 4 --seed {SEED}` ({', '.join(format_state(x, 6) for x in states)}); "
            f"one IDA* iteration per bound, searched in full, tables loaded",
        )


if __name__ == "__main__":
    main()
