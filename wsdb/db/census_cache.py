"""A two-colour grid's census table and the levels read from it, cached
beside the database (:mod:`.cache`).

The census of a merged grid (:func:`wsdb.engine.census.subset_table`,
minutes on 6x6: 4.5e9 states at two bits, 1.1 GB) and the levels read from
it (one state per orbit, minutes each) depend on the grid's rules alone:
its goal, its moves, its symmetries. A moves-off check (`wsdb bounds
compute --merge ... --off K`) that resumes from the slices it kept would
otherwise derive them again, about half an hour on 6x6 three colours
before its first slice. So each is saved once, named for a digest of the
rules, and read back (memory-mapped) by every later run on that database.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib

import numpy as np

from ..engine.census import SubsetTable, subset_table
from ..engine.packed_kernels import FIELDS
from ..engine.subsets import SubsetRanking
from ..errors import DamagedError
from ..puzzle.model import Puzzle
from .cache import SUM, cache_file, cached_array

#: The cache's stand-in for a build: these arrays depend on the rules alone.
RULES = {"built_at": "1", "classes": 0}


def rules_digest(grid: Puzzle) -> str:
    """A digest of what the census of ``grid`` depends on: its goal states,
    moves and symmetries (two grids with the same digest have the same
    table and levels, whatever they were made from)."""
    h = hashlib.blake2b(digest_size=8)
    for part in (grid.solved, grid.moves, grid.maps):
        a = np.ascontiguousarray(part, dtype=np.int64)
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def _names(grid: Puzzle) -> dict[str, str]:
    """The cache names of the census of ``grid`` (its words, states per
    distance and deepest level's indices) and the prefix of its levels'."""
    stem = f"census{grid.n}x{grid.ncells // grid.n}-{rules_digest(grid)}"
    return {what: f"{stem}-{what}" for what in ("words", "states", "last", "level")}


def _parts(store, grid: Puzzle) -> dict:
    """Where the census of ``grid`` is cached beside ``store``'s database
    (None each without a file)."""
    return {what: cache_file(store.path, name, RULES) for what, name in _names(grid).items() if what != "level"}


def census_cached(store, grid: Puzzle) -> bool:
    """Whether the census of ``grid`` is cached beside ``store``'s database."""
    return all(p is not None and p.exists() for p in _parts(store, grid).values())


def census_progress(st):
    """A census ``progress`` that tells the step ``st`` each level found."""

    def progress(level, _seconds) -> None:
        st.status = f"{level.states:,} states at distance {level.depth}"

    return progress


def _cached(store, name: str, make, mmap: bool = False) -> np.ndarray:
    """:func:`~.cache.cached_array` under this module's names (a cached file
    that does not match its checksum is made again there)."""
    return cached_array(store.path, name, RULES, make, mmap=mmap)


def cached_subset_table(store, grid: Puzzle, progress=None, resident: bool = False) -> SubsetTable:
    """The census of ``grid`` (:func:`~wsdb.engine.census.subset_table`),
    read from beside ``store``'s database where an earlier run saved it, else
    made and saved (the table, the states per distance, the deepest level's
    indices). Without a database file (in memory) it is only made.

    The saved table is mapped from its file, shared by every process that
    reads it, unless ``resident``: then it is read into the process's own
    memory, which numpy asks the kernel to back with huge pages. Work that
    reads the table at random for long (the moves-off checks walk paths
    down it for hours) goes faster so: on 6x6, walking 200,000 states of
    the merged grid's level 11 down to the goal took 2.6 s resident and
    3.75 s mapped, whose 4 KB pages miss the address cache at almost every
    read of a 1.1 GB table."""
    names, parts = _names(grid), _parts(store, grid)
    census = functools.cache(lambda: subset_table(grid, progress))  # one census makes all three
    if store.path is not None and not census_cached(store, grid):
        for p in parts.values():  # none is kept from an older census
            with contextlib.suppress(OSError):  # read-only media: the cache is only a speed-up
                p.unlink(missing_ok=True)
                p.with_name(p.name + SUM).unlink(missing_ok=True)
    words = _cached(store, names["words"], lambda: census().words, mmap=not resident)
    states = _cached(store, names["states"], lambda: np.array(census().states, dtype=np.int64))
    last = _cached(
        store, names["last"], lambda: np.array([-1] if census().last is None else census().last, dtype=np.int64)
    )
    ranking = SubsetRanking.of(grid)
    if words.shape != (-(-ranking.size // FIELDS),):
        raise DamagedError(
            f"the census of {grid.label} cached at {parts['words']} does not fit the grid; delete the file and it is made again"
        )
    return SubsetTable(ranking, words, [int(s) for s in states], None if list(last[:1]) == [-1] else last)


def cached_level(store, grid: Puzzle, table: SubsetTable, depth: int, progress=None) -> np.ndarray:
    """:meth:`~wsdb.engine.subsets.SubsetRanking.level` of ``table`` (one
    state per orbit under the grid's symmetries, at ``depth``), saved beside
    ``store``'s database the first time."""
    return _cached(
        store,
        f"{_names(grid)['level']}{depth}",
        lambda: table.ranking.level(table.words, depth, grid.maps, progress),
    )
