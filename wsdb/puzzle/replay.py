"""A move sequence played out on a state: every state along the way.

What ``wsdb apply --json`` prints and what the web page animates; moves in
the thesis' notation (§5.1), checked by :meth:`Puzzle.apply`."""
from __future__ import annotations

from dataclasses import asdict, dataclass

from .text import format_state, parse_state


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


def replay(state: str, moves: list[str]) -> Replay:
    """Apply ``moves`` (names such as ``T1``, or several in one string
    split by spaces or commas) to ``state`` one by one."""
    puzzle, cells = parse_state(state)
    names = [m for arg in moves for m in str(arg).replace(",", " ").split()]
    frames = [cells]
    for name in names:
        frames.append(puzzle.apply(frames[-1], [name]))
    states = [format_state(f, puzzle.n) for f in frames]
    return Replay(state=states[0], moves=[m.upper() for m in names], result=states[-1],
                  solved=puzzle.is_solved(frames[-1]), states=states)
