"""The pure breadth-first search over symmetry classes (thesis §3.3), with
no storage: any store (the SQLite/PostgreSQL builder in :mod:`wsdb.db.build`,
a census in memory, a distributed engine) drives it level by level.

Level d+1 is every neighbour class of level d that is not in level d or d-1
(a class can reappear no more than two levels up, thesis Figure 3.8), so only
three levels are ever held for deduplication. Each level is expanded by one
kernel call; deduplication is a sort. Because a level is computed from the
sorted level above, a search resumed from stored levels grows exactly the
levels an uninterrupted one grows.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..errors import InputError
from ..notices import Step, step
from .engines import Engine
from .keys import distinct, member, sortable, unsortable

#: The largest level grown in memory without a depth limit (a census, or a
#: build of another puzzle without --max-depth): with six moves, its children, their
#: sort and the next level took 300 bytes per class expanded (Rubik's Slide
#: 4x4 hard mode: 18.7 million classes, 5.6 GB peak), so 10 million keep a
#: census under the 4 GB the tools stay within.
MAX_CLASSES = 10_000_000
#: classes expanded per kernel call in a large level: about a second's work on
#: 2 cores, so a long level reports its progress (and the copy costs little)
EXPAND_CHUNK = 1 << 20


@dataclass
class Level:
    """One depth of the tree: sorted representatives, a parent of each, orbit sizes."""

    depth: int
    reps: np.ndarray  # (L, W) uint64, ascending
    parents: np.ndarray  # (L, W) uint64 (unused at depth 0)
    orbits: np.ndarray  # (L,) int64

    @property
    def classes(self) -> int:
        return len(self.reps)

    @property
    def states(self) -> int:
        return int(self.orbits.sum())


@dataclass
class Counts:
    """A level known by its counts only (a level stored by an earlier run)."""

    depth: int
    classes: int
    states: int


@dataclass
class Tree:
    """A finished (or depth-limited) state enumeration tree; ``levels`` are
    :class:`Level` objects, or :class:`Counts` for levels a resumed build
    found already stored."""

    n: int
    c: int
    root: str
    max_depth: int | None
    complete: bool
    seconds: float
    levels: list[Level | Counts] = field(default_factory=list)
    puzzle: str = "wrapslide"

    @property
    def height(self) -> int:
        return len(self.levels) - 1

    @property
    def classes(self) -> int:
        return sum(lv.classes for lv in self.levels)

    @property
    def states(self) -> int:
        return sum(lv.states for lv in self.levels)


Progress = Callable[["Level | Counts", float], None]


def roots(eng: Engine, root: str) -> np.ndarray:
    """Level 0: for Wrapslide the classes of all solved states, or of the
    thesis' one root (the kinds a puzzle offers are ``puzzle.roots``); for
    another puzzle, its goal (which ``root`` then names)."""
    p = eng.puzzle
    if not p.roots:
        cells = p.solved
    elif root not in p.roots:
        raise InputError(f"unknown root {root!r}: expected one of {', '.join(p.roots)}")
    else:
        cells = p.solved if root == "all" else p.single_root()[None]
    reps = eng.canonical(eng.encode(cells))
    return unsortable(distinct(sortable(reps)), eng.layout.words)


def dedupe(children: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct keys (as a sortable view) and the first row holding each.

    When a key and a row number fit one word together they are packed in
    place (``children`` is consumed) and sorted as plain integers: halves
    in parallel threads (numpy releases the GIL while sorting), then merged
    keeping each key's first row. Otherwise a stable lexsort of the words
    (most significant first): np.unique of the structured view gives the
    same keys and first rows, but compares records while holding the GIL,
    about 4 times slower (6x6 three colours, depth 8: 36 s of silence)."""
    rows = len(children)
    ib = max(int(rows - 1).bit_length(), 1)
    top = int(children[:, 0].max()).bit_length() if rows else 0
    if children.shape[1] > 1 or top + ib > 64:
        return _lexsorted_first(children)
    from . import kernels

    packed = children.reshape(-1)
    kernels.pack_rows(packed, ib)
    mid = rows // 2
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(np.ndarray.sort, (packed[:mid], packed[mid:])))
    chosen = kernels.merge_first(packed[:mid], packed[mid:], ib)
    return chosen >> np.uint64(ib), (chosen & np.uint64((1 << ib) - 1)).astype(np.int64)


def _lexsorted_first(children: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct keys (a sortable view) and each one's first row, by a stable
    sort of the words: the first row of a run of equal keys is its first."""
    order = np.lexsort(tuple(children[:, w] for w in reversed(range(children.shape[1]))))
    ordered = children[order]
    keep = np.ones(len(ordered), bool)
    keep[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    return sortable(ordered[keep]), order[keep]


def next_level(eng: Engine, level: Level, seen_prev: np.ndarray) -> Level | None:
    """Level d+1 from level d and the sorted keys of level d-1; None when
    nothing new is reached (the tree is complete). A level of over
    :data:`EXPAND_CHUNK` classes is expanded a chunk at a time, so a long
    level reports classes expanded per second (:func:`wsdb.notices.step`)."""
    with step(f"depth {level.depth + 1}", f"from {level.classes:,} classes") as st:
        children = expand(eng, level.reps, st)
        st.status = f"sorting {len(children):,} children"
        uniq, first_at = dedupe(children)
        del children
        st.status = f"keeping the new of {len(uniq):,} distinct children"
        fresh = ~member(sortable(level.reps), uniq)[0] & ~member(seen_prev, uniq)[0]
        if not fresh.any():
            return None
        reps = unsortable(uniq[fresh], eng.layout.words)
        parents = level.reps[first_at[fresh] // eng.nmoves]
        st.status = f"orbit sizes of {len(reps):,} new classes"
        return Level(level.depth + 1, reps, parents, eng.orbit_sizes(reps))


def expand(eng: Engine, reps: np.ndarray, st: Step | None = None) -> np.ndarray:
    """Every move of every class, canonicalised: ``eng.expand`` a chunk of
    :data:`EXPAND_CHUNK` classes at a time into one array (the same rows
    as one call), counting progress into ``st``."""
    if len(reps) <= EXPAND_CHUNK:
        return eng.expand(reps)
    out = np.empty((len(reps) * eng.nmoves, reps.shape[1]), np.uint64)
    for i in range(0, len(reps), EXPAND_CHUNK):
        part = reps[i : i + EXPAND_CHUNK]
        out[i * eng.nmoves : (i + len(part)) * eng.nmoves] = eng.expand(part)
        if st is not None:
            st.count(i + len(part), len(reps), "classes expanded")
    return out


def first_level(eng: Engine, root: str) -> Level:
    first = roots(eng, root)
    return Level(0, first, np.zeros_like(first), eng.orbit_sizes(first))


def grow(
    eng: Engine,
    root: str = "all",
    max_depth: int | None = None,
    progress: Progress | None = None,
    max_classes: int | None = None,
) -> Tree:
    """Run the breadth-first search in memory and return the tree (every
    level with its arrays; :func:`build` stores instead). A level of more
    than ``max_classes`` classes is not expanded: WsdbError instead."""
    t0 = time.perf_counter()
    level = first_level(eng, root)
    tree = Tree(eng.puzzle.n, eng.puzzle.c, root, max_depth, False, 0.0, [level], eng.puzzle.name)
    if progress:
        progress(level, time.perf_counter() - t0)
    seen_prev = np.zeros(0, dtype=sortable(level.reps).dtype)
    while max_depth is None or level.depth < max_depth:
        if max_classes is not None and level.classes > max_classes:
            raise InputError(
                f"{eng.puzzle.label}: depth {level.depth} holds {level.classes:,} classes, more "
                f"than the {max_classes:,} counted in memory"
            )
        nxt = next_level(eng, level, seen_prev)
        if nxt is None:
            tree.complete = True
            break
        seen_prev, level = sortable(level.reps), nxt
        tree.levels.append(level)
        if progress:
            progress(level, time.perf_counter() - t0)
    tree.seconds = time.perf_counter() - t0
    return tree
