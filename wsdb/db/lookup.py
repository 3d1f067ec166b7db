"""Lookup: optimal distance and an optimal move sequence (thesis §4.2,
Figure 4.7), and the stored facts behind ``wsdb info``.

A state's representative gives its depth; the sequence is rebuilt by walking
parent pointers: from the current concrete state, find a move whose result
lies in the parent's class, apply it, continue from the parent. Batches are
walked in lockstep so each step costs one kernel call and one bulk query.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from ..engine import engine_for, puzzle_engine_for
from ..errors import WsdbError
from ..puzzle import Puzzle, check_grid, parse_grouped
from ..puzzle.text import state_texts
from .reader import open_reader


@dataclass
class Answer:
    """The lookup of one state. ``distance`` is None when the state lies
    beyond a partial tree; then ``more_than`` is the deepest stored level."""

    n: int
    c: int
    state: str
    canonical: str
    key: int
    distance: int | None
    moves: list[str] | None
    more_than: int | None = None
    puzzle: str = "wrapslide"

    def to_dict(self) -> dict:
        return asdict(self)


def lookup(state: str, db=None, puzzle: str = "wrapslide", goal: str | None = None) -> Answer:
    """Optimal distance and move sequence of one state, from the database;
    for another puzzle (docs/puzzles.md), from its tree grown from ``goal``
    (default: distinct pieces)."""
    return lookup_many([state], db=db, puzzle=puzzle, goal=goal)[0]


def lookup_many(states: list[str], db=None, store=None, puzzle: str = "wrapslide",
                goal: str | None = None) -> list[Answer]:
    """Look up many states (any mix of grids); answers come in input order.
    Every state is parsed before anything is read, so bad input fails fast.
    A SQLite file is read through :mod:`.reader` (no SQLAlchemy to load),
    anything else through the store."""
    if puzzle == "wrapslide":
        if goal is not None:
            raise WsdbError("--goal is for the other puzzles: Wrapslide's goal is every quadrant monochrome")
        groups = parse_grouped(states)
    else:
        from ..puzzle.catalog import parse_puzzle_states

        groups = parse_puzzle_states(puzzle, states, goal)
    opened = store is None
    store = store or open_reader(db) or _store(db)
    answers: list[Answer | None] = [None] * len(states)
    try:
        for puzzle, positions, cells in groups.values():
            for i, ans in zip(positions.tolist(), lookup_grid(store, puzzle, cells)):
                answers[i] = ans
    finally:
        if opened:
            store.close()
    return answers


def _store(db):
    from .store import Store

    return Store.open(db)


def lookup_grid(store, puzzle: Puzzle, cells: np.ndarray) -> list[Answer]:
    """Look up parsed states (S, N) of one grid; the solver's hand-over uses
    this for the state where its search met the stored tree. ``store`` is a
    :class:`~wsdb.db.store.Store` or a :class:`~wsdb.db.reader.Reader`."""
    n, c, name = puzzle.n, puzzle.c, puzzle.name
    tree = dict(root=tree_root(puzzle), puzzle=name)
    build = store.require_build(n, c, **tree)
    eng = engine_for(n, c, len(cells)) if name == "wrapslide" else puzzle_engine_for(puzzle, len(cells))
    layout = eng.layout
    raw = eng.encode(cells)
    reps = eng.canonical(raw)
    found, depth, parents = store.fetch(n, c, layout, reps, **tree)
    if build["complete"] and not found.all() and not puzzle.every_arrangement:
        # every arrangement of Wrapslide's colours is a state; another puzzle may reach only some
        bad = int(np.argmin(found))
        raise WsdbError(f"state {state_texts(puzzle, cells[bad:bad + 1])[0]!r} cannot be reached from the goal "
                        f"{puzzle.goal} by {name}'s moves (its complete tree holds every reachable state, "
                        f"{build['states']:,}): expected a reachable state")
    if build["complete"] and not found.all():
        raise WsdbError(f"{store.label}: a state is missing from the complete {puzzle.label} "
                        "database; it is damaged, run `wsdb verify` and rebuild with --force")
    steps = np.full((len(cells), max(int(depth.max(initial=0)), 0)), -1, dtype=np.int64)
    active = np.flatnonzero(found & (depth > 0))
    cur, target = raw.copy(), parents
    step = 0
    while active.size:
        mv, nxt = eng.step(cur[active], target[active])
        if (mv < 0).any() or step >= steps.shape[1]:
            raise WsdbError(f"{store.label}: a stored parent is not one move away; the database is "
                            "damaged, run `wsdb verify` and rebuild with --force")
        cur[active] = nxt
        steps[active, step] = mv
        _, d, p = store.fetch(n, c, layout, target[active], **tree)
        target[active] = p
        active = active[d > 0]
        step += 1
    names = puzzle.move_names
    deepest = build["height"]
    return [
        Answer(n, c, text, canon, key, d, [names[m] for m in row[:d]], None, name) if ok else
        Answer(n, c, text, canon, key, None, None, deepest, name)
        for text, canon, key, ok, d, row in zip(
            state_texts(puzzle, cells), state_texts(puzzle, eng.decode(reps)), layout.to_ints(reps),
            found.tolist(), depth.tolist(), steps.tolist())
    ]


def tree_root(puzzle: Puzzle) -> str:
    """The ``root`` a puzzle's stored tree is filed under: 'all' (every
    solved state) for a puzzle with kinds of root (Wrapslide), else its goal."""
    return "all" if puzzle.roots else puzzle.goal


def stored_builds(db=None) -> list[dict]:
    """Every build stored in the database (the ``builds`` rows)."""
    return _store(db).build_rows()


def stored_levels(n: int, c: int, db=None, root: str = "all") -> list[dict]:
    """Classes and states per depth of one stored build."""
    check_grid(n, c)
    store = _store(db)
    store.require_build(n, c, root)
    return store.level_rows(n, c, root)
