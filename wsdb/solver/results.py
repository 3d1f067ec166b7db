"""What the solver works on and answers: :class:`Problem` (one state and
everything a search may consult), :class:`Attempt` (what a search returns)
and :class:`Solution` (the verified answer, the CLI's and the API's JSON)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Callable

import numpy as np

from ..db.store import Store
from ..puzzle import Puzzle
from .guide import Found, Guide
from .settings import BEAM_WIDTH, DEFAULT_WIDTH, NO_TABLE_WIDTH


@dataclass
class Solution:
    """A verified way to solve one state."""

    n: int
    c: int
    state: str
    method: str  # the method that produced the sequence
    moves: list[str] | None  # None with length_only
    length: int
    lower_bound: int  # proven: no sequence is shorter
    optimal: bool  # length == lower_bound (proven optimal)
    seconds: float
    timed_out: bool = False  # the budget (or the time limit) ended a search early
    note: str | None = None
    exact: int | None = None  # the distance where known: stored, or proven optimal here
    effort: float = 0.0  # millions of nodes spent (:mod:`.effort`)
    capped: bool = False  # the --time-limit cap cut the search: another run may answer differently
    work: dict[str, int] = field(default_factory=dict)  # units of work done, by kind (settings.NODE_COSTS)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Problem:
    """One state to solve, with everything a search may consult."""

    puzzle: Puzzle
    cells: np.ndarray
    store: Store | None
    guide: Guide
    deadline: float  # the budget: nodes spent when the search must stop (:mod:`.effort`)
    started: float  # when work on this state began (perf_counter, for the seconds reported)
    #: the guide of the k-colour grid, for phases; None where the coarser trees are missing
    coarse: Callable[[int], Guide] | None = None
    #: the grid's transposition table (:mod:`.transpositions`), for repairs; None where there is none
    table: np.ndarray | None = None

    @property
    def width(self) -> int:
        grid = (self.puzzle.n, self.puzzle.c)
        if not self.guide.has_table and grid in NO_TABLE_WIDTH:
            return NO_TABLE_WIDTH[grid]
        return BEAM_WIDTH.get(grid, DEFAULT_WIDTH)


@dataclass
class Attempt:
    """What a search returns: a way to solved or None, the method to name
    in the answer, the lower bound as it stands, and the states a cell-
    exchange fallback may start from (each with the moves that reach it)."""

    found: Found | None
    method: str
    lower: int
    timed_out: bool = False
    waypoints: list[tuple[np.ndarray, list[int]]] = field(default_factory=list)
