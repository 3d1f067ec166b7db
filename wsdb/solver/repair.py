"""Repairs: finish a nearly solved state a few cells at a time.

A search that stalls (the last 8x8 phase, a beam that misses the tree)
leaves a state whose misplaced cells are few but too many for one meet in
the middle. Take a solved state g agreeing with it on most cells, and a
cycle S of misplaced cells whose colours g wants among themselves: a pair
(cell i holds the colour cell j should have, and j the colour of i), or a
three-cycle. The state V that equals g except on S, where it equals the
state, is solved by meet in the middle with the stored tree in a few
milliseconds (on 8x8 a pair is 8-12 moves from solved). Its sequence maps
every cell outside S that holds g's colour to a cell of the new goal with
that colour, and fixes S; cells that were misplaced stay misplaced. So each
repair puts |S| more cells in place, and the state gets solved in about
five moves a cell, where cell exchanges (:mod:`.exchange`), which move
single cells with fixed macros, take fifteen or more.

The candidates at each step are, in this order: the whole state when at
most six cells are misplaced, two disjoint pairs at once, single pairs,
three-cycles (each kind a random selection of 24). A short first look
(three forward levels) screens the first 24 candidates and a deeper one
(four levels) the first 6, so wherever two disjoint pairs exist only they
are tried (four cells for about 10 moves); a candidate fixing a quarter
of a cell per move or more is taken at once, else the best rate found.
Screening a mix instead (eight of each kind) was no better on six 8x8
four-colour states (mean 143.5 moves against 117.7).

Where the grid has a transposition table (:mod:`.transpositions`: four
colours), a step costs no search: the best transposition is looked up, and
only the whole state (at most six misplaced) and two disjoint pairs are
searched, where they beat it. No step then falls back to a cell exchange.
"""

from __future__ import annotations

from itertools import product

import numpy as np

from ..db.store import Store
from . import effort
from .exchange import exchange_step, nearest_goal
from .guide import Guide
from .meet import solve_near
from .transpositions import best_transposition
from .settings import REPAIR_DEEP_WHEN, REPAIR_GOOD, REPAIR_LADDER, REPAIR_TRIES, REPAIR_WHOLE_UP_TO


def repair(
    guide: Guide,
    store: Store,
    cells: np.ndarray,
    deadline: float,
    rng: np.random.Generator,
    table: np.ndarray | None = None,
) -> tuple[list[int], np.ndarray, int]:
    """Moves taking ``cells`` towards solved, repair by repair, and the
    state they reach: solved, or where time ran out (the caller finishes
    from there). With a ``table`` of transpositions (:mod:`.transpositions`)
    a step searches only where it can beat the table's best. Where no cycle
    is within reach, one cell exchange (:func:`.exchange.exchange_step`)
    moves on; the third value counts them. ``rng`` picks which cycles to
    screen when there are many."""
    puzzle = guide.puzzle
    x, exchanges = cells.copy(), 0
    out: list[int] = []
    goal = nearest_goal(puzzle, x)
    wrong = np.flatnonzero(x != goal)
    while wrong.size and (table is not None or not effort.past(deadline)):  # look-ups are cheap
        step = (
            _best_step(guide, store, x, goal, wrong, deadline, rng)
            if table is None
            else _table_step(guide, store, table, x, goal, wrong, deadline, rng)
        )
        if step is None:  # no cycle within reach: one cell exchange, then repairs again
            step = exchange_step(puzzle, x)
            exchanges += 1
        y = puzzle.apply(x, step)
        y_goal = nearest_goal(puzzle, y)
        y_wrong = np.flatnonzero(y != y_goal)
        if y_wrong.size >= wrong.size:  # never loop: a repair must gain
            break
        x, goal, wrong, out = y, y_goal, y_wrong, out + step
    return out, x, exchanges


def _best_step(guide, store, x, goal, wrong, deadline, rng) -> list[int] | None:
    quads, pairs, triples = _cycles(x, goal, wrong, rng)
    cycles = ([wrong] if wrong.size <= REPAIR_WHOLE_UP_TO else []) + quads + pairs + triples
    for children, tries in REPAIR_LADDER:
        best, _ = _screen(guide, store, x, goal, cycles[:tries], deadline, children, None, 0.0)
        if best is not None:
            return best
    return None


def _table_step(guide, store, table, x, goal, wrong, deadline, rng) -> list[int] | None:
    """The best transposition from the table, unless a search finds the
    whole state (at most six misplaced) or two disjoint pairs at a better
    rate; searches only while time is left."""
    rate, best = best_transposition(table, x, goal, wrong)
    cycles = ([wrong] if wrong.size <= REPAIR_WHOLE_UP_TO else []) + _cycles(x, goal, wrong, rng)[0]
    for children, tries in REPAIR_LADDER:
        if children > REPAIR_LADDER[0][0] and effort.left(deadline) < REPAIR_DEEP_WHEN:
            break
        best, rate = _screen(guide, store, x, goal, cycles[:tries], deadline, children, best, rate)
    return best


def _screen(guide, store, x, goal, cycles, deadline, children, best, rate):
    """Solve each cycle as a near-solved state (until the deadline, or one
    fixes ``REPAIR_GOOD`` cells a move); (moves, cells fixed per move) of the best,
    or the ``best``, ``rate`` given when none beats them."""
    for s in cycles:
        if effort.past(deadline):
            break
        v = goal.copy()
        v[s] = x[s]
        seq = solve_near(guide, store, v, deadline, children)
        if seq is not None and len(s) / max(len(seq), 1) > rate:
            best, rate = seq, len(s) / max(len(seq), 1)
            if rate >= REPAIR_GOOD:
                break
    return best, rate


def _cycles(
    x: np.ndarray, goal: np.ndarray, wrong: np.ndarray, rng: np.random.Generator
) -> tuple[list[np.ndarray], ...]:
    """(two disjoint pairs, pairs, three-cycles) of misplaced cells whose
    colours the goal wants among themselves; a random selection of
    ``REPAIR_TRIES`` of each kind."""
    c = int(goal.max()) + 1
    group = {(a, b): wrong[(goal[wrong] == a) & (x[wrong] == b)] for a in range(c) for b in range(c) if a != b}
    pairs = [np.array(p) for a in range(c) for b in range(a + 1, c) for p in product(group[a, b], group[b, a])]
    triples = [
        np.array(t)
        for a in range(c)
        for b in range(c)
        for d in range(c)
        if len({a, b, d}) == 3 and a < b and a < d
        for t in product(group[a, b][:4], group[b, d][:4], group[d, a][:4])
    ]
    quads = (
        [
            np.concatenate([pairs[i], pairs[j]])
            for i, j in rng.integers(0, len(pairs), (REPAIR_TRIES, 2))
            if not set(pairs[i]) & set(pairs[j])
        ]
        if len(pairs) > 1
        else []
    )
    return tuple(
        [found[i] for i in rng.choice(len(found), REPAIR_TRIES, replace=False)] if len(found) > REPAIR_TRIES else found
        for found in (quads, pairs, triples)
    )
