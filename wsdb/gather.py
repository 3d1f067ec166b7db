"""Gather tables: for every placement of one colour of q = (n/2)^2 cells,
the fewest moves that bring it into one quadrant.

That is exactly the n x n two-colour puzzle (colour 1 has q cells, SPEC §1),
so the table is the complete two-colour database laid out by raw state
instead of by class: one byte per q-subset of the n^2 cells, indexed by colex
rank (:func:`wsdb.search_kernels.colour_rank`). For 6x6 that is C(36, 9) =
94,143,280 bytes, filled from the 2,951,793 stored classes by writing each
class's depth at all 32 images of its representative.

In a grid with more colours every colour with q cells must end up filling a
quadrant, so its gather distance is a lower bound on the distance to solved
(the idea behind the thesis' deduction of Θ(6,2), §3.5) and the sum over the
colours is a strong guide. The table is built once per database and cached
beside it as a ``.npy`` file; solvers memory-map it and never query SQL in a
search loop.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from .engine import engine
from .store import Store

UNSET = 255


def binomials(ncells: int, q: int) -> np.ndarray:
    """binom[a, b] = C(a, b) for a <= ncells, b <= q (int64)."""
    out = np.zeros((ncells + 1, q + 1), np.int64)
    for a in range(ncells + 1):
        for b in range(min(a, q) + 1):
            out[a, b] = math.comb(a, b)
    return out


def gather_colours(counts: tuple[int, ...], q: int) -> np.ndarray:
    """The colours with exactly q cells: each must fill one quadrant."""
    return np.array([col for col, k in enumerate(counts) if k == q], np.int64)


def gather_table(n: int, store: Store) -> np.ndarray | None:
    """The n x n gather table, or None when ``store`` has no complete n x n
    two-colour database to derive it from."""
    build = store.build_row(n, 2)
    if build is None or not build["complete"]:
        return None
    key = (store.label, n, build["built_at"], build["classes"])
    if key not in _memory:
        _memory[key] = store.cached_array(f"gather{n}", build, lambda: derive(n, store), mmap=True)
    return _memory[key]


_memory: dict = {}


def derive(n: int, store: Store) -> np.ndarray:
    """Fill the gather table from the stored complete two-colour tree."""
    from .search_kernels import fill_gather

    eng = engine(n, 2)
    q = (n // 2) ** 2
    reps, depths = store.keys_and_depths(n, 2, eng.layout)
    binom = binomials(n * n, q)
    table = np.full(binom[n * n, q], UNSET, np.uint8)
    step = 1 << 20
    for i in range(0, len(reps), step):
        cells = eng.decode(reps[i:i + step])
        fill_gather(cells, depths[i:i + step].view(np.uint8), eng.puzzle.maps, binom, table)
    if (table == UNSET).any():
        raise ValueError(f"the {n}x{n} two-colour database does not cover every state")
    return table


@lru_cache(maxsize=None)
def binomials_for(n: int) -> np.ndarray:
    """The binomial table the n x n gather table is indexed with."""
    return binomials(n * n, (n // 2) ** 2)
