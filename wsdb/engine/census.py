"""A census of a puzzle: how many states lie at each distance from the goal,
and God's number, counted in memory by the builder's breadth-first search
(:func:`wsdb.engine.bfs.grow`) without storing a class row.

For a puzzle whose states form a group (distinct pieces: every state is a
permutation of the goal) the graph looks the same from every state, so the
deepest level of the tree *is* the diameter, God's number over all pairs of
states. A coloured variant (a subgame) is a coset space, where a state far
from this goal may be close to every other; the Rubik's Slide thesis gives
those games' diameters, which :func:`diameter` computes exactly by
breadth-first search from every state at once (small games only).

Two ways to count. The class census grows the builder's levels of
symmetry classes, for any goal, as long as a level fits in memory. The
ranked census (:func:`ranked_census`) is for distinct pieces: two bits per
state of the group, indexed by the state's rank (:mod:`wsdb.engine.ranking`,
:mod:`wsdb.engine.packed_kernels`), which reaches groups of billions of
states (Rubik's Slide 4x4 hard mode); a two-colour grid's states are
numbered by their cells of one colour instead (:mod:`wsdb.engine.subsets`:
6x6 with 18 cells of each colour, a merged grid of the phase bounds).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import WsdbError, InputError
from ..notices import step
from ..puzzle import Puzzle
from ..puzzle.sliding import SlidingPuzzle
from ..puzzle.text import state_texts
from .bfs import MAX_CLASSES, Counts, Level, Progress, grow
from .engines import Engine
from .keys import member, sortable
from . import packed_kernels as pk
from .ranking import UNSEEN, Ranking
from . import subset_kernels as sk
from .subsets import SubsetRanking

#: All-pairs search keeps one bit per pair of states: 50,000 states, 312 MB.
DIAMETER_STATES = 50_000
#: The largest ranked table, in bytes: 4 Gi states of the byte table, 16 Gi
#: of two-bit codes (a sixth of this machine's 24 GiB).
MAX_TABLE_BYTES = 4 << 30
#: A level is grown backwards once the unseen states are fewer than this many
#: times the last level: an unseen state stops at its first neighbour on the
#: last level, where a forward step tries all of a state's moves (Rubik's
#: Slide 4x4 hard mode, depth 16: backwards from 783 M unseen states took
#: half the time of forwards from 528 M; depth 15, backwards from 1.3 G
#: unseen, over twice that of forwards from 225 M; CHANGELOG.md). The byte
#: table keeps 1: its sliding kernel unranks every state it scans, so a
#: backward level costs more there (the 2x5 census: 4.6 s at 1, 7 s at 2).
BACKWARD_RATIO = 2
#: States at the largest distance a ranked census reports (the first by index).
FARTHEST = 10


@dataclass
class Census:
    """States and classes per distance from the goal, and what follows."""

    puzzle: str
    n: int
    goal: str
    maps: int  # symmetry maps the classes are taken under
    states: list[int] = field(default_factory=list)
    classes: list[int] = field(default_factory=list)
    seconds: float = 0.0
    diameter: int | None = None  # over all pairs (only when asked)
    method: str = "classes"  # or "ranked"
    farthest: list[str] = field(default_factory=list)  # ranked: states at the largest distance
    elapsed: list[float] = field(default_factory=list)  # ranked: seconds from the start to each level's end
    grown: list[str] = field(default_factory=list)  # ranked: how each level was grown (forward, backward)

    @property
    def total(self) -> int:
        return sum(self.states)

    @property
    def height(self) -> int:
        """The largest distance to the goal (God's number for groups)."""
        return len(self.states) - 1

    def as_dict(self) -> dict:
        return dict(
            puzzle=self.puzzle,
            n=self.n,
            goal=self.goal,
            states=self.total,
            height=self.height,
            diameter=self.diameter,
            symmetry_maps=self.maps,
            method=self.method,
            seconds=round(self.seconds, 3),
            farthest=self.farthest,
            levels=[
                dict(depth=d, states=s, classes=k)
                | (
                    dict(seconds=round(self.elapsed[d] - (self.elapsed[d - 1] if d else 0.0), 3), grown=self.grown[d])
                    if self.elapsed
                    else {}
                )
                for d, (s, k) in enumerate(zip(self.states, self.classes))
            ],
        )


#: The most classes a census grows in one sitting: at about a million classes
#: a second on 2 cores (docs/performance.md), some minutes of work; every
#: Wrapslide grid up to 6x6 two colours (about 3 M classes) is under it.
MAX_CENSUS_CLASSES = 200_000_000


def census(puzzle: Puzzle, all_pairs: bool = False, progress: Progress | None = None) -> Census:
    """Count the states of ``puzzle`` by distance from its goal (its solved
    states, for Wrapslide); with ``all_pairs`` also the diameter."""
    if puzzle.every_arrangement and puzzle.states // puzzle.group_order > MAX_CENSUS_CLASSES:
        # every arrangement is a state, so its classes are known from below without growing a level
        raise InputError(
            f"{puzzle.label} has at least {puzzle.states // puzzle.group_order:.2g} classes (its states "
            f"over its {puzzle.group_order} symmetries), more than the {MAX_CENSUS_CLASSES:,} a census "
            "counts in memory: store its first levels with `wsdb build --max-depth D`"
        )
    t0 = time.perf_counter()
    try:
        tree = grow(Engine(puzzle), progress=progress, max_classes=MAX_CLASSES)
    except WsdbError as e:
        if puzzle.c != puzzle.ncells:
            raise
        raise InputError(f"{e}; for distinct pieces try the ranked census (--method ranked)") from None
    out = Census(
        puzzle.name,
        puzzle.n,
        puzzle.goal or puzzle.label,
        len(puzzle.maps),
        [lv.states for lv in tree.levels],
        [lv.classes for lv in tree.levels],
    )
    if all_pairs:
        out.diameter = diameter(puzzle)
    out.seconds = time.perf_counter() - t0
    return out


def ranked_census(
    puzzle: Puzzle | SlidingPuzzle, progress: Progress | None = None, max_depth: int | None = None
) -> Census:
    """Count the states of a puzzle with distinct pieces (or the sliding
    puzzle, or a two-colour Wrapslide grid) by distance from its goal over
    the ranked index. Two bits a state (:mod:`.packed_kernels`) where the
    moves act on the index through tables (distinct pieces: no symmetry, a
    class is a state; two colours: :mod:`.subsets`, a state and its colour
    swap one index where they are as far); the sliding puzzle, whose moves
    depend on the state, keeps its byte table (:func:`ranked_table`)."""
    t0 = time.perf_counter()
    trace: list[tuple[str, float]] = []
    if isinstance(puzzle, SlidingPuzzle):
        ranking, table, states = ranked_table(puzzle, progress, max_depth, t0, trace)
        far = ranking.find(table, len(states) - 1, FARTHEST)
    elif two_colours(puzzle):
        counted = subset_table(puzzle, progress, max_depth, t0, trace)
        states = counted.states
        far = counted.ranking.unrank(counted.last[:FARTHEST]) if counted.last is not None else []
    else:
        ranking, words, states = packed_table(puzzle, progress, max_depth, t0, trace)
        far = ranking.unrank(pk.first_current(words, ranking.size, FARTHEST))
    return Census(
        puzzle.name,
        puzzle.n,
        puzzle.goal,
        1,
        states,
        list(states),
        time.perf_counter() - t0,
        method="ranked",
        farthest=state_texts(puzzle, far),
        elapsed=[t for _, t in trace],
        grown=[g for g, _ in trace],
    )


@dataclass
class SubsetTable:
    """A finished census of a two-colour grid (:func:`subset_table`)."""

    ranking: SubsetRanking
    words: np.ndarray  # every index's distance mod 3
    states: list[int]  # states per distance
    last: np.ndarray | None  # the indices at the largest distance (None: too many were unseen to list)

    @property
    def height(self) -> int:
        return len(self.states) - 1


#: Before a level, the unseen indices are listed when at most this many
#: (512 MB), so that the last level's states are known when the census ends.
LISTED_UNSEEN = 64 << 20


def subset_table(
    puzzle: Puzzle,
    progress: Progress | None = None,
    max_depth: int | None = None,
    t0: float | None = None,
    trace: list | None = None,
) -> SubsetTable:
    """The census of a two-colour grid over the subset numbering, its table
    kept: every index's distance mod 3 (:mod:`.subset_kernels`), and the
    largest distance's indices where they could be listed."""
    t0 = time.perf_counter() if t0 is None else t0
    ranking = SubsetRanking.of(puzzle)
    words = _allocate(puzzle, ranking.size, 0.25, lambda: pk.unseen_words(ranking.size))
    roots = ranking.roots()
    for root in roots:
        pk.set_code(words, int(root), 0)
    seen = len(roots)
    last_level: np.ndarray | None = roots  # the deepest level's indices, while they can be listed

    def grow(d: int, backward: bool) -> int:
        nonlocal seen, last_level
        before = sk.with_code(words, ranking.size, 3) if ranking.size - seen <= LISTED_UNSEEN else None
        found = ranking.grow(words, d, backward)
        if found:
            seen += found
            last_level = before[ranking.codes(words, before) == (d + 1) % 3] if before is not None else None
        return found * ranking.per_index

    states = _levels(ranking, grow, progress, max_depth, t0, trace, first=len(roots) * ranking.per_index)
    return SubsetTable(ranking, words, states, last_level)


def two_colours(puzzle: Puzzle | SlidingPuzzle) -> bool:
    """Whether a ranked census numbers ``puzzle``'s states by the cells of
    one colour (:class:`.subsets.SubsetRanking`: two colours, every
    arrangement a state) rather than by their place in a group."""
    return isinstance(puzzle, Puzzle) and puzzle.c == 2 and puzzle.every_arrangement


def ranked_table(
    puzzle: Puzzle | SlidingPuzzle,
    progress: Progress | None = None,
    max_depth: int | None = None,
    t0: float | None = None,
    trace: list | None = None,
):
    """The ranked distance table: (ranking, table, states per distance);
    ``table[ranking.rank(state)]`` is a state's distance (UNSEEN beyond
    ``max_depth``), one byte a state."""
    t0 = time.perf_counter() if t0 is None else t0
    ranking = Ranking.of(puzzle)
    table = _allocate(puzzle, ranking.size, 1, lambda: np.full(ranking.size, UNSEEN, dtype=np.uint8))
    table[ranking.rank(puzzle.solved[0])] = 0
    states = _levels(
        ranking, lambda d, backward: ranking.grow(table, d, backward), progress, max_depth, t0, trace, ratio=1
    )
    return ranking, table, states


def packed_table(
    puzzle: Puzzle,
    progress: Progress | None = None,
    max_depth: int | None = None,
    t0: float | None = None,
    trace: list | None = None,
):
    """The two-bit table of :mod:`.packed_kernels` grown level by level:
    (ranking, words, states per distance); when it returns, the states
    coded ``CUR`` are the last level."""
    t0 = time.perf_counter() if t0 is None else t0
    ranking = Ranking.of(puzzle)
    words = _allocate(puzzle, ranking.size, 0.25, lambda: pk.unseen_words(ranking.size))
    root = int(ranking.rank(puzzle.solved[0]))
    pk.set_code(words, root, pk.CUR)
    level = {ranking.arrangement(root)}  # the arrangements the current level holds

    def grow(d: int, backward: bool) -> int:
        nonlocal level
        after = ranking.arrangements_after(level)
        found = ranking.grow_packed(words, after if backward else level, backward)
        if found:
            pk.settle(words)  # the last level stays CUR
            level = after
        return found

    return ranking, words, _levels(ranking, grow, progress, max_depth, t0, trace)


def _allocate(puzzle, size: int, per_state: float, make):
    if size * per_state > MAX_TABLE_BYTES:
        raise InputError(
            f"{puzzle.label}: a ranked table would need {size:,} states: expected at most "
            f"{int(MAX_TABLE_BYTES / per_state):,}"
        )
    try:
        return make()
    except MemoryError:
        raise InputError(f"{puzzle.label}: not enough memory for a table of {int(size * per_state):,} bytes") from None


def _levels(
    ranking: Ranking | SubsetRanking,
    grow,
    progress: Progress | None,
    max_depth: int | None,
    t0: float,
    trace: list | None = None,
    ratio: float = BACKWARD_RATIO,
    first: int = 1,
) -> list[int]:
    """Grow levels with ``grow(depth, backward)`` until one is empty (or
    ``max_depth``): forwards from the last level, backwards from the unseen
    once they are fewer than ``ratio`` times the last level; the
    states per distance (``first`` at the root). ``trace`` gets (how, seconds since t0) per level:
    "root", then "forward" or "backward"."""
    states = [first]
    if trace is not None:
        trace.append(("root", time.perf_counter() - t0))
    if progress:
        progress(Counts(0, first, first), time.perf_counter() - t0)
    while max_depth is None or len(states) <= max_depth:
        d = len(states) - 1
        unseen = ranking.reachable - sum(states)
        backward = unseen < ratio * states[-1]
        with step(
            f"depth {d + 1}",
            f"{'backward from' if backward else 'forward from'} {unseen if backward else states[-1]:,} states",
        ):
            found = grow(d, backward)
        if not found:
            break
        states.append(found)
        if trace is not None:
            trace.append(("backward" if backward else "forward", time.perf_counter() - t0))
        if progress:
            progress(Counts(d + 1, found, found), time.perf_counter() - t0)
    return states


def diameter(puzzle: Puzzle) -> int:
    """The largest distance between any two states reachable from the goal.

    Every state is a source: ``reach[v]`` holds one bit per source, set once
    that source has reached v, and one round ORs each state's bits into its
    neighbours'. The number of rounds until every bit is set is the
    diameter (moves come with their inverses, so distances are symmetric)."""
    plain = dataclasses.replace(puzzle, maps=np.arange(puzzle.ncells)[None], interchangeable=1)  # a class = a state
    eng = Engine(plain)
    tree = grow(eng, max_classes=DIAMETER_STATES)
    if tree.states > DIAMETER_STATES:
        raise InputError(
            f"{puzzle.label} has {tree.states:,} states: the all-pairs diameter is computed up to {DIAMETER_STATES:,}"
        )
    keys = np.concatenate([lv.reps for lv in tree.levels if isinstance(lv, Level)])  # grown here: all Levels
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
