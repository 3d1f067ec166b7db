"""A move sequence played out on a state: every state along the way.

What ``wsdb apply --json`` prints and what the web page animates; moves in
the thesis' notation (§5.1), checked by :meth:`Puzzle.apply`."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from .catalog import kind
from .text import format_state, parse_state, state_texts


@dataclass
class Replay:
    """``state`` after ``moves``: ``states[i]`` is the grid after the first
    i moves (``states[0]`` the start, ``states[-1]`` the ``result``)."""

    state: str
    moves: list[str]
    result: str
    solved: bool
    states: list[str]

    def to_dict(self) -> dict:
        return asdict(self)


def replay(state: str, moves: list[str], puzzle: str = "wrapslide", goal: str | None = None) -> Replay:
    """Apply ``moves`` (names such as ``T1``, or several in one string
    split by spaces or commas) to ``state`` one by one; another puzzle's
    state (``puzzle``, with its ``goal``) in that puzzle's notation."""
    names = [m for arg in moves for m in str(arg).replace(",", " ").split()]
    if not kind(puzzle).grid:
        return _replay_other(state, names, puzzle, goal)
    grid, cells = parse_state(state)
    frames = [cells]
    for name in names:
        frames.append(grid.apply(frames[-1], [name]))
    states = [format_state(f, grid.n) for f in frames]
    return Replay(
        state=states[0],
        moves=[m.upper() for m in names],
        result=states[-1],
        solved=grid.is_solved(frames[-1]),
        states=states,
    )


def _replay_other(state: str, names: list[str], name: str, goal: str | None) -> Replay:
    from ..errors import InputError
    from .catalog import parse_puzzle_states

    ((puzzle, _, cells),) = parse_puzzle_states(name, [state], goal).values()
    frames = [cells[0]]
    for move in names:
        if puzzle.ranked_only:  # moves that depend on the state: a tile slides into the blank
            if move not in puzzle.move_names:
                raise InputError(f"unknown move {move!r} for sliding: expected one of {' '.join(puzzle.move_names)}")
            after, ok = puzzle.slide(frames[-1][None], puzzle.move_names.index(move))
            if not ok[0]:
                raise InputError(f"move {move} after {len(frames) - 1} moves: no tile on that side of the blank")
            frames.append(after[0])
        else:
            frames.append(puzzle.apply(frames[-1], [move]))
    states = state_texts(puzzle, np.stack(frames))
    return Replay(state=states[0], moves=names, result=states[-1], solved=states[-1] == puzzle.goal, states=states)
