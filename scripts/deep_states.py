#!/usr/bin/env python3
"""Hunt for a state at least K moves from solved, to exhibit a lower bound
on a grid's God number (docs/frontier.md).

Deep states are rare (6x6 three colours: 7 of 100 random states at 16, none
deeper), so the hunt narrows in three steps, each cheaper per state than
the next:

1. draw --draws random states and keep the --screen with the largest
   gather bound (microseconds a state; 6 of the 7 16-move states of the
   solver's sample have the second-largest value seen); or, with --source
   deepest, build states whose single colours are each as far from
   gathered as any can be: every colour but the last placed as a state of
   the complete two-colour tree's deepest level (6x6: the 900 states at 12),
   on disjoint cells, one state per class (6x6 three colours: 3,432);
2. solve those with the default solver (`auto`, about 0.4 s a state on
   6x6 three colours): its answer is an upper bound, so only states whose
   answer has at least K moves can be K away;
3. prove each such state at least K moves from solved (`wsdb bounds prove
   --at-least K`: IDA* through bound K - 1), stopping at the first proof,
   which is stored in the database's `bounds` table.

Where none of those proves K, --climb M walks up instead: a state at
distance K is a neighbour of one at K - 1 (its optimal path's second
state), so the neighbours of the states answered in K - 1 moves (most of
them are at K - 1; the solver's short proof rarely finishes there) are
solved the same way (M of them at most, one per class), their long
answers proven, and the neighbours answered in K - 1 join the walk.
--from STATE starts the walk at a state already proven K - 1 away.

    python scripts/deep_states.py --db /tmp/ev/w.sqlite --c 3 --at-least 17 --climb 4000
    python scripts/deep_states.py --db /tmp/ev/w.sqlite --c 3 --at-least 18 --source deepest --screen 5000
    python scripts/deep_states.py --db /tmp/ev/w.sqlite --c 3 --at-least 19 --climb 2000 \
        --from 131313/323232/131313/323323/131212/323323
"""

from __future__ import annotations

import argparse
import collections
import time
from dataclasses import dataclass

import numpy as np

from wsdb.bounds import arguments as bd
from wsdb.db.store import Store
from wsdb.puzzle import format_state, parse_state, random_states, wrapslide
from wsdb.puzzle.symmetry import canonical_cells
from wsdb.puzzle.tree_key import TreeKey
from wsdb.solver.guide import guide_for
from wsdb.solver.solve import solve_many


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", required=True)
    ap.add_argument("--n", type=int, default=6)
    ap.add_argument("--c", type=int, default=3)
    ap.add_argument("--at-least", type=int, required=True, help="K: the distance to prove")
    ap.add_argument("--draws", type=int, default=100_000, help="random states drawn")
    ap.add_argument(
        "--screen",
        type=int,
        default=600,
        help="of those, solved: the largest gather bounds (with --source deepest: the classes solved)",
    )
    ap.add_argument(
        "--source",
        choices=["random", "deepest"],
        default="random",
        help="random draws screened by gather bound, or the deepest placements combined",
    )
    ap.add_argument("--seed", type=int, default=363)
    ap.add_argument("--tries", type=int, default=20, help="candidates proven at most")
    ap.add_argument(
        "--climb",
        type=int,
        default=0,
        help="then solve at most this many neighbours of the states answered in K - 1 moves, one per class",
    )
    ap.add_argument(
        "--from",
        dest="start",
        action="append",
        default=[],
        metavar="STATE",
        help="climb from this state, proven K - 1 from solved (repeatable), instead of drawing states",
    )
    args = ap.parse_args()
    k = args.at_least
    store = Store.open(args.db, write=True)
    puzzle = wrapslide(args.n, args.c)
    guide = guide_for(puzzle, store)
    t0 = time.perf_counter()
    if args.start:
        climb(args.start, puzzle, Prover(store, args, k, args.tries), args.climb)
        print(f"{time.perf_counter() - t0:.0f} s in all")
        return
    if args.source == "deepest":
        texts = deepest_combinations(puzzle, store, args.screen)
        print(f"{len(texts):,} states of deepest single colours, solving them", flush=True)
    else:
        states = random_states(puzzle, args.draws, seed=args.seed)
        gather = np.array([guide.bound(x) for x in states])
        order = np.argsort(-gather, kind="stable")[: args.screen]
        print(
            f"{args.draws:,} states drawn (seed {args.seed}); gather bounds {dict(enumerate(np.bincount(gather)))}; "
            f"solving the {len(order)} largest (gather bound {gather[order[-1]]} to {gather[order[0]]})",
            flush=True,
        )
        texts = [format_state(states[i], args.n) for i in order]
    solutions = solve_many(texts, store=store)
    candidates = long_answers(solutions, k)
    print(
        f"answers by length {by_length(solutions)} ({time.perf_counter() - t0:.0f} s so far); "
        f"{len(candidates)} of at least {k} moves",
        flush=True,
    )
    prover = Prover(store, args, k, args.tries)
    if not prover.first(candidates):
        climb([s.state for s in solutions if s.length == k - 1], puzzle, prover, args.climb)
    print(f"{time.perf_counter() - t0:.0f} s in all")


def long_answers(solutions, k: int) -> list:
    """The answers of at least K moves, the longest first: only their
    states can be K from solved."""
    return sorted((s for s in solutions if s.length >= k), key=lambda s: -s.length)


def by_length(solutions) -> dict[int, int]:
    """How many answers have each length."""
    return dict(sorted(collections.Counter(s.length for s in solutions).items()))


def deepest_combinations(puzzle, store, limit: int) -> list[str]:
    """States whose colours 0..c-2 each lie, alone, at the deepest level of
    the complete two-colour tree (the q-cell colour of an antipode), on
    disjoint cells, the last colour filling the rest: one state per class,
    in key order; at most ``limit`` classes (four colours have many)."""
    n = puzzle.n
    coarse = wrapslide(n, 2)
    height = store.require_build(TreeKey.wrapslide(n, 2))["height"]
    reps = np.array([parse_state(r["grid"])[1] for r in store.classes_at_depth(TreeKey.wrapslide(n, 2), height)])
    placements = np.unique(reps[:, coarse.maps].reshape(-1, n * n), axis=0) == 0  # (P, N) bool
    found = set()

    def place(cells: np.ndarray, colour: int, start: int) -> None:
        if colour == puzzle.c - 1:
            found.add(canonical_cells(cells, puzzle.maps, puzzle.interchangeable)[0].tobytes())
            return
        free = cells == puzzle.c - 1
        # colours 0..c-2 are interchangeable, so each set of placements is taken once, in index order
        fits = start + np.flatnonzero(~(placements[start:] & ~free).any(axis=1))
        for i in fits:
            if len(found) >= limit:
                return
            nxt = cells.copy()
            nxt[placements[i]] = colour
            place(nxt, colour + 1, i + 1)

    place(np.full(n * n, puzzle.c - 1, np.uint8), 0, 0)
    return [format_state(np.frombuffer(b, np.uint8), n) for b in sorted(found)]


@dataclass
class Prover:
    """Proves candidates at least K moves from solved, ``tries`` in all
    across calls, and stores the first proof."""

    store: Store
    args: argparse.Namespace
    k: int
    tries: int

    def first(self, candidates) -> bool:
        """Prove candidates in turn until one is at least K (stored) or the
        tries run out."""
        for sol in candidates:
            if self.tries <= 0:
                return False
            self.tries -= 1
            b = bd.by_state(sol.state, db=self.args.db, at_least=self.k)
            print(
                f"  {sol.state}: answer {sol.length}, proven at least {b.value}"
                f"{' (optimal ' + str(b.witness['distance']) + ')' if b.witness['optimal'] else ''} "
                f"in {b.seconds:.1f} s",
                flush=True,
            )
            if b.value >= self.k:
                bd.record(self.store, [b])
                print(f"stored: {b.n}x{b.n} {b.c} colours, God number >= {b.value}; again: `{b.command}`")
                return True
        return False


def climb(plateau: list[str], puzzle, prover: Prover, most: int) -> None:
    """Walk the level K - 1 from ``plateau`` (states answered there), solving
    each one's neighbours (one per class, ``most`` in all) and proving the
    long answers, until one is proven at least K."""
    k = prover.k
    seen = {canonical_cells(parse_state(s)[1], puzzle.maps, puzzle.interchangeable).tobytes() for s in plateau}
    queue = collections.deque(plateau)
    solved = 0
    while queue and solved < most and prover.tries > 0:
        cells = parse_state(queue.popleft())[1]
        children = cells[puzzle.moves]  # every neighbour, one per move
        canon = canonical_cells(children, puzzle.maps, puzzle.interchangeable)
        fresh = []
        for child, key in zip(children, canon):
            if key.tobytes() not in seen:
                seen.add(key.tobytes())
                fresh.append(format_state(child, puzzle.n))
        if not fresh:
            continue
        solutions = solve_many(fresh, store=prover.store)
        solved += len(fresh)
        queue.extend(s.state for s in solutions if s.length == k - 1)
        print(
            f"climb: {solved} neighbours solved, {len(queue)} at {k - 1} to visit; {by_length(solutions)}", flush=True
        )
        if prover.first(long_answers(solutions, k)):
            return


if __name__ == "__main__":
    main()
