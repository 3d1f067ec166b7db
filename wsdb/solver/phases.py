"""Phases through coarser colourings: 8x8 with three and four colours.

Merging colours maps a grid onto a coarser one: keep colours 1..k-1, paint
every other colour k. With the colour counts of §1 the result is again a
Wrapslide grid (four colours -> three -> two: q, q, q, q -> q, q, 2q ->
q, 3q), with its own stored partial tree. A state solved in the coarser
grid has its first k-1 colours in place, so the phases solve the two-
colour grid (gather colour 1), then the three-colour one (gather colour 2
beside it), then the whole grid, each starting where the last ended: the
subgroup-phase idea of Thistlethwaite and Kociemba, with colourings in
place of subgroups.

The first phase is the two-colour grid itself, so it first tries meet in
the middle from its start (:mod:`.meet`; on 8x8, where the two-colour tree
is held to depth 9, exact up to 14 moves with five forward levels, and on
three colours up to 15 with six, within its budget). A colour gathers in
many ways of the same, optimal length, ending on different states; how
long the next phase takes depends much on which (four 8x8 three-colour
states, 30 ways each: 34.0 moves from the first way, 29.75 from the
best), so the first phase keeps up to ``FIRST_PHASE_WAYS`` of them and the
next phase's beam starts from all at once. Otherwise, and in the later
phases, a phase is a beam search in its own grid, handed over to its tree
when a beam state is held there. Where the beam stalls a few cells short
of solved (it minimises misplaced cells, and the last four to eight need
a long detour), meet in the middle from its best states finds the exact
rest: on 8x8 three colours, four misplaced cells are typically 11 moves
from solved, within the depth-6 tree plus four or five forward levels.

A phase before the last that stalls even so is finished by repairs in its
own grid (:mod:`.repair`), and the phases go on. The last phase of four
colours (splitting the two merged colours) starts with both merged colours
beyond the misfit count's help: misplaced cells go down only through long
detours. Its beam is guided instead by every colour's gather distance from
the two-colour tree (:attr:`.guide.Guide.gathers`), which sees a detour's
progress. On 12 states it finished 21 of the 39 last phases tried, in 24.4
moves on average, where the misfit beam finished almost none and the
transpositions took about 39. Where it still stalls, the transposition
table (:mod:`.transpositions`) finishes, so that phase skips meet in the
middle.

Measured on 8x8 (docs/solver.md): three colours 34.3 moves on average
instead of 138 from the direct beam and cell exchanges (30.5 with the
budget left spent on the last phase again, 300,000 wide; 29.4 with the
first phase's ways and that beam from every start); four colours 54.6 (53.1
with the ways, 51.4 with 40% of the budget kept for the last phase again,
wide, from every run's starts and the middle phase's ways; 56.5 before the
time left went to wider last phases, 57.1 before later orders were capped
by the best answer, 61.6 before orders shared their first phases, 74.3 with
the misfit beam in the last phase, 194 from the direct beam).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..db.store import Store
from ..puzzle import Puzzle
from ..puzzle.moves import permutation_of
from . import effort
from .beam import beam_ways
from .guide import Found, Guide
from .kernels import misfit
from .meet import meet_in_the_middle, meet_ways
from .repair import repair
from .tables import gather_colours
from .settings import (
    FIRST_PHASE_MEET_CHILDREN,
    FIRST_PHASE_MEET_EFFORT,
    FIRST_PHASE_WAYS,
    LAST_PHASE_AT_LEAST,
    MIDDLE_PHASE_WAYS,
    PHASE_MEET_CHILDREN,
    PHASE_MEET_EFFORT,
    PHASE_MEET_TRIES,
    PHASE_REPAIR_EFFORT,
    PHASE_STALL,
    PHASE_WIDTH,
)


@dataclass
class Chain:
    """The outcome of one run of the phases."""

    found: Found | None  # the whole way to solved, or None when a phase failed
    phases_done: int
    #: where a failed chain got to, as (state, moves from the start): the end of the
    #: last finished phase and the failed phase's best beam states; cell exchanges start there
    reached: list[tuple[np.ndarray, list[int]]]
    #: a proven lower bound on the whole distance: the first colour's exact two-colour
    #: distance, or meet in the middle's bound on it (0 where the first phase did not run)
    lower: int = 0
    #: where the last phase started, when the run got there: the moves from the state to
    #: each of its starts, all of one length (colours do not change moves), for
    #: :func:`last_phase_again`
    last_ways: list[list[int]] | None = None


def coarsen(cells: np.ndarray, k: int) -> np.ndarray:
    """The state in the k-colour grid: colours k..c (0-based k-1..) merged."""
    return np.minimum(cells, k - 1).astype(np.uint8)


def run_phases(
    puzzle: Puzzle,
    cells: np.ndarray,
    guides: Callable[[int], Guide],
    store: Store,
    deadline: float,
    order: np.ndarray | None = None,
    last_meet: bool = True,
    firsts: dict | None = None,
    shorter: int | None = None,
    last: bool = True,
) -> Chain:
    """Solve ``cells`` (c >= 3 colours) phase by phase, colours relabelled
    by ``order`` first (``order[old] = new``; which colour gathers first).
    Every phase but the last ends on a concrete state; the last may end in
    the stored tree (``found.rest``). A stalled phase before the last is
    repaired in its own grid; a stalled last phase tries meet in the middle
    only with ``last_meet`` (where a transposition table finishes it, the
    time is better spent elsewhere). ``firsts``, shared by the runs of one
    state, keeps each first colour's gathering: the orders that gather the
    same colour first (three of the twelve on four colours) do it once.
    With ``shorter`` (the best answer's length so far) the later phases'
    beams stop where the whole answer could no longer be shorter, the last
    phase's length counted as at least ``LAST_PHASE_AT_LEAST`` before it starts,
    and a run that cannot beat it fails (nor meets in the middle, nor
    repairs: those answers are longer). The first phase may find several
    ways of its optimal length (``FIRST_PHASE_WAYS``): they end on other
    states, and the next phase's beam starts from all of them at once;
    a middle phase (three colours of four) keeps up to
    ``MIDDLE_PHASE_WAYS``. Without ``last`` the run stops where the last
    phase would start, having found its starts (``last_ways``) for
    :func:`last_phase_again`."""
    c = puzzle.c
    relabel = order if order is not None else np.arange(c, dtype=np.uint8)
    x = relabel[cells].astype(np.uint8)  # every way below is a sequence of moves from here
    paths: list[list[int]] = [[]]  # the ways the phases so far found, all of one length
    lower = 0
    first = int(np.flatnonzero(relabel == 0)[0])  # the colour gathered first
    last_ways = None
    for k in range(2, c + 1):
        if k == c:
            last_ways = paths
        guide = guides(k)
        phases_left = c + 1 - k
        phase_deadline = effort.spent() + effort.left(deadline) / phases_left
        levels = None  # the first phase, shared by orders, is never cut short
        if shorter is not None and k > 2:
            levels = shorter - 1 - len(paths[0]) - (LAST_PHASE_AT_LEAST.get(puzzle.n, 0) if k < c else 0)
        if k == 2 and firsts is not None and first in firsts:
            ways, stuck, lower = firsts[first]
        elif (levels is not None and levels <= 0) or (k == c and not last):
            ways, stuck = [], []
        else:
            ways, stuck, bound = _gather_phase(
                guide,
                store,
                coarsen(x, k),
                paths,
                phase_deadline,
                deadline,
                last_meet or k < c,
                k < c and levels is None,
                levels,
                FIRST_PHASE_MEET_CHILDREN[c],
                _ways_kept(k, c),
            )
            if k == 2:
                lower = bound
                if firsts is not None:
                    firsts[first] = ways, stuck, lower
        if not ways:
            reached = [
                (relabel_back(x[permutation_of(puzzle.moves, moves)], relabel), moves) for moves in [paths[0], *stuck]
            ]
            return Chain(None, k - 2, reached, lower, last_ways)
        if k == c:
            return Chain(_joined(ways[0], relabel), k - 1, [], lower, last_ways)
        paths = _distinct(x, [way.moves(store, guide.puzzle, guide.endgame) for way in ways], puzzle)
    raise AssertionError("unreachable: the last phase returns")


def _ways_kept(k: int, c: int) -> int:
    """Ways of one length the phase of the k-colour grid keeps (of c
    colours): each a start of the next phase; the last phase's one answer."""
    if k == 2:
        return FIRST_PHASE_WAYS
    return MIDDLE_PHASE_WAYS if k < c else 1


def _distinct(x: np.ndarray, paths: list[list[int]], puzzle: Puzzle) -> list[list[int]]:
    """``paths`` from ``x``, one for each state they end on."""
    seen, kept = set(), []
    for path in paths:
        if (end := x[permutation_of(puzzle.moves, path)].tobytes()) not in seen:
            seen.add(end)
            kept.append(path)
    return kept


def last_phase_again(
    puzzle: Puzzle,
    cells: np.ndarray,
    chains: list[Chain],
    guides: Callable[[int], Guide],
    deadline: float,
    width: int,
    shorter: int,
) -> Found | None:
    """The last phase once more, in one beam ``width`` wide from where the
    ``chains`` (runs of the phases on ``cells``, any order) started it, capped to
    beat ``shorter`` moves in all: the whole way to solved, or None. The
    orders relabel only colours of one count, whose every relabelling of a
    solved state is solved, so their starts are one search's. A wider beam
    splits the merged colours in fewer moves (four colours, 240 splits: 22.0
    moves on average 4,000 wide against 25.4 at the phases' 1,000), and
    from every start at once it goes on from the most promising."""
    paths = _distinct(cells, sorted((path for chain in chains for path in chain.last_ways or []), key=len), puzzle)
    levels = shorter - 1 - len(paths[0]) if paths else 0  # the beam's levels that can still beat ``shorter``
    if levels <= 0:
        return None
    found, _ = _phase(guides(puzzle.c), cells, paths, deadline, meet=False, levels=levels, width=width)
    return found[0] if found else None


def _joined(found: Found, relabel: np.ndarray) -> Found:
    """The whole way, whose state in the tree gets its colours back."""
    meet = None if found.meet is None else relabel_back(found.meet, relabel)
    return Found(found.path, meet, found.rest)


def _gather_phase(
    guide: Guide,
    store: Store,
    start: np.ndarray,
    paths: list[list[int]],
    phase_deadline: float,
    deadline: float,
    meet: bool,
    repair: bool,
    levels: int | None,
    children: int,
    ways: int,
) -> tuple[list[Found], list[list[int]], int]:
    """One phase in its own grid, from the states ``paths`` lead to from
    ``start``: (the ways to solved found, as moves from ``start``, none
    where it failed; the moves to the stalled beam's best states; a proven
    lower bound or 0), up to ``ways`` ways of one length. The two-colour
    grid, the first phase, tries :func:`_first_phase` first (meet in the
    middle within ``children``); a stalled phase is repaired when
    ``repair`` (every phase but the last); the beam goes at most ``levels``
    deep."""
    found: list[Found] = []
    stuck: list[list[int]] = []
    lower = 0
    if guide.c == 2 and guide.endgame is not None and not guide.endgame.complete:
        found, lower = _first_phase(guide, start, phase_deadline, children)
    if found:
        return found, stuck, lower
    found, stuck = _phase(guide, start, paths, phase_deadline, meet=meet, levels=levels, ways=ways)
    if not found and repair and stuck:  # repair the phase in its own grid, then go on
        repaired = _repair_phase(guide, store, start, stuck[0], deadline)
        found = [] if repaired is None else [repaired]
    return found, stuck, lower


def phase_orders(puzzle: Puzzle) -> list[np.ndarray]:
    """Relabellings for the phases (``order[old] = new``): colour a gathers
    first and colour b second, for every pair of the colours with q cells
    (three colours: 2 orders, four: 12), the first colour varying fastest
    so that the orders tried first differ most."""
    c = puzzle.c
    singles = len(gather_colours(puzzle.counts, (puzzle.n // 2) ** 2))
    pairs = sorted(itertools.permutations(range(singles), 2), key=lambda ab: ((ab[1] - ab[0]) % singles, ab[0]))
    orders = []
    for a, b in pairs:
        order = np.zeros(c, np.uint8)
        order[[a, b, *(k for k in range(c) if k not in (a, b))]] = np.arange(c)
        orders.append(order)
    return orders


def relabel_back(cells: np.ndarray, relabel: np.ndarray) -> np.ndarray:
    """Undo ``relabel`` (a permutation of the colours)."""
    back = np.argsort(relabel).astype(np.uint8)
    return back[cells]


def _first_phase(guide: Guide, start: np.ndarray, deadline: float, children: int) -> tuple[list[Found], int]:
    """Gathering the first colour is the two-colour grid itself: up to
    ``FIRST_PHASE_WAYS`` of its optimal answers when the tree holds
    ``start`` (one) or meet in the middle reaches it (within ``children``
    and ``FIRST_PHASE_MEET_EFFORT``), else none; and a proven lower bound on
    that grid's distance (the exact one with an answer). A colour cannot be
    gathered in fewer moves than solving the whole grid takes, so the bound
    holds for the whole grid too."""
    depth = int(guide.tree.depth(start[None])[0])
    if depth >= 0:
        return [Found([], start, depth)], depth
    found, bound, _ = meet_ways(
        guide, start, effort.within(deadline, FIRST_PHASE_MEET_EFFORT), children, FIRST_PHASE_WAYS
    )
    return found, bound  # with an answer, the bound is its length


def _repair_phase(guide: Guide, store: Store, start: np.ndarray, moves: list[int], deadline: float) -> Found | None:
    """Finish a stalled phase from its best state by repairs (:mod:`.repair`)
    in the phase's own grid, within ``PHASE_REPAIR_EFFORT``."""
    if guide.endgame is None:
        return None
    p = guide.puzzle
    x = start[permutation_of(p.moves, moves)]
    until = effort.within(deadline, PHASE_REPAIR_EFFORT)
    more, y, _ = repair(guide, store, x, until, np.random.default_rng(0))
    return Found(moves + more, y, 0) if p.is_solved(y) else None


def _phase(
    guide: Guide,
    start: np.ndarray,
    paths: list[list[int]],
    deadline: float,
    meet: bool = True,
    levels: int | None = None,
    width: int | None = None,
    ways: int = 1,
) -> tuple[list[Found], list[list[int]]]:
    """Beam search in one coarse grid, ``width`` wide (by default
    ``PHASE_WIDTH`` of the grid's colours), giving up after ``PHASE_STALL``
    levels without progress. With ``levels`` (a cap) it goes at most that
    deep and drops a longer answer (a beam state's way through the tree);
    without, where it stalls, meet in the middle (with ``meet``) from its
    best states (fewest misplaced cells, then fewest moves). The beam starts
    from every state ``paths`` lead to from ``start`` at once. Returns (up
    to ``ways`` ways to solved of the same length, as moves from ``start``,
    none where it failed; the moves to the best states)."""
    starts = np.stack([start[permutation_of(guide.puzzle.moves, path)] for path in paths])
    found, waypoints = beam_ways(
        guide,
        starts,
        width or PHASE_WIDTH.get(guide.c, 8000),
        deadline,
        ways,
        max_levels=levels or 200,
        stall=PHASE_STALL,
        prefixes=paths,
    )
    if levels is not None:
        return [f for f in found if f.length - min(map(len, paths)) <= levels], []
    if found:
        return found, []
    goals = guide.tables.goals
    score = [misfit(w, guide.n, goals) * 1000 + len(moves) for w, moves in waypoints]
    ranked = np.argsort(score, kind="stable")
    tries = ranked[:PHASE_MEET_TRIES] if guide.endgame is not None and meet else np.zeros(0, np.int64)
    for i in tries:
        if effort.past(deadline):
            break
        w, moves = waypoints[i]
        met, _, _ = meet_in_the_middle(guide, w, effort.within(deadline, PHASE_MEET_EFFORT), PHASE_MEET_CHILDREN)
        if met is not None:
            return [Found(moves + met.path, met.meet, met.rest)], []
    return [], [waypoints[i][1] for i in ranked[:PHASE_MEET_TRIES]]
