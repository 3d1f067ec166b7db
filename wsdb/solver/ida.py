"""Optimal solving: IDA* under the gather bound (Korf's iterative deepening
A*, as used for Rubik's cube with pattern databases).

Each iteration is a depth-first search that cuts a branch as soon as moves
made plus the largest gather distance exceed the bound; the next bound is
the smallest value that was cut. The first solution is optimal, and every
finished iteration proves a lower bound, which is what is reported when the
budget (:mod:`.effort`) runs out.

Where the grid's stored tree is partial (6x6 three and four colours), the
tree replaces the last D levels of every iteration (:func:`ida_to_tree`):
the same search with the tree as an exact heuristic at its horizon, in
parallel streams (a fixed ``IDA_STREAMS``, however many threads run them,
so that the answer is the same on any machine). Measured on 6x6 three colours (2 cores, the first 20
states of `wsdb random --n 6 --c 3 --seed 2619`): plain IDA* proved 11
within 10 s; handing over to the tree, 13 on one core, 16 on two, and all
20 within 45 s (mean 7.0 s; distance-16 states take 7-45 s).
"""

from __future__ import annotations

import numpy as np

from ..errors import NotBuiltError
from . import effort
from .guide import Found, Guide
from .kernels import bounded_dfs, horizon_dfs
from .visit_kernels import visit_tables
from .settings import IDA_CALL_NODES, IDA_LEAVES, IDA_SPLIT, IDA_STREAMS, NODE_COSTS, VISIT_SLOTS


def ida_star(guide: Guide, start: np.ndarray, deadline: float, lower: int) -> tuple[Found | None, int, bool]:
    """(optimal solution or None, proven lower bound, whether the budget ran out).
    ``lower`` is a bound already proven (it seeds the first iteration)."""
    _require_table(guide)
    bound = max(lower, guide.bound(start))
    path = np.zeros(64, np.int64)
    while True:
        if effort.past(deadline):
            return None, bound, True
        # an iteration in one call, with all the budget left (a --time-limit cap is checked between them)
        budget = int(effort.left(deadline) / NODE_COSTS["dfs"]) + 1
        if bound >= len(path):
            path = np.zeros(2 * bound, np.int64)
        keys, meta = visit_tables(1, VISIT_SLOTS)
        length, nodes, nxt = bounded_dfs(start, guide.tables, bound, budget, path, keys[0], meta[0])
        effort.charge("dfs", nodes)
        if length >= 0:
            return Found([int(m) for m in path[:length]], None, 0), length, False
        if length == -2:
            return None, bound, True
        bound = nxt


def ida_to_tree(
    guide: Guide, start: np.ndarray, deadline: float, lower: int, upper: int | None = None
) -> tuple[Found | None, int, bool]:
    """IDA* that hands over to the stored tree of height D: an iteration with
    bound b searches only b - D moves deep and looks the states there up in
    the tree. Any optimal path of length b passes, b - D moves in, a class at
    distance exactly D, which the tree holds, so a hit is an optimal answer
    and a miss everywhere proves the distance is more than b. The tree
    replaces the last D levels of plain IDA*; the search runs in
    ``IDA_STREAMS`` parallel streams. (optimal solution or None, proven lower bound, budget ran out);
    ``start``'s class must not be in the tree. With ``upper``, the length
    of an answer already found, it stops once every shorter bound is
    searched: (None, ``upper``, False) proves that answer optimal."""
    _require_table(guide)
    bound = max(lower, guide.bound(start), guide.tree.height + 1)
    while True:
        if upper is not None and bound >= upper:
            return None, upper, False
        found, nxt, timed_out = search_bound(guide, start, bound, deadline)
        if timed_out:
            return None, bound, True
        if found is not None:
            return found, found.length, False
        bound = nxt


def search_bound(
    guide: Guide,
    start: np.ndarray,
    bound: int,
    deadline: float,
    share: int = 0,
    shares: int = 1,
    split: int = IDA_SPLIT,
    visits=None,
) -> tuple[Found | None, int, bool]:
    """One iteration of :func:`ida_to_tree`, bound ``bound`` (at least the
    tree's height + 1): (an answer of at most ``bound`` moves or None, the
    next bound, whether the budget ran out first). With ``shares`` > 1 it
    searches only share ``share`` of the nodes at depth ``split`` (the
    shares of one bound together search all of it): the iteration has an
    answer if any share has one, and its next bound is the smallest of
    theirs (:mod:`.spread`, :mod:`.shares`). ``visits``: visit tables
    (:func:`.visit_kernels.visit_tables`) to carry on from, as the shares
    of one bound may (every state they hold was searched in full without an
    answer); new ones without."""
    eg = guide.tree
    horizon = bound - eg.height
    ncells, lanes = start.shape[0], IDA_STREAMS
    leaves = np.empty((lanes, IDA_LEAVES, ncells), np.uint8)
    counts = np.zeros(lanes, np.int64)
    stacks = np.empty((lanes, horizon + 1, ncells), np.uint8)
    stacks[:, 0] = start
    nextms = np.zeros((lanes, horizon + 1), np.int64)
    skips = np.zeros((lanes, horizon + 1), np.int64)
    keys, meta = visit_tables(lanes, VISIT_SLOTS) if visits is None else visits
    paths = np.zeros((lanes, horizon), np.int64)
    depths = np.zeros(lanes, np.int64)
    seen = np.zeros((lanes, 1), np.int64)
    pss = guide.pair_stacks(lanes, horizon + 1, start)
    found_paths = np.empty((lanes, IDA_LEAVES, horizon), np.int64)
    cut, any_leaf = 1 << 30, False
    while (depths >= 0).any():
        if effort.past(deadline):
            return None, bound, True
        nodes, nxt = horizon_dfs(
            guide.tables,
            bound,
            horizon,
            stacks,
            nextms,
            skips,
            paths,
            depths,
            leaves,
            found_paths,
            counts,
            IDA_CALL_NODES,
            seen,
            pss,
            keys,
            meta,
            split,
            share,
            shares,
        )
        effort.charge("dfs", nodes)
        cut = min(cut, int(nxt))
        if counts.any():
            any_leaf = True
            got = np.concatenate([leaves[t, : counts[t]] for t in range(lanes)])
            moves = np.concatenate([found_paths[t, : counts[t]] for t in range(lanes)])
            depth = eg.depth(got)
            if (depth >= 0).any():
                i = int(np.flatnonzero(depth >= 0)[np.argmin(depth[depth >= 0])])
                return Found([int(m) for m in moves[i]], got[i].copy(), int(depth[i])), bound, False
    # a state at the horizon that the tree does not hold is more than its height away: the next
    # bound is one more; without one, the smallest f cut
    return None, (bound + 1 if any_leaf else cut), False


def _require_table(guide: Guide) -> None:
    if not guide.has_table:
        raise NotBuiltError(
            f"--method optimal needs the {guide.n}x{guide.n} gather table: it exists for "
            "4x4 and 6x6 once the two-colour database is built "
            f"(`wsdb build --n {guide.n} --c 2`)"
        )
