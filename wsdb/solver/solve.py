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
* ``learned`` a beam over the whole state guided by a learned estimate of
  the whole distance (``wsdb learn``; :mod:`.learned`).

``auto`` runs ``meet`` on grids with a partial tree, giving it 60% of the
budget; on 8x8 with three or four colours the phases, not the beam, then
use the rest, or, on the grids of ``LEARNED_AUTO`` where the database
keeps a learned guide (``wsdb learn``), the learned beam. Where ``PROVE_EFFORT`` gives a grid nodes (6x6 three
colours), IDA* below the answer's length then shortens it or proves it
optimal (:func:`.methods.prove`).

Every search is budgeted in work, not seconds (:mod:`.effort`): ``effort``
millions of nodes a state, so the same state and settings give the same
moves on any machine, at any load, on any number of threads. A
``time_limit`` only caps that; an answer it cut is marked ``capped``.

Every answer is checked by applying its moves before it is returned, and
carries a proven lower bound: the largest gather distance, and one more than
the height of a partial tree that does not hold the state's class. When a
search cannot finish (budget spent, or no guide for the grid), repairs through
the stored tree (:mod:`.repair`) and the cell-exchange construction of
:mod:`.exchange` complete the best state reached, so every state gets a
verified sequence. On four-colour grids a table of transpositions
(:mod:`.transpositions`, derived once per database, cached beside it)
makes repairs look-ups, and prices the states a finish may start from.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from typing import Iterator

import numpy as np

from ..db.store import Store
from ..errors import InputError, NotBuiltError, WsdbError
from ..puzzle import format_state, parse_states, wrapslide
from ..puzzle.catalog import grouped_states, kind
from ..puzzle.tree_key import TreeKey
from .effort import metered
from .guide import Found, Guide, guide_for, tail
from .learned import DEFAULT_GUIDE, read_learned, with_value
from .methods import METHODS, SEARCHES, by_meet, complete, prove
from .results import Attempt, Problem, Solution
from .settings import DEFAULT_EFFORT, DERIVED, LEARNED_AUTO, MAX_SOLVE_N, MEET_SHARE, PHASES_FROM, RESERVE
from .stored import solve_puzzle_states
from .tables import underived
from .transpositions import transpositions


def solve(
    state: str,
    db=None,
    method: str = "auto",
    time_limit: float | None = None,
    length_only: bool = False,
    store: Store | None = None,
    puzzle: str = "wrapslide",
    goal: str | None = None,
    effort: float | None = None,
    guide: str = DEFAULT_GUIDE,
) -> Solution:
    """Solve one state (any accepted text form); see the module docstring.
    ``effort``: millions of nodes (None: the default, about 10 s of an
    idle 2-core machine); ``time_limit``: seconds, an optional cap.
    Another puzzle's state (``puzzle``, its tree grown from ``goal``) is
    solved with its stored tree (:mod:`.stored`). ``guide`` names the
    learned guide ``--method learned`` reads (``wsdb learn --name``)."""
    return solve_many([state], db, method, time_limit, length_only, store, puzzle, goal, effort, guide)[0]


def solve_many(
    states: list[str],
    db=None,
    method: str = "auto",
    time_limit: float | None = None,
    length_only: bool = False,
    store: Store | None = None,
    puzzle: str = "wrapslide",
    goal: str | None = None,
    effort: float | None = None,
    guide: str = DEFAULT_GUIDE,
) -> list[Solution]:
    """Solve several states; all are parsed before any work starts."""
    return list(iter_solve(states, db, method, time_limit, length_only, store, puzzle, goal, effort, guide))


def iter_solve(
    states: list[str],
    db=None,
    method: str = "auto",
    time_limit: float | None = None,
    length_only: bool = False,
    store: Store | None = None,
    puzzle: str = "wrapslide",
    goal: str | None = None,
    effort: float | None = None,
    guide: str = DEFAULT_GUIDE,
) -> Iterator[Solution]:
    """:func:`solve_many`, yielding each answer as soon as it is found.
    Arguments, states and the database are checked at the call, before
    the first answer is asked for."""
    check_request(method, time_limit, effort)
    budget = budget_nodes(effort)
    if not kind(puzzle).grid:  # another puzzle: solved from its stored tree
        if method not in ("auto", "meet"):
            raise InputError(
                f"{puzzle} is solved with its stored tree (exact, meeting a partial tree in the "
                f"middle): expected --method auto or meet, not {method}"
            )
        return solve_puzzle_states(grouped_states(puzzle, states, goal), db, time_limit, length_only, store, budget)
    if goal is not None:
        raise InputError("--goal is for the other puzzles: Wrapslide's goal is every quadrant monochrome")
    parsed = parse_states(states)
    for i, (grid, _) in enumerate(parsed):
        if grid.n > MAX_SOLVE_N:
            where = f"state {i + 1}: " if len(parsed) > 1 else ""
            raise InputError(
                f"{where}{grid.n}x{grid.n}: the solver handles grids up to "
                f"{MAX_SOLVE_N}x{MAX_SOLVE_N} (its tables are sized for them); `wsdb lookup` answers "
                "larger grids whose tree is built"
            )
    store = store if store is not None else Store.open_if_present(db)
    learned = {}  # every grid's guide is read before any work starts
    for puzzle_, _ in parsed:
        size = (puzzle_.n, puzzle_.c)
        if size in learned:
            continue
        if method == "learned":
            learned[size] = read_learned(store, puzzle_, guide)
        elif method == "auto" and size in LEARNED_AUTO and store is not None:
            with contextlib.suppress(NotBuiltError):  # none kept: the phases
                learned[size] = read_learned(store, puzzle_, guide)
    return _solutions(parsed, store, method, time_limit, length_only, budget, learned)


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
    else:  # the phases load the coarser grids' trees too (only derived grids count)
        grids = trees_searched(n, c)
    return underived(store, n, grids)


def trees_searched(n: int, c: int) -> list[int]:
    """The colour counts of the n x n trees a search of an (n, c) state
    reads: the two-colour tree (the gather table, or on 8x8 the gather
    distances), the grid's own tree (the endgame), and from
    ``PHASES_FROM`` every coarser grid's (the phases)."""
    return list(range(2, c + 1)) if n >= PHASES_FROM else sorted({2, c})


def _built(store: Store | None, n: int, c: int) -> set[int]:
    """The colour counts 2..c whose n x n tree the database holds."""
    if store is None:
        return set()
    return {k for k in range(2, c + 1) if store.finished_build(TreeKey.wrapslide(n, k)) is not None}


def _unbuilt(n: int, c: int, built: set[int]) -> str | None:
    """A note naming the builds a search of (n, c) would read and the
    database lacks (``built`` holds the others; answers are much longer
    without), or None."""
    lacking = [k for k in trees_searched(n, c) if k not in built]
    if not lacking:
        return None
    builds = ", ".join(f"`wsdb build --n {n} --c {k}`" for k in lacking)
    if len(lacking) == 1:
        return f"for shorter answers build the {n}x{n} {lacking[0]}-colour tree: {builds}"
    counts = ", ".join(map(str, lacking[:-1])) + f" and {lacking[-1]}"
    return f"for shorter answers build the {n}x{n} trees of {counts} colours: {builds}"


def first_solve_waits(db) -> dict[int, float]:
    """Per grid size, the minutes :func:`derivation_minutes` says a first
    solve will wait; sizes with nothing to derive are left out."""
    waits = {n: derivation_minutes(db, n) for n in sorted({n for n, _ in DERIVED})}
    return {n: minutes for n, minutes in waits.items() if minutes}


def check_request(method: str, time_limit: float | None, effort: float | None = None) -> None:
    """A known method, a positive time limit (None: no cap) and a positive
    effort (None: the default), or one line saying what is wrong."""
    if method not in METHODS:
        raise InputError(f"unknown method {method!r}: expected one of {', '.join(METHODS)}")
    if time_limit is not None and not time_limit > 0:
        raise InputError(f"time limit {time_limit}: expected a positive number of seconds")
    if effort is not None and not 0 < effort < 1e9:
        raise InputError(
            f"effort {effort}: expected a positive number of millions of nodes (default {DEFAULT_EFFORT / 1e6:g})"
        )


def budget_nodes(effort: float | None) -> float:
    """The budget in nodes of an ``effort`` in millions (None: the default)."""
    return DEFAULT_EFFORT if effort is None else effort * 1e6


def _solutions(parsed, store, method, time_limit, length_only, budget, learned) -> Iterator[Solution]:
    guides: dict[tuple[int, int], Guide] = {}

    def guide(n: int, c: int) -> Guide:  # tables load once per grid, not per state
        if (n, c) not in guides:
            guides[n, c] = guide_for(wrapslide(n, c), store, pairs=method == "optimal")
        return guides[n, c]

    def own_guide(n: int, c: int) -> Guide:  # the state's own grid: a learned guide scores its beams
        return with_value(guide(n, c), learned[n, c]) if (n, c) in learned else guide(n, c)

    phased: dict[tuple[int, int], bool] = {}
    unbuilt: dict[tuple[int, int], str | None] = {}
    tables: dict[tuple[int, int], np.ndarray | None] = {}
    for puzzle, cells in parsed:
        started = time.perf_counter()
        n, c = puzzle.n, puzzle.c
        if (n, c) not in phased:
            built = _built(store, n, c)
            # phases need three or four colours and the trees of their grids, the coarser ones and the own
            phased[n, c] = c >= 3 and len(built) == c - 1
            unbuilt[n, c] = _unbuilt(n, c, built)
            if phased[n, c] and (method == "phases" or (method == "auto" and n >= PHASES_FROM)):
                for k in range(2, c):  # load before any time limit starts
                    guide(n, k)
        own = own_guide(n, c)
        if (n, c) not in tables:  # once per grid (and once per database: it is cached)
            tables[n, c] = transpositions(own, store) if store is not None and method != "optimal" else None
        # the cap is for searching: a first use may spend long deriving tables and compiling
        cap = None if time_limit is None else (1 - RESERVE) * time_limit
        coarse = (lambda k, n=n: guide(n, k)) if phased[n, c] else None
        with metered(cap) as meter:  # the budget counts from 0 for each state
            problem = Problem(puzzle, cells, store, own, budget, started, coarse, tables[n, c])
            solution = dataclasses.replace(_solve(problem, method, length_only, unbuilt[n, c]), **meter.tally())
        if (n, c) in learned:
            solution.note = "; ".join(filter(None, [f"guided by {learned[n, c].short}", solution.note]))
        if solution.capped:
            solution.note = "; ".join(
                filter(
                    None,
                    [
                        solution.note,
                        f"cut short by the time limit of {time_limit:g} s: without it the answer may differ",
                    ],
                )
            )
        yield solution


def _solve(p: Problem, method: str, length_only: bool, unbuilt: str | None) -> Solution:
    """One state's answer; ``unbuilt`` notes the trees a search lacks."""
    stored, lower = _stored_and_bound(p)
    notes = []
    if p.puzzle.is_solved(p.cells):  # no search: some (every 2x2 state) start solved
        attempt = Attempt(Found([], p.cells.copy(), 0), "solved", 0)
    elif stored >= 0 and method == "auto":
        attempt = Attempt(Found([], p.cells.copy(), stored), "stored", lower)
    else:  # a search: its guide matters
        if unbuilt:
            notes.append(unbuilt)
        if method == "auto":
            attempt = by_meet(p, lower, MEET_SHARE, phases=True)
            prove(p, attempt)
        else:
            attempt = SEARCHES[method](p, lower)
    if attempt.found is None:
        attempt, how = complete(p, attempt)
        notes.append(f"the search did not reach solved; completed by {how} (not optimal)")
    return _finish(p, attempt, length_only, notes, stored)


def _stored_and_bound(p: Problem) -> tuple[int, int]:
    """(stored depth or -1, proven lower bound) of the state."""
    eg = p.guide.endgame
    stored = int(eg.depth(p.cells[None])[0]) if eg is not None else -1
    lower = max(p.guide.bound(p.cells), 0 if p.puzzle.is_solved(p.cells) else 1)
    if stored >= 0:
        lower = max(lower, stored)  # the stored depth is the exact distance
    elif eg is not None:
        lower = max(lower, eg.height + 1)  # not within the stored levels
    return stored, lower


def _finish(p: Problem, attempt: Attempt, length_only: bool, notes: list[str], stored: int) -> Solution:
    """Rebuild the moves, apply them, check the bound, and answer."""
    puzzle, found = p.puzzle, attempt.found
    assert found is not None, "an attempt is finished only with a way to solved"
    text = format_state(p.cells, puzzle.n)
    moves = None
    if not (found.rest and length_only):  # length only: skip walking the stored tail
        rest = tail(p.store, puzzle, p.guide.endgame, found.meet) if found.rest else []
        moves = [puzzle.move_names[m] for m in found.path] + rest
        if not puzzle.is_solved(puzzle.apply(p.cells, moves)):
            raise WsdbError(f"internal error: the {attempt.method} sequence does not solve {text}; please report it")
        if length_only:
            moves = None
    length = found.length
    if attempt.lower > length:
        raise WsdbError(
            f"internal error: lower bound {attempt.lower} above the length {length} found for {text}; please report it"
        )
    return Solution(
        n=puzzle.n,
        c=puzzle.c,
        state=text,
        method=attempt.method,
        moves=moves,
        length=length,
        lower_bound=attempt.lower,
        optimal=length == attempt.lower,
        seconds=round(time.perf_counter() - p.started, 3),
        timed_out=attempt.timed_out,
        note="; ".join(notes) or None,
        exact=stored if stored >= 0 else length if length == attempt.lower else None,
    )
