"""Every puzzle wsdb knows, by name (docs/puzzles.md): Wrapslide, the
default, and the other puzzles of the source documents, each a definition
on the same engine (the sliding-tile puzzle, whose moves depend on the
state, for the ranked census only)."""
from __future__ import annotations

from typing import Callable

from ..errors import WsdbError
from .model import Puzzle, wrapslide
from .rotate2x2 import rotate2x2
from .rubeish import rubeish
from .rubiks_slide import rubiks_slide
from .sliding import SlidingPuzzle

#: name -> (constructor (n, goal), allowed board sizes, what it is)
OTHERS: dict[str, tuple[Callable[[int, str | None], Puzzle], range, str]] = {
    "rubeish": (rubeish, range(2, 9),
                "rows and columns rotate by any amount (Harris 2009)"),
    "rubiks-slide-easy": (lambda n, goal: rubiks_slide(n, "easy", goal), range(2, 9),
                          "R, U and a 90-degree turn of the board"),
    "rubiks-slide-hard": (lambda n, goal: rubiks_slide(n, "hard", goal), range(2, 9),
                          "R, U and a one-step turn of every ring"),
    "rotate2x2": (rotate2x2, range(2, 9),
                  "any 2x2 block turns a quarter (Bosch 2020)"),
}
NAMES = ("wrapslide",) + tuple(OTHERS) + ("sliding",)


def get_puzzle(name: str, n: int, c: int | None = None, goal: str | None = None,
               m: int | None = None) -> Puzzle | SlidingPuzzle:
    """The puzzle ``name`` on an n x n board: Wrapslide with c colours, any
    other with ``goal`` (default: distinct pieces in reading order); the
    sliding puzzle on n rows and m columns (default n)."""
    if m is not None and name != "sliding":
        raise WsdbError(f"--m is the sliding puzzle's number of columns: {name} is played on n x n")
    if name == "sliding":
        if goal is not None or c is not None:
            raise WsdbError("the sliding puzzle takes --n rows and --m columns: its goal is the tiles "
                            "in reading order, the blank last")
        return SlidingPuzzle(n, m if m is not None else n)
    if name == "wrapslide":
        if goal is not None:
            raise WsdbError("--goal is for the other puzzles: Wrapslide's goal is every quadrant monochrome")
        return wrapslide(n, c if c is not None else 4)
    if name not in OTHERS:
        raise WsdbError(f"unknown puzzle {name!r}: expected one of {', '.join(NAMES)}")
    make, sizes, _ = OTHERS[name]
    if n not in sizes:
        raise WsdbError(f"{name} on {n}x{n}: expected n from {sizes.start} to {sizes.stop - 1}")
    if c is not None:
        raise WsdbError(f"--c is Wrapslide's colour count: give {name} a --goal instead")
    if goal is None and n * n > 16:
        raise WsdbError(f"{name} on {n}x{n} has too many cells for distinct pieces: give a --goal "
                        "with at most 16 distinct symbols")
    return make(n, goal)
