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
from ..errors import StateError, DamagedError
from ..puzzle import Puzzle, check_grid
from ..puzzle.catalog import describe, grouped_states
from ..puzzle.text import state_texts
from ..puzzle.tree_key import TreeKey
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


def lookup_many(
    states: list[str], db=None, store=None, puzzle: str = "wrapslide", goal: str | None = None
) -> list[Answer]:
    """Look up many states (any mix of grids); answers come in input order.
    Every state is parsed before anything is read, so bad input fails fast.
    A SQLite file is read through :mod:`.reader` (no SQLAlchemy to load),
    anything else through the store."""
    groups = grouped_states(puzzle, states, goal)
    opened = store is None
    store = store or open_reader(db) or _store(db)
    answers: list[Answer | None] = [None] * len(states)
    try:
        for board, positions, cells in groups.values():  # ``puzzle`` stays the name asked for
            for i, ans in zip(positions.tolist(), lookup_grid(store, board, cells)):
                answers[i] = ans
    finally:
        if opened:
            store.close()
    done = [a for a in answers if a is not None]
    assert len(done) == len(answers), "every state of every board is answered"
    return done


def _store(db):
    from .store import Store

    return Store.open(db)


def lookup_grid(store, puzzle: Puzzle, cells: np.ndarray) -> list[Answer]:
    """Look up parsed states (S, N) of one grid; the solver's hand-over uses
    this for the state where its search met the stored tree. ``store`` is a
    :class:`~wsdb.db.store.Store` or a :class:`~wsdb.db.reader.Reader`.

    Every answer checks itself before it is returned: the walk down the
    parent pointers must meet a stored class one move away at exactly one
    level less at every step, the moves replayed on the state must reach a
    goal in exactly the stored number of moves, a complete tree must hold
    every class asked about, and a state beyond a partial tree must have no
    neighbour inside it. Anything else is damage: :class:`DamagedError`
    naming the build and the first bad row, never a wrong answer."""
    n, c, name = puzzle.n, puzzle.c, puzzle.name
    tree = TreeKey.of(puzzle)
    build = store.require_build(tree)
    # a Wrapslide grid (it has kinds of root) shares the engines of its (n, c)
    eng = engine_for(n, c, len(cells)) if puzzle.roots else puzzle_engine_for(puzzle, len(cells))
    layout = eng.layout

    def damaged(detail: str) -> DamagedError:
        what, command = describe(tree)
        check = command.replace("wsdb build", "wsdb verify", 1) + store.db_option
        return DamagedError(f"{store.label}: the {what} build is damaged: {detail}; run `{check}`")

    source = store
    if build.get("levels"):  # a tree kept as Parquet levels (wsdb build --engine dask)
        try:
            from .levels import ParquetTree

            source = ParquetTree(build["levels"])  # opened once: its files stay in memory for the walk
        except DamagedError as e:
            raise damaged(str(e)) from None

    def fetch(keys):
        try:
            return source.fetch(tree, layout, keys)
        except DamagedError as e:
            raise damaged(str(e)) from None

    raw = eng.encode(cells)
    reps = eng.canonical(raw)
    found, depth, parents = fetch(reps)
    if build["complete"] and not found.all() and not puzzle.every_arrangement:
        # every arrangement of Wrapslide's colours is a state; another puzzle may reach only some
        bad = int(np.argmin(found))
        raise StateError(
            f"state {state_texts(puzzle, cells[bad : bad + 1])[0]!r} cannot be reached from the goal "
            f"{puzzle.goal} by {name}'s moves (its complete tree holds every reachable state, "
            f"{build['states']:,}): expected a reachable state"
        )
    if build["complete"] and not found.all():
        bad = int(np.argmin(found))
        raise damaged(f"class {layout.to_ints(reps[bad : bad + 1])[0]} is missing from the complete tree")
    if not build["complete"] and not found.all():
        _beyond_is_beyond(puzzle, eng, cells[~found], reps[~found], int(build["height"]), fetch, damaged)
    steps = np.full((len(cells), max(int(depth.max(initial=0)), 0)), -1, dtype=np.int64)
    active = np.flatnonzero(found & (depth > 0))
    cur, target, left = raw.copy(), parents.copy(), depth.copy()
    step = 0
    while active.size:
        mv, nxt = eng.step(cur[active], target[active])
        if (mv < 0).any():
            bad = active[int(np.argmax(mv < 0))]
            raise damaged(
                f"class {layout.to_ints(target[bad : bad + 1])[0]}, stored as a parent, is not one move from its child"
            )
        cur[active] = nxt
        steps[active, step] = mv
        ok, d, p = fetch(target[active])
        left[active] -= 1
        wrong = ~ok | (d != left[active])
        if wrong.any():
            i = int(np.argmax(wrong))
            key = layout.to_ints(target[active[i] : active[i] + 1])[0]
            raise damaged(
                f"class {key}, the parent of a class at depth {int(left[active[i]]) + 1}, "
                + (f"has depth {int(d[i])}" if ok[i] else "is missing")
            )
        target[active] = p
        active = active[d > 0]
        step += 1
    _replayed(puzzle, cells, found, depth, steps, reps, layout, damaged)
    names = puzzle.move_names
    deepest = build["height"]
    return [
        Answer(n, c, text, canon, key, d, [names[m] for m in row[:d]], None, name)
        if ok
        else Answer(n, c, text, canon, key, None, None, deepest, name)
        for text, canon, key, ok, d, row in zip(
            state_texts(puzzle, cells),
            state_texts(puzzle, eng.decode(reps)),
            layout.to_ints(reps),
            found.tolist(),
            depth.tolist(),
            steps.tolist(),
        )
    ]


def _replayed(puzzle, cells, found, depth, steps, reps, layout, damaged) -> None:
    """Apply each answer's moves to its state, all states at once: every
    one must end at a goal after exactly its stored number of moves."""
    at = np.flatnonzero(found)
    now = np.ascontiguousarray(cells[at])
    moves = steps[at]
    legal = np.ones(len(at), bool)
    for k in range(steps.shape[1]):
        going = np.flatnonzero(moves[:, k] >= 0)
        if not going.size:
            continue
        if puzzle.ranked_only:  # moves that depend on the state: slide by slide
            for m in np.unique(moves[going, k]):
                rows = going[moves[going, k] == m]
                now[rows], ok = puzzle.slide(now[rows], int(m))
                legal[rows] &= ok
        else:
            now[going] = np.take_along_axis(now[going], puzzle.moves[moves[going, k]], axis=1)
    goals = np.atleast_2d(puzzle.solved)
    solved = (now[:, None, :] == goals[None, :, :]).all(axis=2).any(axis=1)
    counted = (moves >= 0).sum(axis=1) == depth[at]
    bad = ~(solved & counted & legal)
    if bad.any():
        i = at[int(np.argmax(bad))]
        raise damaged(
            f"class {layout.to_ints(reps[i : i + 1])[0]} at depth {int(depth[i])}: its parents' "
            "moves do not reach a goal in that many moves"
        )


def _beyond_is_beyond(puzzle, eng, cells: np.ndarray, reps: np.ndarray, height: int, fetch, damaged) -> None:
    """States a partial tree of ``height`` does not hold are more than
    ``height`` moves away, so no neighbour of theirs is held above its
    deepest level; one that is means a row is missing."""
    moves = len(puzzle.moves)
    kids = eng.canonical(eng.encode(cells[:, puzzle.moves].reshape(len(cells) * moves, -1)))
    ok, d, _ = fetch(kids)
    near = ok & (d < height)
    if near.any():
        i = int(np.argmax(near)) // moves
        raise damaged(
            f"class {eng.layout.to_ints(reps[i : i + 1])[0]} is missing: its neighbour is stored at "
            f"depth {int(d[int(np.argmax(near))])} of a tree that reaches depth {height}"
        )


def stored_builds(db=None) -> list[dict]:
    """Every build stored in the database (the ``builds`` rows)."""
    return _store(db).build_rows()


def stored_levels(n: int, c: int, db=None, root: str = "all") -> list[dict]:
    """Classes and states per depth of one stored build."""
    check_grid(n, c)
    tree = TreeKey.wrapslide(n, c, root)
    store = _store(db)
    store.require_build(tree)
    return store.level_rows(tree)
