"""Optimal solving: IDA* under the gather bound (Korf's iterative deepening
A*, as used for Rubik's cube with pattern databases).

Each iteration is a depth-first search that cuts a branch as soon as moves
made plus the largest gather distance exceed the bound; the next bound is
the smallest value that was cut. The first solution is optimal, and every
finished iteration proves a lower bound, which is what is reported when time
runs out. Practical for 6x6 two and three colours (README, "Solver").
"""
from __future__ import annotations

import time

import numpy as np

from ..errors import WsdbError
from .guide import Found, Guide
from .kernels import bounded_dfs

NODES_PER_SECOND = 2_500_000   # measured 3.0-3.5 M/s on 6x6 here; budgets keep the deadline


def ida_star(guide: Guide, start: np.ndarray, deadline: float, lower: int) -> tuple[Found | None, int, bool]:
    """(optimal solution or None, proven lower bound, whether time ran out).
    ``lower`` is a bound already proven (it seeds the first iteration)."""
    if not guide.has_table:
        raise WsdbError(f"--method optimal needs the {guide.n}x{guide.n} gather table: it exists for "
                        "4x4 and 6x6 once the two-colour database is built "
                        f"(`wsdb build --n {guide.n} --c 2`)")
    bound = max(lower, guide.bound(start))
    path = np.zeros(64, np.int64)
    while True:
        left = deadline - time.perf_counter()
        if left <= 0:
            return None, bound, True
        budget = int(left * NODES_PER_SECOND)
        if bound >= len(path):
            path = np.zeros(2 * bound, np.int64)
        length, _, nxt = bounded_dfs(start, guide.tables, bound, budget, path)
        if length >= 0:
            return Found([int(m) for m in path[:length]], None, 0), length, False
        if length == -2:
            return None, bound, True
        bound = nxt
