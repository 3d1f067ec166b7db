"""The liftings of a merged grid's state that the moves-off check counts
(docs/frontier.md, thesis §1's colour counts): the kernels of
:mod:`.lifting_kernels` given a two-colour census's tables
(:class:`wsdb.engine.subsets.SubsetRanking`)."""

from __future__ import annotations

import numpy as np

from ..engine.compiling import read_only
from ..engine.subsets import SubsetRanking
from . import lifting_kernels as lk


def _moves(ranking: SubsetRanking) -> np.ndarray:
    return np.ascontiguousarray(ranking.puzzle.moves, dtype=np.int64)


def unavoidable(
    ranking: SubsetRanking,
    words: np.ndarray,
    cells: np.ndarray,
    depth: int,
    tries: int,
    shortest: int,
    goals: np.ndarray,
    cells_of: np.ndarray,
    rank_of: np.ndarray,
    bad: np.ndarray,
    nbad: np.ndarray,
    far: np.ndarray,
    detours: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`.lifting_kernels.unavoidable` with the grid's tables: (the
    liftings left, the paths walked) per state."""
    binom, P, R, last, full = ranking.tables
    return lk.unavoidable(
        read_only(words),
        cells,
        depth,
        tries,
        shortest,
        goals,
        cells_of,
        rank_of,
        bad,
        nbad,
        far,
        detours,
        P,
        R,
        last,
        full,
        _moves(ranking),
    )


def left_liftings(
    ranking: SubsetRanking,
    words: np.ndarray,
    cell,
    depth: int,
    tries: int,
    goals: np.ndarray,
    cells_of: np.ndarray,
    rank_of: np.ndarray,
    bad: np.ndarray,
    nbad: np.ndarray,
    far: np.ndarray,
    detours: bool,
) -> np.ndarray:
    """:func:`.lifting_kernels.left_liftings` with the grid's tables: the
    liftings of one state left, as words of the cells that hold the first
    merged colour."""
    binom, P, R, last, full = ranking.tables
    return lk.left_liftings(
        read_only(words),
        np.uint64(cell),
        depth,
        tries,
        goals,
        cells_of,
        rank_of,
        bad,
        nbad,
        far,
        detours,
        P,
        R,
        last,
        full,
        _moves(ranking),
    )
