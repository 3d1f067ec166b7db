#!/usr/bin/env python3
"""How far the second phase of 6x6 four colours by pairs reaches: the
route to an upper bound on Θ(6,4) through the grid of 18 cells against 18.

Phase 1 merges colours 1+2 and 3+4 (the 18-against-18 grid, God number
13, `wsdb bounds compute --n 6 --c 3 --merge 12` counts it). Phase 2
starts from every state whose merged image is solved: 6 ways to place
the two merged halves on quadrants, times C(18, 9) ways to fill each half,
squared. Θ(6,4) ≤ 13 + W, W the largest distance of a phase-2 state, and
one move less where no state needs both worst cases (docs/frontier.md).
An upper bound on each phase-2 state serves as well as its exact distance,
so the solver's answers bound W from above wherever they reach.

The script draws states uniformly from phase 2 (a merged goal, then each
half filled at random; seeded), solves each with the default method and
effort, and proves the longest optimal with `--method optimal`. It prints
the answers' spread, their proven lower bounds, the proven distances and
what answering every class would cost at the measured pace.

    python scripts/pair_phases.py --count 400 --prove 4 --write
"""

from __future__ import annotations

import argparse
import collections
import math
import shlex
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from wsdb.db.store import Store  # noqa: E402
from wsdb.puzzle import wrapslide  # noqa: E402
from wsdb.puzzle.text import state_texts  # noqa: E402
from wsdb.solver.solve import solve, solve_many  # noqa: E402

SEED = 2016
GRID = wrapslide(6, 4)


def phase_two(count: int, seed: int) -> tuple[np.ndarray, int]:
    """``count`` states drawn uniformly from those whose image with colours
    1+2 and 3+4 merged is solved, and how many merged goals there are."""
    halves = np.unique(GRID.solved <= 1, axis=0)  # where colours 1 and 2 lie together, per merged goal
    rng = np.random.default_rng(seed)
    out = np.empty((count, GRID.ncells), dtype=np.uint8)
    for i in range(count):
        ones = halves[rng.integers(len(halves))]
        for cells, colours in ((np.flatnonzero(ones), (0, 1)), (np.flatnonzero(~ones), (2, 3))):
            cells = rng.permutation(cells)
            out[i, cells[: len(cells) // 2]] = colours[0]
            out[i, cells[len(cells) // 2 :]] = colours[1]
    return out, len(halves)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", default="db/wsdb.sqlite", help="a database with 6x6 two- and four-colour trees")
    ap.add_argument("--count", type=int, default=400, help="phase-2 states drawn")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--prove", type=int, default=4, help="the longest answers proven optimal")
    ap.add_argument("--effort", type=float, default=5000, help="each proof's work, M nodes")
    ap.add_argument("--write", action="store_true", help="print the table into docs/frontier.md")
    args = ap.parse_args()
    states, goals = phase_two(args.count, args.seed)
    texts = list(state_texts(GRID, states))
    store = Store.open(args.db)
    solve(texts[0], store=store)  # tables derived and loaded before the clock starts
    t0 = time.perf_counter()
    sols = solve_many(texts, store=store)
    per_state = (time.perf_counter() - t0) / len(texts)
    lengths = collections.Counter(s.length for s in sols)
    lowers = collections.Counter(s.lower_bound for s in sols)
    proven = []
    for s in sorted(sols, key=lambda s: (-s.length, s.state))[: args.prove]:
        t1 = time.perf_counter()
        o = solve(s.state, store=store, method="optimal", effort=args.effort)
        proven.append((s, o, time.perf_counter() - t1))
        print(
            f"{s.state}: answer {s.length}, optimal {o.length if o.optimal else f'>= {o.lower_bound}'}",
            file=sys.stderr,
            flush=True,
        )
    states_all = goals * math.comb(18, 9) ** 2
    classes = states_all / GRID.group_order  # a class holds at most that many states
    spread = ", ".join(f"{k}: {lengths[k]}" for k in sorted(lengths))
    table = [
        "| phase-2 states | classes (at least) | drawn | answers by length | mean | proven lower bounds | "
        "s a state | every class at that pace, here |",
        "|---:|---:|---:|---|---:|---|---:|---:|",
        f"| {states_all:,} | {math.ceil(classes):,} | {len(sols)} | {spread} | "
        f"{statistics.mean(s.length for s in sols):.2f} | "
        f"{', '.join(f'{k}: {lowers[k]}' for k in sorted(lowers))} | {per_state:.2f} | "
        f"{classes * per_state / 86400:,.0f} days |",
        "",
        "| longest answers | answer | optimal | seconds |",
        "|---|---:|---:|---:|",
    ]
    for s, o, secs in proven:
        exact = str(o.length) if o.optimal else f"at least {o.lower_bound}"
        table.append(f"| `{s.state}` | {s.length} | {exact} | {secs:.1f} |")
    text = "\n".join(table)
    print(text)
    if args.write:
        from docs_tables import write

        write(
            "docs/frontier.md",
            "pair_phases",
            text,
            f"`python scripts/pair_phases.py {shlex.join(sys.argv[1:])}`: states drawn uniformly from "
            f"phase 2 (seed {args.seed}), each solved by `wsdb solve` (default method and effort, both "
            f"cores), the longest proven by `--method optimal`; a class holds at most {GRID.group_order} states",
        )


if __name__ == "__main__":
    main()
