"""Numba kernels of the two-bit census (:func:`wsdb.engine.census.ranked_census`):
Korf's two-bit breadth-first search (Korf 2008, "Linear-time disk-based
implicit graph search") over the ranked index of :mod:`.ranking`.

A census needs how many states lie at each distance, not each state's
distance, so a state needs only four codes: ``OLD`` (at a distance already
counted), ``CUR`` (the level being expanded), ``NEXT`` (found at the next
distance) and ``UNSEEN``. Two bits a state, 32 states in a 64-bit word: the
1,625,702,400 states of Rubik's Slide 4x4 hard mode fit in 406 MB, against
1.6 GB for the byte table of distances (:mod:`.rank_kernels`). After each
level :func:`settle` turns ``CUR`` into ``OLD`` and ``NEXT`` into ``CUR``.

A level is grown forwards (mark the unseen neighbours of every ``CUR``
state) or backwards (mark every unseen state with a ``CUR`` neighbour), as
the byte table's are, scanning a word at a time: a word without a state of
the wanted code is skipped with a few bit operations. ``UNSEEN`` is 11 and
``NEXT`` 10, so marking clears one bit; two threads may mark states of one
word at once, so the clear is atomic (:func:`.intrinsics.atomic_and`) and its
returned word says whether the state was still unseen, counting it once.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange
from numba.cpython.unsafe.numbers import trailing_zeros

from .intrinsics import atomic_and, prefetch
from .compiling import announce_compiles
from .rank_kernels import CHUNKS, SPREAD, digits, neighbour

announce_compiles()  # a compile of over 2 s says so (wsdb.notices)

OLD, CUR, NEXT, UNSEEN = 0, 1, 2, 3
FIELDS = 32  # states in a word
LOW = np.uint64(0x5555555555555555)  # the low bit of every field
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
#: Words a work item reads ahead: their states' neighbours are asked for
#: before the first is read (192 states' lines on average in a dense level).
GROUP = 8


def unseen_words(size: int) -> np.ndarray:
    """A table of ``size`` states, every one ``UNSEEN``."""
    return np.full((size + FIELDS - 1) // FIELDS, ALL, dtype=np.uint64)


@njit(cache=True)
def fields(first, last):
    """The bits of fields first..last-1 of a word (0 <= first < last <= 32)."""
    return (ALL >> np.uint64(64 - 2 * (last - first))) << np.uint64(2 * first)


@njit(cache=True)
def _wanted(word, backward):
    """The low bit of every field holding the code a level scans for:
    ``UNSEEN`` (11) backwards, ``CUR`` (01) forwards."""
    high = word >> np.uint64(1)
    return (word & high & LOW) if backward else (word & ~high & LOW)


@njit(cache=True)
def _split(a, r, S, tail, digit, arrangement, src, halve, fixed, mult, vpos):
    """Each move's neighbour index (:func:`.rank_kernels.neighbour`) as
    ``fixed[mv] + mult[mv] * d``, where d is the digit table's entry at
    place ``vpos[mv]`` for the state's last rank (halved in the last place):
    the one term a change of the last digit alone changes."""
    nmoves, m = src.shape
    for mv in range(nmoves):
        y = np.int64(arrangement[mv, a])
        mul = 0  # the varying term's multiplier, once it is met
        for k in range(m):
            scale = tail if k == m - 1 else S
            y *= scale
            mul *= scale
            if src[mv, k] == m - 1:
                vpos[mv] = k
                mul = 1
            else:
                d = np.int64(digit[mv, k, r[src[mv, k]]])
                y += d >> 1 if halve and k == m - 1 else d
        fixed[mv] = y
        mult[mv] = mul


@njit(cache=True, parallel=True, nogil=True)
def grow_packed(words, spans, backward, digit, arrangement, src, parity, arr_parity, halve):
    """Mark the next level ``NEXT`` and return how many states it holds.

    Only indices in ``spans`` ((k, 2) half-open ranges: the arrangements the
    scanned states can have) are scanned; the move tables are those of
    :func:`.rank_kernels.move_tables`. Words are taken ``GROUP`` at a time:
    first every neighbour of the group's wanted states, each one's cache
    line asked for (:func:`.intrinsics.prefetch`), then their codes read
    and the marks made, by when most lines have arrived."""
    nmoves, m, _ = digit.shape
    most = GROUP * FIELDS
    counts = np.zeros(CHUNKS, dtype=np.int64)
    for item in prange(CHUNKS):
        r = np.empty(m, dtype=np.int64)
        r2 = np.empty(m, dtype=np.int64)
        fixed = np.empty(nmoves, dtype=np.int64)
        mult = np.empty(nmoves, dtype=np.int64)
        vpos = np.empty(nmoves, dtype=np.int64)
        ys = np.empty(most * nmoves, dtype=np.int64)  # neighbours, nmoves per state
        bit = np.empty(most, dtype=np.uint64)  # a state's low bit in its word
        slot = np.empty(most, dtype=np.int64)  # its word's place in the group
        todo = np.empty(most, dtype=np.int64)
        rest = np.empty(most, dtype=np.int64)
        marked = np.zeros(GROUP, dtype=np.uint64)
        found = 0
        for sp in range(spans.shape[0]):
            lo, hi = spans[sp, 0], spans[sp, 1]
            w0, w1 = lo // FIELDS, (hi + FIELDS - 1) // FIELDS
            step = (w1 - w0 + CHUNKS - 1) // CHUNKS
            c = (item * SPREAD) % CHUNKS  # scattered, as the byte table's items are
            first, end = w0 + c * step, min(w1, w0 + (c + 1) * step)
            for g0 in range(first, end, GROUP):
                states = 0
                for w in range(g0, min(end, g0 + GROUP)):
                    want = _wanted(words[w], backward)
                    base = w * FIELDS
                    if base < lo or base + FIELDS > hi:
                        want &= fields(max(lo - base, 0), min(hi - base, FIELDS))
                    if not want:
                        continue
                    states = _word_neighbours(
                        want,
                        w,
                        g0,
                        states,
                        backward,
                        r,
                        r2,
                        fixed,
                        mult,
                        vpos,
                        ys,
                        bit,
                        slot,
                        words,
                        digit,
                        arrangement,
                        src,
                        parity,
                        arr_parity,
                        halve,
                    )
                if backward:
                    found += _mark_backward(words, ys, bit, slot, todo, rest, marked, states, nmoves, g0)
                else:
                    found += _mark_forward(words, ys, states * nmoves)
        counts[item] = found
    return counts.sum()


@njit(cache=True)
def _word_neighbours(
    want,
    w,
    g0,
    states,
    backward,
    r,
    r2,
    fixed,
    mult,
    vpos,
    ys,
    bit,
    slot,
    words,
    digit,
    arrangement,
    src,
    parity,
    arr_parity,
    halve,
):
    """Append the neighbours of word w's wanted states to ``ys`` (from
    place ``states * nmoves``), each state's bit and word in ``bit`` and
    ``slot``, asking for the lines the marks will read first; returns the
    group's count of states. The word's states share every digit but the
    last (bar a carry), so each move's neighbour index is split once into a
    part fixed for the word and the term the last digit changes."""
    nmoves, m, S = digit.shape
    tail = S // 2 if halve else S
    base = w * FIELDS
    a = digits(base, r, S, tail, parity, arr_parity, halve)
    last0 = base % tail
    odd = (r[m - 1] & 1) ^ parity[2 * last0] if halve else 0
    _split(a, r, S, tail, digit, arrangement, src, halve, fixed, mult, vpos)
    while want:
        low = want & (~want + np.uint64(1))
        want ^= low
        j = np.int64(trailing_zeros(low)) >> 1
        bit[states], slot[states] = low, w - g0
        k = states * nmoves
        last = last0 + j
        if last < tail:
            rl = 2 * last + (odd ^ parity[2 * last]) if halve else last
            for mv in range(nmoves):
                d = np.int64(digit[mv, vpos[mv], rl])
                if halve and vpos[mv] == m - 1:
                    d >>= 1
                ys[k + mv] = fixed[mv] + mult[mv] * d
        else:  # the last digit carried into the others
            a2 = digits(base + j, r2, S, tail, parity, arr_parity, halve)
            for mv in range(nmoves):
                ys[k + mv] = neighbour(a2, r2, mv, S, tail, digit, arrangement, src, halve)
        for mv in range(nmoves if not backward else 1):  # backwards, later moves are asked for as needed
            prefetch(words, ys[k + mv] // FIELDS)
        states += 1
    return states


@njit(cache=True)
def _mark_forward(words, ys, count):
    """Mark the unseen among the first ``count`` neighbours in ``ys``; how
    many this thread marked (the atomic clear's old word says)."""
    found = 0
    for q in range(count):
        y = ys[q]
        shift = np.uint64(2 * (y % FIELDS))
        if (words[y // FIELDS] >> shift) & np.uint64(3) == UNSEEN:
            old = atomic_and(words, y // FIELDS, ~(np.uint64(1) << shift))
            if (old >> shift) & np.uint64(3) == UNSEEN:
                found += 1
    return found


@njit(cache=True)
def _mark_backward(words, ys, bit, slot, todo, rest, marked, states, nmoves, g0):
    """Mark the group's unseen states with a ``CUR`` neighbour: a move at a
    time over the states still unmarked (one such neighbour is enough),
    asking for the next move's lines of the survivors as it goes; the
    group's words are the item's own, marked once each at the end."""
    found = 0
    left = states
    for t in range(left):
        todo[t] = t
    for mv in range(nmoves):
        kept = 0
        for t in range(left):
            s = todo[t]
            y = ys[s * nmoves + mv]
            if (words[y // FIELDS] >> np.uint64(2 * (y % FIELDS))) & np.uint64(3) == CUR:
                found += 1
                marked[slot[s]] |= bit[s]
            else:
                rest[kept] = s
                kept += 1
                if mv + 1 < nmoves:
                    prefetch(words, ys[s * nmoves + mv + 1] // FIELDS)
        left = kept
        todo, rest = rest, todo
    for g in range(marked.shape[0]):
        if marked[g]:
            atomic_and(words, g0 + g, ~marked[g])
            marked[g] = 0
    return found


@njit(cache=True, parallel=True, nogil=True)
def settle(words):
    """End a level: ``CUR`` becomes ``OLD``, ``NEXT`` becomes ``CUR``."""
    for w in prange(words.shape[0]):
        word = words[w]
        low, high = word & LOW, (word >> np.uint64(1)) & LOW
        # 11 -> 11, 10 -> 01, 01 -> 00, 00 -> 00
        words[w] = high | ((high & low) << np.uint64(1))


@njit(cache=True)
def first_current(words, size, k):
    """The first (up to) k indices below ``size`` whose code is ``CUR``."""
    out = np.empty(k, dtype=np.int64)
    got = 0
    for w in range(words.shape[0]):
        want = _wanted(words[w], False)
        while want and got < k:
            i = w * FIELDS + (np.int64(trailing_zeros(want)) >> 1)
            want &= want - np.uint64(1)
            if i >= size:
                return out[:got]
            out[got] = i
            got += 1
        if got == k:
            break
    return out[:got]


def set_code(words: np.ndarray, i: int, code: int) -> None:
    """Give state ``i`` the code ``code`` (outside the kernels: the root)."""
    shift = np.uint64(2 * (i % FIELDS))
    words[i // FIELDS] = (words[i // FIELDS] & ~(np.uint64(3) << shift)) | (np.uint64(code) << shift)
