"""The other puzzles (docs/puzzles.md) solved with their stored trees.

Their trees are small beside Wrapslide's 6x6 and 8x8 (Rube-ish 3x3:
181,440 classes), so the table is the solver: a state the tree holds is
answered exactly by walking parent pointers (:func:`~wsdb.db.lookup.lookup_grid`);
a state beyond a partial tree by meeting the tree in the middle
(:func:`~wsdb.solver.meet.meet_in_the_middle`), which proves its distance
exactly, or, when the budget (:mod:`.effort`) or the time limit ends the
search, a lower bound of one more than the levels searched plus the tree's
height.
"""

from __future__ import annotations

import time
from typing import Iterator

from ..db.lookup import lookup_grid
from ..db.store import Store
from ..engine import Engine, puzzle_engine
from ..errors import NotBuiltError
from ..puzzle import Puzzle
from ..puzzle.text import state_texts
from ..puzzle.tree_key import TreeKey
from . import effort
from .guide import Guide
from .meet import meet_in_the_middle
from .results import Solution
from .settings import DEFAULT_EFFORT
from .tables import Endgame


def solve_puzzle_states(
    groups: dict,
    db=None,
    time_limit: float | None = None,
    length_only: bool = False,
    store: Store | None = None,
    budget: float = DEFAULT_EFFORT,
) -> Iterator:
    """Solutions (:class:`~wsdb.solver.solve.Solution`) of states of another
    puzzle, in input order, from its stored tree: ``groups`` as
    :func:`wsdb.puzzle.catalog.grouped_states` parses them (every state
    checked before the first answer); the tree must exist."""
    store = store if store is not None else Store.open(db)
    order = sorted((int(i), p, cells[k]) for p, pos, cells in groups.values() for k, i in enumerate(pos))
    for _, p, _ in order:  # refuse a missing tree before any work
        store.require_build(TreeKey.of(p))
    endgames: dict[int, Endgame] = {}

    def answers():
        for _, p, cells in order:
            started = time.perf_counter()
            ans = lookup_grid(store, p, cells[None])[0]
            text = state_texts(p, cells[None])[0]
            if ans.distance is not None:
                moves = None if length_only else ans.moves
                yield Solution(
                    p.n,
                    p.c,
                    text,
                    "table",
                    moves,
                    ans.distance,
                    ans.distance,
                    True,
                    time.perf_counter() - started,
                    exact=ans.distance,
                )
                continue
            if p.n not in endgames:
                endgames[p.n] = _endgame(store, p)
            eg = endgames[p.n]
            with effort.metered(time_limit) as meter:
                found, lower, timed_out = meet_in_the_middle(Guide(p, None, eg), cells, budget)
            if found is None:
                spent = f"{time_limit:g} s" if meter.capped else f"{budget / 1e6:g} M nodes of effort"
                raise NotBuiltError(
                    f"{text}: no sequence found in {spent}; its distance is at least "
                    f"{lower} (the stored tree reaches depth {eg.height}): build the tree deeper "
                    "with --max-depth, or give more --effort"
                )
            moves = None if length_only else [p.move_names[m] for m in found.moves(store, p)]
            yield Solution(
                p.n,
                p.c,
                text,
                "meet",
                moves,
                found.length,
                found.length,
                True,
                time.perf_counter() - started,
                timed_out=timed_out,
                exact=found.length,
                **meter.tally(),
            )

    return answers()


def _endgame(store: Store, p: Puzzle) -> Endgame:
    """The stored partial tree of ``p`` in memory."""
    eng = puzzle_engine(p)
    assert isinstance(eng, Engine)  # a puzzle with cell-permutation moves
    build = store.require_build(TreeKey.of(p))
    keys, depths = store.keys_and_depths(TreeKey.of(p), eng.layout)
    return Endgame.of(eng, keys, depths, int(build["height"]), bool(build["complete"]))
