"""The pair bound: a lower bound from colours merged in pairs.

Merge a state's colours into two sides of equal size, for example 6x6
four colours as colours 1+2 against 3+4 (18 cells against 18). The image
is a state of a two-colour grid, and any solution of the state solves its
image, so the image's distance is a lower bound on the state's. On 6x6
the grid with 18 cells of each colour has God's number 13 (its census,
:func:`wsdb.engine.census.subset_table`, 9,075,135,300 states) against
12 for the thesis' two-colour grid of 9 cells against 27, whose table the
gather bound reads (§3.5): most random states are 11 or 12 from their
merged image's goal, where the largest gather distance is about 8.

Every way to pair the colours gives the same coarse grid when every
quadrant arrangement of the colours is solved (four colours: 1+2, 1+3
and 1+4 against the rest; three colours on 6x6: 1+2 against 3), so one
census serves them all and the bound is the largest of their distances.
The census keeps distances mod 3, which a search turns into exact
distances one move at a time (:mod:`.pair_kernels`).

The census takes about 5 minutes and 1.1 GB on 6x6 (2 cores); it is derived once per
database and cached beside it, like the gather table. Only the optimal
method (and ``--at-least``) reads it: the other methods' answers then do not
depend on whether it happens to be cached.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np

from ..db.census_cache import cached_subset_table, census_cached, census_progress
from ..db.store import Store
from ..engine.census import MAX_TABLE_BYTES
from ..engine.compiling import read_only
from ..engine.subsets import SubsetRanking
from ..notices import step
from ..puzzle import Puzzle
from ..puzzle.model import merged


def partitions(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """The sides (sets of colours with colour 0, half the cells in all) of
    every pairing whose coarse grid is one halved census, the same for
    all; none where the census would not fit :data:`MAX_TABLE_BYTES` (8x8:
    C(64, 32) states) or the coarse goals differ."""
    half, c = puzzle.ncells // 2, puzzle.c
    if puzzle.ncells % 2 or c < 3 or math.comb(puzzle.ncells - 1, half) / 4 > MAX_TABLE_BYTES:
        return []
    sides = [
        (0, *rest)
        for r in range(c - 1)
        for rest in combinations(range(1, c), r)
        if sum(puzzle.counts[k] for k in (0, *rest)) == half
    ]
    goals = {_goal_words(puzzle, side) for side in sides}
    return sides if len(goals) == 1 else []


def coarse(puzzle: Puzzle, side: tuple[int, ...]) -> Puzzle:
    """The two-colour grid of a pairing: ``side`` merged, then the rest."""
    grid = merged(puzzle, "".join(str(k + 1) for k in side))
    if grid.c > 2:
        grid = merged(grid, "".join(str(k + 1) for k in range(1, grid.c)))
    return grid


def _goal_words(puzzle: Puzzle, side: tuple[int, ...]) -> frozenset:
    """The coarse goal of a pairing as cell sets, each with its complement."""
    on = np.isin(puzzle.solved, side)
    return frozenset(frozenset(np.flatnonzero(row == value).tolist()) for row in on for value in (True, False))


def pair_fields(puzzle: Puzzle, words: np.ndarray | None) -> dict:
    """What the search kernels read of the census ``words`` (None: no pair
    bound), as :class:`wsdb.solver.kernels.SearchTables` fields: the codes,
    the numbering's tables and the partitions as colour masks."""
    sides = partitions(puzzle) if words is not None else []
    masks = np.zeros((len(sides), 4), np.uint8)
    for k, side in enumerate(sides):
        masks[k, list(side)] = 1
    if not sides:
        return dict(
            pair=read_only(np.zeros(0, np.uint64)),
            psides=masks,
            prank=np.zeros((1, 1, 1), np.int64),
            pmove=np.zeros((1, 1, 1), np.uint64),
            plast=np.uint64(0),
            pfull=np.uint64(0),
            proots=np.zeros(0, np.int64),
        )
    assert words is not None  # sides are found only with a census to read
    ranking = SubsetRanking.of(coarse(puzzle, sides[0]))
    _, move, rank, last, full = ranking.tables
    return dict(
        pair=read_only(words),
        psides=masks,
        prank=rank,
        pmove=move,
        plast=last,
        pfull=full,
        proots=ranking.roots().astype(np.int64),
    )


def pair_words(puzzle: Puzzle, store: Store | None) -> np.ndarray | None:
    """The census of the grid's pairings, cached beside the database: read
    where it is cached, else derived (minutes; in memory only without a
    database file); None when the grid has no pairing or there is no
    database (a solver without one has no gather table to go with it)."""
    sides = partitions(puzzle)
    if not sides or store is None:
        return None
    grid = coarse(puzzle, sides[0])
    if census_cached(store, grid):
        return cached_subset_table(store, grid).words
    with step(f"the census of {grid.title} for the pair bound", "once per database, about 5 min on 6x6") as st:
        return cached_subset_table(store, grid, census_progress(st)).words
