"""Numba kernels of the ranked table (:mod:`wsdb.engine.ranking`): number
a state of distinct pieces by its place in a block system, and grow the
table of distances one level at a time.

A state is ``at[cell]`` = the home cell of the piece on that cell. Its
index is, in mixed radix: the arrangement of the blocks (which home block's
pieces fill block k, a permutation of m ranked by its Lehmer code), then for
each block the order of its pieces (a permutation of s, ranked the same
way). When every state is even, the last block's rank is halved: Lehmer
ranks 2q and 2q+1 differ by a swap of the last two entries, so exactly one
of them has the right parity.

The table holds one byte per index: the distance, or ``UNSEEN``. A level is
grown forwards (expand every state at distance d) while the frontier is
small, backwards (look for a neighbour at distance d from every unseen
state) once the unseen are fewer; each write sets an unseen byte to d+1,
the same value from whichever thread, so the parallel loops need no locks.
A move acts on each digit of the index through a table
(:func:`move_tables`), so a neighbour's index is a few lookups.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .compiling import announce_compiles

announce_compiles()  # a compile of over 2 s says so (wsdb.notices)

UNSEEN = 255
CHUNKS = 4096  # work items per level: enough to balance the threads
# Threads take contiguous runs of work items, but a level's states can sit
# in one part of the index space (on Rubik's Slide 4x4 hard mode, every
# move swaps the checkerboard blocks, so a level lies in one half): item c
# works on the part (c * SPREAD) mod CHUNKS, which scatters each thread's
# items over the whole table (SPREAD odd: a bijection mod a power of two).
SPREAD = 2731


@njit(cache=True)
def _lehmer(p, s):
    r = 0
    for k in range(s):
        c = 0
        pk = p[k]
        for j in range(k + 1, s):
            c += p[j] < pk  # no branch: the comparisons are unpredictable
        r = r * (s - k) + c
    return r


@njit(cache=True)
def _unlehmer(r, s, fact, out, used):
    for k in range(s):
        used[k] = False
    for k in range(s):
        f = fact[s - 1 - k]
        c = r // f
        r -= c * f
        for x in range(s):
            if not used[x]:
                if c == 0:
                    out[k] = x
                    used[x] = True
                    break
                c -= 1


@njit(cache=True)
def _odd(at, seen):
    n = at.shape[0]
    for i in range(n):
        seen[i] = False
    swaps = 0
    for i in range(n):
        x = i
        length = 0
        while not seen[x]:
            seen[x] = True
            x = at[x]
            length += 1
        if length > 1:
            swaps += length - 1
    return swaps & 1


@njit(cache=True)
def rank_one(at, blocks, cell_block, cell_pos, fact, halve, loc):
    """The index of one state ``at`` (see the module docstring)."""
    m, s = blocks.shape
    for k in range(m):
        loc[k] = cell_block[at[blocks[k, 0]]]
    r = _lehmer(loc, m)
    for k in range(m):
        for p in range(s):
            loc[p] = cell_pos[at[blocks[k, p]]]
        rk = _lehmer(loc, s)
        if halve and k == m - 1:
            r = r * (fact[s] // 2) + rk // 2
        else:
            r = r * fact[s] + rk
    return r


@njit(cache=True)
def unrank_one(idx, blocks, fact, halve, at, loc, arr, used, seen, ranks):
    """Fill ``at`` with the state of index ``idx`` (the inverse of
    rank_one); the other arrays are scratch space."""
    m, s = blocks.shape
    tail = fact[s] // 2 if halve else fact[s]
    ranks[m - 1] = (idx % tail) * (2 if halve else 1)
    idx //= tail
    for k in range(m - 2, -1, -1):
        ranks[k] = idx % fact[s]
        idx //= fact[s]
    _unlehmer(idx, m, fact, arr, used)
    for k in range(m):
        _unlehmer(ranks[k], s, fact, loc, used)
        home = arr[k]
        for p in range(s):
            at[blocks[k, p]] = blocks[home, loc[p]]
    if halve and _odd(at, seen):
        a, b = blocks[m - 1, s - 2], blocks[m - 1, s - 1]
        at[a], at[b] = at[b], at[a]


@njit(cache=True, parallel=True)
def rank_many(states, blocks, cell_block, cell_pos, fact, halve):
    """Indices of a (K, n) array of states."""
    out = np.empty(states.shape[0], dtype=np.int64)
    for i in prange(states.shape[0]):
        loc = np.empty(max(blocks.shape[0], blocks.shape[1]), dtype=np.int64)
        out[i] = rank_one(states[i], blocks, cell_block, cell_pos, fact, halve, loc)
    return out


@njit(cache=True, parallel=True)
def unrank_many(indices, n, blocks, fact, halve):
    """States (K, n) of an array of indices."""
    out = np.empty((indices.shape[0], n), dtype=np.int64)
    w = max(blocks.shape[0], blocks.shape[1])
    for i in prange(indices.shape[0]):
        loc = np.empty(w, dtype=np.int64)
        arr = np.empty(w, dtype=np.int64)
        used = np.empty(w, dtype=np.bool_)
        seen = np.empty(n, dtype=np.bool_)
        ranks = np.empty(w, dtype=np.int64)
        unrank_one(indices[i], blocks, fact, halve, out[i], loc, arr, used, seen, ranks)
    return out


@njit(cache=True)
def move_tables(blocks, src, pos, fact):
    """What each move does to the index's digits, as tables.

    A move fills block k with the pieces of block ``src[mv, k]``, taking the
    piece at place ``pos[mv, k, q]`` there to place q; so the new order of
    block k is the old order of its source composed with a fixed map, and
    its rank is a table lookup: ``digit[mv, k, r]``. Likewise
    ``arrangement[mv, a]`` for the arrangement of the blocks. ``parity[r]``
    (of a block's order) and ``arr_parity[a]`` (of the cells' permutation
    that moves whole blocks) decide the halved last digit."""
    m, s = blocks.shape
    nmoves = src.shape[0]
    S, A = fact[s], fact[m]
    w = max(m, s)
    digit = np.empty((nmoves, m, S), dtype=np.int32)
    arrangement = np.empty((nmoves, A), dtype=np.int32)
    parity = np.empty(S, dtype=np.uint8)
    arr_parity = np.empty(A, dtype=np.uint8)
    loc = np.empty(w, dtype=np.int64)
    out = np.empty(w, dtype=np.int64)
    used = np.empty(w, dtype=np.bool_)
    seen = np.empty(w, dtype=np.bool_)
    for r in range(S):
        _unlehmer(r, s, fact, loc, used)
        parity[r] = _odd(loc[:s], seen)
        for mv in range(nmoves):
            for k in range(m):
                for q in range(s):
                    out[q] = loc[pos[mv, k, q]]
                digit[mv, k, r] = _lehmer(out, s)
    for a in range(A):
        _unlehmer(a, m, fact, loc, used)
        # whole blocks moved: s parallel copies of the arrangement's permutation
        arr_parity[a] = (_odd(loc[:m], seen) * s) & 1
        for mv in range(nmoves):
            for k in range(m):
                out[k] = loc[src[mv, k]]
            arrangement[mv, a] = _lehmer(out, m)
    return digit, arrangement, parity, arr_parity


@njit(cache=True)
def digits(i, r, S, tail, parity, arr_parity, halve):
    """Split index i into its block orders' ranks (into r, the last one
    restored from its half) and return the blocks' arrangement."""
    m = r.shape[0]
    last = i % tail
    i //= tail
    for k in range(m - 2, -1, -1):
        r[k] = i % S
        i //= S
    if halve:
        odd = arr_parity[i]
        for k in range(m - 1):
            odd ^= parity[r[k]]
        r[m - 1] = 2 * last + (odd ^ parity[2 * last])  # the even one of the pair
    else:
        r[m - 1] = last
    return i


@njit(cache=True)
def neighbour(a, r, mv, S, tail, digit, arrangement, src, halve):
    """The index after move mv of the state with arrangement a and ranks r."""
    m = r.shape[0]
    y = np.int64(arrangement[mv, a])
    for k in range(m - 1):
        y = y * S + digit[mv, k, r[src[mv, k]]]
    return y * tail + digit[mv, m - 1, r[src[mv, m - 1]]] // (2 if halve else 1)


@njit(cache=True, parallel=True)
def neighbours_many(indices, digit, arrangement, src, parity, arr_parity, halve):
    """(K, M) the index after each move of each index."""
    nmoves, m, S = digit.shape
    tail = S // 2 if halve else S
    out = np.empty((indices.shape[0], nmoves), dtype=np.int64)
    for j in prange(indices.shape[0]):
        r = np.empty(m, dtype=np.int64)
        a = digits(indices[j], r, S, tail, parity, arr_parity, halve)
        for mv in range(nmoves):
            out[j, mv] = neighbour(a, r, mv, S, tail, digit, arrangement, src, halve)
    return out


@njit(cache=True)
def _part(item, size):
    """The index range of work item ``item`` (scattered: see SPREAD)."""
    step = (size + CHUNKS - 1) // CHUNKS
    c = (item * SPREAD) % CHUNKS
    return c * step, min(size, (c + 1) * step)


@njit(cache=True)
def _visit(table, i, y, depth, nxt_depth, backward):
    """The edge from state i to state y. Forwards (i at ``depth``): mark y
    if unseen. Backwards (i unseen): mark i if y is at ``depth``, and say
    so, since one such neighbour is enough."""
    if backward:
        if table[y] == depth:
            table[i] = nxt_depth
            return True
    elif table[y] == UNSEEN:
        table[y] = nxt_depth
    return False


@njit(cache=True, parallel=True, nogil=True)
def grow_level(table, depth, backward, digit, arrangement, src, parity, arr_parity, halve):
    """Mark every state at distance depth+1: forwards from the states at
    ``depth``, or backwards from the unseen ones, with the tables of
    :func:`move_tables` (an index's neighbours cost a few lookups, not an
    unrank and a rank)."""
    size = table.shape[0]
    nmoves, m, S = digit.shape
    tail = S // 2 if halve else S
    cur_depth, nxt_depth = np.uint8(depth), np.uint8(depth + 1)
    want = UNSEEN if backward else cur_depth
    for item in prange(CHUNKS):
        lo, hi = _part(item, size)
        r = np.empty(m, dtype=np.int64)
        for i in range(lo, hi):
            if table[i] != want:
                continue
            a = digits(i, r, S, tail, parity, arr_parity, halve)
            for mv in range(nmoves):
                if _visit(
                    table,
                    i,
                    neighbour(a, r, mv, S, tail, digit, arrangement, src, halve),
                    cur_depth,
                    nxt_depth,
                    backward,
                ):
                    break


@njit(cache=True, parallel=True, nogil=True)
def count_value(table, value):
    """How many bytes of ``table`` equal ``value``."""
    counts = np.zeros(CHUNKS, dtype=np.int64)
    v = np.uint8(value)
    for item in prange(CHUNKS):
        lo, hi = _part(item, table.shape[0])
        k = 0
        for i in range(lo, hi):
            if table[i] == v:
                k += 1
        counts[item] = k
    return counts.sum()


@njit(cache=True)
def first_with_value(table, value, k):
    """The first (up to) k indices whose byte equals ``value``."""
    out = np.empty(k, dtype=np.int64)
    got = 0
    v = np.uint8(value)
    for i in range(table.shape[0]):
        if table[i] == v:
            out[got] = i
            got += 1
            if got == k:
                break
    return out[:got]


@njit(cache=True, parallel=True, nogil=True)
def grow_sliding(table, depth, backward, adjacency, blocks, cell_block, cell_pos, fact):
    """:func:`grow_level` for the sliding-tile puzzle, whose moves depend on
    the state: unrank, swap the blank (the piece whose home is the last
    cell) with each neighbour, rank. One block, all cells (no halving)."""
    size = table.shape[0]
    n = adjacency.shape[0]
    blank = n - 1
    cur_depth, nxt_depth = np.uint8(depth), np.uint8(depth + 1)
    want = UNSEEN if backward else cur_depth
    for item in prange(CHUNKS):
        lo, hi = _part(item, size)
        at = np.empty(n, dtype=np.int64)
        loc = np.empty(n, dtype=np.int64)
        arr = np.empty(n, dtype=np.int64)
        used = np.empty(n, dtype=np.bool_)
        seen = np.empty(n, dtype=np.bool_)
        ranks = np.empty(1, dtype=np.int64)
        for i in range(lo, hi):
            if table[i] != want:
                continue
            unrank_one(i, blocks, fact, False, at, loc, arr, used, seen, ranks)
            b = 0
            while at[b] != blank:
                b += 1
            for k in range(adjacency.shape[1]):
                t = adjacency[b, k]
                if t < 0:
                    continue
                at[b], at[t] = at[t], at[b]
                y = rank_one(at, blocks, cell_block, cell_pos, fact, False, loc)
                at[b], at[t] = at[t], at[b]
                if _visit(table, i, y, cur_depth, nxt_depth, backward):
                    break
