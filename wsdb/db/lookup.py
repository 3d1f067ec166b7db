"""Lookup: optimal distance and an optimal move sequence (thesis §4.2,
Figure 4.7), and the stored facts behind ``wsdb info``.

A state's representative gives its depth; the sequence is rebuilt by walking
parent pointers: from the current concrete state, find a move whose result
lies in the parent's class, apply it, continue from the parent. Batches are
walked in lockstep so each step costs one kernel call and one bulk query.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass

import numpy as np

from ..engine import engine_for
from ..errors import WsdbError
from ..puzzle import Puzzle, check_grid, format_state, parse_states
from .store import Store


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

    def to_dict(self) -> dict:
        return asdict(self)


def lookup(state: str, db=None) -> Answer:
    """Optimal distance and move sequence of one state, from the database."""
    return lookup_many([state], db=db)[0]


def lookup_many(states: list[str], db=None, store: Store | None = None) -> list[Answer]:
    """Look up many states (any mix of grids); answers come in input order.
    Every state is parsed before anything is read, so bad input fails fast."""
    parsed = parse_states(states)
    store = store or Store.open(db)
    groups: dict[tuple[int, int], list[int]] = defaultdict(list)
    for i, (puzzle, _) in enumerate(parsed):
        groups[(puzzle.n, puzzle.c)].append(i)
    answers: list[Answer | None] = [None] * len(states)
    for (n, c), idx in groups.items():
        cells = np.stack([parsed[i][1] for i in idx])
        for i, ans in zip(idx, lookup_grid(store, parsed[idx[0]][0], cells)):
            answers[i] = ans
    return answers


def lookup_grid(store: Store, puzzle: Puzzle, cells: np.ndarray) -> list[Answer]:
    """Look up parsed states (S, N) of one grid; the solver's hand-over uses
    this for the state where its search met the stored tree."""
    n, c = puzzle.n, puzzle.c
    build = store.require_build(n, c)
    eng = engine_for(n, c, len(cells))
    layout = eng.layout
    raw = eng.encode(cells)
    reps = eng.canonical(raw)
    found, depth, parents = store.fetch(n, c, layout, reps)
    if build["complete"] and not found.all():
        raise WsdbError(f"{store.label}: a state is missing from the complete {n}x{n} {c}-colour "
                        "database; it is damaged, run `wsdb verify` and rebuild with --force")
    moves: list[list[str]] = [[] for _ in range(len(cells))]
    active = np.flatnonzero(found & (depth > 0))
    cur, target = raw.copy(), parents
    while active.size:
        mv, nxt = eng.step(cur[active], target[active])
        if (mv < 0).any():
            raise WsdbError(f"{store.label}: a stored parent is not one move away; the database is "
                            "damaged, run `wsdb verify` and rebuild with --force")
        cur[active] = nxt
        for i, m in zip(active, mv):
            moves[i].append(puzzle.move_names[m])
        _, d, p = store.fetch(n, c, layout, target[active])
        target[active] = p
        active = active[d > 0]
    deepest = build["height"]
    return [
        Answer(n=n, c=c, state=format_state(cells[i], n),
               canonical=format_state(eng.decode(reps[i])[0], n),
               key=layout.to_int(reps[i]),
               distance=int(depth[i]) if found[i] else None,
               moves=moves[i] if found[i] else None,
               more_than=None if found[i] else deepest)
        for i in range(len(cells))
    ]


def stored_builds(db=None) -> list[dict]:
    """Every build stored in the database (the ``builds`` rows)."""
    return Store.open(db).build_rows()


def stored_levels(n: int, c: int, db=None, root: str = "all") -> list[dict]:
    """Classes and states per depth of one stored build."""
    check_grid(n, c)
    store = Store.open(db)
    store.require_build(n, c, root)
    return store.level_rows(n, c, root)
