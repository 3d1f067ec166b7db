"""Numba kernels of the visit table: IDA* remembering the states it has
already searched from, so that a state reached again by another sequence is
not searched again (Reinefeld and Marsland, "Enhanced iterative-deepening
search", IEEE PAMI 1994, who call it a transposition table; wsdb's
*transpositions* are the cell swaps of :mod:`.transpositions`, so here it
is the *visit table*).

The pruned move order (:data:`wsdb.puzzle.moves.BLOCKED`) keeps one of the
sequences that commute or merge, but a state has many more: on 6x6 a level
of the tree is about 9.5 times the one before, while pruned sequences grow
by about 12.1 a move. IDA* searches every sequence; the table cuts the
repeats where it remembers them.

A slot holds a state exactly (two bits a cell, so no two states share a
key: a hash collision can only cost a search, never cut one wrongly) and
``meta = (g + 1) << 8 | families``: the fewest moves ``g`` it was reached
with in this iteration and the move families searched from it then. A
state reached again with at least ``g`` moves searches only the families
not searched yet: whatever the others reach within its bound, the first
visit reached with as many moves left or more. The families matter because
the pruned order lets a state's children depend on the move it was reached
by. A newer state takes a full slot over (the search is depth-first, so
the newest are the likeliest to come again).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine.compiling import announce_compiles

announce_compiles()  # a compile of over 2 s says so (wsdb.notices)


def visit_tables(streams: int, slots: int) -> tuple[np.ndarray, np.ndarray]:
    """Empty visit tables, one a stream: keys (streams, slots, 2) uint64 and
    meta (streams, slots) uint32; ``slots`` a power of two, or 0 for none.
    A search makes new ones each iteration: a state searched in one is
    searched again in the next, with one move more to spend."""
    return np.zeros((streams, slots, 2), np.uint64), np.zeros((streams, slots), np.uint32)


@njit(cache=True, inline="always")
def _key(cells):
    """A state as two words, two bits a cell (up to 64 cells; colours 1-4
    as 1, 2, 3, 0, still distinct)."""
    w0 = np.uint64(0)
    w1 = np.uint64(0)
    for p in range(cells.shape[0]):
        v = np.uint64(cells[p] & 3)
        if p < 32:
            w0 |= v << np.uint64(2 * p)
        else:
            w1 |= v << np.uint64(2 * (p - 32))
    return w0, w1


@njit(cache=True)
def visit(keys, meta, cells, g, families):
    """A state reached with ``g`` moves, whose moves of the families in the
    bit mask ``families`` the search would try next. Returns the families
    to skip (searched from it before with as many moves left), or -1 when
    that is all of them."""
    w0, w1 = _key(cells)
    x = w0 * np.uint64(0x9E3779B97F4A7C15) ^ (w1 + np.uint64(0x632BE59BD9B4E019)) * np.uint64(0xD6E8FEB86659FD93)
    x ^= x >> np.uint64(29)
    slot = np.int64(x & np.uint64(keys.shape[0] - 1))
    m = np.int64(meta[slot])
    if m != 0 and keys[slot, 0] == w0 and keys[slot, 1] == w1:
        g0 = (m >> 8) - 1
        done = m & 0xFF
        if g0 <= g:
            if families & ~done == 0:
                return -1
            if g0 == g:
                meta[slot] = np.uint32(((g + 1) << 8) | done | families)
            return done
    keys[slot, 0] = w0
    keys[slot, 1] = w1
    meta[slot] = np.uint32(((g + 1) << 8) | families)
    return 0
