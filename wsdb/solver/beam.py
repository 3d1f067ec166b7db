"""Beam search guided by database-derived distances (wsdb's default method).

Level by level from the state to solve: expand every beam state by every
(pruned) move, drop states seen before, keep the ``width`` children with the
smallest guide. With a gather table (:mod:`wsdb.solver.tables`) the guide is the sum
of the colours' exact gather distances, ties broken by the largest, which is
also a proven lower bound. Without one (8x8) the same distances come from
the partial two-colour tree where the guide has it (``Guide.gathers``:
exact up to the tree's height, capped beyond), else the misfit count.

Whenever a beam state's class is stored in the tree (the endgame table),
the rest of the way is known and optimal: the thesis' hand-over (§4.2), but
tested for every beam state at every level rather than only when stuck
(where the guide is a proven bound, only the states it allows: one whose
largest gather distance exceeds the tree's height cannot be in it).
The search stops when no continuation can beat the best sequence found.
"""

from __future__ import annotations

import numpy as np

from . import effort
from .guide import Found, Guide
from .kernels import allowed_children, make_children, pick_children, score_children
from .settings import ESTIMATE_STEPS, HANDOVER_STATES


def beam_search(
    guide: Guide,
    start: np.ndarray,
    width: int,
    deadline: float,
    max_levels: int = 200,
    patience: int = 2,
    stall: int = 8,
    keep: int = 4,
) -> tuple[Found | None, list[tuple[np.ndarray, list[int]]]]:
    """Search from ``start``. Returns (best solution found or None, waypoints):
    the ``keep`` best states of every level with the moves to them, for a
    fallback to finish from when the search does not reach solved. After the first
    solution the search goes on ``patience`` levels looking for a shorter one;
    it gives up when the best guide has not improved for ``stall`` levels."""
    found, waypoints = beam_ways(guide, start, width, deadline, 1, max_levels, patience, stall, keep)
    return (found[0] if found else None), waypoints


def beam_ways(
    guide: Guide,
    start: np.ndarray,
    width: int,
    deadline: float,
    ways: int,
    max_levels: int = 200,
    patience: int = 2,
    stall: int = 8,
    keep: int = 4,
    prefixes: list[list[int]] | None = None,
) -> tuple[list[Found], list[tuple[np.ndarray, list[int]]]]:
    """As :func:`beam_search`, but up to ``ways`` solutions of the best
    length found: the beam states handed over to the tree at that length,
    each its own way to solved (:mod:`.phases` starts the next phase from
    each). ``start`` may be several states, one row each, reached by the
    moves ``prefixes`` from a state of their own: the beam then starts from
    all of them, each joining at the level of its prefix's length (the
    shortest at the first), keeps the children of the most promising, and
    every answer and waypoint begins with its start's prefix."""
    st = guide.tables
    starts = np.atleast_2d(start)
    prefixes = prefixes or [[] for _ in starts]
    depths = np.array([len(pre) for pre in prefixes])
    before = int(depths.min())  # moves made before the beam's first level
    any_move = st.blocked.shape[0] - 1  # the row of a start: any move may follow
    joined = {0: (0, np.flatnonzero(depths == before))}  # level: (first row, starts) of the starts joining it
    beam = starts[joined[0][1]].copy()
    last = np.full(len(beam), any_move, np.int64)
    seen = prev = np.zeros(0, np.uint64)
    history: list[tuple[np.ndarray, np.ndarray]] = []  # (parent row, move) per level
    best: Found | None = None
    alike: list[Found] = []  # solutions as short as best, best first
    eg = guide.endgame
    found_at = 0
    nm = len(st.moves)
    best_key, best_at = None, 0
    # hmax is then a proven lower bound
    bounded = guide.value is None and (guide.has_table or guide.gathers is not None)
    waypoints = [(x.copy(), list(pre)) for x, pre in zip(starts, prefixes)]
    handover = HANDOVER_STATES.get((guide.n, guide.c), width)

    def path_to(level: int, row: int) -> list[int]:
        out: list[int] = []
        for lvl in range(level, -1, -1):
            if lvl in joined and row >= joined[lvl][0]:  # a start that joined at this level
                first, ids = joined[lvl]
                return prefixes[int(ids[row - first])] + out[::-1]
            parents, mv = history[lvl - 1]
            out.append(int(mv[row]))
            row = int(parents[row])
        raise AssertionError("unreachable: level 0 holds only starts")

    for level in range(1, max_levels + 1):
        if best is not None and (level >= best.length - before or level > found_at + patience):
            break
        if effort.past(deadline):
            break
        # children that cannot beat the best answer are left out (key -1)
        cut = best.length - before - level if best is not None else np.iinfo(np.int64).max
        if guide.value is not None:  # the learned estimate scores the children
            hmax, key = allowed_children(last, st)
            _learned_scores(guide, beam, hmax, key)
        elif guide.gathers is not None:  # the gather distances score the children
            hmax, key = allowed_children(last, st)
            _gather_scores(guide, beam, hmax, key, cut)
        else:
            hmax, key = score_children(beam, last, st, cut)
        effort.charge("child", len(hmax))
        rows, hashes = pick_children(key, beam, st, seen, width)
        if rows.size == 0:
            break
        key = key[rows]
        beam = make_children(beam, st.moves, rows)
        history.append((rows // nm, rows % nm))
        last = st.family[rows % nm]
        # states of the last two levels: enough to stop the beam walking back
        seen = np.concatenate([prev, hashes])
        prev = hashes
        waypoints += [(beam[i].copy(), path_to(level, i)) for i in range(min(keep, len(beam)))]
        if best_key is None or key[0] < best_key:
            best_key, best_at = key[0], level
        elif best is None and level - best_at >= stall:
            break
        if key[0] == 0:  # all gather distances (or the misfit count) zero: solved
            best, found_at = Found(path_to(level, 0), beam[0].copy(), 0), level
            alike = [best]
            break
        if eg is not None:
            # a state whose largest gather distance exceeds the tree's height is not in it:
            # in the first levels that is most of the beam, and canonicalising is costly;
            # the best states of a level are where the shortest hand-over is (settings)
            near = (
                np.flatnonzero(hmax[rows[:handover]] <= eg.height) if bounded else np.arange(min(len(beam), handover))
            )
            d = np.full(len(beam), -1, np.int64)
            d[near] = eg.depth(beam[near])
            hit = np.flatnonzero(d >= 0)
            if hit.size:
                shortest = hit[d[hit] == d[hit].min()]
                cand = [Found(path_to(level, i), beam[i].copy(), int(d[i])) for i in shortest[:ways]]
                if best is None or cand[0].length < best.length:
                    best, found_at, alike = cand[0], level, cand
                elif cand[0].length == best.length:
                    alike += cand[: ways - len(alike)]
        ids = np.flatnonzero(depths == before + level)
        if ids.size:  # starts whose prefixes are this level's length join the beam
            joined[level] = len(beam), ids
            beam = np.concatenate([beam, starts[ids]])
            last = np.concatenate([last, np.full(ids.size, any_move, np.int64)])
    return alike, waypoints


def _gather_scores(guide: Guide, beam: np.ndarray, hmax: np.ndarray, key: np.ndarray, cut: int) -> None:
    """Score the children that are not pruned (hmax 0; in place) by their
    gather distances from the two-colour tree."""
    rows = np.flatnonzero(hmax >= 0)
    hmax[rows], hsum = guide.child_gather_distances(beam, rows)
    key[rows] = np.where(hmax[rows] < cut, hsum * 64 + hmax[rows], -1)  # as kernels.child_key


def _learned_scores(guide: Guide, beam: np.ndarray, hmax: np.ndarray, key: np.ndarray) -> None:
    """Score the children the pruning allows (hmax 0; in place) by the
    learned estimate, in steps of 1/``ESTIMATE_STEPS`` of a move (the keys
    the beam's counting sort orders); a solved child scores 0."""
    assert guide.value is not None, "a learned beam has a network"
    rows = np.flatnonzero(hmax >= 0)
    kids = make_children(beam, guide.tables.moves, rows)
    effort.charge("estimate", len(rows))
    effort.charge("estimate_kmac", len(rows), guide.value.macs / 1000)
    v = guide.value.values(kids)
    steps = np.rint(np.clip(v, 0.0, 1000.0) * ESTIMATE_STEPS).astype(np.int64)
    key[rows] = np.where(guide.puzzle.solved_rows(kids), 0, 1 + steps)
