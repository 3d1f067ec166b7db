"""Numba kernels of the pair bound (:mod:`wsdb.solver.pairs`): a state's
distance in the grid where its colours are merged into two halves of
18 cells, read from that grid's two-bit census.

The census keeps each state's distance mod 3 (:mod:`wsdb.engine.subset_kernels`).
A move changes a distance by at most one, so a search that knows the exact
distance of a state knows it for each child from the child's code alone:
the one of d - 1, d, d + 1 that the code names. Only the start's distance
is walked out in full (:func:`pair_distance`), down the codes to the goal.
Breyer and Korf read pattern databases kept mod 3 this way ("1.6-bit
pattern databases", AAAI 2010).

A partition ``k`` is a row of ``psides``: ``psides[k, v]`` is 1 where colour
v is on the side whose cells make the state's word (the census numbers a
subset of cells and its complement alike where the goal is symmetric).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..engine.compiling import announce_compiles
from ..engine.intrinsics import prefetch
from ..engine.packed_kernels import FIELDS
from ..engine.subset_kernels import code_of, index_of, moved

announce_compiles()  # a compile of over 2 s says so (wsdb.notices)


@njit(cache=True, inline="always")
def pair_word(cells, k, st):
    """Partition k's word of a state: the cells of its counted side."""
    w = np.uint64(0)
    for p in range(cells.shape[0]):
        if st.psides[k, cells[p]]:
            w |= np.uint64(1) << np.uint64(p)
    return w


@njit(cache=True, inline="always")
def pair_index(cells, k, st):
    """The census index of partition k's image of a state."""
    return index_of(pair_word(cells, k, st), st.prank, st.plast, st.pfull)


@njit(cache=True)
def pair_distance(cells, k, st):
    """The exact distance of partition k's image of a state: walked down the
    census, each step to a neighbour whose code is one less mod 3, until a
    goal index."""
    cur = cells.copy()
    child = np.empty_like(cur)
    d = 0
    while True:
        i = pair_index(cur, k, st)
        for r in st.proots:
            if i == r:
                return d
        want = (np.int64(code_of(st.pair, i)) + 2) % 3
        for m in range(st.moves.shape[0]):
            for j in range(cur.shape[0]):
                child[j] = cur[st.moves[m, j]]
            if np.int64(code_of(st.pair, pair_index(child, k, st))) == want:
                break
        cur[:] = child
        d += 1


class PairStack(NamedTuple):
    """A depth-first search's pair state, one row per depth: each
    partition's exact distance and word of the state there, and, for every
    move, the word and census index of the child it makes (read in a batch
    when the search enters the state, :func:`pair_kids`).

    The kernels that write one are not inlined at numba's level
    (``inline="always"``): inlined into a function itself inlined, their
    writes through the tuple were lost (numba 0.68; LLVM still inlines them)."""

    dist: np.ndarray  # (D, K) int64
    words: np.ndarray  # (D, K) uint64
    kid_words: np.ndarray  # (D, M, K) uint64
    kid_index: np.ndarray  # (D, M, K) int64


@njit(cache=True)
def pair_stack(depths, moves, partitions):
    """An empty :class:`PairStack`."""
    return PairStack(
        np.zeros((depths, partitions), np.int64),
        np.zeros((depths, partitions), np.uint64),
        np.zeros((depths, moves, partitions), np.uint64),
        np.zeros((depths, moves, partitions), np.int64),
    )


@njit(cache=True)
def pair_start(cells, st, ps):
    """Row 0 of a pair stack from the start state: its words and exact
    distances (:func:`pair_distance`)."""
    for k in range(st.psides.shape[0]):
        ps.words[0, k] = pair_word(cells, k, st)
        ps.dist[0, k] = pair_distance(cells, k, st)


@njit(cache=True)  # not inline="always": see PairStack
def pair_kids(st, ps, depth, first):
    """Every unpruned child's words and census indices at ``depth``, their
    table lines asked for at once: a state's children are read together,
    so their cache misses overlap instead of following one another."""
    nm = st.moves.shape[0]
    for m in range(nm):
        if st.blocked[first, st.family[m]]:
            continue
        for k in range(st.psides.shape[0]):
            w = moved(ps.words[depth, k], st.pmove, m)
            ps.kid_words[depth, m, k] = w
            i = index_of(w, st.prank, st.plast, st.pfull)
            ps.kid_index[depth, m, k] = i
            prefetch(st.pair, i // FIELDS)


@njit(cache=True)  # not inline="always": see PairStack
def pair_child(st, ps, depth, m, limit):
    """The exact distances of move m's child of the state at ``depth`` into
    row depth + 1 (its words too), the largest. The partitions after one
    over ``limit`` are not read (a search cuts the child whatever they
    are), and the largest is then that one."""
    top = 0
    for k in range(st.psides.shape[0]):
        before = ps.dist[depth, k]
        code = np.int64(code_of(st.pair, ps.kid_index[depth, m, k]))
        d = before + (code - before % 3 + 4) % 3 - 1
        ps.dist[depth + 1, k] = d
        ps.words[depth + 1, k] = ps.kid_words[depth, m, k]
        if d > top:
            top = d
            if top > limit:
                break
    return top
