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
from ..puzzle.sliding import SlidingPuzzle
from ..puzzle.symmetry import canonical_cells
from .keys import KeyLayout

SMALL = 64  # up to this many states a lookup uses SmallEngine


class _Keyed:
    """What both engines share: the puzzle and its key layout."""

    puzzle: Puzzle | SlidingPuzzle

    def __init__(self, puzzle: Puzzle | SlidingPuzzle):
        self.puzzle = puzzle
        self.layout = KeyLayout.for_colours(puzzle.ncells, puzzle.c)

    @property
    def nmoves(self) -> int:
        return len(self.puzzle.move_names)  # one name a move, in the moves' order

    def encode(self, cells: np.ndarray) -> np.ndarray:
        """(S, N) colours -> (S, W) keys."""
        return self.layout.encode(cells)

    def decode(self, keys: np.ndarray) -> np.ndarray:
        """(S, W) keys -> (S, N) colours."""
        return self.layout.decode(keys)


class Engine(_Keyed):
    """Key-level operations for one puzzle, on the numba kernels."""

    puzzle: Puzzle

    def __init__(self, puzzle: Puzzle, product: bool = True):
        from . import kernels  # numba loads here, not on `import wsdb`

        super().__init__(puzzle)
        self._k = kernels
        layout = self.layout
        moves = _flat(layout.tables(puzzle.moves))
        maps = _flat(layout.tables(puzzle.maps))
        path = kernels.GENERAL
        if product and layout.words <= 2 and puzzle.interchangeable in (1, 2, 4) and _factors(puzzle):
            path = kernels.PRODUCT1 if layout.words == 1 else kernels.PRODUCT2
        base = (
            _flat(layout.tables(puzzle.map_base))
            if path != kernels.GENERAL and puzzle.map_base is not None  # _factors found a base
            else np.zeros((1, 256, layout.words), np.uint64)
        )
        self.tables = kernels.KeyTables(
            moves=moves,
            maps=maps,
            moves1=_word(moves, layout),
            maps1=_word(maps, layout),
            base=base,
            base1=_word(base, layout),
            path=path,
            half=np.uint64(layout.total_bits // 2),
            row_half=np.uint64(layout.bits * puzzle.n // 2),
            masks=_translation_masks(layout, puzzle.n),
            ncells=puzzle.ncells,
            k=puzzle.interchangeable,
            valid=layout.valid,
            bits=layout.bits,
            quads=_quadrant_masks(layout, puzzle),
            board8=path == kernels.PRODUCT1 and _bitboard(layout, puzzle),
        )
        # the kernel set of this key width and path (each compiles separately)
        kind = "one word" if layout.words == 1 else "two words" if path == kernels.PRODUCT2 else "general"
        self._canonical, self._expand, self._stabilisers, self._step = _kernel_sets(kernels)[kind]
        word, shift = layout.fields()
        self._word, self._shift = word.astype(np.int64), shift.astype(np.uint64)

    def encode(self, cells: np.ndarray) -> np.ndarray:
        """(S, N) colours -> (S, W) keys, in a kernel (a solver's beam
        encodes every child it scores)."""
        cells = np.ascontiguousarray(np.atleast_2d(cells), dtype=np.uint8)
        return self._k.encode_cells(cells, self._word, self._shift, self.layout.words)

    def canonical(self, keys: np.ndarray) -> np.ndarray:
        """Class representatives (thesis §3.4)."""
        return self._canonical(_keys(keys), self.tables)

    def move(self, keys: np.ndarray, m: int) -> np.ndarray:
        """Move m applied to raw keys."""
        return self._k.apply_move(_keys(keys), self.tables, m)

    def expand(self, reps: np.ndarray) -> np.ndarray:
        """(F*M, W) representatives of all neighbours, row s*M + m."""
        return self._expand(_keys(reps), self.tables)

    def orbit_sizes(self, reps: np.ndarray) -> np.ndarray:
        """Number of states in each class."""
        stab = self._stabilisers(_keys(reps), self.tables)
        return self.puzzle.group_order // stab

    def step(self, raw: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(move index or -1, resulting raw key) towards each target class."""
        return self._step(_keys(raw), _keys(targets), self.tables)

    def find(self, sorted_keys: np.ndarray, queries: np.ndarray) -> np.ndarray:
        """Row of each query key in ``sorted_keys`` (ascending), or -1."""
        return self._k.find_keys(sorted_keys, _keys(queries))


class SmallEngine(_Keyed):
    """The lookup half of :class:`Engine` in numpy, for a few states."""

    puzzle: Puzzle

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


def _kernel_sets(kernels) -> dict[str, tuple]:
    """(canonical, expand, stabilisers, step) for each key width and path:
    one-word keys, two-word keys on the product path, and the general path."""
    return {
        "one word": (kernels.canonical_w1, kernels.expand_w1, kernels.stabilisers_w1, kernels.step_w1),
        "two words": (kernels.canonical_w2, kernels.expand_w2, kernels.stabilisers_w2, kernels.step_w2),
        "general": (kernels.canonical, kernels.expand, kernels.stabilisers, kernels.step_into),
    }


class SlidingEngine(_Keyed):
    """The lookup half of an engine for the sliding-tile puzzle, whose
    moves depend on the state (no symmetry: a class is one state)."""

    puzzle: SlidingPuzzle

    @property
    def nmoves(self) -> int:
        return len(self.puzzle.move_names)

    def canonical(self, keys: np.ndarray) -> np.ndarray:
        """Every state is its own class."""
        return _keys(keys).copy()

    def expand(self, reps: np.ndarray) -> np.ndarray:
        """(F*M, W) every state after each move, row s*M + m; a move with no
        tile on its side of the blank leaves the state as it is."""
        cells = self.decode(reps)
        out = np.empty((len(cells), self.nmoves, self.layout.words), np.uint64)
        for k in range(self.nmoves):
            after, _ = self.puzzle.slide(cells, k)
            out[:, k] = self.encode(after)
        return out.reshape(len(cells) * self.nmoves, -1)

    def orbit_sizes(self, reps: np.ndarray) -> np.ndarray:
        """One state a class."""
        return np.ones(len(reps), dtype=np.int64)

    def step(self, raw: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(move index or -1, resulting raw key) towards each target state."""
        cells = self.decode(raw)
        targets = _keys(targets)
        found = np.full(len(cells), -1, dtype=np.int64)
        nxt = _keys(raw).copy()
        for k in range(self.nmoves):
            after, ok = self.puzzle.slide(cells, k)
            keys = self.encode(after)
            hit = ok & (keys == targets).all(axis=1) & (found < 0)
            found[hit] = k
            nxt[hit] = keys[hit]
        return found, nxt


def _factors(puzzle: Puzzle) -> bool:
    """Whether every map is a base map followed by a half-grid translation,
    each exactly once (then the PRODUCT kernels apply)."""
    if puzzle.map_base is None:
        return False
    from ..puzzle.symmetry import compose, half_translations

    products = [compose(d, t).tobytes() for d in puzzle.map_base for t in half_translations(puzzle.n)]
    return len(products) == len(puzzle.maps) == len(set(products)) and set(products) == {
        g.tobytes() for g in puzzle.maps
    }


def _translation_masks(layout: KeyLayout, n: int) -> np.ndarray:
    """(3, 2) uint64 as (hi, lo) of the low 128 key bits: all key bits, the
    low half of every row, the high half of every row."""
    row = layout.bits * n
    low = sum(((1 << (row // 2)) - 1) << (row * r) for r in range(n))
    out = np.zeros((3, 2), np.uint64)
    for i, value in enumerate(((1 << layout.total_bits) - 1, low, low << (row // 2))):
        value &= (1 << 128) - 1
        out[i] = (value >> 64, value & ((1 << 64) - 1))
    return out


def _quadrant_masks(layout: KeyLayout, puzzle: Puzzle) -> np.ndarray:
    """(4, 2) uint64 as (hi, lo): the lowest key bit of every cell of each
    n/2 x n/2 quadrant, for :func:`~wsdb.engine.kernels.signature`; all
    zero (no filtering) unless every map sends quadrants onto quadrants,
    and for keys of more than two words."""
    out = np.zeros((4, 2), np.uint64)
    n = puzzle.n
    if n % 2 or layout.words > 2 or layout.bits > 2:  # the signature reads 1- or 2-bit cells
        return out
    rows, cols = np.divmod(np.arange(puzzle.ncells), n)
    quadrant = 2 * (rows >= n // 2) + (cols >= n // 2)
    blocks = {frozenset(np.flatnonzero(quadrant == q).tolist()) for q in range(4)}
    for g in puzzle.maps:  # cell i goes to g's image; a block must land on a block
        if any(frozenset(g[sorted(b)].tolist()) not in blocks for b in blocks):
            return out
    word, shift = layout.fields()  # the layout is of this puzzle's cells
    for cell in range(puzzle.ncells):
        out[quadrant[cell], 1 - (layout.words - 1 - word[cell])] |= np.uint64(1) << np.uint64(shift[cell])
    return out


def _word(tables: np.ndarray, layout: KeyLayout) -> np.ndarray:
    """The one-word copy the scalar kernels index (a dummy for wider keys)."""
    if layout.words == 1:
        return np.ascontiguousarray(tables[:, :, 0])
    return np.zeros((1, 256), np.uint64)


def _flat(tables: np.ndarray) -> np.ndarray:
    """(P, chunks, 256, W) -> (P, chunks*256, W), the layout the kernels index."""
    p, ch, _, w = tables.shape
    return np.ascontiguousarray(tables.reshape(p, ch * 256, w))


def _bitboard(layout: KeyLayout, puzzle: Puzzle) -> bool:
    """Whether the keys are 8x8 bitboards: one bit a cell, cell i at bit
    63 - i (row r in byte 7 - r), so that bit operations map the square
    (:func:`.kernels.canonical1`)."""
    _, shift = layout.fields()
    return puzzle.n == 8 and layout.bits == 1 and bool((shift == 63 - np.arange(64)).all())


def _keys(keys: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(keys, dtype=np.uint64).reshape(len(keys), -1)


@lru_cache(maxsize=None)
def get_engine(n: int, c: int) -> Engine:
    """The (cached) numba engine of the n x n, c-colour Wrapslide grid."""
    return Engine(wrapslide(n, c))


def engine_for(n: int, c: int, states: int) -> Engine | SmallEngine:
    """The engine that answers ``states`` lookups fastest, start-up included."""
    return SmallEngine(wrapslide(n, c)) if states <= SMALL else get_engine(n, c)


@lru_cache(maxsize=None)
def puzzle_engine(puzzle: Puzzle | SlidingPuzzle) -> Engine | SlidingEngine:
    """The (cached) numba engine of any puzzle: Wrapslide's shared one, or
    one per definition of another puzzle (docs/puzzles.md); the sliding
    puzzle's has the lookup half only (its trees come from the ranked table)."""
    if isinstance(puzzle, SlidingPuzzle):
        return SlidingEngine(puzzle)
    # a puzzle with kinds of root is a Wrapslide grid: one engine per (n, c), shared
    return get_engine(puzzle.n, puzzle.c) if puzzle.roots else Engine(puzzle)


def puzzle_engine_for(puzzle: Puzzle | SlidingPuzzle, states: int) -> Engine | SmallEngine | SlidingEngine:
    """:func:`engine_for` for any puzzle (the sliding puzzle's engine is numpy already)."""
    if isinstance(puzzle, SlidingPuzzle) or states > SMALL:
        return puzzle_engine(puzzle)
    return SmallEngine(puzzle)
