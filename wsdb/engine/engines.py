"""The generic engine: one puzzle's byte tables bound to the kernels.

Everything that turns a :class:`~wsdb.puzzle.Puzzle` (cells, moves, maps,
interchangeable colours) into fast key operations lives here; the builder,
lookup, verify and the solver only ever call an engine. :class:`Engine` runs
the numba kernels; :class:`SmallEngine` does the same in plain numpy for a
handful of states, so a single lookup need not load numba (about 0.4 s of
start-up).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..puzzle import Puzzle, wrapslide
from ..puzzle.symmetry import canonical_cells
from .keys import KeyLayout

SMALL = 64  # up to this many states a lookup uses SmallEngine


class _Keyed:
    """What both engines share: the puzzle and its key layout."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.layout = KeyLayout.for_colours(puzzle.ncells, puzzle.c)

    @property
    def nmoves(self) -> int:
        return len(self.puzzle.moves)

    def encode(self, cells: np.ndarray) -> np.ndarray:
        """(S, N) colours -> (S, W) keys."""
        return self.layout.encode(cells)

    def decode(self, keys: np.ndarray) -> np.ndarray:
        """(S, W) keys -> (S, N) colours."""
        return self.layout.decode(keys)


class Engine(_Keyed):
    """Key-level operations for one puzzle, on the numba kernels."""

    def __init__(self, puzzle: Puzzle):
        from . import kernels  # numba loads here, not on `import wsdb`

        super().__init__(puzzle)
        self._k = kernels
        moves = _flat(self.layout.tables(puzzle.moves))
        maps = _flat(self.layout.tables(puzzle.maps))
        one = self.layout.words == 1
        self.tables = kernels.KeyTables(
            moves=moves, maps=maps,
            moves1=np.ascontiguousarray(moves[:, :, 0]) if one else np.zeros((1, 256), np.uint64),
            maps1=np.ascontiguousarray(maps[:, :, 0]) if one else np.zeros((1, 256), np.uint64),
            ncells=puzzle.ncells, k=puzzle.interchangeable, valid=self.layout.valid)

    def canonical(self, keys: np.ndarray) -> np.ndarray:
        """Class representatives (thesis §3.4)."""
        return self._k.canonical(_keys(keys), self.tables)

    def move(self, keys: np.ndarray, m: int) -> np.ndarray:
        """Move m applied to raw keys."""
        return self._k.apply_move(_keys(keys), self.tables, m)

    def expand(self, reps: np.ndarray) -> np.ndarray:
        """(F*M, W) representatives of all neighbours, row s*M + m."""
        return self._k.expand(_keys(reps), self.tables)

    def orbit_sizes(self, reps: np.ndarray) -> np.ndarray:
        """Number of states in each class."""
        stab = self._k.stabilisers(_keys(reps), self.tables)
        return self.puzzle.group_order // stab

    def step(self, raw: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(move index or -1, resulting raw key) towards each target class."""
        return self._k.step_into(_keys(raw), _keys(targets), self.tables)

    def find(self, sorted_keys: np.ndarray, queries: np.ndarray) -> np.ndarray:
        """Row of each query key in ``sorted_keys`` (ascending), or -1."""
        return self._k.find_keys(sorted_keys, _keys(queries))


class SmallEngine(_Keyed):
    """The lookup half of :class:`Engine` in numpy, for a few states."""

    def canonical(self, keys: np.ndarray) -> np.ndarray:
        """Class representatives (thesis §3.4)."""
        cells = self.decode(keys)
        return self.encode(canonical_cells(cells, self.puzzle.maps, self.puzzle.interchangeable))

    def step(self, raw: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(move index or -1, resulting raw key) towards each target class."""
        cells = self.decode(raw)
        s, m = len(cells), self.nmoves
        children = cells[:, self.puzzle.moves].reshape(s * m, -1)
        reps = self.canonical(self.encode(children)).reshape(s, m, -1)
        hit = (reps == _keys(targets)[:, None, :]).all(axis=2)
        found = np.where(hit.any(axis=1), np.argmax(hit, axis=1), -1)
        nxt = self.encode(children.reshape(s, m, -1)[np.arange(s), np.maximum(found, 0)])
        return found, nxt


def _flat(tables: np.ndarray) -> np.ndarray:
    """(P, chunks, 256, W) -> (P, chunks*256, W), the layout the kernels index."""
    p, ch, _, w = tables.shape
    return np.ascontiguousarray(tables.reshape(p, ch * 256, w))


def _keys(keys: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(keys, dtype=np.uint64).reshape(len(keys), -1)


@lru_cache(maxsize=None)
def get_engine(n: int, c: int) -> Engine:
    """The (cached) numba engine of the n x n, c-colour Wrapslide grid."""
    return Engine(wrapslide(n, c))


def engine_for(n: int, c: int, states: int) -> Engine | SmallEngine:
    """The engine that answers ``states`` lookups fastest, start-up included."""
    return SmallEngine(wrapslide(n, c)) if states <= SMALL else get_engine(n, c)
