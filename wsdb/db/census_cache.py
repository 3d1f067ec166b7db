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
import hashlib

import numpy as np

from ..engine.census import SubsetTable, subset_table
from ..engine.packed_kernels import FIELDS
from ..engine.subsets import SubsetRanking
from ..errors import DamagedError
from ..puzzle.model import Puzzle
from .cache import cache_file, cached_array

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


def _name(grid: Puzzle, what: str) -> str:
    return f"census{grid.n}x{grid.ncells // grid.n}-{rules_digest(grid)}-{what}"


def _parts(store, grid: Puzzle) -> dict:
    """Where the census of ``grid`` is cached beside ``store``'s database
    (None each without a file)."""
    return {what: cache_file(store.path, _name(grid, what), RULES) for what in ("words", "states", "last")}


def census_cached(store, grid: Puzzle) -> bool:
    """Whether the census of ``grid`` is cached beside ``store``'s database."""
    return all(p is not None and p.exists() for p in _parts(store, grid).values())


def cached_subset_table(store, grid: Puzzle, progress=None) -> SubsetTable:
    """The census of ``grid`` (:func:`~wsdb.engine.census.subset_table`),
    read from beside ``store``'s database where an earlier run saved it, else
    made and saved (the table, the states per distance, the deepest level's
    indices). Without a database file (in memory) it is only made."""
    path, parts = store.path, _parts(store, grid)
    made: list[SubsetTable] = []

    def make(what):
        def run():
            if not made:
                made.append(subset_table(grid, progress))
            table = made[0]
            if what == "words":
                return table.words
            if what == "states":
                return np.array(table.states, dtype=np.int64)
            return np.array([-1] if table.last is None else table.last, dtype=np.int64)
        return run

    existed = path is not None and census_cached(store, grid)
    if path is not None and not existed:
        for p in parts.values():   # one census makes all three: none is kept from an older one
            with contextlib.suppress(OSError):   # read-only media: the cache is only a speed-up
                p.unlink(missing_ok=True)
    try:
        words = cached_array(path, _name(grid, "words"), RULES, make("words"), mmap=True)
        states = cached_array(path, _name(grid, "states"), RULES, make("states"))
        last = cached_array(path, _name(grid, "last"), RULES, make("last"))
    except (ValueError, EOFError) as e:   # a file cut short or overwritten: np.load cannot read it
        if not existed:
            raise
        raise DamagedError(f"the census of {grid.label} cached at {parts['words'].parent} cannot be read ({e}); "
                           "delete its census files and it is made again") from None
    ranking = SubsetRanking.of(grid)
    if words.shape != (-(-ranking.size // FIELDS),):
        raise DamagedError(f"the census of {grid.label} cached at {parts['words']} does not fit the grid; "
                           "delete the file and it is made again")
    return SubsetTable(ranking, words, [int(s) for s in states], None if list(last[:1]) == [-1] else last)


def cached_level(store, grid: Puzzle, table: SubsetTable, depth: int, progress=None) -> np.ndarray:
    """:meth:`~wsdb.engine.subsets.SubsetRanking.level` of ``table`` (one
    state per orbit under the grid's symmetries, at ``depth``), saved beside
    ``store``'s database the first time."""
    name = _name(grid, f"level{depth}")
    where = cache_file(store.path, name, RULES)
    existed = where is not None and where.exists()
    try:
        return cached_array(store.path, name, RULES,
                            lambda: table.ranking.level(table.words, depth, grid.maps, progress))
    except (ValueError, EOFError) as e:
        if not existed:
            raise
        raise DamagedError(f"the level {depth} of {grid.label} cached at {where} cannot be read ({e}); "
                           "delete the file and it is read from the census again") from None
