"""Meet in the middle with the stored partial tree: exact distances, or
proven lower bounds, for states the tree does not hold.

The tree of height D holds every class within D moves of solved. Search
forward from the state's class, breadth first over classes. If level j is
the first that meets the tree, the distance is exactly j + D: an optimal
path of length L passes, L - D moves in, a class at distance D, so L - D
>= j, and every class met at level j is within D of solved. If levels
1..j are exhausted without meeting it, the distance is more than j + D:
a lower bound no gather table gives on 8x8.

Levels are expanded in chunks, each chunk looked up in the tree at once,
so a meeting is seen as soon as it is made and the budget
(:mod:`.effort`) is checked often; the last level needs no deduplication and is only streamed.
"""

from __future__ import annotations

import numpy as np

from ..engine.keys import member, sortable
from . import effort
from .guide import Found, Guide
from .settings import MEET_CHUNK, MEET_KEEP


def meet_in_the_middle(
    guide: Guide, start: np.ndarray, deadline: float, keep_children: int = MEET_KEEP
) -> tuple[Found | None, int, bool]:
    """(exact solution or None, proven lower bound, budget ran out) for ``start``,
    whose class the tree does not hold. Needs ``guide.endgame``. The last
    level searched is the first with more than ``keep_children`` children."""
    found, lower, ran_out = meet_ways(guide, start, deadline, keep_children)
    return (found[0] if found else None), lower, ran_out


def meet_ways(
    guide: Guide, start: np.ndarray, deadline: float, keep_children: int = MEET_KEEP, ways: int = 1
) -> tuple[list[Found], int, bool]:
    """As :func:`meet_in_the_middle`, but up to ``ways`` optimal solutions
    (every one of the same, exact length): the meetings of the first level
    that meets the tree, its later chunks searched while fewer are found and
    budget is left. Each passes through another class at the meeting, so
    they mostly end on different solved states of a coarser grid, where the
    next phase may be shorter (:mod:`.phases`)."""
    eg = guide.tree
    eng, d = eg.eng, eg.height
    nm = eng.nmoves
    levels = [eng.canonical(eng.encode(start[None]))]  # classes per level, in discovery order
    parents: list[np.ndarray] = [np.zeros(1, np.int64)]  # row of each class's parent in the level before
    seen = [np.sort(sortable(levels[0]))]  # the same levels, sorted, for deduplication
    lower = d + 1
    share = effort.key_share(eng.layout.words)
    j = 0
    while True:
        j += 1
        frontier = levels[-1]
        keep = len(frontier) * nm <= keep_children  # else stream this level: the last one
        kids_all: list[np.ndarray] = []
        rows_all: list[np.ndarray] = []
        found: list[Found] = []
        for lo in range(0, len(frontier), MEET_CHUNK):
            if effort.past(deadline):
                return found, (found[0].length if found else lower), not found
            kids = eng.expand(frontier[lo : lo + MEET_CHUNK])
            effort.charge("expand", len(kids), share)
            depth = eg.lookup(kids)
            hit = np.flatnonzero(depth >= 0)
            if hit.size:
                # level j is the first to meet, so every meeting is at the same depth: optimal
                hit = hit[depth[hit] == depth[hit].min()]
                _, first = np.unique(sortable(kids[hit]), return_index=True)  # a class two moves reach: once
                for r in hit[np.sort(first)][: ways - len(found)]:
                    way = _path(eng, start, levels, parents, lo + r // nm, kids[r], int(depth[r]))
                    if all(way.path != other.path for other in found):
                        found.append(way)
                if len(found) == ways:
                    break
            if keep and not found:
                kids_all.append(kids)
                rows_all.append(lo + np.arange(len(kids)) // nm)
        if found:
            return found, found[0].length, False
        lower = j + d + 1  # level j exhausted: nothing within j + D
        if not keep:
            return [], lower, False
        kids = np.concatenate(kids_all)
        effort.charge("dedup", len(kids), share)
        view = sortable(kids)
        uniq, first = np.unique(view, return_index=True)
        fresh = np.ones(len(uniq), bool)
        for old in seen[-2:]:  # a class's neighbours lie one level either side
            fresh &= ~member(old, uniq)[0]
        first = first[fresh]
        if len(first) == 0:
            return [], lower, False
        levels.append(kids[first])
        parents.append(np.concatenate(rows_all)[first])
        seen.append(uniq[fresh])


def _path(eng, start, levels, parents, row, meet_key, rest: int) -> Found:
    """Concrete moves from ``start`` through the chain of classes that ends
    at ``meet_key`` (a child of ``levels[-1][row]``), as a lookup walks
    parent pointers (thesis §4.2, Figure 4.7)."""
    chain = [meet_key]
    for lvl in range(len(levels) - 1, 0, -1):
        chain.append(levels[lvl][row])
        row = int(parents[lvl][row])
    chain.reverse()
    raw = eng.encode(start[None])
    moves = []
    for target in chain:
        m, raw = eng.step(raw, target[None])
        if m[0] < 0:
            raise RuntimeError("meet in the middle: a class chain that no move follows")
        moves.append(int(m[0]))
    return Found(moves, eng.decode(raw)[0], rest)


def solve_near(guide: Guide, store, v: np.ndarray, deadline: float, children: int) -> list[int] | None:
    """A shortest sequence solving ``v`` when it is within the stored tree
    plus the forward levels ``children`` allows; None otherwise."""
    depth = int(guide.tree.depth(v[None])[0])
    found = Found([], v, depth) if depth >= 0 else meet_in_the_middle(guide, v, deadline, children)[0]
    return None if found is None else found.moves(store, guide.puzzle, guide.endgame)
