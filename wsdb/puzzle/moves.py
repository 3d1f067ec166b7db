"""Wrapslide's moves and their algebra: names, indices, families, inverses,
simplification and the pruning rule every search uses (thesis §1.1, §5.1).

A move slides one half of the grid cyclically by k = 1..n-1 cells and counts
as one move whatever k is. The 4(n-1) moves are indexed family by family:

    index = family * (n - 1) + (k - 1),   families T, B, L, R = 0, 1, 2, 3

``Tk``/``Bk`` slide the top/bottom half k cells left, ``Lk``/``Rk`` the
left/right half k cells up; sliding right or down by k is the same move as
sliding left or up by n - k. T and B (and L and R) move disjoint halves, so
they commute; two moves of one family add up to one move of that family.

Everything here is plain numpy and Python; the search kernels receive the
pruning table as an array instead of knowing the rule.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import InputError

FAMILIES = "TBLR"
HORIZONTAL = (0, 1)  # T, B: rows slide sideways
VERTICAL = (2, 3)  # L, R: columns slide up and down

_NAME = re.compile(r"^([TBLR])([0-9]+)$")  # ASCII digits: int() would take "٣" or "１"

#: ``BLOCKED[f, g]``: after a move of family f, no move of family g follows.
#: Two moves of one family merge into one, and the commuting partner's moves
#: are put in one order (T before B, L before R), so every sequence has an
#: equivalent pruned one that is no longer: optimal searches stay optimal.
#: Row ``START`` is the root, where every move is allowed.
BLOCKED = np.array(
    [
        [1, 0, 0, 0],  # after T: no T
        [1, 1, 0, 0],  # after B: no T, no B
        [0, 0, 1, 0],  # after L: no L
        [0, 0, 1, 1],  # after R: no L, no R
        [0, 0, 0, 0],
    ],  # at the start: anything
    dtype=np.bool_,
)
START = 4


def slide_moves(n: int) -> tuple[np.ndarray, tuple[str, ...]]:
    """The 4(n-1) moves as cell permutations (``new[i] = old[p[i]]``), with
    their names, in index order (docs/rules.md, "Move names"; thesis §5.1)."""
    r, j = np.divmod(np.arange(n * n), n)
    h = n // 2
    perms, names = [], []
    for fam in FAMILIES:
        for k in range(1, n):
            if fam in "TB":  # a half slides k cells left
                rows = r < h if fam == "T" else r >= h
                src = np.where(rows, r * n + (j + k) % n, r * n + j)
            else:  # a half slides k cells up
                cols = j < h if fam == "L" else j >= h
                src = np.where(cols, ((r + k) % n) * n + j, r * n + j)
            perms.append(src)
            names.append(f"{fam}{k}")
    return np.stack(perms).astype(np.int64), tuple(names)


def index(n: int, name: str) -> int:
    """Index of a move given in thesis notation (``T1``, ``r3``...)."""
    m = _NAME.match(name.strip().upper())
    if m is None or len(m.group(2)) > 3 or not 1 <= int(m.group(2)) <= n - 1:  # no 5,000-digit int()
        shown = name if len(name) <= 40 else name[:37] + "..."
        raise InputError(
            f"unknown move {shown!r}: expected T, B, L or R followed by a distance 1..{n - 1} (e.g. T1 or R{n - 1})"
        )
    return FAMILIES.index(m.group(1)) * (n - 1) + int(m.group(2)) - 1


def families(n: int) -> np.ndarray:
    """The family (0..3) of every move, in index order."""
    return np.repeat(np.arange(4), n - 1)


def inverse(n: int, m: int) -> int:
    """The move undoing move m (Tk <-> T(n-k))."""
    per = n - 1
    return (m // per) * per + (n - (m % per + 1)) - 1


def inverses(n: int) -> np.ndarray:
    """The inverse of every move, in index order."""
    return np.array([inverse(n, m) for m in range(4 * (n - 1))], np.int64)


def invert(n: int, seq: list[int]) -> list[int]:
    """The sequence undoing ``seq``."""
    return [inverse(n, m) for m in reversed(seq)]


def of_families(n: int, fams) -> np.ndarray:
    """Indices of every move of the given families (e.g. HORIZONTAL)."""
    return np.concatenate([np.arange(f * (n - 1), (f + 1) * (n - 1)) for f in fams])


def simplify(n: int, seq: list[int]) -> list[int]:
    """Merge moves of one family (Tk Tj = T(k+j)), looking past moves of the
    commuting family (T/B, L/R); drop moves that cancel."""
    per = n - 1
    out: list[int] = []
    for m in seq:
        fam, k = divmod(m, per)
        k += 1
        i = len(out) - 1
        while i >= 0 and out[i] // per != fam and out[i] // per // 2 == fam // 2:
            i -= 1  # a move of the commuting partner family
        if i >= 0 and out[i] // per == fam:
            k = (k + out[i] % per + 1) % n
            del out[i]
            if k:
                out.insert(i, fam * per + k - 1)
        else:
            out.append(m)
    return out


def permutation_of(perms: np.ndarray, seq) -> np.ndarray:
    """The cell permutation of a move sequence (``new[i] = old[p[i]]``)."""
    p = np.arange(perms.shape[1])
    for m in seq:
        p = p[perms[m]]
    return p
