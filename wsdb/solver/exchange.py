"""Cell exchanges: a construction that solves every state (thesis §4.2,
Figure 4.5, after Burger's result that any two cells can be exchanged).

Two sequences move only a few cells and are found by search, not typed in:

* a double transposition ``D`` (16 moves on every grid size): the
  commutator of two single-move commutators, swapping two pairs of cells;
* a 3-cycle ``C`` (34 moves): ``D`` times a one-move conjugate of ``D``.

Conjugating by a setup sequence S (S, then the macro, then S reversed and
inverted) applies the macro to any cells; the shortest setups are tabulated
by breadth-first search over the positions of the two (three) tracked cells.
The greedy loop picks, among all exchanges, the one that fixes the most
misplaced cells per move; a 3-cycle always fixes at least one, so it ends.
Sequences come out long (hundreds of moves on 8x8): this is the fallback
that guarantees an answer, and the searches shorten what they can first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..puzzle import Puzzle, wrapslide
from ..puzzle.moves import FAMILIES, HORIZONTAL, index, invert, permutation_of, simplify


@dataclass(frozen=True)
class Macro:
    seq: tuple[int, ...]
    slots: tuple[int, ...]  # cells the macro moves, in the order the tables track


@lru_cache(maxsize=None)
def macros(n: int) -> tuple[Macro, Macro]:
    """(double transposition, 3-cycle) for the n x n grid, found by search."""
    puzzle = wrapslide(n, 2)
    ident = np.arange(puzzle.ncells)
    singles = [index(n, f"{fam}{k}") for fam in FAMILIES for k in (1, n - 1)]
    horizontal = {m: puzzle.move_family[m] in HORIZONTAL for m in singles}
    comms = [
        [x, y, int(puzzle.move_inverse[x]), int(puzzle.move_inverse[y])]
        for x in singles
        for y in singles
        if horizontal[x] != horizontal[y]
    ]
    best: tuple[list[int], np.ndarray, np.ndarray] | None = None
    for one in comms:
        for two in comms:
            seq = one + two + invert(n, one) + invert(n, two)
            p = permutation_of(puzzle.moves, seq)
            moved = np.flatnonzero(p != ident)
            if len(moved) == 4 and (best is None or len(seq) < len(best[0])):
                best = (seq, moved, p)
    assert best is not None, "two commutators of a row and a column move make a double transposition"
    seq, moved, p = best
    a = int(moved[0])
    b = int(p[a])  # D swaps a <-> b and the other two
    c, d = (int(x) for x in moved if x not in (a, b))
    double = Macro(tuple(seq), (a, b, c, d))
    for s in range(len(puzzle.moves)):
        seq3 = seq + [s] + seq + [int(puzzle.move_inverse[s])]
        p3 = permutation_of(puzzle.moves, seq3)
        moved = np.flatnonzero(p3 != ident)
        if len(moved) == 3:
            u = int(moved[0])
            v = int(p3[u])  # content of v moves to u
            w = int(p3[v])
            return double, Macro(tuple(seq3), (u, v, w))
    raise RuntimeError(f"no 3-cycle found for n={n}")


@lru_cache(maxsize=None)
def setups(n: int, slots: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Breadth-first search over where the tracked cells are: the first two
    of a double transposition's four slots, or all three of a 3-cycle's. For
    each placement: its distance to the slots, the first move of a shortest
    setup, the placement that move leads to, and (for pairs) where the cells
    that the setup brings to the other two slots start."""
    puzzle = wrapslide(n, 2)
    size = puzzle.ncells
    k = 2 if len(slots) == 4 else 3
    total = size**k
    dist = np.full(total, -1, np.int16)
    first = np.full(total, -1, np.int16)
    nxt = np.full(total, -1, np.int64)
    extra = np.full((total, 2), -1, np.int16)

    def index(pos):
        out = np.zeros(len(pos[0]), np.int64)
        for p in pos:
            out = out * size + p
        return out

    start = index([np.array([s]) for s in slots[:k]])
    dist[start] = 0
    extra[start] = slots[k : k + 2] if k == 2 else -1
    front = start
    depth = 0
    while front.size:
        depth += 1
        pos = np.stack(np.unravel_index(front, (size,) * k))
        new_front = []
        for m, p in enumerate(puzzle.moves):
            # a cell at x reaches y = inverse(p)[x] under m; so from p[y] it reaches y
            cand = index(list(p[pos]))
            fresh = dist[cand] < 0
            cand, src = cand[fresh], front[fresh]
            cand, u = np.unique(cand, return_index=True)
            src = src[u]
            dist[cand] = depth
            first[cand] = m
            nxt[cand] = src
            if k == 2:
                extra[cand] = p[extra[src]]
            new_front.append(cand)
        front = np.unique(np.concatenate(new_front))
    return dist, first, nxt, extra


def _path(first: np.ndarray, nxt: np.ndarray, i: int) -> list[int]:
    out = []
    while first[i] >= 0:
        out.append(int(first[i]))
        i = int(nxt[i])
    return out


def _eq(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return (x == y).astype(np.int64)


def nearest_goal(puzzle: Puzzle, cells: np.ndarray) -> np.ndarray:
    """The solved state agreeing with ``cells`` on the most cells."""
    return puzzle.solved[np.argmax((puzzle.solved == cells).sum(axis=1))]


def solve_by_exchanges(puzzle: Puzzle, cells: np.ndarray) -> list[int]:
    """A move sequence solving ``cells`` (always succeeds; not short)."""
    cur = cells.copy()
    out: list[int] = []
    while not puzzle.is_solved(cur):
        seq = exchange_step(puzzle, cur)
        out += seq
        cur = puzzle.apply(cur, seq)
    return simplify(puzzle.n, out)


def exchange_step(puzzle: Puzzle, cur: np.ndarray) -> list[int]:
    """One conjugated macro, the one fixing the most misplaced cells (with
    respect to the nearest solved state) per move; it fixes at least one."""
    n, size = puzzle.n, puzzle.ncells
    double, cycle = macros(n)
    d2, f2, x2, e2 = setups(n, double.slots)
    d3, f3, x3, _ = setups(n, cycle.slots)
    goal = nearest_goal(puzzle, cur)
    pos = np.arange(size)
    wrong = np.flatnonzero(cur != goal)
    ok = (cur == goal).astype(np.int64)
    best: tuple[float, Macro | None, int | None] = (0.0, None, None)  # (gain per move, macro, placement index)
    # double transpositions: a <-> b plus the collateral pair c <-> d
    a, b = (x.ravel() for x in np.meshgrid(wrong, pos, indexing="ij"))
    keep = (cur[b] == goal[a]) & (a != b)
    a, b = a[keep], b[keep]
    i2 = a * size + b
    c, d = e2[i2, 0].astype(np.int64), e2[i2, 1].astype(np.int64)
    gain = 1 + _eq(cur[a], goal[b]) - ok[b] + _eq(cur[d], goal[c]) - ok[c] + _eq(cur[c], goal[d]) - ok[d]
    cost = np.where(d2[i2] >= 0, 2 * d2[i2] + len(double.seq), 1 << 20)
    if gain.size:
        j = int(np.argmax(gain / cost))
        if gain[j] > 0:
            best = (gain[j] / cost[j], double, int(i2[j]))
    # 3-cycles a <- b <- c <- a, c any other cell: never a loss of progress
    a0 = int(wrong[0])
    bs = np.flatnonzero((cur == goal[a0]) & (pos != a0))
    bb, cc = (x.ravel() for x in np.meshgrid(bs, pos, indexing="ij"))
    keep = (cc != a0) & (cc != bb)
    bb, cc = bb[keep], cc[keep]
    i3 = (a0 * size + bb) * size + cc
    gain3 = 1 + _eq(cur[cc], goal[bb]) - ok[bb] + _eq(cur[a0], goal[cc]) - ok[cc]
    cost3 = np.where(d3[i3] >= 0, 2 * d3[i3] + len(cycle.seq), 1 << 20)
    j = int(np.argmax(gain3 / cost3))
    if gain3[j] > 0 and gain3[j] / cost3[j] > best[0]:
        best = (gain3[j] / cost3[j], cycle, int(i3[j]))
    _, macro, i = best
    assert macro is not None and i is not None, "a 3-cycle always gains: some macro is chosen"
    setup = _path(f2, x2, i) if macro is double else _path(f3, x3, i)
    return setup + list(macro.seq) + invert(n, setup)
