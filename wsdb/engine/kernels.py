"""Numba kernels on keys: apply permutations, canonicalise, expand a level,
step towards a parent, find keys in a sorted table.

Pure functions over numpy arrays (no I/O, no SQL, no puzzle objects), compiled
with ``cache=True`` so the CLI starts fast. Keys are (S, W) uint64 arrays as
laid out in :mod:`wsdb.engine.keys`. Every batch kernel takes a
:class:`KeyTables`, built once per puzzle by :class:`wsdb.engine.engines.Engine`.
Work is spread across states with ``prange``.

Integer arithmetic mixes only uint64 with uint64: numba widens uint64 op
int64 to float64, which would silently corrupt keys.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange


class KeyTables(NamedTuple):
    """One puzzle's permutations as byte tables on keys, and what
    canonicalisation needs besides."""

    moves: np.ndarray    # (M, chunks*256, W): the moves, any key width
    maps: np.ndarray     # (G, chunks*256, W): the geometric maps
    moves1: np.ndarray   # (M, chunks*256): one-word copies for the scalar path
    maps1: np.ndarray    # (G, chunks*256)   (8x faster; covers every 4x4 grid and
                         #                    two colours up to 8x8)
    ncells: int
    k: int               # colours 0..k-1 are interchangeable
    valid: np.ndarray    # (W,) per word, the bits that belong to some cell


_U0 = np.uint64(0)
_BYTE = np.uint64(0xFF)
_LOW = np.uint64(0x5555555555555555)
_ONE = np.uint64(1)
_THREE = np.uint64(3)


# ---- one-word keys: scalars -------------------------------------------------

@njit(cache=True, inline="always")
def permute1(x, tables, p):
    """Permutation p applied to the one-word key x."""
    out = _U0
    for j in range(tables.shape[1] >> 8):
        out |= tables[p, (j << 8) + np.int64((x >> np.uint64(8 * j)) & _BYTE)]
    return out


@njit(cache=True, inline="always")
def relabel_word(y, vm, sigma):
    """Colour relabelling sigma applied to every two-bit field of one word."""
    vm = vm & _LOW
    h = (y >> _ONE) & _LOW
    lo = y & _LOW
    return ((~h & ~lo & vm) * np.uint64(sigma[0]) + (~h & lo & vm) * np.uint64(sigma[1])
            + (h & ~lo & vm) * np.uint64(sigma[2]) + (h & lo & vm) * np.uint64(sigma[3]))


@njit(cache=True, inline="always")
def first_appearance(x, ncells, k, sigma):
    """Fill sigma with the relabelling that puts colours 0..k-1 in order of
    first appearance from cell 0 (thesis §3.4); True if it is the identity."""
    for v in range(4):
        sigma[v] = -1
    nxt = 0
    words = x.shape[0]
    for i in range(ncells):
        pos = 2 * (ncells - 1 - i)
        v = np.int64((x[words - 1 - (pos >> 6)] >> np.uint64(pos & 63)) & _THREE)
        if v < k and sigma[v] < 0:
            sigma[v] = nxt
            nxt += 1
            if nxt == k - 1:
                break
    ident = True
    for v in range(4):
        if sigma[v] < 0:
            sigma[v] = k - 1 if v < k else v
        ident = ident and sigma[v] == v
    return ident


@njit(cache=True, inline="always")
def normalise1(x, ncells, k, valid0, sigma, word):
    """Smallest colour relabelling of the one-word key x (``word`` is a
    length-1 scratch array)."""
    if k <= 1:
        return x
    word[0] = x
    if first_appearance(word, ncells, k, sigma):
        return x
    return relabel_word(x, valid0, sigma)


@njit(cache=True)
def canonical1(x, maps1, ncells, k, valid0, sigma, word):
    """Class representative of the one-word key x."""
    best = normalise1(permute1(x, maps1, 0), ncells, k, valid0, sigma, word)
    for g in range(1, maps1.shape[0]):
        y = normalise1(permute1(x, maps1, g), ncells, k, valid0, sigma, word)
        if y < best:
            best = y
    return best


# ---- keys of any width: arrays ----------------------------------------------

@njit(cache=True)
def permute(key, tables, p, out):
    """out = permutation p applied to the key."""
    words = out.shape[0]
    for w in range(words):
        out[w] = _U0
    for j in range(tables.shape[1] >> 8):
        v = np.int64((key[words - 1 - (j >> 3)] >> np.uint64(8 * (j & 7))) & _BYTE)
        for x in range(words):
            out[x] |= tables[p, (j << 8) + v, x]


@njit(cache=True)
def less(a, b):
    """Numeric a < b, most significant word first."""
    for w in range(a.shape[0]):
        if a[w] != b[w]:
            return a[w] < b[w]
    return False


@njit(cache=True)
def equal(a, b):
    """Numeric a == b."""
    for w in range(a.shape[0]):
        if a[w] != b[w]:
            return False
    return True


@njit(cache=True)
def normalise(x, ncells, k, valid, sigma, out):
    """out = smallest colour relabelling of x."""
    ident = k <= 1 or first_appearance(x, ncells, k, sigma)
    for w in range(x.shape[0]):
        out[w] = x[w] if ident else relabel_word(x[w], valid[w], sigma)


@njit(cache=True)
def canonical_into(x, ctx, tmp, tmp2, sigma, word, best):
    """best = class representative of x: the minimum over all maps and colour
    relabellings (thesis §3.4)."""
    if x.shape[0] == 1:
        best[0] = canonical1(x[0], ctx.maps1, ctx.ncells, ctx.k, ctx.valid[0], sigma, word)
        return
    for g in range(ctx.maps.shape[0]):
        permute(x, ctx.maps, g, tmp)
        normalise(tmp, ctx.ncells, ctx.k, ctx.valid, sigma, tmp2)
        if g == 0 or less(tmp2, best):
            best[:] = tmp2


@njit(cache=True)
def move_into(x, ctx, m, out):
    """out = move m applied to x."""
    if x.shape[0] == 1:
        out[0] = permute1(x[0], ctx.moves1, m)
    else:
        permute(x, ctx.moves, m, out)


# ---- batch kernels ------------------------------------------------------------

@njit(cache=True, parallel=True)
def canonical(keys, ctx):
    """Class representatives of many keys."""
    n, words = keys.shape
    out = np.empty_like(keys)
    for s in prange(n):
        tmp, tmp2 = np.empty(words, np.uint64), np.empty(words, np.uint64)
        sigma, word = np.empty(4, np.int64), np.empty(1, np.uint64)
        canonical_into(keys[s], ctx, tmp, tmp2, sigma, word, out[s])
    return out


@njit(cache=True, parallel=True)
def apply_move(keys, ctx, m):
    """Move m applied to many keys."""
    out = np.empty_like(keys)
    for s in prange(keys.shape[0]):
        move_into(keys[s], ctx, m, out[s])
    return out


@njit(cache=True, parallel=True)
def expand(frontier, ctx):
    """Representatives of every neighbour of every frontier class: row
    s * M + m is move m applied to frontier[s], canonicalised (thesis §3.3)."""
    n, words = frontier.shape
    nm = ctx.moves.shape[0]
    out = np.empty((n * nm, words), np.uint64)
    for s in prange(n):
        child, tmp, tmp2 = np.empty(words, np.uint64), np.empty(words, np.uint64), np.empty(words, np.uint64)
        sigma, word = np.empty(4, np.int64), np.empty(1, np.uint64)
        for m in range(nm):
            move_into(frontier[s], ctx, m, child)
            canonical_into(child, ctx, tmp, tmp2, sigma, word, out[s * nm + m])
    return out


@njit(cache=True, parallel=True)
def stabilisers(reps, ctx):
    """For each representative, how many (map, colour relabelling) pairs fix
    it; the orbit size is the group order divided by this."""
    n, words = reps.shape
    out = np.zeros(n, np.int64)
    for s in prange(n):
        tmp, tmp2 = np.empty(words, np.uint64), np.empty(words, np.uint64)
        sigma = np.empty(4, np.int64)
        count = 0
        for g in range(ctx.maps.shape[0]):
            permute(reps[s], ctx.maps, g, tmp)
            normalise(tmp, ctx.ncells, ctx.k, ctx.valid, sigma, tmp2)
            count += equal(tmp2, reps[s])
        out[s] = count
    return out


@njit(cache=True, parallel=True)
def step_into(raw, target, ctx):
    """For each state, the first move whose result lies in the target class,
    and that result (thesis §4.2, Figure 4.7); move -1 where none does."""
    n, words = raw.shape
    found = np.full(n, -1, np.int64)
    nxt = np.empty_like(raw)
    for s in prange(n):
        child, rep = np.empty(words, np.uint64), np.empty(words, np.uint64)
        tmp, tmp2 = np.empty(words, np.uint64), np.empty(words, np.uint64)
        sigma, word = np.empty(4, np.int64), np.empty(1, np.uint64)
        for m in range(ctx.moves.shape[0]):
            move_into(raw[s], ctx, m, child)
            canonical_into(child, ctx, tmp, tmp2, sigma, word, rep)
            if equal(rep, target[s]):
                found[s] = m
                nxt[s] = child
                break
    return found, nxt


@njit(cache=True, parallel=True)
def find_keys(sorted_keys, queries):
    """Row of each query in lexicographically sorted (S, W) keys, or -1
    (a solver asks this of thousands of states per search level)."""
    out = np.full(queries.shape[0], -1, np.int64)
    words = queries.shape[1]
    for i in prange(queries.shape[0]):
        lo, hi = 0, sorted_keys.shape[0]
        while lo < hi:
            mid = (lo + hi) >> 1
            cmp = 0
            for w in range(words):
                a, b = sorted_keys[mid, w], queries[i, w]
                if a != b:
                    cmp = -1 if a < b else 1
                    break
            if cmp == 0:
                out[i] = mid
                break
            if cmp < 0:
                lo = mid + 1
            else:
                hi = mid
    return out


def cached(kernel) -> bool:
    """Whether numba's on-disk cache already holds ``kernel``, so the next
    call loads it instead of compiling (the CLI warns before a compile).
    Reads numba's cache index path, not public API: unknown means True."""
    import os

    try:
        return os.path.exists(kernel._cache._cache_file._index_path)
    except AttributeError:
        return True
