"""Solve any grid: exact from the database where it covers the state,
otherwise a search that uses the database as its endgame table (thesis
chapter 4; SPEC §4).

Methods (``METHODS``):

* ``auto``    the stored answer when the state's class is stored, else ``beam``.
* ``beam``    wsdb's beam search guided by gather distances (:mod:`wsdb.beam`).
* ``thesis``  the thesis' heuristic, §4.1-4.3 (:mod:`wsdb.thesis`).
* ``optimal`` IDA* under the gather bound (:mod:`wsdb.optimal`); proves optimality.

Every answer is checked by applying its moves before it is returned, and
carries a proven lower bound: the largest gather distance, and one more than
the height of a partial tree that does not hold the state's class. When a
search cannot finish (time limit, or no guide for the grid) the cell-exchange
construction of :mod:`wsdb.exchange` completes the best state reached, so
every state gets a verified sequence.
"""
from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass
from typing import Iterator

import numpy as np

from . import exchange
from .beam import Found, Guide, beam_search
from .endgame import endgame
from .errors import WsdbError
from .gather import binomials_for, gather_colours, gather_table
from .puzzle import Puzzle, format_state, parse_states
from .query import lookup_grid
from .store import Store, resolve

METHODS = ("auto", "beam", "thesis", "optimal")
DEFAULT_TIME = 10.0         # seconds, when no --time-limit is given
#: beam width per (n, c): as wide as fits about a second per state on 2 cores
BEAM_WIDTH = {(6, 2): 5000, (6, 3): 10000, (6, 4): 20000, (8, 2): 20000, (8, 3): 8000, (8, 4): 8000}
DEFAULT_WIDTH = 5000


@dataclass
class Solution:
    """A verified way to solve one state."""

    n: int
    c: int
    state: str
    method: str                 # the method that produced the sequence
    moves: list[str] | None     # None with length_only
    length: int
    lower_bound: int            # proven: no sequence is shorter
    optimal: bool               # length == lower_bound (proven optimal)
    seconds: float
    timed_out: bool = False     # the time limit ended the search early
    note: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)


def solve(state: str, db=None, method: str = "auto", time_limit: float | None = None,
          length_only: bool = False, store: Store | None = None) -> Solution:
    """Solve one state (any SPEC §2 form); see the module docstring."""
    return solve_many([state], db, method, time_limit, length_only, store)[0]


def solve_many(states: list[str], db=None, method: str = "auto", time_limit: float | None = None,
               length_only: bool = False, store: Store | None = None) -> list[Solution]:
    """Solve several states; all are parsed before any work starts."""
    return list(iter_solve(states, db, method, time_limit, length_only, store))


def iter_solve(states: list[str], db=None, method: str = "auto", time_limit: float | None = None,
               length_only: bool = False, store: Store | None = None) -> Iterator[Solution]:
    """:func:`solve_many`, yielding each answer as soon as it is found."""
    if method not in METHODS:
        raise WsdbError(f"unknown method {method!r}: expected one of {', '.join(METHODS)}")
    if time_limit is not None and not time_limit > 0:
        raise WsdbError(f"time limit {time_limit}: expected a positive number of seconds")
    parsed = parse_states(states)
    store = store if store is not None else open_store(db)
    guides: dict[tuple[int, int], Guide] = {}
    for puzzle, cells in parsed:
        t0 = time.perf_counter()
        if (puzzle.n, puzzle.c) not in guides:   # tables load once per grid, not per state
            guides[puzzle.n, puzzle.c] = guide_for(puzzle, store)
        yield _solve(puzzle, cells, store, guides[puzzle.n, puzzle.c], method,
                     time_limit or DEFAULT_TIME, length_only, t0)


def open_store(db) -> Store | None:
    """The database, or None when the default one does not exist yet (the
    solver then works without tables); a named database must exist."""
    explicit = db is not None or os.environ.get("WSDB_DB")
    _, path = resolve(db)
    if path is not None and not path.exists() and not explicit:
        return None
    return Store.open(db)


def guide_for(puzzle: Puzzle, store: Store | None) -> Guide:
    """Gather table, stored tree and move tables of one grid."""
    n, q = puzzle.n, (puzzle.n // 2) ** 2
    table = gather_table(n, store) if store is not None else None
    return Guide(n=n, c=puzzle.c, moves=np.ascontiguousarray(puzzle.moves),
                 gcols=gather_colours(puzzle.counts, q),
                 table=table if table is not None else np.zeros(0, np.uint8),
                 binom=binomials_for(n),
                 endgame=endgame(n, puzzle.c, store) if store is not None else None)


def shortcut(puzzle: Puzzle, cells: np.ndarray, path: list[int], eg) -> Found:
    """Cut a long solution short where the stored tree knows better: the
    first state along ``path`` whose stored depth beats the rest of the path
    hands over to the tree."""
    if eg is None or not path:
        return Found(path, None, 0)
    states = np.empty((len(path) + 1, puzzle.ncells), np.uint8)
    states[0] = cells
    for i, m in enumerate(path):
        states[i + 1] = states[i][puzzle.moves[m]]
    depth = eg.depth(states)
    total = np.where(depth >= 0, np.arange(len(states)) + depth, len(path))
    i = int(np.argmin(total))
    if total[i] >= len(path):
        return Found(path, None, 0)
    return Found(path[:i], states[i], int(depth[i]))


def _width(puzzle: Puzzle) -> int:
    return BEAM_WIDTH.get((puzzle.n, puzzle.c), DEFAULT_WIDTH)


def _solve(puzzle: Puzzle, cells: np.ndarray, store: Store | None, guide: Guide, method: str,
           time_limit: float, length_only: bool, t0: float) -> Solution:
    # the limit is for searching: a first use may spend long deriving tables
    deadline = time.perf_counter() + time_limit
    eg = guide.endgame
    stored = int(eg.depth(cells[None])[0]) if eg is not None else -1
    lower = max(guide.bound(cells), 0 if puzzle.is_solved(cells) else 1)
    if stored >= 0:
        lower = max(lower, stored)          # the stored depth is the exact distance
    elif eg is not None:
        lower = max(lower, eg.height + 1)   # not within the stored levels
    notes = []
    if not guide.has_table and puzzle.n in (4, 6):
        notes.append(f"no gather table: build the {puzzle.n}x{puzzle.n} two-colour database "
                     f"(`wsdb build --n {puzzle.n} --c 2`) for shorter answers")
    timed_out = False
    if stored >= 0 and method == "auto":
        found, used = Found([], cells.copy(), stored), "stored"
    elif method == "optimal":
        from .optimal import ida_star
        found, lower, timed_out = ida_star(guide, cells, deadline, lower)
        used = "optimal"
        if found is None:   # still give the best answer we can, marked as such
            found, _ = beam_search(guide, cells, _width(puzzle), time.perf_counter() + 5.0)
            used = "beam (optimal timed out)"
    elif method == "thesis":
        from .thesis import thesis_search
        found, timed_out = thesis_search(guide, cells, deadline)
        used = "thesis"
    else:
        found, waypoints = beam_search(guide, cells, _width(puzzle), deadline)
        timed_out = found is None and time.perf_counter() > deadline
        used = "beam"
    if found is None:
        # finish with cell exchanges (always succeeds) from the start or from
        # whichever state the beam reached gives the shortest whole
        if method in ("thesis", "optimal"):
            waypoints = [(cells, [])]
        path = min((exchange.simplify(puzzle.n, p + exchange.solve_by_exchanges(puzzle, x))
                    for x, p in waypoints), key=len)
        found, used = shortcut(puzzle, cells, path, eg), used + "+exchange"
        notes.append("the search did not reach solved; completed by cell exchanges (not optimal)")
    return _finish(puzzle, cells, store, found, used, lower, t0, timed_out, length_only, notes)


def _finish(puzzle, cells, store, found: Found, used, lower, t0, timed_out, length_only, notes) -> Solution:
    moves = None
    if not (found.rest and length_only):   # length only: skip walking the stored tail
        tail = lookup_grid(store, puzzle, found.meet[None])[0].moves if found.rest else []
        moves = [puzzle.move_names[m] for m in found.path] + tail
        if not puzzle.is_solved(puzzle.apply(cells, moves)):
            raise WsdbError(f"internal error: the {used} sequence does not solve "
                            f"{format_state(cells, puzzle.n)}; please report it")
        if length_only:
            moves = None
    length = found.length
    if lower > length:
        raise WsdbError(f"internal error: lower bound {lower} above the length {length} found for "
                        f"{format_state(cells, puzzle.n)}; please report it")
    return Solution(n=puzzle.n, c=puzzle.c, state=format_state(cells, puzzle.n), method=used,
                    moves=moves, length=length, lower_bound=lower, optimal=length == lower,
                    seconds=round(time.perf_counter() - t0, 3), timed_out=timed_out,
                    note="; ".join(notes) or None)
