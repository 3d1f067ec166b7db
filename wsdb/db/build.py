"""Breadth-first search over symmetry classes (thesis §3.3).

Level d+1 is every neighbour class of level d that is not in level d or d-1
(a class can reappear no more than two levels up, thesis Figure 3.8), so only
three levels are ever held for deduplication. Each level is expanded by one
kernel call; deduplication is a numpy sort. The result is written to the
store in one transaction by :func:`build`.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib.metadata import version
from typing import Callable, Iterator

import numpy as np

from ..engine import Engine, get_engine
from ..engine.keys import distinct, member, sortable, unsortable
from ..errors import WsdbError
from ..puzzle import check_grid, format_states
from .store import Store

ROOTS = ("all", "single")

#: Depth at which ``build`` stops by default, for grids that cannot be
#: finished: each fits in under 4 GB and about three minutes on 2 cores
#: (README, "Databases the solver uses"). Smaller grids are built to the end.
DEFAULT_DEPTH = {(6, 3): 8, (6, 4): 8, (8, 2): 7, (8, 3): 6, (8, 4): 7}
COMPLETE = {(2, 2), (2, 3), (2, 4), (4, 2), (4, 3), (4, 4), (6, 2)}


def default_depth(n: int, c: int) -> int | None:
    """The depth ``wsdb build`` stops at when no --max-depth is given
    (None: to the end); an error for grids with no known safe depth."""
    if (n, c) in COMPLETE:
        return None
    if (n, c) in DEFAULT_DEPTH:
        return DEFAULT_DEPTH[(n, c)]
    raise WsdbError(f"{n}x{n} {c}-colour cannot be built to the end: give --max-depth D "
                    "(each level is roughly 10-25 times the one before)")


@dataclass
class Level:
    """One depth of the tree: sorted representatives, a parent of each, orbit sizes."""

    depth: int
    reps: np.ndarray        # (L, W) uint64, ascending
    parents: np.ndarray     # (L, W) uint64 (unused at depth 0)
    orbits: np.ndarray      # (L,) int64

    @property
    def classes(self) -> int:
        return len(self.reps)

    @property
    def states(self) -> int:
        return int(self.orbits.sum())


@dataclass
class Tree:
    """A finished (or depth-limited) state enumeration tree."""

    n: int
    c: int
    root: str
    max_depth: int | None
    complete: bool
    seconds: float
    levels: list[Level] = field(default_factory=list)

    @property
    def height(self) -> int:
        return len(self.levels) - 1

    @property
    def classes(self) -> int:
        return sum(lv.classes for lv in self.levels)

    @property
    def states(self) -> int:
        return sum(lv.states for lv in self.levels)


Progress = Callable[[Level, float], None]


def roots(eng: Engine, root: str) -> np.ndarray:
    """Level 0: the classes of all solved states, or of the thesis' one root."""
    if root not in ROOTS:
        raise WsdbError(f"unknown root {root!r}: expected one of {', '.join(ROOTS)}")
    cells = eng.puzzle.solved if root == "all" else eng.puzzle.single_root()[None]
    reps = eng.canonical(eng.encode(cells))
    return unsortable(distinct(sortable(reps)), eng.layout.words)


def dedupe(children: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct keys (as a sortable view) and the first row holding each.

    When a key and a row number fit one word together they are packed and
    sorted as plain integers, 4x faster than np.unique(return_index=True)."""
    rows = len(children)
    ib = max(int(rows - 1).bit_length(), 1)
    top = int(children[:, 0].max()).bit_length() if rows else 0
    if children.shape[1] > 1 or top + ib > 64:
        return np.unique(sortable(children), return_index=True)
    packed = (children[:, 0] << np.uint64(ib)) | np.arange(rows, dtype=np.uint64)
    packed.sort()
    keys = packed >> np.uint64(ib)
    first = np.ones(rows, dtype=bool)
    np.not_equal(keys[1:], keys[:-1], out=first[1:])
    chosen = packed[first]
    return chosen >> np.uint64(ib), (chosen & np.uint64((1 << ib) - 1)).astype(np.int64)


def grow(eng: Engine, root: str = "all", max_depth: int | None = None,
         progress: Progress | None = None) -> Tree:
    """Run the breadth-first search in memory and return the tree."""
    t0 = time.perf_counter()
    words = eng.layout.words
    first = roots(eng, root)
    level = Level(0, first, np.zeros_like(first), eng.orbit_sizes(first))
    tree = Tree(eng.puzzle.n, eng.puzzle.c, root, max_depth, False, 0.0, [level])
    if progress:
        progress(level, time.perf_counter() - t0)
    seen_prev = np.zeros(0, dtype=sortable(first).dtype)
    while max_depth is None or level.depth < max_depth:
        uniq, first_at = dedupe(eng.expand(level.reps))
        fresh = ~member(sortable(level.reps), uniq)[0] & ~member(seen_prev, uniq)[0]
        if not fresh.any():
            tree.complete = True
            break
        reps = unsortable(uniq[fresh], words)
        parents = level.reps[first_at[fresh] // eng.nmoves]
        seen_prev = sortable(level.reps)
        level = Level(level.depth + 1, reps, parents, eng.orbit_sizes(reps))
        tree.levels.append(level)
        if progress:
            progress(level, time.perf_counter() - t0)
    tree.seconds = time.perf_counter() - t0
    return tree


def build(n: int, c: int, db=None, max_depth: int | None = None, root: str = "all",
          force: bool = False, progress: Progress | None = None,
          starting: Callable[[], None] | None = None) -> tuple[Tree | None, dict]:
    """Build the (n, c) database and store it; returns (tree, build row).

    A finished build (complete, or at least as deep as asked) is kept unless
    ``force``; then the tree is None and the stored row is returned. The
    write is one transaction, so an interrupted build leaves what was there.
    ``starting()`` is called once the arguments are checked and the database
    is open, before the kernels load; ``progress`` after every level."""
    check_grid(n, c)
    if max_depth is None:
        max_depth = default_depth(n, c)
    if max_depth is not None and max_depth < 0:
        raise WsdbError(f"--max-depth {max_depth}: expected a depth of 0 or more")
    if root not in ROOTS:
        raise WsdbError(f"unknown root {root!r}: expected one of {', '.join(ROOTS)}")
    store = Store.open(db, create=True)
    done = store.build_row(n, c, root)
    if done and not force and (done["complete"] or
                               (max_depth is not None and done["max_depth"] >= max_depth)):
        return None, done
    if starting:
        starting()
    eng = get_engine(n, c)
    tree = grow(eng, root, max_depth, progress)
    row = build_row(tree)
    store.replace_tree(row, level_rows(tree), class_rows(tree, eng))
    return tree, row


def build_row(tree: Tree) -> dict:
    """The ``builds`` row describing a grown tree."""
    return dict(n=tree.n, c=tree.c, root=tree.root, complete=tree.complete,
                max_depth=tree.max_depth, height=tree.height,
                god_number=tree.height if tree.complete else None,
                classes=tree.classes, states=tree.states, seconds=round(tree.seconds, 3),
                version=version("wsdb"),
                built_at=datetime.now(timezone.utc).isoformat(timespec="seconds"))


def level_rows(tree: Tree) -> list[dict]:
    """The ``levels`` rows of a grown tree."""
    return [dict(n=tree.n, c=tree.c, root=tree.root, depth=lv.depth, classes=lv.classes,
                 states=lv.states) for lv in tree.levels]


def class_rows(tree: Tree, eng: Engine) -> Iterator[Iterator[tuple]]:
    """The ``classes`` rows of a grown tree, one lazy batch per level:
    (rep, grid, depth, parent, orbit_size), the columns after the tree key."""
    layout = eng.layout
    for lv in tree.levels:
        grids = format_states(eng.decode(lv.reps), tree.n).tolist()
        parents = [None] * lv.classes if lv.depth == 0 else layout.to_sql(lv.parents)
        yield zip(layout.to_sql(lv.reps), grids, [lv.depth] * lv.classes, parents, lv.orbits.tolist())
