"""The stored tree as an in-memory endgame table (thesis §4.2, second
component): which classes it holds and at what depth.

A solver asks "is this state's class stored, and how deep?" for thousands of
states per search level, so the keys are loaded once into a sorted array
(cached beside the database as ``.npy``) and answered with a binary search;
the move sequence of the one state that is finally used still comes from
:mod:`wsdb.query`, which walks the parents in SQL.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .engine import Engine, engine
from .store import Store


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
        from .search_kernels import find_keys

        reps = self.eng.canonical(self.eng.encode(cells))
        idx = find_keys(self.keys, reps)
        return np.where(idx >= 0, self.depths[idx], -1).astype(np.int64)


def endgame(n: int, c: int, store: Store) -> Endgame | None:
    """The stored (n, c) tree in memory, or None when there is none."""
    build = store.build_row(n, c)
    if build is None:
        return None
    key = (store.label, n, c, build["built_at"], build["classes"])
    if key not in _memory:
        eng = engine(n, c)

        def keys_then_depth() -> np.ndarray:   # one (S, W + 1) array: one cache file
            reps, depths = store.keys_and_depths(n, c, eng.layout)
            return np.concatenate([reps, depths.astype(np.uint64)[:, None]], axis=1)

        both = store.cached_array(f"tree{n}c{c}", build, keys_then_depth)
        w = eng.layout.words
        _memory[key] = Endgame(eng, np.ascontiguousarray(both[:, :w]), both[:, w].astype(np.int8),
                               int(build["height"]), bool(build["complete"]))
    return _memory[key]


_memory: dict = {}
