"""An independent checker: breadth-first search over every raw state, with
the moves and the 32 maps written from the rules directly (docs/rules.md),
using no wsdb code. Small grids only (4x4 two and three colours)."""

import itertools
from functools import lru_cache
from math import factorial
from typing import Callable, NamedTuple

import numpy as np


class Brute(NamedTuple):
    """What the brute-force BFS knows about every state of one grid."""

    states: list  # states per depth
    classes: list  # classes per depth
    distance: Callable  # cells -> distance
    canon: np.ndarray  # per state (in BFS order): the code of its class's smallest member
    depth: np.ndarray  # per state: its distance
    decode: Callable  # code -> cells (the representative of a canonical code)
    images: Callable  # cells -> every image under the maps and colour permutations


def rule_moves(n):
    """Every move as a cell permutation (new[i] = old[p[i]]), from the rules."""
    h = n // 2
    r, j = np.divmod(np.arange(n * n), n)
    moves = []
    for k in range(1, n):
        moves += [
            np.where(r < h, r * n + (j + k) % n, r * n + j),
            np.where(r >= h, r * n + (j + k) % n, r * n + j),
            np.where(j < h, ((r + k) % n) * n + j, r * n + j),
            np.where(j >= h, ((r + k) % n) * n + j, r * n + j),
        ]
    return moves


def levels_from(n, goals):
    """States per distance from any of ``goals`` (S, n*n), by BFS over raw
    states with the moves of the rules: for grids wsdb does not name (a
    coarser grid with colours merged)."""
    return [len(level) for level in level_states(n, goals)]


def level_states(n, goals):
    """:func:`levels_from`'s levels themselves, one (k, n*n) array each."""
    moves = rule_moves(n)
    frontier = np.unique(np.asarray(goals, dtype=np.uint8), axis=0)
    weights = (int(frontier.max()) + 1) ** np.arange(n * n, dtype=np.int64)
    seen = np.unique(frontier.astype(np.int64) @ weights)
    out = []
    while len(frontier):
        out.append(frontier)
        kids = np.concatenate([frontier[:, m] for m in moves])
        codes, first = np.unique(kids.astype(np.int64) @ weights, return_index=True)
        fresh = ~np.isin(codes, seen)
        frontier = kids[first[fresh]]
        seen = np.union1d(seen, codes[fresh])
    return out


@lru_cache(maxsize=None)
def brute_force(n, c) -> Brute:
    """BFS over every raw state from all solved states, with moves and the
    32 maps written from the rules directly (no wsdb code). A state's code
    reads its cells as base-c digits, cell 0 first, so the smallest code of
    a class is its lexicographically smallest member: wsdb's representative."""
    h, q = n // 2, (n // 2) ** 2
    r, j = np.divmod(np.arange(n * n), n)
    moves = rule_moves(n)
    gens = [(n - 1 - j) * n + r, r * n + (n - 1 - j), ((r + h) % n) * n + j, r * n + (j + h) % n]
    maps = {tuple(range(n * n))}
    while True:
        more = {tuple(np.asarray(m)[g]) for m in maps for g in gens} | maps
        if more == maps:
            break
        maps = more
    maps = [np.array(m) for m in maps]
    k = {2: 1, 3: 2, 4: 4}[c]
    sigmas = [np.array(list(s) + list(range(k, c)), dtype=np.int64) for s in itertools.permutations(range(k))]

    def code(cells):
        return coded(np.asarray(cells).T)

    def coded(columns, order=range(n * n)):
        """The codes of the states whose cell i holds row ``order[i]`` of
        ``columns`` (a row per cell): Horner's rule a row at a time, as an
        int64 matrix product has no fast path in numpy."""
        out = np.zeros(columns.shape[1], dtype=np.int64)
        for i in order:
            out *= c
            out += columns[i]
        return out

    def decoded(codes):
        cells = np.empty((len(codes), n * n), dtype=np.uint8)
        for i in range(n * n - 1, -1, -1):
            codes, cells[:, i] = np.divmod(codes, c)
        return cells

    quads = (r >= h) * 2 + (j >= h)
    want = [1] * (c - 1) + [5 - c]
    solved = np.array(
        [
            np.array(qs)[quads]
            for qs in itertools.product(range(c), repeat=4)
            if [qs.count(x) for x in range(c)] == want
        ],
        dtype=np.uint8,
    )
    seen = np.zeros(c ** (n * n), dtype=bool)  # by code: small grids only
    seen[code(solved)] = True
    frontier, states, classes, by_depth, canons = solved, [], [], [], []
    while len(frontier):
        states.append(len(frontier))
        by_depth.append(np.sort(code(frontier)))
        cells = np.ascontiguousarray(frontier.T)  # a row per cell
        relabelled = [s[cells] for s in sigmas]
        canon = coded(relabelled[0])
        for g in maps:
            for rows in relabelled:
                np.minimum(canon, coded(rows, g), out=canon)
        canons.append(canon)
        classes.append(len(np.unique(canon)))
        kids = np.concatenate([coded(cells, m) for m in moves])
        kids = np.unique(kids[~seen[kids]])  # the next level in code order
        seen[kids] = True
        frontier = decoded(kids)
    assert sum(states) == factorial(n * n) // (factorial(q) ** (c - 1) * factorial((5 - c) * q))

    def distance(cells):
        x = code(np.asarray(cells)[None])[0]
        return next(d for d, codes in enumerate(by_depth) if x in codes[np.searchsorted(codes, x) :][:1])

    def decode(x):
        return np.array([(int(x) // c ** (n * n - 1 - i)) % c for i in range(n * n)], np.uint8)

    def images(cells):
        cells = np.asarray(cells)
        return np.array([s[cells[g]] for g in maps for s in sigmas])

    depth = np.concatenate([np.full(k, d) for d, k in enumerate(states)])
    return Brute(states, classes, distance, np.concatenate(canons), depth, decode, images)
