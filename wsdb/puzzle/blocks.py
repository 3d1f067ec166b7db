"""Block systems of a puzzle's moves: partitions of the cells that every
move carries block onto block (pure numpy).

On Rubik's Slide 4x4 hard mode every move takes a cell to a neighbour, so
the two colour classes of a checkerboard are blocks: every move swaps them.
A state of distinct pieces is then a choice of which block holds which
home block's pieces, and a permutation inside each block, which numbers the
8!^2 = 1,625,702,400 states with far fewer unused indices than 16! would
(:mod:`wsdb.engine.ranking`).

Blocks are found, not declared, by the textbook algorithm for the smallest
block holding two given points (Atkinson 1975): join the two, and keep
joining the images of every joined pair under every move until nothing
changes. The result is an equivalence the moves preserve, i.e. a block
system.
"""

from __future__ import annotations

import math

import numpy as np


def smallest_system(moves: np.ndarray, a: int, b: int) -> list[list[int]]:
    """The finest partition of the cells preserved by ``moves`` (cell
    permutations, ``new[i] = old[p[i]]``) that puts cells a and b together."""
    n = moves.shape[1]
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    pending = [(a, b)]
    parent[find(b)] = find(a)
    while pending:
        x, y = pending.pop()
        for p in moves:
            # p sends the piece on cell p[i] to cell i; preserving the
            # equivalence under p is the same as under its inverse
            u, v = int(p[x]), int(p[y])
            ru, rv = find(u), find(v)
            if ru != rv:
                parent[rv] = ru
                pending.append((u, v))
    groups: dict[int, list[int]] = {}
    for x in range(n):
        groups.setdefault(find(x), []).append(x)
    return sorted(groups.values())


def table_size(blocks: list[list[int]], even: bool) -> int:
    """Indices a ranking by these blocks uses: m! block arrangements times
    s! arrangements inside each of the m blocks of s cells, halved when
    every state is an even permutation."""
    m, s = len(blocks), len(blocks[0])
    size = math.factorial(m) * math.factorial(s) ** m
    return size // 2 if even and s >= 2 else size


def best_blocks(moves: np.ndarray) -> list[list[int]]:
    """The block system of equal blocks that numbers the states with the
    fewest indices (the whole board as one block when there is none)."""
    n = moves.shape[1]
    even = all_even(moves)
    best = [list(range(n))]
    for b in range(1, n):
        blocks = smallest_system(moves, 0, b)
        if len({len(g) for g in blocks}) == 1 and table_size(blocks, even) < table_size(best, even):
            best = blocks
    return best


def parity(p: np.ndarray) -> int:
    """0 for an even permutation, 1 for an odd one (by its cycles)."""
    seen = np.zeros(len(p), dtype=bool)
    swaps = 0
    for start in range(len(p)):
        length = 0
        x = start
        while not seen[x]:
            seen[x] = True
            x = int(p[x])
            length += 1
        swaps += max(length - 1, 0)
    return swaps % 2


def all_even(moves: np.ndarray) -> bool:
    """Whether every move is an even permutation (then so is every state)."""
    return all(parity(p) == 0 for p in moves)
