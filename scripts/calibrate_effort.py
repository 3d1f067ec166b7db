#!/usr/bin/env python3
"""What a node of each kind of work costs (wsdb/solver/settings.py:
NODE_COSTS and NODES_PER_SECOND), timed here, and how well the budget
then stands in for seconds.

Each kind of work is timed on its own, on 6x6 three colours and 8x8 four
colours (the grids that hold every kind), in batches the searches use:
beam children scored, states canonicalised, classes probed in a tree,
classes expanded by meet in the middle, children deduplicated, thesis
children (whole iterations of the thesis' search), IDA* nodes,
transpositions read, learned estimates (on 8x8, networks of 256 and 128
and of 64 and 32 units with random weights: the fixed part of an estimate
and its cost per thousand multiply-adds). A beam
child is the node: the mean of its seconds over the two grids sets
NODES_PER_SECOND, and every other kind's cost is its mean seconds in
beam children. Then a few random states per grid and method are solved,
and the table says, per grid, how many seconds the effort each spent
stands for at that rate against the seconds it took: where it is not 1,
the grid's work costs more or less than the mean (and work that is not
counted, such as cell exchanges, adds seconds). Run it on an idle
machine: it measures seconds. Medians of 5 timings.

    python scripts/calibrate_effort.py --db /tmp/ev/w.sqlite
    python scripts/calibrate_effort.py --db /tmp/ev/w.sqlite --write   # docs/solver.md
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from wsdb.db.store import Store
from wsdb.errors import NotBuiltError
from wsdb.engine.keys import sortable
from wsdb.puzzle import format_states, random_states, wrapslide
from wsdb.solver.guide import guide_for
from wsdb.solver.beam import _learned_scores
from wsdb.solver.kernels import allowed_children, bounded_dfs, score_children
from wsdb.solver.learned import Learned, with_value
from wsdb.solver.value_net import ValueNet
from wsdb.solver.settings import DEFAULT_EFFORT, NODE_COSTS, NODES_PER_SECOND, VISIT_SLOTS

from wsdb.solver.solve import iter_solve
from wsdb.solver import effort
from wsdb.solver.thesis import thesis_search
from wsdb.solver.visit_kernels import visit_tables
from wsdb.solver.transpositions import best_transposition, transpositions
from wsdb.solver.exchange import nearest_goal

ESTIMATE_HIDDEN = ((256, 128), (64, 32))  # learned networks timed: 49,280 and 6,176 multiply-adds on 8x8
#: (n, c, method, effort in millions or None for the default)
JOBS = [
    (6, 3, "auto", None),
    (6, 3, "optimal", 20),
    (6, 4, "auto", None),
    (6, 4, "thesis", 4),
    (6, 4, "optimal", 20),
    (8, 2, "auto", None),
    (8, 3, "auto", None),
    (8, 4, "auto", None),
    (8, 4, "learned", None),  # where the database has a learned guide (`wsdb learn --n 8 --c 4`)
]
SEED = 77
GRIDS = [(6, 3), (6, 4), (8, 2), (8, 4)]


def timed(fn, units: int) -> float:
    """Median seconds per unit of ``fn()`` over 5 runs (after one to warm up)."""
    fn()
    out = []
    for _ in range(5):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) / units)
    return statistics.median(out)


def kinds_on(store, n: int, c: int) -> dict[str, float]:
    """Seconds per unit of each kind of work on the (n, c) grid."""
    puzzle = wrapslide(n, c)
    guide = guide_for(puzzle, store)
    eg, st = guide.endgame, guide.tables
    cells = random_states(puzzle, 100_000, SEED)
    beam = np.ascontiguousarray(cells[:10_000])
    last = np.full(len(beam), st.blocked.shape[0] - 1, np.int64)
    nm = len(st.moves)
    reps = eg.eng.canonical(eg.eng.encode(cells))
    kids = eg.eng.expand(reps[:20_000])
    out = {
        "child": timed(lambda: score_children(beam, last, st, 1 << 62), len(beam) * nm),
        "canonical": timed(lambda: eg.eng.canonical(eg.eng.encode(cells)), len(cells)),
        "probe": timed(lambda: eg.lookup(kids), len(kids)),
        "expand": timed(lambda: eg.eng.expand(reps[:20_000]), len(kids)),
        "dedup": timed(lambda: np.unique(sortable(kids), return_index=True), len(kids)),
    }

    def thesis():  # whole iterations: the search around the objective costs more than the objective
        with effort.metered() as m:
            thesis_search(guide, cells[1], 200_000 * NODE_COSTS["objective"])
        return m.counts.get("objective", 1)

    out["objective"] = timed(thesis, thesis())
    if guide.has_table:
        path = np.zeros(64, np.int64)

        def dfs():  # a fresh visit table each time, as each iteration has
            return bounded_dfs(cells[0], st, 30, 2_000_000, path, *(a[0] for a in visit_tables(1, VISIT_SLOTS)))

        out["dfs"] = timed(dfs, dfs()[1])
    if n == 8:  # a learned estimate, by two networks (random weights): its fixed part and a thousand MACs
        small = beam[:2000]
        hmax, _ = allowed_children(np.full(len(small), st.blocked.shape[0] - 1, np.int64), st)
        took = {}
        for hidden in ESTIMATE_HIDDEN:
            net = ValueNet.initial(puzzle.ncells, c, hidden, np.random.default_rng(SEED))
            scored = with_value(guide, Learned(net, {}, Path("calibration")))

            def estimates():
                key = np.full(hmax.shape[0], -1, np.int64)
                _learned_scores(scored, small, hmax, key)

            took[net.macs] = timed(estimates, int((hmax >= 0).sum()))
        (lo, t_lo), (hi, t_hi) = sorted(took.items())
        out["estimate_kmac"] = (t_hi - t_lo) / (hi - lo) * 1000
        out["estimate"] = t_lo - out["estimate_kmac"] * lo / 1000
    table = transpositions(guide, store) if c == 4 else None  # derived by the four-colour solves
    if table is not None:
        x = cells[0]
        goal = nearest_goal(puzzle, x)
        wrong = np.flatnonzero(x != goal)
        out["transposition"] = timed(lambda: [best_transposition(table, x, goal, wrong) for _ in range(100)], 100)
    return out


def sample(db, n, c, method, effort, count):
    """(effort spent in nodes, seconds) of ``count`` states, the tables loaded first."""
    puzzle = wrapslide(n, c)
    states = format_states(random_states(puzzle, count, SEED), n).tolist()
    first = format_states(puzzle.solved[:1], n).tolist()  # loads the tables outside the figures
    out = []
    for i, sol in enumerate(iter_solve(first + states, db=db, method=method, effort=effort)):
        if i:
            out.append((sol.effort * 1e6, sol.seconds))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True)
    ap.add_argument("--states", type=int, default=6, help="states per grid and method")
    ap.add_argument("--write", action="store_true", help="print the tables into docs/solver.md")
    args = ap.parse_args()
    store = Store.open(args.db)
    per = {grid: kinds_on(store, *grid) for grid in GRIDS}
    child = statistics.mean(per[g]["child"] for g in GRIDS)
    table = [
        "| kind of work | "
        + " | ".join(f"µs a unit, {n}x{n} c{c}" for n, c in GRIDS)
        + " | nodes (measured mean) | nodes (in use) |",
        "|---|" + "---:|" * (len(GRIDS) + 2),
    ]
    for k in NODE_COSTS:
        have = [per[g][k] for g in GRIDS if k in per[g]]
        table.append(
            f"| {k} | "
            + " | ".join(f"{per[g][k] * 1e6:.3f}" if k in per[g] else "-" for g in GRIDS)
            + f" | {statistics.mean(have) / child:.2f} | {NODE_COSTS[k]:g} |"
        )
    table += [
        "",
        f"Measured: {1 / child / 1e6:.1f} M nodes a second (in use: {NODES_PER_SECOND / 1e6:g} M; "
        f"the default effort {DEFAULT_EFFORT / 1e6:g} M).",
        "",
        "| grid | method | effort (M nodes) | states | median s | median effort spent (M nodes) "
        "| its seconds at the rate in use, over the seconds taken (all states) |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for n, c, method, amount in JOBS:
        try:
            rows = sample(args.db, n, c, method, amount, args.states)
        except NotBuiltError:  # no learned guide
            continue
        secs = [s for _, s in rows]
        used = [u for u, _ in rows]
        ratio = sum(used) / NODES_PER_SECOND / sum(secs)
        given = DEFAULT_EFFORT / 1e6 if amount is None else amount
        table.append(
            f"| {n}x{n} c{c} | {method} | {given:g} | {len(rows)} | {statistics.median(secs):.2f} "
            f"| {statistics.median(used) / 1e6:.1f} | {ratio:.2f} |"
        )
        print(table[-1], file=sys.stderr, flush=True)
    print("\n".join(table))
    if args.write:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from docs_tables import write

        write(
            "docs/solver.md",
            "effort_costs",
            "\n".join(table),
            f"`python scripts/calibrate_effort.py {' '.join(a for a in sys.argv[1:] if a != '--write')}`: "
            f"each kind timed alone (median of 5), then {args.states} states of `wsdb random --seed {SEED}` "
            "per grid and method, the tables loaded first, one process",
        )


if __name__ == "__main__":
    main()
