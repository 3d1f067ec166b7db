"""Solve any grid: exact from the database where it covers the state,
otherwise a search that uses the database as its endgame table (thesis
chapter 4).

Methods (``METHODS``; the searches are the table ``SEARCHES``):

* ``auto``    the stored answer when the state's class is stored, else ``meet``.
* ``beam``    wsdb's beam search guided by gather distances (:mod:`.beam`).
* ``thesis``  the thesis' heuristic, §4.1-4.3 (:mod:`.thesis`).
* ``optimal`` IDA* under the gather bound, handing over to a partial tree
  where there is one (:mod:`.ida`); proves optimality.
* ``meet``    meet in the middle with the partial tree (:mod:`.meet`): exact
  when the forward search meets the tree, else a proven bound and the beam.
* ``phases``  three and four colours through coarser colourings, each
  phase solved in its own grid with its own tree (:mod:`.phases`).

``auto`` runs ``meet`` on grids with a partial tree, giving it 60% of the
time limit; on 8x8 with three or four colours the phases, not the beam,
then use the time left.

Every answer is checked by applying its moves before it is returned, and
carries a proven lower bound: the largest gather distance, and one more than
the height of a partial tree that does not hold the state's class. When a
search cannot finish (time limit, or no guide for the grid), repairs through
the stored tree (:mod:`.repair`) and the cell-exchange construction of
:mod:`.exchange` complete the best state reached, so every state gets a
verified sequence. On four-colour grids a table of transpositions
(:mod:`.transpositions`, derived once per database, cached beside it)
makes repairs look-ups, and prices the states a finish may start from.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Callable, Iterator

import numpy as np

from ..db.store import Store
from ..errors import WsdbError
from ..puzzle import Puzzle, format_state, parse_states, wrapslide
from ..puzzle.moves import simplify
from . import exchange
from .beam import beam_search
from .guide import Found, Guide, guide_for, tail
from .tables import DERIVED, underived
from .transpositions import estimate, transpositions

DEFAULT_TIME = 10.0         # seconds, when no --time-limit is given
#: beam width per (n, c): as wide as fits about a second per state on 2 cores
BEAM_WIDTH = {(6, 2): 5000, (6, 3): 10000, (6, 4): 20000, (8, 2): 20000, (8, 3): 8000, (8, 4): 1000}
DEFAULT_WIDTH = 5000
RESCUE_SECONDS = 5.0        # a beam's time when IDA* ran out, so there is still an answer
#: children of the last level meet in the middle deduplicates, per (n, c) (0: any other grid):
#: on 8x8 two colours the forward search reaches 6 levels (with the tree held to depth 9,
#: :data:`.tables.DERIVED`: exact answers up to 15, else a proven 16) in 1-6 s; elsewhere,
#: where the beam needs the time, a cheap first look of 4-5 levels (0.2-0.5 s) that still
#: lifts the bounds by 3-4 moves;
#: on 6x6 only 3-4 levels (0.05 s): the same lengths, bounds one lower, and a state takes
#: 0.3 s instead of 0.75 s (three colours), 0.9 s instead of 1.5 s (four)
MEET_CHILDREN = {(8, 2): 8_000_000, (8, 4): 20_000, (6, 3): 10_000, (6, 4): 10_000, 0: 200_000}
PHASES_FROM = 8             # auto runs phases from this grid size (on 6x6 the gather tables
                            # guide the beam to shorter answers)
RUN_AT_LEAST = 0.3          # seconds: with an answer, a run of the phases starts if this is left
                            # (it stops where it cannot beat the answer, so even a short run may)
AGAIN_WIDTH = {4: 4000}     # per colour count, the last phase's beam when run again on the time
                            # left after every order, from the starts the shortest earlier phases
                            # reached (240 splits of 20 states, time unlimited: best of 12 at
                            # 1,000 wide 55.8 moves, with the 4 such starts again 4,000 wide 54.2)
AGAIN_RUNS = 4              # such starts at most
AGAIN_AT_LEAST = 0.5        # seconds left for one (a wide last phase takes about 1 s)
FINISH_SHARE = 0.15         # of the time limit, left by the phases for repairs and cell exchanges
                            # while no run of the phases has finished
EXCHANGE_SECONDS = 0.3      # repairs stop this early: cell exchanges finish what is left
REPAIR_FROM = 2             # waypoints repaired, the nearest solved first
PRICED = 8                  # of the nearest waypoints, those a transposition table prices (~1 ms each)
MEET_SHARE = 0.6            # of the time limit, in auto, before the beam gets the rest
RESERVE = 0.05              # of the time limit, kept for what follows a search (the last beam
                            # level, the stored tail, checking the answer): 8x8 states took
                            # up to 10.35 s of 10 without it


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
    exact: int | None = None    # the distance where known: stored, or proven optimal here

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Problem:
    """One state to solve, with everything a search may consult."""

    puzzle: Puzzle
    cells: np.ndarray
    store: Store | None
    guide: Guide
    deadline: float             # when the search must stop (perf_counter)
    started: float              # when work on this state began
    #: the guide of the k-colour grid, for phases; None where the coarser trees are missing
    coarse: Callable[[int], Guide] | None = None
    #: the grid's transposition table (:mod:`.transpositions`), for repairs; None where there is none
    table: np.ndarray | None = None

    @property
    def width(self) -> int:
        return BEAM_WIDTH.get((self.puzzle.n, self.puzzle.c), DEFAULT_WIDTH)


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


def _beam(p: Problem, lower: int) -> Attempt:
    found, waypoints = beam_search(p.guide, p.cells, p.width, p.deadline)
    timed_out = found is None and time.perf_counter() > p.deadline
    return Attempt(found, "beam", lower, timed_out, waypoints)


def _thesis(p: Problem, lower: int) -> Attempt:
    from .thesis import thesis_search
    found, timed_out = thesis_search(p.guide, p.cells, p.deadline)
    return Attempt(found, "thesis", lower, timed_out, [(p.cells, [])])


def _meet(p: Problem, lower: int, share: float = 1.0, phases: bool = False) -> Attempt:
    """Meet in the middle with the partial tree (:mod:`.meet`): exact when
    the forward search meets the tree; otherwise a proven bound, and the
    beam (or, with ``phases`` where they serve, the phases), with the time
    left, for a sequence."""
    from .meet import meet_in_the_middle
    eg = p.guide.endgame
    if eg is None or eg.complete:
        return _beam(p, lower)
    now = time.perf_counter()
    deadline = now + share * max(p.deadline - now, 0.0)
    found, bound, _ = meet_in_the_middle(p.guide, p.cells, deadline,
                                         MEET_CHILDREN.get((p.puzzle.n, p.puzzle.c), MEET_CHILDREN[0]))
    lower = max(lower, bound)
    if found is not None:
        return Attempt(found, "meet in the middle", lower)
    if phases and p.coarse is not None and p.puzzle.n >= PHASES_FROM:
        attempt = _phases(p, lower)
        attempt.method = "phases (after meet in the middle)"
        return attempt
    began = time.perf_counter()
    attempt = _beam(p, lower)
    attempt.method = "beam (after meet in the middle)"
    if p.puzzle.n >= 8 and attempt.found is not None:
        _widen(p, attempt, time.perf_counter() - began)
    return attempt


def _widen(p: Problem, attempt: Attempt, took: float) -> None:
    """With time left, beams 3, 9, ... times wider, keeping the shortest
    answer (8x8 two colours: 21 -> 18 moves). Each starts only when it can
    finish (a beam's time grows with its width). Not on 6x6 (6 s for 0.1
    move), nor without a first answer: the cell exchanges then need the
    first beam's waypoints."""
    width = p.width
    while attempt.found.length > attempt.lower and p.deadline - time.perf_counter() > 2 * took:
        width *= 3
        began = time.perf_counter()
        wider, _ = beam_search(p.guide, p.cells, width, p.deadline)
        took = time.perf_counter() - began
        if wider is not None and wider.length < attempt.found.length:
            attempt.found = wider


def _optimal(p: Problem, lower: int) -> Attempt:
    """IDA*; where a partial tree is stored (and does not hold the state),
    IDA* that hands over to it, which searches D levels less (:mod:`.ida`)."""
    from .ida import ida_star, ida_to_tree
    eg = p.guide.endgame
    partial = eg is not None and not eg.complete and int(eg.depth(p.cells[None])[0]) < 0
    found, lower, timed_out = (ida_to_tree if partial else ida_star)(p.guide, p.cells, p.deadline, lower)
    if found is not None:
        return Attempt(found, "optimal", lower, timed_out)
    # still give the best answer we can, marked as such
    found, _ = beam_search(p.guide, p.cells, p.width, time.perf_counter() + RESCUE_SECONDS)
    return Attempt(found, "beam (optimal timed out)", lower, timed_out, [(p.cells, [])])


def _phases(p: Problem, lower: int) -> Attempt:
    """8x8 three and four colours through coarser colourings (:mod:`.phases`).
    While time is left, other colours gather first and second
    (:func:`phase_orders`); the shortest whole way is kept, and each run's
    first phase may raise the lower bound. Runs that gather the same colour
    first share that phase, and once one run has an answer the others stop
    where they cannot beat it, so more of them fit the limit. Until some
    run finishes, ``FINISH_SHARE`` of the limit is kept back and a run
    starts only where the time of the longest so far is left; when none
    finishes, the cell exchanges complete the run that got furthest.
    The time every order leaves goes to the last phase again, four times
    wider, from the starts the shortest earlier phases reached
    (:func:`.phases.last_phase_again`)."""
    from .phases import last_phase_again, phase_orders, run_phases
    if p.coarse is None:
        return _beam(p, lower)
    c = p.puzzle.c
    finish = FINISH_SHARE * (p.deadline - p.started)
    best, furthest, reached, firsts, lasts = None, None, [], {}, []
    took = {False: 0.0, True: 0.0}   # a run's time, by whether its first colour was gathered before
    for order in phase_orders(p.puzzle):
        again = int(np.flatnonzero(order == 0)[0]) in firsts
        until = p.deadline - (finish if best is None else 0.0)   # with an answer, no finish is needed
        need = (took[again] or took[False]) if best is None else RUN_AT_LEAST
        if until - time.perf_counter() < need:
            continue   # a later order whose first phase is done may still fit
        began = time.perf_counter()
        chain = run_phases(p.puzzle, p.cells, p.coarse, p.store, until, order,
                           last_meet=p.table is None, firsts=firsts,
                           shorter=None if best is None else best.length)
        took[again] = max(took[again], time.perf_counter() - began)
        lower = max(lower, chain.lower)
        if chain.found is not None and (best is None or chain.found.length < best.length):
            best = chain.found
        if furthest is None or chain.phases_done > furthest.phases_done:
            furthest = chain
        if chain.found is None and chain.phases_done == c - 2:   # stalled in the last phase
            reached += chain.reached
        if chain.last_start is not None:
            lasts.append(chain)
    if best is not None and c in AGAIN_WIDTH:
        # the time left: the last phase again, wider, where the phases before it were shortest
        for chain in sorted(lasts, key=lambda ch: len(ch.last_start[1]))[:AGAIN_RUNS]:
            if p.deadline - time.perf_counter() < AGAIN_AT_LEAST:
                break
            found = last_phase_again(p.puzzle, chain, p.coarse, p.deadline, AGAIN_WIDTH[c], best.length)
            if found is not None and found.length < best.length:
                best = found
    if best is not None:
        return Attempt(best, "phases", lower)
    if p.table is not None and reached:   # the table prices the finish: every run's last stall competes
        start = reached
    else:
        start = furthest.reached if furthest is not None else [(p.cells, [])]
    return Attempt(None, "phases", lower, time.perf_counter() > p.deadline, start)


SEARCHES: dict[str, Callable[[Problem, int], Attempt]] = {"beam": _beam, "thesis": _thesis, "optimal": _optimal,
                                                          "meet": _meet, "phases": _phases}
METHODS = ("auto", *SEARCHES)


def solve(state: str, db=None, method: str = "auto", time_limit: float | None = None,
          length_only: bool = False, store: Store | None = None, puzzle: str = "wrapslide",
          goal: str | None = None) -> Solution:
    """Solve one state (any accepted text form); see the module docstring.
    Another puzzle's state (``puzzle``, its tree grown from ``goal``) is
    solved with its stored tree (:mod:`.stored`)."""
    return solve_many([state], db, method, time_limit, length_only, store, puzzle, goal)[0]


def solve_many(states: list[str], db=None, method: str = "auto", time_limit: float | None = None,
               length_only: bool = False, store: Store | None = None, puzzle: str = "wrapslide",
               goal: str | None = None) -> list[Solution]:
    """Solve several states; all are parsed before any work starts."""
    return list(iter_solve(states, db, method, time_limit, length_only, store, puzzle, goal))


def iter_solve(states: list[str], db=None, method: str = "auto", time_limit: float | None = None,
               length_only: bool = False, store: Store | None = None, puzzle: str = "wrapslide",
               goal: str | None = None) -> Iterator[Solution]:
    """:func:`solve_many`, yielding each answer as soon as it is found.
    Arguments, states and the database are checked at the call, before
    the first answer is asked for."""
    check_request(method, time_limit)
    if puzzle != "wrapslide":
        if method not in ("auto", "meet"):
            raise WsdbError(f"{puzzle} is solved with its stored tree (exact, meeting a partial tree in the "
                            f"middle): expected --method auto or meet, not {method}")
        from .stored import solve_puzzle_states

        return solve_puzzle_states(states, puzzle, goal, db, time_limit or DEFAULT_TIME, length_only, store)
    if goal is not None:
        raise WsdbError("--goal is for the other puzzles: Wrapslide's goal is every quadrant monochrome")
    parsed = parse_states(states)
    store = store if store is not None else Store.open_if_present(db)
    return _solutions(parsed, store, method, time_limit, length_only)


def derivation_minutes(db, n: int, c: int | None = None) -> float:
    """About how long the first solve of an n x n, c-colour state (any
    colour count: None) will spend deriving deepened trees
    (:data:`.tables.DERIVED`) before its search starts: 0 once they are
    cached beside the database."""
    store = Store.open_if_present(db)
    if store is None:
        return 0.0
    if c is None:
        grids = [k for m, k in DERIVED if m == n]
    else:   # the phases load the coarser grids' trees too
        grids = list(range(2, c + 1)) if n >= PHASES_FROM else [c]
    return underived(store, n, grids)


def first_solve_waits(db) -> dict[int, float]:
    """Per grid size, the minutes :func:`derivation_minutes` says a first
    solve will wait; sizes with nothing to derive are left out."""
    waits = {n: derivation_minutes(db, n) for n in sorted({n for n, _ in DERIVED})}
    return {n: minutes for n, minutes in waits.items() if minutes}


def check_request(method: str, time_limit: float | None) -> None:
    """A known method and a positive time limit (None: the default), or
    one line saying what is wrong."""
    if method not in METHODS:
        raise WsdbError(f"unknown method {method!r}: expected one of {', '.join(METHODS)}")
    if time_limit is not None and not time_limit > 0:
        raise WsdbError(f"time limit {time_limit}: expected a positive number of seconds")


def _solutions(parsed, store, method, time_limit, length_only) -> Iterator[Solution]:
    guides: dict[tuple[int, int], Guide] = {}

    def guide(n: int, c: int) -> Guide:   # tables load once per grid, not per state
        if (n, c) not in guides:
            guides[n, c] = guide_for(wrapslide(n, c), store)
        return guides[n, c]

    phased: dict[tuple[int, int], bool] = {}
    tables: dict[tuple[int, int], np.ndarray | None] = {}
    for puzzle, cells in parsed:
        started = time.perf_counter()
        n, c = puzzle.n, puzzle.c
        if (n, c) not in phased:
            phased[n, c] = _has_coarse_trees(puzzle, store)
            if phased[n, c] and (method == "phases" or (method == "auto" and n >= PHASES_FROM)):
                for k in range(2, c):   # load before any time limit starts
                    guide(n, k)
        own = guide(n, c)
        if (n, c) not in tables:   # once per grid (and once per database: it is cached)
            tables[n, c] = transpositions(own, store) if store is not None and method != "optimal" else None
        # the limit is for searching: a first use may spend long deriving tables and compiling
        deadline = time.perf_counter() + (1 - RESERVE) * (time_limit or DEFAULT_TIME)
        coarse = (lambda k, n=n: guide(n, k)) if phased[n, c] else None
        problem = Problem(puzzle, cells, store, own, deadline, started, coarse, tables[n, c])
        yield _solve(problem, method, length_only)


def _has_coarse_trees(puzzle: Puzzle, store: Store | None) -> bool:
    """Phases need three or four colours and the trees of their grids, the
    coarser ones and the grid's own."""
    return (puzzle.c >= 3 and store is not None
            and all(store.finished_build(puzzle.n, k) is not None for k in range(2, puzzle.c + 1)))


def _solve(p: Problem, method: str, length_only: bool) -> Solution:
    stored, lower = _stored_and_bound(p)
    notes = []
    if p.puzzle.is_solved(p.cells):   # no search: some (every 2x2 state) start solved
        attempt = Attempt(Found([], p.cells.copy(), 0), "solved", 0)
    elif stored >= 0 and method == "auto":
        attempt = Attempt(Found([], p.cells.copy(), stored), "stored", lower)
    else:   # a search: its guide matters
        if not p.guide.has_table and p.puzzle.n in (4, 6):
            notes.append(f"no gather table: build the {p.puzzle.n}x{p.puzzle.n} two-colour database "
                         f"(`wsdb build --n {p.puzzle.n} --c 2`) for shorter answers")
        attempt = _meet(p, lower, MEET_SHARE, phases=True) if method == "auto" else SEARCHES[method](p, lower)
    if attempt.found is None:
        attempt, how = _complete(p, attempt)
        notes.append(f"the search did not reach solved; completed by {how} (not optimal)")
    return _finish(p, attempt, length_only, notes, stored)


def _stored_and_bound(p: Problem) -> tuple[int, int]:
    """(stored depth or -1, proven lower bound) of the state."""
    eg = p.guide.endgame
    stored = int(eg.depth(p.cells[None])[0]) if eg is not None else -1
    lower = max(p.guide.bound(p.cells), 0 if p.puzzle.is_solved(p.cells) else 1)
    if stored >= 0:
        lower = max(lower, stored)          # the stored depth is the exact distance
    elif eg is not None:
        lower = max(lower, eg.height + 1)   # not within the stored levels
    return stored, lower


def _complete(p: Problem, attempt: Attempt) -> tuple[Attempt, str]:
    """Finish from the waypoints the search left (always succeeds): repairs
    through the stored tree (:mod:`.repair`) from the two nearest solved,
    cell exchanges for whatever is left; the shortest whole is kept, then
    cut short through the stored tree. Also says how it finished."""
    n = p.puzzle.n
    starts = attempt.waypoints
    can_repair = p.guide.endgame is not None and p.store is not None
    if can_repair:
        from .repair import repair
        rng = np.random.default_rng(0)
        until = p.deadline - EXCHANGE_SECONDS
        distinct = {x.tobytes(): (x, moves) for x, moves in reversed(starts)}.values()
        starts = sorted(distinct, key=lambda w: (_misplaced(p.puzzle, w[0]), len(w[1])))
        if p.table is not None:   # the table prices the nearest: moves so far plus transpositions
            starts = sorted(starts[:PRICED], key=lambda w: len(w[1]) + estimate(p.puzzle, p.table, w[0]))
        starts = starts[:REPAIR_FROM]
    best = None
    for x, moves in starts:
        repaired, exchanged = [], 0
        if can_repair:
            repaired, x, exchanged = repair(p.guide, p.store, x, until, rng, p.table)
        rest = exchange.solve_by_exchanges(p.puzzle, x)
        path = simplify(n, moves + repaired + rest)
        if best is None or len(path) < len(best[0]):
            best = path, bool(repaired), bool(exchanged or rest)
    path, repaired, exchanged = best
    how = " and ".join(["repairs"] * repaired + ["cell exchanges"] * exchanged) or "its waypoints"
    method = attempt.method + "+repair" * repaired + "+exchange" * exchanged
    found = shortcut(p.puzzle, p.cells, path, p.guide.endgame)
    return Attempt(found, method, attempt.lower, attempt.timed_out), how


def _misplaced(puzzle: Puzzle, cells: np.ndarray) -> int:
    """Cells differing from the nearest solved state."""
    return int((cells != exchange.nearest_goal(puzzle, cells)).sum())


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


def _finish(p: Problem, attempt: Attempt, length_only: bool, notes: list[str], stored: int) -> Solution:
    """Rebuild the moves, apply them, check the bound, and answer."""
    puzzle, found = p.puzzle, attempt.found
    text = format_state(p.cells, puzzle.n)
    moves = None
    if not (found.rest and length_only):   # length only: skip walking the stored tail
        rest = tail(p.store, puzzle, p.guide.endgame, found.meet) if found.rest else []
        moves = [puzzle.move_names[m] for m in found.path] + rest
        if not puzzle.is_solved(puzzle.apply(p.cells, moves)):
            raise WsdbError(f"internal error: the {attempt.method} sequence does not solve {text}; please report it")
        if length_only:
            moves = None
    length = found.length
    if attempt.lower > length:
        raise WsdbError(f"internal error: lower bound {attempt.lower} above the length {length} found for "
                        f"{text}; please report it")
    return Solution(n=puzzle.n, c=puzzle.c, state=text, method=attempt.method, moves=moves, length=length,
                    lower_bound=attempt.lower, optimal=length == attempt.lower,
                    seconds=round(time.perf_counter() - p.started, 3), timed_out=attempt.timed_out,
                    note="; ".join(notes) or None,
                    exact=stored if stored >= 0 else length if length == attempt.lower else None)
