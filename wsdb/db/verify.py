"""Prove a stored build right, from the stored rows alone.

Checks, in order, stopping at the first violation (one function each):

1. :func:`representatives_and_roots`: every stored rep is canonical, and
   level 0 is exactly the root classes;
2. :func:`parents_stored`: every non-root class has its parent stored, one
   depth up;
3. :func:`parent_one_move_away` and :func:`neighbours_at_most_one_deeper`,
   level by level over one expansion of the level: the parent is one move
   away, and every neighbour of a class of depth d is stored with depth
   <= d + 1 (for a partial tree: of every class above the deepest level);
4. :func:`counts_match`: the levels table and the build row match counts
   recomputed from the classes;
5. :func:`orbit_sizes_right`: orbit sizes are right and, for a complete
   build, add up to the number of states (the multinomial).

Together 2 and 3 make every stored depth the true distance (thesis §3.3: a
breadth-first tree whose every class is one move from a class one level up,
and none of whose classes has a neighbour more than one level down).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine import Engine, get_engine, puzzle_engine
from ..engine.bfs import roots
from ..engine.keys import distinct, member, sortable, unsortable
from ..errors import DamagedError
from ..notices import step
from ..puzzle import Puzzle
from ..puzzle.sliding import SlidingPuzzle
from ..puzzle.tree_key import TreeKey
from .store import Store


@dataclass
class Report:
    """Outcome of :func:`verify`: ok, or the first violation found."""

    n: int
    c: int
    root: str
    ok: bool
    classes: int
    states: int
    complete: bool
    problem: str | None = None
    checks: tuple[str, ...] = ()


@dataclass
class Stored:
    """One stored build as arrays, sorted by key: what every check reads."""

    store: Store
    build: dict
    tree: TreeKey
    eng: Engine
    reps: np.ndarray
    depth: np.ndarray
    parents: np.ndarray
    orbits: np.ndarray

    @property
    def key(self) -> np.ndarray:
        return sortable(self.reps)

    @property
    def height(self) -> int:
        return int(self.depth.max())

    def name(self, i: int) -> str:
        return f"class {self.eng.layout.to_int(self.reps[i])} (depth {self.depth[i]})"


def representatives_and_roots(t: Stored) -> str | None:
    canon = t.eng.canonical(t.reps)
    bad = np.flatnonzero((canon != t.reps).any(axis=1))
    if bad.size:
        return f"{t.name(bad[0])} is not the smallest member of its class"
    root_keys = sortable(roots(t.eng, t.tree.root))
    level0 = t.key[t.depth == 0]
    if level0.size != root_keys.size or not (np.sort(level0) == root_keys).all():
        return f"level 0 holds {level0.size} classes; expected the {root_keys.size} root classes"
    return None


def parents_stored(t: Stored) -> str | None:
    deeper = np.flatnonzero(t.depth > 0)
    found, at = member(t.key, sortable(t.parents[deeper]))
    missing = deeper[~found]
    if missing.size:
        return f"{t.name(missing[0])} has a parent that is not stored"
    wrong = t.depth[at] != t.depth[deeper] - 1
    if wrong.any():
        i = np.argmax(wrong)
        return f"{t.name(deeper[i])} has its parent at depth {t.depth[at][i]}; expected {t.depth[deeper[i]] - 1}"
    return None


def parent_one_move_away(t: Stored, d: int, rows: np.ndarray, children: np.ndarray) -> str | None:
    if d == 0:
        return None
    hit = (children == t.parents[rows][:, None, :]).all(axis=2).any(axis=1)
    if not hit.all():
        return f"{t.name(rows[np.argmin(hit)])} is not one move from its parent"
    return None


def neighbours_at_most_one_deeper(t: Stored, d: int, rows: np.ndarray, children: np.ndarray) -> str | None:
    # below the deepest level of a partial tree the next level is not stored
    if not t.build["complete"] and d == t.height:
        return None
    near = distinct(sortable(children.reshape(-1, children.shape[2])))
    ok, at = member(t.key, near)
    if not ok.all():
        missing = unsortable(near[~ok][:1], t.eng.layout.words)[0]
        return f"a class at depth {d} has a neighbour that is not stored: {t.eng.layout.to_int(missing)}"
    if (t.depth[at] > d + 1).any():
        return f"a class at depth {d} has a neighbour at depth {t.depth[at].max()}; expected at most {d + 1}"
    return None


def build_row_right(t: Stored) -> str | None:
    """What the build row says, against the tree: finished, complete or
    not, its God number, its height and depth limit."""
    b = t.build
    if b["status"] != "done":
        return f"the build row says status {b['status']!r}; expected 'done'"
    if b["complete"] not in (0, 1, True, False):
        return f"the build row says complete = {b['complete']!r}; expected 0 or 1"
    if b["height"] != t.height:
        return f"the build row says height {b['height']}; the classes reach depth {t.height}"
    if b["complete"]:
        if b["god_number"] != t.height:
            return f"the build row says God number {b['god_number']}; the complete tree's height is {t.height}"
        if b["max_depth"] is not None and b["max_depth"] < t.height:
            return f"the build row says max_depth {b['max_depth']}; the tree reaches depth {t.height}"
    else:
        if b["god_number"] is not None:
            return f"the build row of a partial tree says God number {b['god_number']}; expected none"
        if b["max_depth"] != t.height:
            return (
                f"the build row of a partial tree says max_depth {b['max_depth']}; a partial tree stops at "
                f"its limit, here depth {t.height}"
            )
    return None


def counts_match(t: Stored) -> str | None:
    stored = {r["depth"]: (r["classes"], r["states"]) for r in t.store.level_rows(t.tree)}
    extra = sorted(set(stored) - set(range(t.height + 1)))
    if extra:
        return f"a levels row for depth {extra[0]}, where the tree has no classes"
    for d in range(t.height + 1):
        at_d = t.depth == d
        got = (int(at_d.sum()), int(t.orbits[at_d].sum()))
        if stored.get(d) != got:
            return f"levels row for depth {d} says {stored.get(d)} (classes, states); the classes table has {got}"
    b = t.build
    if (b["classes"], b["states"], b["height"]) != (len(t.reps), int(t.orbits.sum()), t.height):
        return (
            f"build row totals ({b['classes']} classes, {b['states']} states, height "
            f"{b['height']}) differ from the classes table"
        )
    return None


def orbit_sizes_right(t: Stored) -> str | None:
    true_orbits = t.eng.orbit_sizes(t.reps)
    wrong = np.flatnonzero(true_orbits != t.orbits)
    if wrong.size:
        return f"{t.name(wrong[0])} has orbit_size {t.orbits[wrong[0]]}; expected {true_orbits[wrong[0]]}"
    # every arrangement of Wrapslide's colours is a state; another puzzle's complete tree
    # is proved whole by being closed under the moves (the level checks) instead
    if t.build["complete"] and t.eng.puzzle.every_arrangement and int(t.orbits.sum()) != t.eng.puzzle.states:
        return f"orbit sizes add up to {int(t.orbits.sum())}; expected {t.eng.puzzle.states} states"
    return None


LEVEL_CHECKS = (parent_one_move_away, neighbours_at_most_one_deeper)


def level_by_level(t: Stored) -> str | None:
    """Run :data:`LEVEL_CHECKS` on each level, expanding it once."""
    m = t.eng.nmoves
    for d in range(t.height + 1):
        rows = np.flatnonzero(t.depth == d)
        children = t.eng.expand(t.reps[rows]).reshape(len(rows), m, -1)
        for check in LEVEL_CHECKS:
            problem = check(t, d, rows, children)
            if problem:
                return problem
    return None


def verify(n: int, c: int, db=None, root: str = "all") -> Report:
    """Check the stored (n, c) build; see the module docstring."""
    return _verify(Store.open(db), get_engine(n, c), TreeKey.wrapslide(n, c, root))


def verify_puzzle(puzzle: Puzzle | SlidingPuzzle, db=None) -> Report:
    """Check another puzzle's stored tree (docs/puzzles.md) the same way.
    A complete one holds every state its goal reaches: the level checks
    prove it closed under the moves (its count is not known in advance)."""
    return _verify(Store.open(db), puzzle_engine(puzzle), TreeKey.of(puzzle))


def _verify(store: Store, eng, tree: TreeKey) -> Report:
    p = eng.puzzle
    n, c, root = tree.n, tree.c, tree.root
    missing = store.missing_objects()
    if missing:  # no query below could be trusted
        return Report(n, c, root, False, 0, 0, False, f"the database has no {missing[0]}: it was dropped", ())
    mistyped = store.mistyped(tree)
    if mistyped:  # before anything reads the rows as numbers
        return Report(n, c, root, False, 0, 0, False, mistyped, ())
    build = store.require_build(tree)
    with step(f"reading the {p.label} tree", f"{build['classes']:,} classes"):
        try:
            if build.get("levels"):  # a tree kept as Parquet levels: every file checked as it is read
                from .levels import ParquetTree

                arrays = ParquetTree(build["levels"]).load_all(tree)
            else:
                arrays = store.load(tree, eng.layout)
            t = Stored(store, build, tree, eng, *arrays)
        except DamagedError as e:
            return Report(n, c, root, False, 0, 0, False, str(e), ())
    if not len(t.reps):
        return Report(n, c, root, False, 0, 0, False, "the build has no class rows", ())
    whole = ", summing to all states" if p.every_arrangement else ", closed under the moves"
    checks = [
        ("representatives canonical, roots right", representatives_and_roots),
        ("parents stored one level up", parents_stored),
        ("parents one move away, neighbours at most one level deeper", level_by_level),
        ("build row right (status, completeness, God number, height, depth limit)", build_row_right),
        ("levels and build row match", counts_match),
        ("orbit sizes right" + (whole if build["complete"] else ""), orbit_sizes_right),
    ]
    done: list[str] = []
    for what, check in checks:
        with step(f"checking: {what}"):
            problem = check(t)
        if problem:
            return Report(
                n, c, root, False, len(t.reps), int(t.orbits.sum()), bool(build["complete"]), problem, tuple(done)
            )
        done.append(what)
    return Report(n, c, root, True, len(t.reps), int(t.orbits.sum()), bool(build["complete"]), None, tuple(done))
