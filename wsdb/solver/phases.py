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
the middle from its start (:mod:`.meet`; exact up to 14 moves on 8x8, where
the two-colour tree is held to depth 9). Otherwise, and in the later
phases, a phase is a beam search in its own grid, handed over to its tree
when a beam state is held there. Where the beam stalls a few cells short of
solved (it minimises misplaced cells, and the last four to eight need a
long detour), meet in the middle from its best states finds the exact rest:
on 8x8 three colours, four misplaced cells are typically 11 moves from
solved, within the depth-6 tree plus four or five forward levels.

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
budget left spent on the last phase again, 300,000 wide); four colours 54.6
(56.5 before the time left went to wider last phases, 57.1 before later
orders were capped by the best answer, 61.6 before orders shared their
first phases, 74.3 with the misfit beam in the last phase, 194 from the
direct beam).
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
from .beam import beam_search
from .guide import Found, Guide
from .kernels import misfit
from .meet import meet_in_the_middle
from .repair import repair
from .tables import gather_colours
from .settings import (FIRST_PHASE_MEET_CHILDREN, LAST_PHASE_AT_LEAST, PHASE_MEET_CHILDREN,
                       PHASE_MEET_EFFORT, PHASE_MEET_TRIES, PHASE_REPAIR_EFFORT, PHASE_STALL, PHASE_WIDTH)


@dataclass
class Chain:
    """The outcome of one run of the phases."""

    found: Found | None           # the whole way to solved, or None when a phase failed
    phases_done: int
    #: where a failed chain got to, as (state, moves from the start): the end of the
    #: last finished phase and the failed phase's best beam states; cell exchanges start there
    reached: list[tuple[np.ndarray, list[int]]]
    #: a proven lower bound on the whole distance: the first colour's exact two-colour
    #: distance, or meet in the middle's bound on it (0 where the first phase did not run)
    lower: int = 0
    #: where the last phase started, when the run got there: (the state with the
    #: colours relabelled, the moves to it, the relabelling), for :func:`last_phase_again`
    last_start: tuple[np.ndarray, list[int], np.ndarray] | None = None


def coarsen(cells: np.ndarray, k: int) -> np.ndarray:
    """The state in the k-colour grid: colours k..c (0-based k-1..) merged."""
    return np.minimum(cells, k - 1).astype(np.uint8)


def run_phases(puzzle: Puzzle, cells: np.ndarray, guides: Callable[[int], Guide], store: Store,
               deadline: float, order: np.ndarray | None = None, last_meet: bool = True,
               firsts: dict | None = None, shorter: int | None = None) -> Chain:
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
    repairs: those answers are longer)."""
    c = puzzle.c
    relabel = order if order is not None else np.arange(c, dtype=np.uint8)
    x = relabel[cells].astype(np.uint8)
    path: list[int] = []
    lower = 0
    first = int(np.flatnonzero(relabel == 0)[0])   # the colour gathered first
    last_start = None
    for k in range(2, c + 1):
        if k == c:
            last_start = x, path, relabel
        guide = guides(k)
        phases_left = c + 1 - k
        phase_deadline = effort.spent() + effort.left(deadline) / phases_left
        levels = None   # the first phase, shared by orders, is never cut short
        if shorter is not None and k > 2:
            levels = shorter - 1 - len(path) - (LAST_PHASE_AT_LEAST.get(puzzle.n, 0) if k < c else 0)
        if k == 2 and firsts is not None and first in firsts:
            found, stuck, lower = firsts[first]
        elif levels is not None and levels <= 0:
            found, stuck = None, []
        else:
            found, stuck, bound = _gather_phase(guide, store, coarsen(x, k), phase_deadline, deadline,
                                                last_meet or k < c, k < c and levels is None, levels)
            if k == 2:
                lower = bound
                if firsts is not None:
                    firsts[first] = found, stuck, lower
        if found is None:
            reached = [(relabel_back(x[permutation_of(puzzle.moves, moves)], relabel), path + moves)
                       for moves in [[], *stuck]]
            return Chain(None, k - 2, reached, lower, last_start)
        if k == c:
            return Chain(_joined(path, found, relabel), k - 1, [], lower, last_start)
        seg = found.moves(store, guide.puzzle, guide.endgame)
        x = x[permutation_of(puzzle.moves, seg)]
        path += seg
    raise AssertionError("unreachable: the last phase returns")


def last_phase_again(puzzle: Puzzle, chain: Chain, guides: Callable[[int], Guide], deadline: float,
                     width: int, shorter: int) -> Found | None:
    """The last phase of ``chain`` once more from where it started, with a
    beam ``width`` wide, capped to beat ``shorter`` moves in all: the whole
    way to solved, or None. A wider beam splits the two merged colours in
    fewer moves (240 splits: 22.0 moves on average 4,000 wide against 25.4
    at the phases' 1,000) at four times the cost, so it is worth it where
    the phases before it were short."""
    x, path, relabel = chain.last_start
    levels = shorter - 1 - len(path)
    if levels <= 0:
        return None
    found, _ = _phase(guides(puzzle.c), x, deadline, meet=False, levels=levels, width=width)
    return None if found is None else _joined(path, found, relabel)


def _joined(path: list[int], found: Found, relabel: np.ndarray) -> Found:
    """The whole way: ``path`` to the last phase's start, then its ``found``
    (whose state in the tree gets its colours back)."""
    meet = None if found.meet is None else relabel_back(found.meet, relabel)
    return Found(path + found.path, meet, found.rest)


def _gather_phase(guide: Guide, store: Store, start: np.ndarray, phase_deadline: float, deadline: float,
                  meet: bool, repair: bool, levels: int | None = None
                  ) -> tuple[Found | None, list[list[int]], int]:
    """One phase in its own grid: (the way to solved or None, the moves to
    the stalled beam's best states, a proven lower bound or 0). The two-
    colour grid tries :func:`_first_phase` first; a stalled phase is
    repaired when ``repair`` (every phase but the last); the beam goes at
    most ``levels`` deep."""
    found, stuck, lower = None, [], 0
    if guide.c == 2 and guide.endgame is not None and not guide.endgame.complete:
        found, lower = _first_phase(guide, start, phase_deadline)
    if found is None:
        found, stuck = _phase(guide, start, phase_deadline, meet=meet, levels=levels)
    if found is None and repair and stuck:   # repair the phase in its own grid, then go on
        found = _repair_phase(guide, store, start, stuck[0], deadline)
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


def _first_phase(guide: Guide, start: np.ndarray, deadline: float) -> tuple[Found | None, int]:
    """Gathering the first colour is the two-colour grid itself: its
    optimal answer when the tree holds ``start`` or meet in the middle
    reaches it (within ``FIRST_PHASE_MEET_CHILDREN``), else None; and a proven
    lower bound on that grid's distance (the exact one with an answer).
    A colour cannot be gathered in fewer moves than solving the whole
    grid takes, so the bound holds for the whole grid too."""
    depth = int(guide.endgame.depth(start[None])[0])
    if depth >= 0:
        return Found([], start, depth), depth
    found, bound, _ = meet_in_the_middle(guide, start, deadline, FIRST_PHASE_MEET_CHILDREN)
    return found, bound   # with an answer, the bound is its length


def _repair_phase(guide: Guide, store: Store, start: np.ndarray, moves: list[int],
                  deadline: float) -> Found | None:
    """Finish a stalled phase from its best state by repairs (:mod:`.repair`)
    in the phase's own grid, within ``PHASE_REPAIR_EFFORT``."""
    if guide.endgame is None:
        return None
    p = guide.puzzle
    x = start[permutation_of(p.moves, moves)]
    until = effort.within(deadline, PHASE_REPAIR_EFFORT)
    more, y, _ = repair(guide, store, x, until, np.random.default_rng(0))
    return Found(moves + more, y, 0) if p.is_solved(y) else None


def _phase(guide: Guide, start: np.ndarray, deadline: float, meet: bool = True,
           levels: int | None = None, width: int | None = None) -> tuple[Found | None, list[list[int]]]:
    """Beam search in one coarse grid, ``width`` wide (by default
    ``PHASE_WIDTH`` of the grid's colours), giving up after ``PHASE_STALL``
    levels without progress. With ``levels`` (a cap) it goes at most that
    deep and drops a longer answer (a beam state's way through the tree);
    without, where it stalls, meet in the middle (with ``meet``) from its
    best states (fewest misplaced cells, then fewest moves). Returns (the
    way to solved or None, the moves to the best states)."""
    found, waypoints = beam_search(guide, start, width or PHASE_WIDTH.get(guide.c, 8000), deadline,
                                   max_levels=levels or 200, stall=PHASE_STALL)
    if levels is not None:
        return (found if found is not None and found.length <= levels else None), []
    if found is not None:
        return found, []
    goals = guide.tables.goals
    score = [misfit(w, guide.n, goals) * 1000 + len(moves) for w, moves in waypoints]
    ranked = np.argsort(score, kind="stable")
    tries = ranked[:PHASE_MEET_TRIES] if guide.endgame is not None and meet else []
    for i in tries:
        if effort.past(deadline):
            break
        w, moves = waypoints[i]
        met, _, _ = meet_in_the_middle(guide, w, effort.within(deadline, PHASE_MEET_EFFORT), PHASE_MEET_CHILDREN)
        if met is not None:
            return Found(moves + met.path, met.meet, met.rest), []
    return None, [waypoints[i][1] for i in ranked[:PHASE_MEET_TRIES]]
