"""Numba kernels on keys: encode cells, apply permutations, canonicalise,
expand a level, count stabilisers, step towards a parent, find keys in a
sorted table or a hashed key set.

Pure functions over numpy arrays (no I/O, no SQL, no puzzle objects), compiled
with ``cache=True`` so the CLI starts fast. Keys are (S, W) uint64 arrays as
laid out in :mod:`wsdb.engine.keys`. Every batch kernel takes a
:class:`KeyTables`, built once per puzzle by :class:`wsdb.engine.engines.Engine`.
Work is spread across states with ``prange``; the batch kernels release the
GIL (``nogil``), so a build writes one level while it computes the next.

Three paths, chosen by ``KeyTables.path``:

* ``PRODUCT1`` / ``PRODUCT2``: keys of one word, or two (up to 128 bits:
  6x6 three and four colours, every 8x8 grid), on a puzzle whose maps are 8
  base maps each followed by one of the four half-grid translations
  (Wrapslide, thesis §3.2). The base maps go through byte tables; a
  translation by n/2 rows swaps the two halves of the key's bit string, one
  by n/2 columns swaps the two halves of every row: a few shifts and masks,
  so a canonical form costs 8 table permutations instead of 32 (6-7x
  faster). Two-word keys are carried as (hi, lo) scalar pairs.
* ``GENERAL``: any key width and any set of maps, every map by table.

Integer arithmetic mixes only uint64 with uint64: numba widens uint64 op
int64 to float64, which would silently corrupt keys.

Helpers are plain ``njit`` functions, here and in the ranked census's
kernels, not ``inline="always"``: numba's own inlining type-infers and
compiles a helper again inside every kernel that calls it (eight batch
kernels, at two key widths), while LLVM inlines the small helpers anyway:
the kernels compile faster and run as fast. The solver's kernels keep it,
where it made the beam faster (CHANGELOG has the figures).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import get_num_threads, njit, prange, types
from numba.extending import intrinsic

from .compiling import announce_compiles
from .intrinsics import prefetch

announce_compiles()  # a compile of over 2 s says so (wsdb.notices)

GENERAL, PRODUCT1, PRODUCT2 = 0, 1, 2


class KeyTables(NamedTuple):
    """One puzzle's permutations as byte tables on keys, and what
    canonicalisation needs besides; every kernel takes it as ``kt`` (the
    key tables of docs/architecture.md's glossary)."""

    moves: np.ndarray  # (M, chunks*256, W): the moves, any key width
    maps: np.ndarray  # (G, chunks*256, W): every geometric map (GENERAL path)
    moves1: np.ndarray  # (M, chunks*256): one-word copies for the scalar paths
    maps1: np.ndarray  # (G, chunks*256)
    base: np.ndarray  # (8, chunks*256, W): base maps of the PRODUCT paths
    base1: np.ndarray  # (8, chunks*256)
    path: int  # GENERAL, PRODUCT1 or PRODUCT2
    half: np.uint64  # PRODUCT: half the key's bits (translation by n/2 rows)
    row_half: np.uint64  # PRODUCT: half a row's bits (translation by n/2 columns)
    masks: np.ndarray  # PRODUCT: (3, 2) uint64 (hi, lo) of: all key bits,
    #          low and high halves of every row
    ncells: int
    k: int  # colours 0..k-1 are interchangeable
    valid: np.ndarray  # (W,) per word, the bits that belong to some cell
    bits: int  # bits per cell
    quads: np.ndarray  # (4, 2) uint64 (hi, lo): the lowest bit of every cell of
    # each quadrant; all zero where maps do not keep quadrants
    board8: bool  # PRODUCT1 on an 8x8 grid, one bit a cell, row after row: the
    # base maps by bit operations (:func:`_dihedral_min8`)


_U0 = np.uint64(0)
_64 = np.uint64(64)
_BYTE = np.uint64(0xFF)
_LOW = np.uint64(0x5555555555555555)
_ONE = np.uint64(1)
_THREE = np.uint64(3)


# ---- colour relabelling (thesis §3.4) --------------------------------------------


@njit(cache=True)
def relabel_word(y, vm, sigma):
    """Colour relabelling sigma applied to every two-bit field of one word."""
    return relabel4(y, vm, sigma[0], sigma[1], sigma[2], sigma[3])


@njit(cache=True)
def relabel4(y, vm, s0, s1, s2, s3):
    """Colour v becomes s_v in every two-bit field of one word."""
    vm = vm & _LOW
    h = (y >> _ONE) & _LOW
    lo = y & _LOW
    return (
        (~h & ~lo & vm) * np.uint64(s0)
        + (~h & lo & vm) * np.uint64(s1)
        + (h & ~lo & vm) * np.uint64(s2)
        + (h & lo & vm) * np.uint64(s3)
    )


@njit(cache=True)
def _top_bit(x):
    """Index of the highest set bit of x (x > 0)."""
    n = 0
    for s in (32, 16, 8, 4, 2, 1):
        if x >> np.uint64(s):
            x >>= np.uint64(s)
            n += s
    return n


@njit(cache=True)
def _first_cell_of(v, hi, lo, vh, vl):
    """How early colour v first appears in the two-bit key (hi, lo): the bit
    position of its first cell (higher = earlier), -1 if it does not."""
    fh = ((hi >> _ONE) if v & 2 else ~(hi >> _ONE)) & ((hi) if v & 1 else ~hi) & vh & _LOW
    if fh:
        return 64 + _top_bit(fh)
    fl = ((lo >> _ONE) if v & 2 else ~(lo >> _ONE)) & ((lo) if v & 1 else ~lo) & vl & _LOW
    if fl:
        return _top_bit(fl)
    return -1


@njit(cache=True)
def _sigma2(hi, lo, vh, vl, k):
    """The relabelling that puts colours 0..k-1 in order of first
    appearance, for keys of at most 128 bits, by bit masks (one top-bit
    search per colour, no loop over cells): (is identity, s0, s1, s2, s3).
    Scalars in and out: called per image, it must not touch arrays."""
    p0 = _first_cell_of(0, hi, lo, vh, vl)
    p1 = _first_cell_of(1, hi, lo, vh, vl)
    if k == 2:
        if p1 > p0:
            return False, 1, 0, 2, 3
        return True, 0, 1, 2, 3
    p2 = _first_cell_of(2, hi, lo, vh, vl)
    p3 = _first_cell_of(3, hi, lo, vh, vl)
    # rank of each colour: how many appear earlier (ties: the smaller colour first)
    r0 = (p1 > p0) + (p2 > p0) + (p3 > p0)
    r1 = (p0 >= p1) + (p2 > p1) + (p3 > p1)
    r2 = (p0 >= p2) + (p1 >= p2) + (p3 > p2)
    r3 = (p0 >= p3) + (p1 >= p3) + (p2 >= p3)
    return r0 == 0 and r1 == 1 and r2 == 2, r0, r1, r2, r3


@njit(cache=True)
def first_appearance(x, ncells, k, sigma):
    """Fill sigma with the relabelling that puts colours 0..k-1 in order of
    first appearance from cell 0 (thesis §3.4); True if it is the identity.
    Any key width (the GENERAL path; the others use :func:`_sigma2`)."""
    words = x.shape[0]
    for v in range(4):
        sigma[v] = -1
    nxt = 0
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


# ---- one-word keys: scalars ------------------------------------------------------


@njit(cache=True)
def permute1(x, tables, p):
    """Permutation p applied to the one-word key x."""
    out = _U0
    for j in range(tables.shape[1] >> 8):
        out |= tables[p, (j << 8) + np.int64((x >> np.uint64(8 * j)) & _BYTE)]
    return out


@njit(cache=True)
def normalise1(x, ncells, k, valid0):
    """Smallest colour relabelling of the one-word key x."""
    if k <= 1:
        return x
    ident, s0, s1, s2, s3 = _sigma2(_U0, x, _U0, valid0, k)
    return x if ident else relabel4(x, valid0, s0, s1, s2, s3)


@njit(cache=True)
def _rows1(y, half, full):
    """Translation by n/2 rows of a one-word key."""
    return ((y << half) | (y >> half)) & full


@njit(cache=True)
def _cols1(y, row_half, low, high):
    """Translation by n/2 columns of a one-word key."""
    return ((y << row_half) & high) | ((y >> row_half) & low)


@njit(cache=True)
def _images1(x, base1, d, half, row_half, full, low, high):
    """The four images of x under base map d and the half-grid translations."""
    y = permute1(x, base1, d)
    r = _rows1(y, half, full)
    return y, r, _cols1(y, row_half, low, high), _cols1(r, row_half, low, high)


# An 8x8 grid of one bit a cell, row after row, is a chess programmer's
# bitboard (wsdb's keys put cell 0 in the top bit): the eight maps of the
# square are a transpose, a flip of the rows' order and a mirror of each row,
# a few shifts and masks each where the byte tables read 8 table entries per map.

_K1, _K2, _K4 = np.uint64(0x5555555555555555), np.uint64(0x3333333333333333), np.uint64(0x0F0F0F0F0F0F0F0F)
_K8, _K16 = np.uint64(0x00FF00FF00FF00FF), np.uint64(0x0000FFFF0000FFFF)
_D1, _D2, _D4 = np.uint64(0x5500550055005500), np.uint64(0x3333000033330000), np.uint64(0x0F0F0F0F00000000)


@njit(cache=True, inline="always")
def _swap(x, k, s):
    """Bits under mask k swapped with those s places above them."""
    return ((x >> s) & k) | ((x & k) << s)


@njit(cache=True, inline="always")
def _flip8(x):
    """The rows of an 8x8 bitboard in reverse order (its bytes reversed)."""
    return _swap(_swap(_swap(x, _K8, np.uint64(8)), _K16, np.uint64(16)), np.uint64(0xFFFFFFFF), np.uint64(32))


@njit(cache=True, inline="always")
def _mirror8(x):
    """Each row of an 8x8 bitboard reversed (the bits of each byte)."""
    return _swap(_swap(_swap(x, _K1, np.uint64(1)), _K2, np.uint64(2)), _K4, np.uint64(4))


@njit(cache=True, inline="always")
def _transpose8(x):
    """An 8x8 bitboard reflected in a diagonal (three delta swaps)."""
    t = _D4 & (x ^ (x << np.uint64(28)))
    x ^= t ^ (t >> np.uint64(28))
    t = _D2 & (x ^ (x << np.uint64(14)))
    x ^= t ^ (t >> np.uint64(14))
    t = _D1 & (x ^ (x << np.uint64(7)))
    return x ^ t ^ (t >> np.uint64(7))


@njit(cache=True, inline="always")
def _dihedral_min8(y, best, half, row_half, full, low, high):
    """``best`` lowered to the least image of y under the row flip, the row
    mirror, both, none, each with the half-grid translations."""
    v, h = _flip8(y), _mirror8(y)
    for z in (y, v, h, _flip8(h)):
        r = _rows1(z, half, full)
        best = min(best, z, r, _cols1(z, row_half, low, high), _cols1(r, row_half, low, high))
    return best


@njit(cache=True)
def canonical1(x, kt):
    """Class representative of the one-word key x."""
    best = np.uint64(0xFFFFFFFFFFFFFFFF)
    ncells, k, v0 = kt.ncells, kt.k, kt.valid[0]
    if kt.path == PRODUCT1:
        half, row_half = kt.half, kt.row_half
        full, low, high = kt.masks[0, 1], kt.masks[1, 1], kt.masks[2, 1]
        base1 = kt.base1
        if k <= 1 and kt.board8:
            best = _dihedral_min8(x, best, half, row_half, full, low, high)
            return _dihedral_min8(_transpose8(x), best, half, row_half, full, low, high)
        if k <= 1:  # no colours to relabel: the plain minimum
            for d in range(base1.shape[0]):
                a, b, c, e = _images1(x, base1, d, half, row_half, full, low, high)
                best = min(best, a, b, c, e)
            return best
        for d in range(base1.shape[0]):
            a, b, c, e = _images1(x, base1, d, half, row_half, full, low, high)
            best = min(
                best,
                normalise1(a, ncells, k, v0),
                normalise1(b, ncells, k, v0),
                normalise1(c, ncells, k, v0),
                normalise1(e, ncells, k, v0),
            )
        return best
    for g in range(kt.maps1.shape[0]):
        z = normalise1(permute1(x, kt.maps1, g), ncells, k, v0)
        if z < best:
            best = z
    return best


@njit(cache=True)
def stabiliser1(x, kt):
    """How many (map, relabelling) pairs fix the representative x."""
    count = 0
    if kt.path == PRODUCT1:
        half, row_half = kt.half, kt.row_half
        full, low, high = kt.masks[0, 1], kt.masks[1, 1], kt.masks[2, 1]
        for d in range(kt.base1.shape[0]):
            y = permute1(x, kt.base1, d)
            r = _rows1(y, half, full)
            count += normalise1(y, kt.ncells, kt.k, kt.valid[0]) == x
            count += normalise1(r, kt.ncells, kt.k, kt.valid[0]) == x
            count += normalise1(_cols1(y, row_half, low, high), kt.ncells, kt.k, kt.valid[0]) == x
            count += normalise1(_cols1(r, row_half, low, high), kt.ncells, kt.k, kt.valid[0]) == x
        return count
    for g in range(kt.maps1.shape[0]):
        count += normalise1(permute1(x, kt.maps1, g), kt.ncells, kt.k, kt.valid[0]) == x
    return count


# ---- two-word keys: (hi, lo) scalar pairs ------------------------------------------


@njit(cache=True)
def _shl2(hi, lo, s):
    """(hi, lo) << s for 0 < s < 128."""
    if s >= _64:
        return lo << (s - _64), _U0
    return (hi << s) | (lo >> (_64 - s)), lo << s


@njit(cache=True)
def _shr2(hi, lo, s):
    """(hi, lo) >> s for 0 < s < 128."""
    if s >= _64:
        return _U0, hi >> (s - _64)
    return hi >> s, (lo >> s) | (hi << (_64 - s))


@njit(cache=True)
def permute2(hi, lo, tables, p):
    """Permutation p applied to the two-word key (hi, lo)."""
    oh, ol = _U0, _U0
    for j in range(tables.shape[1] >> 8):
        w = lo if j < 8 else hi
        row = (j << 8) + np.int64((w >> np.uint64(8 * (j & 7))) & _BYTE)
        oh |= tables[p, row, 0]
        ol |= tables[p, row, 1]
    return oh, ol


@njit(cache=True)
def normalise2(hi, lo, ncells, k, valid):
    """Smallest colour relabelling of the two-word key (hi, lo)."""
    if k <= 1:
        return hi, lo
    ident, s0, s1, s2, s3 = _sigma2(hi, lo, valid[0], valid[1], k)
    if ident:
        return hi, lo
    return relabel4(hi, valid[0], s0, s1, s2, s3), relabel4(lo, valid[1], s0, s1, s2, s3)


@njit(cache=True)
def _rows2(hi, lo, kt):
    ah, al = _shl2(hi, lo, kt.half)
    bh, bl = _shr2(hi, lo, kt.half)
    return (ah | bh) & kt.masks[0, 0], (al | bl) & kt.masks[0, 1]


@njit(cache=True)
def _cols2(hi, lo, kt):
    ah, al = _shl2(hi, lo, kt.row_half)
    bh, bl = _shr2(hi, lo, kt.row_half)
    return ((ah & kt.masks[2, 0]) | (bh & kt.masks[1, 0]), (al & kt.masks[2, 1]) | (bl & kt.masks[1, 1]))


@njit(cache=True)
def _less2(ah, al, bh, bl):
    return ah < bh or (ah == bh and al < bl)


@njit(cache=True)
def _min2(bh, bl, zh, zl, kt):
    zh, zl = normalise2(zh, zl, kt.ncells, kt.k, kt.valid)
    if _less2(zh, zl, bh, bl):
        return zh, zl
    return bh, bl


@njit(cache=True)
def canonical2(hi, lo, kt):
    """Class representative of the two-word key (hi, lo) (PRODUCT2 path)."""
    bh = bl = np.uint64(0xFFFFFFFFFFFFFFFF)
    for d in range(kt.base.shape[0]):
        yh, yl = permute2(hi, lo, kt.base, d)
        rh, rl = _rows2(yh, yl, kt)
        ch, cl = _cols2(yh, yl, kt)
        xh, xl = _cols2(rh, rl, kt)
        bh, bl = _min2(bh, bl, yh, yl, kt)
        bh, bl = _min2(bh, bl, rh, rl, kt)
        bh, bl = _min2(bh, bl, ch, cl, kt)
        bh, bl = _min2(bh, bl, xh, xl, kt)
    return bh, bl


@njit(cache=True)
def stabiliser2(hi, lo, kt):
    """How many (map, relabelling) pairs fix the representative (hi, lo)."""
    count = 0
    for d in range(kt.base.shape[0]):
        yh, yl = permute2(hi, lo, kt.base, d)
        rh, rl = _rows2(yh, yl, kt)
        ch, cl = _cols2(yh, yl, kt)
        xh, xl = _cols2(rh, rl, kt)
        count += _same2(yh, yl, hi, lo, kt) + _same2(rh, rl, hi, lo, kt)
        count += _same2(ch, cl, hi, lo, kt) + _same2(xh, xl, hi, lo, kt)
    return count


@njit(cache=True)
def _same2(zh, zl, hi, lo, kt):
    zh, zl = normalise2(zh, zl, kt.ncells, kt.k, kt.valid)
    return 1 if zh == hi and zl == lo else 0


# ---- keys of any width: arrays (GENERAL path) ---------------------------------------


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
def canonical_into(x, kt, tmp, tmp2, sigma, best):
    """best = class representative of x: the minimum over all maps and colour
    relabellings (thesis §3.2, §3.4), every map by table (GENERAL path)."""
    for g in range(kt.maps.shape[0]):
        permute(x, kt.maps, g, tmp)
        normalise(tmp, kt.ncells, kt.k, kt.valid, sigma, tmp2)
        if g == 0 or less(tmp2, best):
            best[:] = tmp2


@njit(cache=True)
def move_into(x, kt, m, out):
    """out = move m applied to x."""
    permute(x, kt.moves, m, out)


# ---- batch kernels ----------------------------------------------------------------
# One set per path, so that a grid compiles only the path it uses (each set
# takes 10-30 s to compile, once). The engine binds the right set.


@njit(cache=True, parallel=True, nogil=True)
def canonical_w1(keys, kt):
    """Class representatives of many one-word keys."""
    out = np.empty_like(keys)
    for s in prange(keys.shape[0]):
        out[s, 0] = canonical1(keys[s, 0], kt)
    return out


@njit(cache=True, parallel=True, nogil=True)
def expand_w1(frontier, kt):
    """Representatives of every neighbour of every frontier class: row
    s * M + m is move m applied to frontier[s], canonicalised (thesis §3.3)."""
    nm = kt.moves1.shape[0]
    out = np.empty((frontier.shape[0] * nm, 1), np.uint64)
    for s in prange(frontier.shape[0]):
        x = frontier[s, 0]
        for m in range(nm):
            out[s * nm + m, 0] = canonical1(permute1(x, kt.moves1, m), kt)
    return out


@njit(cache=True, parallel=True, nogil=True)
def stabilisers_w1(reps, kt):
    """For each representative, how many (map, colour relabelling) pairs fix
    it; the orbit size is the group order divided by this."""
    out = np.zeros(reps.shape[0], np.int64)
    for s in prange(reps.shape[0]):
        out[s] = stabiliser1(reps[s, 0], kt)
    return out


@intrinsic
def _popcount(typingctx, x):
    """Set bits of a uint64 (one CPU instruction, LLVM's ctpop)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@njit(cache=True)
def _colour_cells(v, w, bits):
    """The lowest bit of every cell of colour v in the key word w."""
    if bits == 1:
        return w if v else ~w
    return ((w >> _ONE) if v & 2 else ~(w >> _ONE)) & (w if v & 1 else ~w) & _LOW


@njit(cache=True)
def signature(hi, lo, kt):
    """A number shared by every state of a class: power sums, over the
    quadrants, of the counts of each interchangeable colour in them. The
    maps only permute quadrants and relabelling only permutes those
    colours, so states with different signatures lie in different classes.
    It costs a few popcounts where a canonical form costs 32 images, so
    :func:`step_w1` tests it first and canonicalises few children."""
    a = b = c = _U0
    for q in range(4):
        s2 = s3 = _U0
        for v in range(max(kt.k, 1)):
            cnt = _popcount(_colour_cells(v, hi, kt.bits) & kt.quads[q, 0]) + _popcount(
                _colour_cells(v, lo, kt.bits) & kt.quads[q, 1]
            )
            s2 += cnt * cnt
            s3 += cnt * cnt * cnt
        a += s2
        b += s2 * s2
        c += s3
    return (a * np.uint64(1000003) + b) * np.uint64(1000003) + c


@njit(cache=True, parallel=True, nogil=True)
def step_w1(raw, target, kt):
    """For each state, the first move whose result lies in the target class,
    and that result (thesis §4.2, Figure 4.7); move -1 where none does."""
    found = np.full(raw.shape[0], -1, np.int64)
    nxt = np.zeros_like(raw)
    for s in prange(raw.shape[0]):
        want = signature(_U0, target[s, 0], kt)
        for m in range(kt.moves1.shape[0]):
            child = permute1(raw[s, 0], kt.moves1, m)
            if signature(_U0, child, kt) == want and canonical1(child, kt) == target[s, 0]:
                found[s] = m
                nxt[s, 0] = child
                break
    return found, nxt


@njit(cache=True, parallel=True, nogil=True)
def canonical_w2(keys, kt):
    """:func:`canonical_w1` for two-word keys (PRODUCT2 path)."""
    out = np.empty_like(keys)
    for s in prange(keys.shape[0]):
        out[s, 0], out[s, 1] = canonical2(keys[s, 0], keys[s, 1], kt)
    return out


@njit(cache=True, parallel=True, nogil=True)
def expand_w2(frontier, kt):
    """:func:`expand_w1` for two-word keys (PRODUCT2 path)."""
    nm = kt.moves.shape[0]
    out = np.empty((frontier.shape[0] * nm, 2), np.uint64)
    for s in prange(frontier.shape[0]):
        for m in range(nm):
            ch, cl = permute2(frontier[s, 0], frontier[s, 1], kt.moves, m)
            out[s * nm + m, 0], out[s * nm + m, 1] = canonical2(ch, cl, kt)
    return out


@njit(cache=True, parallel=True, nogil=True)
def stabilisers_w2(reps, kt):
    """:func:`stabilisers_w1` for two-word keys (PRODUCT2 path)."""
    out = np.zeros(reps.shape[0], np.int64)
    for s in prange(reps.shape[0]):
        out[s] = stabiliser2(reps[s, 0], reps[s, 1], kt)
    return out


@njit(cache=True, parallel=True, nogil=True)
def step_w2(raw, target, kt):
    """:func:`step_w1` for two-word keys (PRODUCT2 path)."""
    found = np.full(raw.shape[0], -1, np.int64)
    nxt = np.zeros_like(raw)
    for s in prange(raw.shape[0]):
        want = signature(target[s, 0], target[s, 1], kt)
        for m in range(kt.moves.shape[0]):
            ch, cl = permute2(raw[s, 0], raw[s, 1], kt.moves, m)
            if signature(ch, cl, kt) != want:
                continue
            rh, rl = canonical2(ch, cl, kt)
            if rh == target[s, 0] and rl == target[s, 1]:
                found[s] = m
                nxt[s, 0], nxt[s, 1] = ch, cl
                break
    return found, nxt


@njit(cache=True, parallel=True, nogil=True)
def canonical(keys, kt):
    """:func:`canonical_w1` for any key width and any maps (GENERAL path)."""
    n, words = keys.shape
    out = np.empty_like(keys)
    for s in prange(n):
        tmp, tmp2 = np.empty(words, np.uint64), np.empty(words, np.uint64)
        sigma = np.empty(4, np.int64)
        canonical_into(keys[s], kt, tmp, tmp2, sigma, out[s])
    return out


@njit(cache=True, parallel=True, nogil=True)
def expand(frontier, kt):
    """:func:`expand_w1` for any key width and any maps (GENERAL path)."""
    n, words = frontier.shape
    nm = kt.moves.shape[0]
    out = np.empty((n * nm, words), np.uint64)
    for s in prange(n):
        child, tmp, tmp2 = np.empty(words, np.uint64), np.empty(words, np.uint64), np.empty(words, np.uint64)
        sigma = np.empty(4, np.int64)
        for m in range(nm):
            move_into(frontier[s], kt, m, child)
            canonical_into(child, kt, tmp, tmp2, sigma, out[s * nm + m])
    return out


@njit(cache=True, parallel=True, nogil=True)
def stabilisers(reps, kt):
    """:func:`stabilisers_w1` for any key width and any maps (GENERAL path)."""
    n, words = reps.shape
    out = np.zeros(n, np.int64)
    for s in prange(n):
        tmp, tmp2 = np.empty(words, np.uint64), np.empty(words, np.uint64)
        sigma = np.empty(4, np.int64)
        count = 0
        for g in range(kt.maps.shape[0]):
            permute(reps[s], kt.maps, g, tmp)
            normalise(tmp, kt.ncells, kt.k, kt.valid, sigma, tmp2)
            count += equal(tmp2, reps[s])
        out[s] = count
    return out


@njit(cache=True, parallel=True, nogil=True)
def step_into(raw, target, kt):
    """:func:`step_w1` for any key width and any maps (GENERAL path)."""
    n, words = raw.shape
    found = np.full(n, -1, np.int64)
    nxt = np.zeros_like(raw)
    for s in prange(n):
        child, rep = np.empty(words, np.uint64), np.empty(words, np.uint64)
        tmp, tmp2 = np.empty(words, np.uint64), np.empty(words, np.uint64)
        sigma = np.empty(4, np.int64)
        for m in range(kt.moves.shape[0]):
            move_into(raw[s], kt, m, child)
            canonical_into(child, kt, tmp, tmp2, sigma, rep)
            if equal(rep, target[s]):
                found[s] = m
                nxt[s] = child
                break
    return found, nxt


@njit(cache=True, parallel=True, nogil=True)
def apply_move(keys, kt, m):
    """Move m applied to many keys (any path)."""
    out = np.empty_like(keys)
    for s in prange(keys.shape[0]):
        move_into(keys[s], kt, m, out[s])
    return out


@njit(cache=True, parallel=True, nogil=True)
def encode_cells(cells, word, shift, words):
    """(S, N) uint8 colours -> (S, W) keys, cell i's colour shifted to
    ``shift[i]`` in word ``word[i]`` (:meth:`wsdb.engine.keys.KeyLayout.encode`,
    which takes a numpy pass a cell: 25x slower on a beam's children)."""
    out = np.zeros((cells.shape[0], words), np.uint64)
    for s in prange(cells.shape[0]):
        for i in range(cells.shape[1]):
            out[s, word[i]] |= np.uint64(cells[s, i]) << shift[i]
    return out


@njit(cache=True, parallel=True, nogil=True)
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


# ---- a hashed key set (:mod:`wsdb.engine.keyindex`) ---------------------------

_MIX = np.uint64(0x9E3779B97F4A7C15)  # odd: multiplying by it is a bijection of uint64


_MIX2 = np.uint64(0xC2B2AE3D27D4EB4F)  # the filter's own, so its bits are independent of the buckets


@njit(cache=True)
def _hash(key, mult, fold):
    """A key's words mixed into one uint64 (multiply, fold, multiply)."""
    h = _U0
    for w in range(key.shape[0]):
        h = (h ^ key[w]) * mult
    h ^= h >> fold
    return h * _MIX


@njit(cache=True)
def _bucket(key, shift):
    return _hash(key, _MIX, np.uint64(29)) >> shift


@njit(cache=True, nogil=True)
def bucket_order(keys, bits):
    """(order, starts): the rows of ``keys`` grouped by hash bucket (a
    counting sort, stable), and the first position of each of the 2**bits
    buckets in that order (``starts[b]`` to ``starts[b + 1]``)."""
    shift = np.uint64(64 - bits)
    size = np.int64(1) << bits
    bucket = np.empty(keys.shape[0], np.int64)
    starts = np.zeros(size + 1, np.int64)
    for i in range(keys.shape[0]):
        bucket[i] = np.int64(_bucket(keys[i], shift))
        starts[bucket[i] + 1] += 1
    for b in range(size):
        starts[b + 1] += starts[b]
    fill = starts[:-1].copy()
    order = np.empty(keys.shape[0], np.int64)
    for i in range(keys.shape[0]):
        order[fill[bucket[i]]] = i
        fill[bucket[i]] += 1
    return order, starts


#: queries a thread looks up together: their buckets' lines are all asked
#: for first, then their keys' lines, then the buckets are scanned, so the
#: cache misses of a batch overlap instead of coming one after another
FIND_BLOCK = 32


@njit(cache=True, parallel=True, nogil=True)
def find_bucketed(keys, starts, bits, queries):
    """Row of each query in ``keys`` laid out by :func:`bucket_order`, or -1:
    one read of ``starts`` and a scan of a bucket of about two keys, where a
    binary search over tens of millions of keys misses the cache some 25 times.
    Queries go in blocks of ``FIND_BLOCK`` (8x8 four colours: a solve spent
    a sixth of its time here, waiting on memory)."""
    shift = np.uint64(64 - bits)
    nq = queries.shape[0]
    out = np.empty(nq, np.int64)
    for blk in prange((nq + FIND_BLOCK - 1) // FIND_BLOCK):
        lo, hi = blk * FIND_BLOCK, min(nq, (blk + 1) * FIND_BLOCK)
        bucket = np.empty(FIND_BLOCK, np.int64)
        for i in range(lo, hi):
            bucket[i - lo] = np.int64(_bucket(queries[i], shift))
            prefetch(starts, bucket[i - lo])
        for i in range(lo, hi):
            first = starts[bucket[i - lo]]
            if first < keys.shape[0]:
                prefetch(keys[first], 0)
        for i in range(lo, hi):
            out[i] = _scan(keys, starts, bucket[i - lo], queries[i])
    return out


@njit(cache=True, inline="always")
def _scan(keys, starts, b, query):
    """Row of one query (a (W,) key) in bucket ``b`` of ``keys``, or -1."""
    for r in range(starts[b], starts[b + 1]):
        same = True
        for w in range(query.shape[0]):
            if keys[r, w] != query[w]:
                same = False
                break
        if same:
            return r
    return -1


@njit(cache=True)
def _filter_word(key, wbits):
    """(word, mask) of a key in a blocked Bloom filter of 2**wbits words:
    three bits in one word, so a query reads one cache line."""
    h = _hash(key, _MIX2, np.uint64(32))
    word = np.int64(h >> np.uint64(64 - wbits))
    mask = (
        (_ONE << (h & np.uint64(63)))
        | (_ONE << ((h >> np.uint64(6)) & np.uint64(63)))
        | (_ONE << ((h >> np.uint64(12)) & np.uint64(63)))
    )
    return word, mask


@njit(cache=True, parallel=True, nogil=True)
def filter_add(words, wbits, keys, parts):
    """Add keys to the filter, in ``parts`` threads (:func:`threads`), each
    setting the words of its own residue only: two threads' read-modify-
    writes of one word could lose a bit, and a lost bit would be a false
    'absent'."""
    for p in prange(parts):
        for i in range(keys.shape[0]):
            word, mask = _filter_word(keys[i], wbits)
            if word % parts == p:
                words[word] |= mask


@njit(cache=True, parallel=True, nogil=True)
def filter_has(words, wbits, keys):
    """Whether each key may be in the filter (never False for one added)."""
    out = np.zeros(keys.shape[0], np.bool_)
    for i in prange(keys.shape[0]):
        word, mask = _filter_word(keys[i], wbits)
        out[i] = (words[word] & mask) == mask
    return out


@njit(cache=True, parallel=True, nogil=True)
def pack_rows(flat, shift):
    """In place: flat[i] = flat[i] << shift | i (a key and its row in one word)."""
    for i in prange(flat.shape[0]):
        flat[i] = (flat[i] << np.uint64(shift)) | np.uint64(i)


@njit(cache=True, nogil=True)
def merge_first(a, b, shift):
    """Merge two sorted arrays of packed (key, row) words, keeping for each
    key only its smallest word (its first row)."""
    out = np.empty(a.shape[0] + b.shape[0], np.uint64)
    s = np.uint64(shift)
    i = j = n = 0
    last = np.uint64(0)
    while i < a.shape[0] or j < b.shape[0]:
        if j >= b.shape[0] or (i < a.shape[0] and a[i] <= b[j]):
            x = a[i]
            i += 1
        else:
            x = b[j]
            j += 1
        if n == 0 or (x >> s) != last:
            out[n] = x
            n += 1
            last = x >> s
    return out[:n]


def threads() -> int:
    """The threads numba's parallel kernels use."""
    return get_num_threads()
