"""Numba kernels of the moves-off check (:mod:`wsdb.bounds.merging`): for a
state of the merged grid, which of its liftings every shortest path (and
every detour) read from the two-bit census (:mod:`wsdb.engine.subset_kernels`)
finishes too far from solved. The census's own kernels stay in the engine;
these serve only the bound, so they live with it.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange
from numba.cpython.unsafe.numbers import trailing_zeros

from ..engine.compiling import announce_compiles
from ..engine.subset_kernels import code_of, descend, index_of, moved

announce_compiles()  # a compile of over 2 s says so (wsdb.notices)


@njit(cache=True)
def _left_on_shortest(
    words,
    cell,
    depth,
    t0,
    t1,
    nleft,
    g0,
    goals,
    cells_of,
    rank_of,
    bad,
    nbad,
    far,
    P,
    R,
    last,
    full,
    moves,
    dest,
    path,
    left,
    start,
    ends,
    relabel,
):
    """:func:`unavoidable`'s shortest paths ``t0`` to ``t1 - 1`` for one
    state, ``nleft`` liftings left before them (-1 before the first path):
    (how many liftings are left, kept in ``left`` packed on the first
    path's goal; that goal ``g0``; the paths walked), the start's cells of
    the packed bits kept in ``start``; -1 where a path did not end on a
    goal (the table is not what it claims)."""
    for t in range(t0, t1):
        end = descend(words, cell, depth, t, P, R, last, full, path)
        g = _goal(goals, end)
        if g < 0:
            return -1, g0, t + 1 - t0
        if nleft < 0:  # the liftings the first path finishes on a bad arrangement, as those arrangements
            _came_from(path, depth, moves, cells_of[g], start)
            g0, nleft = g, nbad[g]
            left[:nleft] = bad[g, :nleft]
        else:
            _carried(path, depth, dest, start, ends)
            nleft = _still_far(left, nleft, ends, rank_of[g], relabel, far[g, 0])
        if nleft <= 0:
            return nleft, g0, t + 1 - t0
    return nleft, g0, t1 - t0


@njit(cache=True)
def _came_from(path, length, moves, cells, start):
    """``start[r]``: the cell whose colour the first ``length`` moves of
    ``path`` carry to cell ``cells[r]`` (a move ``p`` brings cell ``p[i]``'s
    colour to cell i: read backwards from the last move)."""
    for r in range(cells.shape[0]):
        c = cells[r]
        for q in range(length - 1, -1, -1):
            c = moves[path[q], c]
        start[r] = c


@njit(cache=True)
def _carried(path, length, dest, start, ends):
    """``ends[r]``: the cell the first ``length`` moves of ``path`` carry
    cell ``start[r]``'s colour to (``dest[m, c]``: where move m takes
    cell c's colour). Only the merged cells are followed, not the grid."""
    for r in range(start.shape[0]):
        c = start[r]
        for q in range(length):
            c = dest[path[q], c]
        ends[r] = c


@njit(cache=True)
def _still_far(left, nleft, ends, rank_of, relabel, far):
    """Keep in ``left`` the liftings (arrangements packed on the first
    path's goal: bit r stands for the start's cell that this path carries
    to cell ``ends[r]``, packed on its goal as ``rank_of`` numbers the
    goal's merged cells) that this path finishes on an arrangement marked
    in the bit table ``far``: more than the budget less the path's length
    from solved. Where many are left, each moves in one look-up per byte
    (``relabel[k, b]``: where the bits of byte b, bits 8k to 8k + 7, go)
    instead of one per bit set; -1 where a merged cell does not finish on
    a merged cell."""
    width = ends.shape[0]
    for r in range(width):
        if rank_of[ends[r]] < 0:
            return -1
    if nleft * 32 < relabel.size:  # few left: each bit set moved alone (a table costs 256 a byte)
        kept = 0
        for a in range(nleft):
            x = left[a]
            y = np.uint64(0)
            while x:
                y |= np.uint64(1) << np.uint64(rank_of[ends[trailing_zeros(x)]])
                x &= x - np.uint64(1)
            left[kept] = left[a]  # kept where the bit is set, without a branch (see below)
            kept += np.int64((far[y >> np.uint64(6)] >> (y & np.uint64(63))) & np.uint64(1))
        return kept
    for k in range(relabel.shape[0]):
        relabel[k, 0] = 0
        for j in range(8):
            r = 8 * k + j
            bit = np.uint64(1) << np.uint64(rank_of[ends[r]]) if r < width else np.uint64(0)
            half = 1 << j
            for b in range(half):
                relabel[k, b | half] = relabel[k, b] | bit
    # Each lifting is written over the next free place and the place taken
    # only where its bit is set: which ones are kept follows no pattern the
    # processor can predict, and a branch on it cost twice the time (level
    # 12's liftings are kept about one time in four, level 13's one in two).
    kept = 0
    for a in range(nleft):
        x = left[a]
        y = np.uint64(0)
        for k in range(relabel.shape[0]):
            y |= relabel[k, (x >> np.uint64(8 * k)) & np.uint64(255)]
        left[kept] = x
        kept += np.int64((far[y >> np.uint64(6)] >> (y & np.uint64(63))) & np.uint64(1))
    return kept


@njit(cache=True, parallel=True)
def unavoidable(
    words, cells, depth, tries, shortest, goals, cells_of, rank_of, bad, nbad, far, detours, P, R, last, full, moves
):
    """For each coarse state in ``cells`` (each exactly ``depth`` from the
    goal), how many of its liftings every one of ``tries`` shortest paths
    leads into the bad finishing states. A lifting is the set of cells the
    finer grid's first merged colour holds; an arrangement on goal
    ``goals[g]`` is packed as the bits r of the goal's merged cells
    ``cells_of[g, r]`` (``rank_of[g, cell]`` numbers them, -1 off them) that
    it holds; ``bad[g, :nbad[g]]`` are the packed arrangements on goal g
    that are bad: more than the budget less ``depth`` from solved. A path's
    moves carry the colour of cell ``p[i]`` to cell i, so the first path
    sends into a bad arrangement the liftings on the cells its goal's
    merged cells came from; they are kept packed as those arrangements,
    and each later path carries those cells onto its own goal
    (:func:`_still_far`).

    With ``detours``, the liftings left then try detours: a first move to a
    neighbour as far from the goal or one further, then ``tries`` shortest
    paths from there, one or two moves longer in all. A lifting is kept
    only while every path tried, s moves longer than ``depth``, finishes on
    an arrangement marked in the bit table ``far[g, s]``: more than the
    budget less its length from solved. Zero: every lifting has a path
    within the budget; -1: a path did not end on a goal.

    The paths are the same in any order, and so is what they leave (the
    liftings every one of them finishes far); the order decides only how
    soon a state is served. With detours, the first ``shortest`` shortest
    paths are walked, then the detours, then the other shortest paths.
    Returns (the liftings left, the paths walked) per state."""
    out = np.zeros(cells.shape[0], dtype=np.int64)
    walks = np.zeros(cells.shape[0], dtype=np.int64)
    dest = _destinations(moves)
    for s in prange(cells.shape[0]):
        left = np.empty(bad.shape[1], dtype=np.uint64)
        start = np.empty(cells_of.shape[1], dtype=np.int64)
        out[s], _, walks[s] = _left_on_paths(
            words,
            cells[s],
            depth,
            tries,
            shortest,
            goals,
            cells_of,
            rank_of,
            bad,
            nbad,
            far,
            detours,
            P,
            R,
            last,
            full,
            moves,
            dest,
            left,
            start,
        )
    return out, walks


@njit(cache=True)
def _destinations(moves):
    """``dest[m, c]``: the cell move m takes cell c's colour to."""
    dest = np.empty_like(moves)
    for m in range(moves.shape[0]):
        for i in range(moves.shape[1]):
            dest[m, moves[m, i]] = i
    return dest


@njit(cache=True)
def left_liftings(
    words, cell, depth, tries, goals, cells_of, rank_of, bad, nbad, far, detours, P, R, last, full, moves
):
    """The liftings of one coarse state that :func:`unavoidable` counts, as
    words of the cells that hold the first merged colour (empty where a
    path did not end on a goal: :func:`unavoidable` says so)."""
    left = np.empty(bad.shape[1], dtype=np.uint64)
    start = np.empty(cells_of.shape[1], dtype=np.int64)
    nleft, g0, _ = _left_on_paths(
        words,
        cell,
        depth,
        tries,
        tries,
        goals,
        cells_of,
        rank_of,
        bad,
        nbad,
        far,
        detours,
        P,
        R,
        last,
        full,
        moves,
        _destinations(moves),
        left,
        start,
    )
    out = np.zeros(max(nleft, 0), dtype=np.uint64)
    for a in range(out.shape[0]):  # bit r of a packed arrangement: the start's cell start[r]
        for r in range(start.shape[0]):
            if (left[a] >> np.uint64(r)) & np.uint64(1):
                out[a] |= np.uint64(1) << np.uint64(start[r])
    return out


@njit(cache=True)
def _left_on_paths(
    words,
    cell,
    depth,
    tries,
    shortest,
    goals,
    cells_of,
    rank_of,
    bad,
    nbad,
    far,
    detours,
    P,
    R,
    last,
    full,
    moves,
    dest,
    left,
    start,
):
    """:func:`unavoidable` for one state: (its liftings left, kept in
    ``left`` packed on the first path's goal; that goal; the paths
    walked), the start's cells of the packed bits kept in ``start``."""
    nmoves = P.shape[0]
    path = np.empty(depth + 2, dtype=np.int64)
    ends = np.empty(cells_of.shape[1], dtype=np.int64)
    relabel = np.empty(((cells_of.shape[1] + 7) // 8, 256), dtype=np.uint64)
    first = min(tries, max(1, shortest)) if detours else tries  # the first path packs the liftings: shortest
    nleft, g0, walks = _left_on_shortest(
        words,
        cell,
        depth,
        0,
        first,
        -1,
        -1,
        goals,
        cells_of,
        rank_of,
        bad,
        nbad,
        far,
        P,
        R,
        last,
        full,
        moves,
        dest,
        path,
        left,
        start,
        ends,
        relabel,
    )
    if nleft <= 0 or not detours:
        return nleft, g0, walks
    here_code = code_of(words, index_of(cell, R, last, full))
    ys = np.empty(nmoves, dtype=np.uint64)
    ms = np.empty(nmoves, dtype=np.int64)
    steps = np.empty(nmoves, dtype=np.int64)
    near = 0
    for m in range(nmoves):
        y = moved(cell, P, m)
        step = (np.int64(code_of(words, index_of(y, R, last, full))) - np.int64(here_code) + 3) % 3
        if step != 2:  # one nearer: a shortest path, walked apart
            ys[near], ms[near], steps[near] = y, m, step
            near += 1
    # each neighbour's first path, then each one's second...: the same
    # paths in all, but a lifting that some detour serves is served sooner
    for t in range(tries):
        for i in range(near):
            path[0] = ms[i]
            dy = depth + steps[i]
            end = descend(words, ys[i], dy, t, P, R, last, full, path[1:])
            walks += 1
            g = _goal(goals, end)
            if g < 0:
                return -1, g0, walks
            _carried(path, dy + 1, dest, start, ends)
            nleft = _still_far(left, nleft, ends, rank_of[g], relabel, far[g, steps[i] + 1])
            if nleft <= 0:
                return nleft, g0, walks
    # the shortest paths not walked before the detours
    nleft, g0, more = _left_on_shortest(
        words,
        cell,
        depth,
        first,
        tries,
        nleft,
        g0,
        goals,
        cells_of,
        rank_of,
        bad,
        nbad,
        far,
        P,
        R,
        last,
        full,
        moves,
        dest,
        path,
        left,
        start,
        ends,
        relabel,
    )
    return nleft, g0, walks + more


@njit(cache=True, inline="always")
def _goal(goals, end):
    for j in range(goals.shape[0]):
        if goals[j] == end:
            return j
    return -1


__all__ = ["unavoidable", "left_liftings"]
