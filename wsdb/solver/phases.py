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

Each phase is a beam search in its own grid, handed over to its tree when
a beam state is stored there. Where the beam stalls a few cells short of
solved (it minimises misplaced cells, and the last four to eight need a
long detour), meet in the middle from its best states finds the exact rest:
on 8x8 three colours, four misplaced cells are typically 11 moves from
solved, within the depth-6 tree plus four or five forward levels.

Measured on 8x8 (README, "Solver"): three colours 53 moves on average
(38-52 where the phases finish) instead of 138 from the direct beam and
cell exchanges; the last phase of four colours (splitting the two merged
colours) stalls beyond meet in the middle's reach and ends in cell
exchanges, from a far better state than before (136-167 instead of 194).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..db.store import Store
from ..puzzle import Puzzle
from ..puzzle.moves import permutation_of
from .beam import beam_search
from .guide import Found, Guide
from .kernels import misfit
from .meet import meet_in_the_middle

#: beam width per colour count of a phase on 8x8
PHASE_WIDTH = {2: 20000, 3: 8000, 4: 8000}
MEET_TRIES = 3                # best beam states meet in the middle starts from, per phase
MEET_CHILDREN = 1_000_000     # a level with more children is the last, streamed: on 8x8
                              # three and four colours the fifth (~2 M children, ~1.5 s);
                              # deduplicating it (two-word keys) would take 6 s more
MEET_SECONDS = 2.0            # at most, per try


@dataclass
class Chain:
    """The outcome of one run of the phases."""

    found: Found | None           # the whole way to solved, or None when a phase failed
    phases_done: int
    #: where a failed chain got to, as (state, moves from the start): the end of the
    #: last finished phase and the failed phase's best beam states; cell exchanges start there
    reached: list[tuple[np.ndarray, list[int]]]


def coarsen(cells: np.ndarray, k: int) -> np.ndarray:
    """The state in the k-colour grid: colours k..c (0-based k-1..) merged."""
    return np.minimum(cells, k - 1).astype(np.uint8)


def run_phases(puzzle: Puzzle, cells: np.ndarray, guides: Callable[[int], Guide], store: Store,
               deadline: float, order: np.ndarray | None = None) -> Chain:
    """Solve ``cells`` (c >= 3 colours) phase by phase, colours relabelled
    by ``order`` first (``order[old] = new``; which colour gathers first).
    Every phase but the last ends on a concrete state; the last may end in
    the stored tree (``found.rest``)."""
    c = puzzle.c
    relabel = order if order is not None else np.arange(c, dtype=np.uint8)
    x = relabel[cells].astype(np.uint8)
    path: list[int] = []
    for k in range(2, c + 1):
        guide = guides(k)
        phases_left = c + 1 - k
        phase_deadline = time.perf_counter() + (deadline - time.perf_counter()) / phases_left
        found, stuck = _phase(guide, coarsen(x, k), phase_deadline)
        if found is None:
            reached = [(relabel_back(x[permutation_of(puzzle.moves, moves)], relabel), path + moves)
                       for moves in [[], *stuck]]
            return Chain(None, k - 2, reached)
        if k == c:
            meet = None if found.meet is None else relabel_back(found.meet, relabel)
            return Chain(Found(path + found.path, meet, found.rest), k - 1, [])
        seg = found.moves(store, guide.puzzle)
        x = x[permutation_of(puzzle.moves, seg)]
        path += seg
    raise AssertionError("unreachable: the last phase returns")


def relabel_back(cells: np.ndarray, relabel: np.ndarray) -> np.ndarray:
    """Undo ``relabel`` (a permutation of the colours)."""
    back = np.argsort(relabel).astype(np.uint8)
    return back[cells]


def _phase(guide: Guide, start: np.ndarray, deadline: float) -> tuple[Found | None, list[list[int]]]:
    """Beam search in one coarse grid; where it stalls, meet in the middle
    from its best states (fewest misplaced cells, then fewest moves).
    Returns (the way to solved or None, the moves to the best states)."""
    found, waypoints = beam_search(guide, start, PHASE_WIDTH.get(guide.c, 8000), deadline)
    if found is not None:
        return found, []
    goals = guide.tables.goals
    score = [misfit(w, guide.n, goals) * 1000 + len(moves) for w, moves in waypoints]
    ranked = np.argsort(score, kind="stable")
    tries = ranked[:MEET_TRIES] if guide.endgame is not None else []
    for i in tries:
        now = time.perf_counter()
        if now > deadline:
            break
        w, moves = waypoints[i]
        met, _, _ = meet_in_the_middle(guide, w, min(deadline, now + MEET_SECONDS), MEET_CHILDREN)
        if met is not None:
            return Found(moves + met.path, met.meet, met.rest), []
    return None, [waypoints[i][1] for i in ranked[:MEET_TRIES]]
