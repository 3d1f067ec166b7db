"""Tables a solver derives from the database and holds in memory.

**Gather tables.** For every placement of one colour of q = (n/2)^2 cells,
the fewest moves that bring it into one quadrant. That is exactly the n x n
two-colour puzzle (colour 1 has q cells), so the table is the complete
two-colour database laid out by raw state instead of by class: one byte per
q-subset of the n^2 cells, indexed by colex rank
(:func:`wsdb.solver.kernels.colour_rank`). For 6x6 that is C(36, 9) =
94,143,280 bytes, filled from the 2,951,793 stored classes by writing each
class's depth at all 32 images of its representative. In a grid with more
colours every colour with q cells must end up filling a quadrant, so its
gather distance is a lower bound on the distance to solved (the idea behind
the thesis' deduction of Θ(6,2), §3.5), and the sum over the colours is a
strong guide.

**Endgame tables.** The stored (partial) tree of the grid being solved, as a
sorted key array: "is this state's class stored, and how deep?" for thousands
of states per search level, answered by binary search (thesis §4.2, second
component). The move sequence of the one state finally used still comes
from :mod:`wsdb.db.lookup`, which walks the parents in SQL.

Both are derived once per database and cached beside it as ``.npy``
(:mod:`wsdb.db.cache`); a search loop never queries SQL.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..db.cache import cached_array
from ..db.store import Store
from ..engine import Engine, get_engine

UNSET = 255


# ---- gather tables --------------------------------------------------------------

def binomials(ncells: int, q: int) -> np.ndarray:
    """binom[a, b] = C(a, b) for a <= ncells, b <= q (int64)."""
    out = np.zeros((ncells + 1, q + 1), np.int64)
    for a in range(ncells + 1):
        for b in range(min(a, q) + 1):
            out[a, b] = math.comb(a, b)
    return out


@lru_cache(maxsize=None)
def binomials_for(n: int) -> np.ndarray:
    """The binomial table the n x n gather table is indexed with."""
    return binomials(n * n, (n // 2) ** 2)


def gather_colours(counts: tuple[int, ...], q: int) -> np.ndarray:
    """The colours with exactly q cells: each must fill one quadrant."""
    return np.array([col for col, k in enumerate(counts) if k == q], np.int64)


def gather_table(n: int, store: Store) -> np.ndarray | None:
    """The n x n gather table, or None when ``store`` has no complete n x n
    two-colour database to derive it from."""
    build = store.finished_build(n, 2)
    if build is None or not build["complete"]:
        return None
    key = (store.label, n, build["built_at"], build["classes"])
    if key not in _gather:
        _gather[key] = cached_array(store.path, f"gather{n}", build, lambda: derive_gather(n, store), mmap=True)
    return _gather[key]


_gather: dict = {}


def derive_gather(n: int, store: Store) -> np.ndarray:
    """Fill the gather table from the stored complete two-colour tree."""
    from .kernels import fill_gather

    eng = get_engine(n, 2)
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


# ---- endgame tables -------------------------------------------------------------

@dataclass
class Endgame:
    """The first ``height`` levels of the (n, c) tree (all of it if complete)."""

    eng: Engine
    keys: np.ndarray      # (S, W) representatives, sorted
    depths: np.ndarray    # int8, same order
    height: int
    complete: bool

    def depth(self, cells: np.ndarray) -> np.ndarray:
        """Optimal distance of each state, or -1 where its class is not stored
        (then the distance is more than ``height``)."""
        if len(cells) == 0:
            return np.zeros(0, np.int64)
        idx = self.eng.find(self.keys, self.eng.canonical(self.eng.encode(cells)))
        return np.where(idx >= 0, self.depths[idx], -1).astype(np.int64)


def endgame(n: int, c: int, store: Store) -> Endgame | None:
    """The stored (n, c) tree in memory, or None when there is none."""
    build = store.finished_build(n, c)
    if build is None:
        return None
    key = (store.label, n, c, build["built_at"], build["classes"])
    if key not in _endgames:
        eng = get_engine(n, c)

        def keys_then_depth() -> np.ndarray:   # one (S, W + 1) array: one cache file
            reps, depths = store.keys_and_depths(n, c, eng.layout)
            return np.concatenate([reps, depths.astype(np.uint64)[:, None]], axis=1)

        both = cached_array(store.path, f"tree{n}c{c}", build, keys_then_depth)
        w = eng.layout.words
        _endgames[key] = Endgame(eng, np.ascontiguousarray(both[:, :w]), both[:, w].astype(np.int8),
                                 int(build["height"]), bool(build["complete"]))
    return _endgames[key]


_endgames: dict = {}
