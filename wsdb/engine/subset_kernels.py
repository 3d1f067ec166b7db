"""Numba kernels of the census of a two-colour grid
(:class:`wsdb.engine.subsets.SubsetRanking`): a breadth-first search at two
bits a state over states numbered by the combinatorial number system, and
shortest paths read back from it.

A two-colour state is the set of cells holding colour 0, a word of one bit
a cell. Its index is ``sum(C(p_t, t + 1))`` over its set cells
``p_0 < p_1 < ...`` (the colexicographic rank), so the indices 0..C(N, k)-1
are exactly the subsets of k cells, in increasing order of the word; the
next word of a scan is Gosper's "next subset of the same size", a few
operations. A move permutes the cells: its action on the word is read from
one table per byte of the word, and the rank of the result from one table
per byte and count of cells below it.

The two bits hold a state's distance mod 3, or 3 for unseen (Cooperman and
Finkelstein's encoding, as Korf's two-bit search keeps old, current, next
and unseen): it costs no more than Korf's codes, needs no pass between
levels, and keeps enough to walk a shortest path to the goal afterwards
(:func:`descend`). Where both colours have as many cells and the goal holds
each state's swap of the colours (6x6 with 18 and 18), a state and its
swap are as far from the goal, so only the words without the last cell are
numbered (``last``: C(N-1, k), half of them); a neighbour with it is
swapped before it is ranked.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange
from numba.cpython.unsafe.numbers import trailing_zeros

from .compiling import announce_compiles
from .intrinsics import atomic_and, prefetch
from .packed_kernels import FIELDS, GROUP, LOW, fields
from .rank_kernels import CHUNKS, SPREAD

announce_compiles()  # a compile of over 2 s says so (wsdb.notices)

BYTES = 8  # a word's bytes: up to 64 cells


def binomials(ncells: int) -> np.ndarray:
    """``C[a, b]`` for 0 <= a, b <= ncells (zero where b > a)."""
    out = np.zeros((ncells + 1, ncells + 2), dtype=np.int64)
    for a in range(ncells + 1):
        out[a, 0] = 1
        for b in range(1, a + 1):
            out[a, b] = out[a - 1, b - 1] + out[a - 1, b]
    return out


def rank_tables(ncells: int, binom: np.ndarray) -> np.ndarray:
    """``R[b, t, v]``: what byte b of a word adds to its rank when it is v
    and t cells below it are set (the byte's set cells are the t+1-th,
    t+2-th... of the subset)."""
    nbytes = (ncells + 7) // 8
    out = np.zeros((nbytes, ncells + 1, 256), dtype=np.int64)
    for b in range(nbytes):
        for v in range(256):
            cells = [8 * b + j for j in range(8) if v >> j & 1]
            if cells and cells[-1] >= ncells:
                continue
            for t in range(ncells + 1 - len(cells)):
                out[b, t, v] = sum(binom[p, t + i + 1] for i, p in enumerate(cells))
    return out


def move_tables(moves: np.ndarray) -> np.ndarray:
    """``P[m, b, v]``: the cells byte b's set cells (v) move to under move
    m, as a word (a move ``p`` sends cell ``p[i]``'s colour to cell i)."""
    nmoves, ncells = moves.shape
    nbytes = (ncells + 7) // 8
    dest = np.empty((nmoves, ncells), dtype=np.int64)
    dest[np.arange(nmoves)[:, None], moves] = np.arange(ncells)[None, :]
    out = np.zeros((nmoves, nbytes, 256), dtype=np.uint64)
    for m in range(nmoves):
        for b in range(nbytes):
            for v in range(256):
                word = 0
                for j in range(8):
                    if v >> j & 1 and 8 * b + j < ncells:
                        word |= 1 << int(dest[m, 8 * b + j])
                out[m, b, v] = word
    return out


@njit(cache=True, inline="always")
def _rank(word, R):
    """The colexicographic rank of a word (its set cells' subset)."""
    r = np.int64(0)
    t = 0
    for b in range(R.shape[0]):
        v = np.int64((word >> np.uint64(8 * b)) & np.uint64(255))
        r += R[b, t, v]
        t += _popcount8(v)
    return r


@njit(cache=True, inline="always")
def _popcount8(v):
    v = (v & 0x55) + ((v >> 1) & 0x55)
    v = (v & 0x33) + ((v >> 2) & 0x33)
    return (v & 0x0F) + (v >> 4)


@njit(cache=True, inline="always")
def moved(word, P, m):
    out = np.uint64(0)
    for b in range(P.shape[1]):
        out |= P[m, b, (word >> np.uint64(8 * b)) & np.uint64(255)]
    return out


@njit(cache=True, inline="always")
def index_of(word, R, last, full):
    """The index of a word; with ``last`` (the halved numbering's last cell
    bit, else 0) a word holding it is swapped first."""
    if word & last:
        word = ~word & full
    return _rank(word, R)


@njit(cache=True, inline="always")
def _neighbour(word, P, R, m, last, full):
    """The index of move m's neighbour of a word (:func:`index_of`)."""
    return index_of(moved(word, P, m), R, last, full)


@njit(cache=True)
def unrank(index, k, ncells, binom):
    """The word of k set cells whose rank is ``index`` (greedy from the top)."""
    word = np.uint64(0)
    p = ncells - 1
    r = index
    for t in range(k, 0, -1):
        while binom[p, t] > r:
            p -= 1
        word |= np.uint64(1) << np.uint64(p)
        r -= binom[p, t]
        p -= 1
    return word


@njit(cache=True, inline="always")
def _after(word):
    """The next word with as many set bits (Gosper's hack)."""
    low = word & (~word + np.uint64(1))
    ripple = word + low
    return (((ripple ^ word) >> np.uint64(2)) // low) | ripple


@njit(cache=True)
def rank_many(words, R):
    out = np.empty(words.shape[0], dtype=np.int64)
    for i in range(words.shape[0]):
        out[i] = _rank(words[i], R)
    return out


@njit(cache=True)
def unrank_many(indices, k, ncells, binom):
    out = np.empty(indices.shape[0], dtype=np.uint64)
    for i in range(indices.shape[0]):
        out[i] = unrank(indices[i], k, ncells, binom)
    return out


@njit(cache=True, inline="always")
def _equal(word, code):
    """The low bit of every field of ``word`` holding ``code`` (0-3)."""
    high = word >> np.uint64(1)
    hi = LOW if code & 2 else np.uint64(0)
    lo = LOW if code & 1 else np.uint64(0)
    return ~((high & LOW) ^ hi) & ~((word & LOW) ^ lo) & LOW


@njit(cache=True, inline="always")
def code_of(words, y):
    return (words[y // FIELDS] >> np.uint64(2 * (y % FIELDS))) & np.uint64(3)


@njit(cache=True, inline="always")
def _coded(words, w, size, code):
    """The fields of word w holding ``code``, those past ``size`` left out."""
    want = _equal(words[w], code)
    if (w + 1) * FIELDS > size:
        want &= fields(0, size - w * FIELDS)
    return want


@njit(cache=True, parallel=True, nogil=True)
def grow_mod3(words, size, depth, backward, k, ncells, binom, P, R, last, full):
    """Mark the states at distance depth+1 with the code (depth+1) mod 3
    and return how many indices they are: the table keeps every state's
    distance mod 3 (3: unseen), so a path down to the goal can be read
    from it later (a neighbour of a state at distance d one move nearer
    is the one coded (d-1) mod 3). Forwards from the states coded depth
    mod 3 (those of depths depth-3, depth-6... have no unseen neighbour:
    a few per cent more scanned), backwards from the unseen: a state is
    at depth+1 when a neighbour is coded depth mod 3, which an unseen
    state's neighbour (at depth or more) is only at depth."""
    nmoves = P.shape[0]
    here, mark = depth % 3, (depth + 1) % 3
    clear = np.uint64(3 ^ mark)  # unseen is 11: clearing these bits writes ``mark``
    counts = np.zeros(CHUNKS, dtype=np.int64)
    nwords = (size + FIELDS - 1) // FIELDS
    step = (nwords + CHUNKS - 1) // CHUNKS
    for item in prange(CHUNKS):
        ys = np.empty(GROUP * FIELDS * nmoves, dtype=np.int64)
        cells = np.empty(GROUP * FIELDS, dtype=np.uint64)
        todo = np.empty(GROUP * FIELDS, dtype=np.int64)
        idx = np.empty(GROUP * FIELDS, dtype=np.int64)
        found = 0
        c = (item * SPREAD) % CHUNKS
        first, end = c * step, min(nwords, (c + 1) * step)
        at = np.int64(-1)
        cell = np.uint64(0)
        for g0 in range(first, end, GROUP):
            states = 0
            for w in range(g0, min(end, g0 + GROUP)):
                want = _coded(words, w, size, 3 if backward else here)
                base = w * FIELDS
                while want:
                    low = want & (~want + np.uint64(1))
                    want ^= low
                    i = base + (np.int64(trailing_zeros(low)) >> 1)
                    if at < 0 or i < at or i - at > FIELDS:
                        cell = unrank(i, k, ncells, binom)
                    else:
                        while at < i:
                            cell = _after(cell)
                            at += 1
                    at = i
                    cells[states], idx[states] = cell, i
                    if not backward:
                        q = states * nmoves
                        for mv in range(nmoves):
                            ys[q + mv] = _neighbour(cell, P, R, mv, last, full)
                            prefetch(words, ys[q + mv] // FIELDS)
                    states += 1
            if backward:
                left = states
                for t in range(left):
                    todo[t] = t
                for mv in range(nmoves):
                    if not left:
                        break
                    for t in range(left):
                        ys[t] = _neighbour(cells[todo[t]], P, R, mv, last, full)
                        prefetch(words, ys[t] // FIELDS)
                    kept = 0
                    for t in range(left):
                        if code_of(words, ys[t]) == here:
                            i = idx[todo[t]]
                            atomic_and(words, i // FIELDS, ~(clear << np.uint64(2 * (i % FIELDS))))
                            found += 1
                        else:
                            todo[kept] = todo[t]
                            kept += 1
                    left = kept
            else:
                for q in range(states * nmoves):
                    y = ys[q]
                    shift = np.uint64(2 * (y % FIELDS))
                    if code_of(words, y) == 3:
                        old = atomic_and(words, y // FIELDS, ~(clear << shift))
                        if (old >> shift) & np.uint64(3) == 3:
                            found += 1
        counts[item] = found
    return counts.sum()


@njit(cache=True)
def with_code(words, size, code):
    """Every index below ``size`` coded ``code``, in order."""
    total = 0
    for w in range(words.shape[0]):
        want = _coded(words, w, size, code)
        while want:
            want &= want - np.uint64(1)
            total += 1
    out = np.empty(total, dtype=np.int64)
    got = 0
    for w in range(words.shape[0]):
        want = _coded(words, w, size, code)
        while want:
            out[got] = w * FIELDS + (np.int64(trailing_zeros(want)) >> 1)
            want &= want - np.uint64(1)
            got += 1
    return out


@njit(cache=True)
def descend(words, cell, depth, attempt, P, R, last, full, path):
    """One shortest path from ``cell`` (at ``depth``) to the goal, read from
    a table of distances mod 3 (:func:`grow_mod3`): at each step a move to
    a neighbour coded (d-1) mod 3, which is one move nearer (a neighbour is
    at d-1, d or d+1, three different codes). ``attempt`` picks where each
    step starts looking among the moves, so that attempts find different
    paths; the first move one nearer from there is taken, which reads a few
    neighbours a step instead of all (each read a cache miss on a big
    table). Fills ``path`` and returns the goal word reached."""
    nmoves = P.shape[0]
    choice = np.uint64(attempt) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(cell)
    d = depth
    while d > 0:
        want = np.uint64((d - 1) % 3)
        choice = choice * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
        mv = _coded_move(words, cell, want, np.int64((choice >> np.uint64(33)) % np.uint64(nmoves)), P, R, last, full)
        path[depth - d] = mv
        cell = moved(cell, P, mv)
        d -= 1
    return cell


@njit(cache=True, inline="always")
def _coded_move(words, cell, want, start, P, R, last, full):
    """The first move from ``start`` on (round the move list) whose
    neighbour is coded ``want``; -1 if none is. The neighbours are looked
    up four at a time, each load started before any is read: on a table
    far bigger than the caches each read waits on memory, and four waits
    overlap."""
    nmoves = P.shape[0]
    for j in range(0, nmoves, 4):
        m0, m1, m2, m3 = (
            (start + j) % nmoves,
            (start + j + 1) % nmoves,
            (start + j + 2) % nmoves,
            (start + j + 3) % nmoves,
        )
        y0 = _neighbour(cell, P, R, m0, last, full)
        prefetch(words, y0 // FIELDS)
        y1 = _neighbour(cell, P, R, m1, last, full)
        prefetch(words, y1 // FIELDS)
        y2 = _neighbour(cell, P, R, m2, last, full)
        prefetch(words, y2 // FIELDS)
        y3 = _neighbour(cell, P, R, m3, last, full)
        prefetch(words, y3 // FIELDS)
        if code_of(words, y0) == want:
            return m0
        if j + 1 < nmoves and code_of(words, y1) == want:
            return m1
        if j + 2 < nmoves and code_of(words, y2) == want:
            return m2
        if j + 3 < nmoves and code_of(words, y3) == want:
            return m3
    return -1


@njit(cache=True)
def exact_distance(words, cell, P, R, last, full):
    """A state's distance, walked down to the goal: each step to the first
    neighbour coded one less mod 3, until none is (a state at distance d > 0
    always has a neighbour at d - 1; a goal has none at -1)."""
    steps = 0
    while True:
        want = (code_of(words, index_of(cell, R, last, full)) + np.uint64(2)) % np.uint64(3)
        mv = _coded_move(words, cell, want, 0, P, R, last, full)
        if mv < 0:
            return steps
        cell = moved(cell, P, mv)
        steps += 1


@njit(cache=True, inline="always")
def _least(word, S):
    """Whether ``word`` is the least of its images under the maps ``S``
    (tables as :func:`move_tables` makes them)."""
    for m in range(S.shape[0]):
        if moved(word, S, m) < word:
            return False
    return True


@njit(cache=True, parallel=True)
def least_of(cells, S):
    """Which words of ``cells`` are the least of their images under the
    maps ``S``: of a level listed whole, one state of each orbit."""
    out = np.empty(cells.shape[0], dtype=np.bool_)
    for s in prange(cells.shape[0]):
        out[s] = _least(cells[s], S)
    return out


@njit(cache=True, parallel=True)
def least_coded(words, lo, hi, code, k, ncells, binom, S, last, full):
    """For the indices lo..hi-1: bit 0 where the index is coded ``code`` and
    its word is the least of its images under the maps ``S``; bit 1 the same
    for its colour swap (a halved numbering, ``last`` set). One state of
    each orbit under the maps (its least word) stands for all of them."""
    out = np.zeros(hi - lo, dtype=np.uint8)
    per = 1 << 14
    for ch in prange((hi - lo + per - 1) // per):
        a = lo + ch * per
        b = min(hi, a + per)
        cell = unrank(a, k, ncells, binom)
        for i in range(a, b):
            if i > a:
                cell = _after(cell)
            if code_of(words, i) != code:
                continue
            f = 0
            if _least(cell, S):
                f |= 1
            if last and _least(~cell & full, S):
                f |= 2
            out[i - lo] = f
    return out


@njit(cache=True, parallel=True)
def distances_of(words, cells, P, R, last, full):
    """:func:`exact_distance` of each word in ``cells``."""
    out = np.empty(cells.shape[0], dtype=np.int64)
    for s in prange(cells.shape[0]):
        out[s] = exact_distance(words, cells[s], P, R, last, full)
    return out


__all__ = [
    "binomials",
    "rank_tables",
    "move_tables",
    "unrank",
    "rank_many",
    "unrank_many",
    "grow_mod3",
    "with_code",
    "descend",
    "exact_distance",
    "least_coded",
    "distances_of",
]
