"""The searches behind ``wsdb solve --method`` (:data:`SEARCHES`), and
:func:`complete`, which finishes from a search's waypoints when it did not
reach solved (thesis chapter 4; the methods are described in
:mod:`wsdb.solver.solve`)."""

from __future__ import annotations

from typing import Callable, Literal, get_args

import numpy as np

from ..puzzle import Puzzle
from ..puzzle.moves import simplify
from . import effort, exchange
from .beam import beam_search
from .guide import Found
from .ida import ida_star, ida_to_tree
from .learned import by_learned
from .meet import meet_in_the_middle
from .phases import last_phase_again, phase_orders, run_phases
from .repair import repair
from .tables import gather_colours
from .results import Attempt, Problem
from .settings import (
    AGAIN_AT_LEAST,
    FIRST_PHASE_MEET_CHILDREN,
    AGAIN_FILL,
    AGAIN_NODES,
    AGAIN_SHARE,
    AGAIN_WIDTH,
    EXCHANGE_RESERVE,
    FINISH_SHARE,
    MEET_CHILDREN,
    PHASES_FROM,
    PRICED,
    PROVE_EFFORT,
    REPAIR_FROM,
    RESCUE,
    RUN_AT_LEAST,
)
from .thesis import thesis_search
from .transpositions import estimate


def by_beam(p: Problem, lower: int) -> Attempt:
    found, waypoints = beam_search(p.guide, p.cells, p.width, p.deadline)
    timed_out = found is None and effort.past(p.deadline)
    return Attempt(found, "beam", lower, timed_out, waypoints)


def by_thesis(p: Problem, lower: int) -> Attempt:
    found, timed_out = thesis_search(p.guide, p.cells, p.deadline)
    return Attempt(found, "thesis", lower, timed_out, [(p.cells, [])])


def by_meet(p: Problem, lower: int, share: float = 1.0, phases: bool = False) -> Attempt:
    """Meet in the middle with the partial tree (:mod:`.meet`): exact when
    the forward search meets the tree; otherwise a proven bound, and the
    beam (or, with ``phases`` where they serve, the phases), with the budget
    left, for a sequence; where auto reads a learned guide (``LEARNED_AUTO``),
    the learned beam instead. Meet in the middle gets ``share`` of the budget."""
    eg = p.guide.endgame
    if eg is None or eg.complete:
        return by_beam(p, lower)
    deadline = effort.spent() + share * effort.left(p.deadline)
    found, bound, _ = meet_in_the_middle(
        p.guide, p.cells, deadline, MEET_CHILDREN.get((p.puzzle.n, p.puzzle.c), MEET_CHILDREN[0])
    )
    lower = max(lower, bound)
    if found is not None:
        return Attempt(found, "meet in the middle", lower)
    if phases and p.guide.value is not None:  # auto where a learned guide is kept (LEARNED_AUTO)
        attempt = by_learned(p, lower)
        attempt.method = "learned (after meet in the middle)"
        if p.coarse is not None:  # the budget the learned beams leave lifts the bound as the phases did
            attempt.lower = max(attempt.lower, gather_bound(p, attempt.lower))
        return attempt
    if phases and p.coarse is not None and p.puzzle.n >= PHASES_FROM:
        attempt = by_phases(p, lower)
        attempt.method = "phases (after meet in the middle)"
        return attempt
    began = effort.spent()
    attempt = by_beam(p, lower)
    attempt.method = "beam (after meet in the middle)"
    if p.puzzle.n >= 8 and attempt.found is not None:
        _widen(p, attempt, effort.spent() - began)
    return attempt


def gather_bound(p: Problem, lower: int) -> int:
    """A lower bound from gathering one colour, as the phases' first phase
    proves it: meet in the middle in the two-colour grid (colours merged,
    the one gathered against the rest; a colour cannot gather in fewer
    moves than the whole grid solves in), each colour the tree does not hold
    (the others give their exact distance), while the budget lasts (``FIRST_PHASE_MEET_CHILDREN``
    each). Returns ``lower`` or more."""
    assert p.coarse is not None, "the two-colour grid's tree is kept"
    two = p.coarse(2)
    if two.endgame is None or two.endgame.complete:
        return lower
    singles = gather_colours(p.puzzle.counts, (p.puzzle.n // 2) ** 2)
    starts = [(p.cells != col).astype(np.uint8) for col in singles]
    near = [int(d) for d in two.tree.depth(np.stack(starts))]
    lower = max([lower, *near])  # a colour the tree holds: its exact gather distance
    for start in [x for d, x in zip(near, starts) if d < 0]:  # beyond the tree: meet in the middle
        if effort.past(p.deadline):
            break
        found, bound, _ = meet_in_the_middle(two, start, p.deadline, FIRST_PHASE_MEET_CHILDREN[p.puzzle.c])
        lower = max(lower, found.length if found is not None else bound)
    return lower


def prove(p: Problem, attempt: Attempt) -> None:
    """Where the grid has a ``PROVE_EFFORT`` (auto, after meet in the middle
    and the beam): IDA* handing over to the tree (:func:`.ida.ida_to_tree`)
    below the answer's length, for at most that many nodes: it either finds a shorter answer
    (then an optimal one), or searches every shorter bound and so proves the
    beam's answer optimal, or runs out, leaving the bound it proved. With the
    beam's length as its ceiling it skips the costliest iteration of a
    plain optimal search, the one that finds the answer, whenever the beam
    already has it."""
    nodes = PROVE_EFFORT.get((p.puzzle.n, p.puzzle.c))
    eg = p.guide.endgame
    if (
        not nodes
        or attempt.found is None
        or attempt.lower >= attempt.found.length
        or eg is None
        or eg.complete
        or not p.guide.has_table
    ):
        return
    length = attempt.found.length
    deadline = min(p.deadline, effort.spent() + nodes)
    found, lower, _ = ida_to_tree(p.guide, p.cells, deadline, attempt.lower, upper=length)
    attempt.lower = max(attempt.lower, lower)
    if found is not None:
        attempt.found, attempt.method = found, "optimal (after beam)"


def _widen(p: Problem, attempt: Attempt, took: float) -> None:
    """With budget left, beams 3, 9, ... times wider, keeping the shortest
    answer (8x8 two colours: 21 -> 18 moves). Each starts only when it can
    finish (a beam's cost, ``took`` nodes for the last, grows with its width). Not on 6x6 (6 s for 0.1
    move), nor without a first answer: the cell exchanges then need the
    first beam's waypoints."""
    width = p.width
    assert attempt.found is not None, "widening starts from a first answer"
    while attempt.found.length > attempt.lower and effort.left(p.deadline) > 2 * took:
        width *= 3
        began = effort.spent()
        wider, _ = beam_search(p.guide, p.cells, width, p.deadline)
        took = effort.spent() - began
        if wider is not None and wider.length < attempt.found.length:
            attempt.found = wider


def by_optimal(p: Problem, lower: int) -> Attempt:
    """IDA*; where a partial tree is stored (and does not hold the state),
    IDA* that hands over to it, which searches D levels less (:mod:`.ida`),
    under the length of a beam's answer found first (its ceiling): the last
    iteration, the one that finds an answer and most of a plain IDA*'s
    time, is then searched only where the beam's answer is not optimal."""
    eg = p.guide.endgame
    partial = eg is not None and not eg.complete and int(eg.depth(p.cells[None])[0]) < 0
    if partial and p.guide.has_table:
        ceiling, _ = beam_search(p.guide, p.cells, p.width, p.deadline)
        if ceiling is not None:
            found, lower, timed_out = ida_to_tree(p.guide, p.cells, p.deadline, lower, upper=ceiling.length)
            if found is not None:
                return Attempt(found, "optimal", lower, timed_out)
            return Attempt(
                ceiling, "optimal" if lower >= ceiling.length else "beam (optimal timed out)", lower, timed_out
            )
    found, lower, timed_out = (ida_to_tree if partial else ida_star)(p.guide, p.cells, p.deadline, lower)
    if found is not None:
        return Attempt(found, "optimal", lower, timed_out)
    # still give the best answer we can, marked as such
    found, _ = beam_search(p.guide, p.cells, p.width, effort.spent() + RESCUE)
    return Attempt(found, "beam (optimal timed out)", lower, timed_out, [(p.cells, [])])


def by_phases(p: Problem, lower: int) -> Attempt:
    """8x8 three and four colours through coarser colourings (:mod:`.phases`).
    While budget is left, other colours gather first and second
    (:func:`phase_orders`); the shortest whole way is kept, and each run's
    first phase may raise the lower bound. Runs that gather the same colour
    first share that phase, and once one run has an answer the others stop
    where they cannot beat it, so more of them fit the limit. Until some
    run finishes, ``FINISH_SHARE`` of the budget is kept back and a run
    starts only where the cost of the costliest so far is left; when none
    finishes, the cell exchanges complete the run that got furthest.
    The budget every order leaves goes to the last phase again, wider
    (``AGAIN_WIDTH``; where ``AGAIN_NODES`` says what a unit of width
    costs, as wide as the budget left allows), in one beam from every
    run's starts (:func:`.phases.last_phase_again`). Where ``AGAIN_SHARE``
    keeps a share of the budget for that beam (four colours), the runs
    after the first answer stop where their last phase would start: their
    starts join that beam, which splits the merged colours in fewer moves
    than each run's narrow one."""
    if p.coarse is None:
        return by_beam(p, lower)
    c = p.puzzle.c
    finish = FINISH_SHARE * p.deadline  # the meter starts at 0 with each state
    kept = AGAIN_SHARE.get(c, 0.0) * p.deadline  # with an answer, kept for the last phase again
    best, furthest, reached, chains = None, None, [], []
    firsts: dict = {}  # each first phase's result, by its colour, shared by the orders that begin with it
    took = {False: 0.0, True: 0.0}  # a run's cost, by whether its first colour was gathered before
    assert p.store is not None, "phases run on a coarser grid's stored tree"
    for order in phase_orders(p.puzzle):
        again = int(np.flatnonzero(order == 0)[0]) in firsts
        until = p.deadline - (finish if best is None else kept)  # with an answer, no finish is needed
        need = (took[again] or took[False]) if best is None else RUN_AT_LEAST
        if effort.left(until) < need:
            continue  # a later order whose first phase is done may still fit
        began = effort.spent()
        chain = run_phases(
            p.puzzle,
            p.cells,
            p.coarse,
            p.store,
            until,
            order,
            last_meet=p.table is None,
            firsts=firsts,
            shorter=None if best is None else best.length,
            last=best is None or c not in AGAIN_SHARE,
        )
        took[again] = max(took[again], effort.spent() - began)
        lower = max(lower, chain.lower)
        if chain.found is not None and (best is None or chain.found.length < best.length):
            best = chain.found
        if furthest is None or chain.phases_done > furthest.phases_done:
            furthest = chain
        if chain.found is None and chain.phases_done == c - 2:  # stalled in the last phase
            reached += chain.reached
        chains.append(chain)
    width, left = AGAIN_WIDTH.get(c), effort.left(p.deadline)
    if best is not None and width and left >= AGAIN_AT_LEAST:
        # the budget left: the last phase again, wider, from every run's starts at once
        if c in AGAIN_NODES:  # as wide as the budget left allows
            width = max(width, int(AGAIN_FILL * left / AGAIN_NODES[c]))
        found = last_phase_again(p.puzzle, p.cells, chains, p.coarse, p.deadline, width, best.length)
        if found is not None and found.length < best.length:
            best = found
    if best is not None:
        return Attempt(best, "phases", lower)
    if p.table is not None and reached:  # the table prices the finish: every run's last stall competes
        start = reached
    else:
        start = furthest.reached if furthest is not None else [(p.cells, [])]
    return Attempt(None, "phases", lower, effort.past(p.deadline), start)


SEARCHES: dict[str, Callable[[Problem, int], Attempt]] = {
    "beam": by_beam,
    "thesis": by_thesis,
    "optimal": by_optimal,
    "meet": by_meet,
    "phases": by_phases,
    "learned": by_learned,
}
#: a solve's method, as a type (the API checks against it)
MethodName = Literal["auto", "beam", "thesis", "optimal", "meet", "phases", "learned"]
METHODS: tuple[str, ...] = get_args(MethodName)
assert METHODS == ("auto", *SEARCHES), "MethodName names the searches, in their order"


def complete(p: Problem, attempt: Attempt) -> tuple[Attempt, str]:
    """Finish from the waypoints the search left (always succeeds): repairs
    through the stored tree (:mod:`.repair`) from the two nearest solved,
    cell exchanges for whatever is left; the shortest whole is kept, then
    cut short through the stored tree. Also says how it finished."""
    n = p.puzzle.n
    starts = attempt.waypoints
    can_repair = p.guide.endgame is not None and p.store is not None
    if can_repair:
        rng = np.random.default_rng(0)
        until = p.deadline - EXCHANGE_RESERVE
        distinct = {x.tobytes(): (x, moves) for x, moves in reversed(starts)}.values()
        starts = sorted(distinct, key=lambda w: (_misplaced(p.puzzle, w[0]), len(w[1])))
        table = p.table
        if table is not None:  # the table prices the nearest: moves so far plus transpositions
            starts = sorted(starts[:PRICED], key=lambda w: len(w[1]) + estimate(p.puzzle, table, w[0]))
        starts = starts[:REPAIR_FROM]
    best: tuple[list[int], bool, bool] | None = None
    for x, moves in starts:
        fixes: list[int] = []
        exchanged = 0
        if can_repair:
            assert p.store is not None  # can_repair says so
            fixes, x, exchanged = repair(p.guide, p.store, x, until, rng, p.table)
        rest = exchange.solve_by_exchanges(p.puzzle, x)
        path = simplify(n, moves + fixes + rest)
        if best is None or len(path) < len(best[0]):
            best = path, bool(fixes), bool(exchanged or rest)
    assert best is not None, "a beam that stalled leaves waypoints to start from"
    path, did_repair, did_exchange = best
    how = " and ".join(["repairs"] * did_repair + ["cell exchanges"] * did_exchange) or "its waypoints"
    method = attempt.method + "+repair" * did_repair + "+exchange" * did_exchange
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
