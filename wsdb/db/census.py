"""A census of a puzzle: how many states lie at each distance from the goal,
and God's number, counted in memory by the builder's breadth-first search
(:func:`wsdb.db.build.grow`) without storing a class row.

For a puzzle whose states form a group (distinct pieces: every state is a
permutation of the goal) the graph looks the same from every state, so the
deepest level of the tree *is* the diameter, God's number over all pairs of
states. A coloured variant (a subgame) is a coset space, where a state far
from this goal may be close to every other; the Rubik's Slide thesis gives
those games' diameters, which :func:`diameter` computes exactly by
breadth-first search from every state at once (small games only).
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

import numpy as np

from ..engine import Engine
from ..engine.keys import member, sortable
from ..errors import WsdbError
from ..puzzle import Puzzle
from .build import Progress, grow

#: All-pairs search keeps one bit per pair of states: 50,000 states, 312 MB.
DIAMETER_STATES = 50_000
#: The largest level a census expands: with six moves, its children, their
#: sort and the next level took 300 bytes per class expanded (Rubik's Slide
#: 4x4 hard mode: 18.7 million classes, 5.6 GB peak), so 10 million keep a
#: census under the 4 GB the tools stay within.
MAX_CLASSES = 10_000_000


@dataclass
class Census:
    """States and classes per distance from the goal, and what follows."""

    puzzle: str
    n: int
    goal: str
    maps: int                       # symmetry maps the classes are taken under
    states: list[int] = field(default_factory=list)
    classes: list[int] = field(default_factory=list)
    seconds: float = 0.0
    diameter: int | None = None     # over all pairs (only when asked)

    @property
    def total(self) -> int:
        return sum(self.states)

    @property
    def height(self) -> int:
        """The largest distance to the goal (God's number for groups)."""
        return len(self.states) - 1

    def as_dict(self) -> dict:
        return dict(puzzle=self.puzzle, n=self.n, goal=self.goal, states=self.total, height=self.height,
                    diameter=self.diameter, symmetry_maps=self.maps, seconds=round(self.seconds, 3),
                    levels=[dict(depth=d, states=s, classes=k)
                            for d, (s, k) in enumerate(zip(self.states, self.classes))])


def census(puzzle: Puzzle, all_pairs: bool = False, progress: Progress | None = None) -> Census:
    """Count the states of ``puzzle`` by distance from its goal (its solved
    states, for Wrapslide); with ``all_pairs`` also the diameter."""
    t0 = time.perf_counter()
    tree = grow(Engine(puzzle), progress=progress, max_classes=MAX_CLASSES)
    out = Census(puzzle.name, puzzle.n, puzzle.goal or puzzle.label, len(puzzle.maps),
                 [lv.states for lv in tree.levels], [lv.classes for lv in tree.levels])
    if all_pairs:
        out.diameter = diameter(puzzle)
    out.seconds = time.perf_counter() - t0
    return out


def diameter(puzzle: Puzzle) -> int:
    """The largest distance between any two states reachable from the goal.

    Every state is a source: ``reach[v]`` holds one bit per source, set once
    that source has reached v, and one round ORs each state's bits into its
    neighbours'. The number of rounds until every bit is set is the
    diameter (moves come with their inverses, so distances are symmetric)."""
    plain = dataclasses.replace(puzzle, maps=np.arange(puzzle.ncells)[None], interchangeable=1)   # a class = a state
    eng = Engine(plain)
    tree = grow(eng, max_classes=DIAMETER_STATES)
    if tree.states > DIAMETER_STATES:
        raise WsdbError(f"{puzzle.label} has {tree.states:,} states: the all-pairs diameter is "
                        f"computed up to {DIAMETER_STATES:,}")
    keys = np.concatenate([lv.reps for lv in tree.levels])
    order = np.argsort(sortable(keys), kind="stable")
    keys = keys[order]
    view = sortable(keys)
    k = len(keys)
    nbr = np.empty((eng.nmoves, k), dtype=np.int64)
    for m in range(eng.nmoves):
        found, idx = member(view, sortable(eng.move(keys, m)))
        assert found.all(), "a move left the reachable states"
        nbr[m] = idx
    reach = np.zeros((k, (k + 7) // 8), dtype=np.uint8)
    reach[np.arange(k), np.arange(k) // 8] = (1 << (np.arange(k) % 8)).astype(np.uint8)
    full = np.packbits(np.ones(k, dtype=bool), bitorder="little")
    rounds = 0
    while not (reach == full).all():
        grown = reach.copy()
        for m in range(eng.nmoves):
            grown |= reach[nbr[m]]
        reach = grown
        rounds += 1
    return rounds
