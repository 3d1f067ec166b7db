#!/usr/bin/env python3
"""Hunt for a state at least K moves from solved, to exhibit a lower bound
on a grid's God number (docs/frontier.md).

Deep states are rare (6x6 three colours: 7 of 100 random states at 16, none
deeper), so the hunt narrows in three steps, each cheaper per state than
the next:

1. draw --draws random states and keep the --screen with the largest
   gather bound (microseconds a state; 6 of the 7 16-move states of the
   solver's sample have the second-largest value seen);
2. solve those with the default solver (`auto`, about 0.4 s a state on
   6x6 three colours): its answer is an upper bound, so only states whose
   answer has at least K moves can be K away;
3. prove each such state at least K moves from solved (`wsdb bounds prove
   --at-least K`: IDA* through bound K - 1), stopping at the first proof,
   which is stored in the database's `bounds` table.

    python scripts/deep_states.py --db /tmp/ev/w.sqlite --c 3 --at-least 17
"""
from __future__ import annotations

import argparse
import collections
import time

import numpy as np

from wsdb.db.store import Store
from wsdb.puzzle import format_state, random_states, wrapslide
from wsdb.solver.guide import guide_for
from wsdb.solver.solve import solve_many
from wsdb.stats import bounds as bd


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True)
    ap.add_argument("--n", type=int, default=6)
    ap.add_argument("--c", type=int, default=3)
    ap.add_argument("--at-least", type=int, required=True, help="K: the distance to prove")
    ap.add_argument("--draws", type=int, default=100_000, help="random states drawn")
    ap.add_argument("--screen", type=int, default=600, help="of those, solved: the largest gather bounds")
    ap.add_argument("--seed", type=int, default=363)
    ap.add_argument("--tries", type=int, default=20, help="candidates proven at most")
    args = ap.parse_args()
    k = args.at_least
    store = Store.open(args.db, write=True)
    puzzle = wrapslide(args.n, args.c)
    guide = guide_for(puzzle, store)
    t0 = time.perf_counter()
    states = random_states(puzzle, args.draws, seed=args.seed)
    gather = np.array([guide.bound(x) for x in states])
    order = np.argsort(-gather, kind="stable")[:args.screen]
    print(f"{args.draws:,} states drawn (seed {args.seed}); gather bounds {dict(enumerate(np.bincount(gather)))}; "
          f"solving the {len(order)} largest (gather bound {gather[order[-1]]} to {gather[order[0]]})", flush=True)
    texts = [format_state(states[i], args.n) for i in order]
    solutions = solve_many(texts, store=store)
    lengths = collections.Counter(s.length for s in solutions)
    candidates = sorted((s for s in solutions if s.length >= k), key=lambda s: -s.length)
    print(f"answers by length {dict(sorted(lengths.items()))} ({time.perf_counter() - t0:.0f} s so far); "
          f"{len(candidates)} of at least {k} moves", flush=True)
    for sol in candidates[:args.tries]:
        b = bd.by_state(sol.state, db=args.db, at_least=k)
        print(f"  {sol.state}: answer {sol.length}, proven at least {b.value}"
              f"{' (optimal ' + str(b.witness['distance']) + ')' if b.witness['optimal'] else ''} "
              f"in {b.seconds:.1f} s", flush=True)
        if b.value >= k:
            bd.record(store, [b])
            print(f"stored: {args.n}x{args.n} {args.c} colours, God number >= {b.value}; again: `{b.command}`")
            break
    print(f"{time.perf_counter() - t0:.0f} s in all")


if __name__ == "__main__":
    main()
