"""Every puzzle wsdb knows, by name (docs/puzzles.md): Wrapslide, the
default, and the other puzzles of the source documents, each a definition
on the same engine (the sliding-tile puzzle, whose moves depend on the
state, for the ranked census only)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal, get_args

import numpy as np

from ..errors import WsdbError, InputError
from .model import Puzzle, wrapslide
from .rotate2x2 import rotate2x2
from .rubeish import rubeish
from .rubiks_slide import rubiks_slide
from .sliding import SlidingPuzzle
from .text import board_rows, board_size, parse_cells, parse_grouped
from .tree_key import TreeKey

#: name -> (constructor (n, goal), allowed board sizes, what it is)
OTHERS: dict[str, tuple[Callable[[int, str | None], Puzzle], range, str]] = {
    "rubeish": (rubeish, range(2, 9), "rows and columns rotate by any amount (Harris 2009)"),
    "rubiks-slide-easy": (
        lambda n, goal: rubiks_slide(n, "easy", goal),
        range(2, 9),
        "R, U and a 90-degree turn of the board",
    ),
    "rubiks-slide-hard": (
        lambda n, goal: rubiks_slide(n, "hard", goal),
        range(2, 9),
        "R, U and a one-step turn of every ring",
    ),
    "rotate2x2": (rotate2x2, range(2, 9), "any 2x2 block turns a quarter (Bosch 2020)"),
}
#: every puzzle's name, as a type (the API's models check against it)
OtherPuzzleName = Literal["rubeish", "rubiks-slide-easy", "rubiks-slide-hard", "rotate2x2", "sliding"]
PuzzleName = Literal["wrapslide", OtherPuzzleName]
NAMES: tuple[str, ...] = get_args(PuzzleName)
assert NAMES == ("wrapslide", *OTHERS, "sliding"), "PuzzleName names the catalog's puzzles, in its order"


@dataclass(frozen=True)
class Kind:
    """What the command line and the API need to know of a puzzle named by
    a user before it has a board: the questions its name answers."""

    name: str
    #: a grid of colours grown from its solved states (Wrapslide): --c, kinds of
    #: root, the solver's searches; the others grow from a goal, solved from their trees
    grid: bool
    #: its boards are picked by rows and columns (--n, --m), with no goal: the sliding puzzle
    rows_only: bool

    @property
    def title(self) -> str:
        """How a picture's title names the puzzle."""
        return "Wrapslide" if self.grid else self.name


def kind(name: str | None) -> Kind:
    """The :class:`Kind` of the puzzle ``name`` (None: Wrapslide, the
    default). A name wsdb does not know is another puzzle's, refused by
    whatever then reads its boards or states, with that reader's message."""
    name = name or "wrapslide"
    return Kind(name, grid=name == "wrapslide", rows_only=name == "sliding")


def get_puzzle(
    name: str,
    n: int,
    c: int | None = None,
    goal: str | None = None,
    m: int | None = None,
    colours_required: bool = False,
) -> Puzzle | SlidingPuzzle:
    """The puzzle ``name`` on an n x n board: Wrapslide with c colours
    (4 unless given; with ``colours_required`` c must be given, as the
    commands that name one tree require), any other with ``goal`` (default:
    distinct pieces in reading order); the sliding puzzle on n rows and m
    columns (default n)."""
    if m is not None and name != "sliding":
        raise InputError(f"--m is the sliding puzzle's number of columns: {name} is played on n x n")
    if name == "sliding":
        if goal is not None or c is not None:
            raise InputError(
                "the sliding puzzle takes --n rows and --m columns: its goal is the tiles "
                "in reading order, the blank last"
            )
        return SlidingPuzzle(n, m if m is not None else n)
    if name == "wrapslide":
        if c is None and colours_required:
            raise InputError("wrapslide needs --c, its number of colours (2-4)")
        if goal is not None:
            raise InputError("--goal is for the other puzzles: Wrapslide's goal is every quadrant monochrome")
        return wrapslide(n, c if c is not None else 4)
    if name not in OTHERS:
        raise InputError(f"unknown puzzle {name!r}: expected one of {', '.join(NAMES)}")
    make, sizes, _ = OTHERS[name]
    if n not in sizes:
        raise InputError(f"{name} on {n}x{n}: expected n from {sizes.start} to {sizes.stop - 1}")
    if c is not None:
        raise InputError(f"--c is Wrapslide's colour count: give {name} a --goal instead")
    if goal is None and n * n > 16:
        raise InputError(
            f"{name} on {n}x{n} has too many cells for distinct pieces: give a --goal with at most 16 distinct symbols"
        )
    return make(n, goal)


def stored_puzzle(tree: TreeKey) -> Puzzle | SlidingPuzzle:
    """The puzzle a stored tree is of, from its key: what a report asks of
    it (its kinds of root, whether it is a subgame) its definition answers."""
    if tree.puzzle == "wrapslide":
        return wrapslide(tree.n, tree.c)
    if tree.puzzle == "sliding":  # n rows of c / n cells
        return SlidingPuzzle(tree.n, tree.c // tree.n)
    return get_puzzle(tree.puzzle, tree.n, goal=tree.root)


def describe(tree: TreeKey) -> tuple[str, str]:
    """(what, command): how a message names the tree, and the `wsdb build`
    command that makes or resumes it."""
    n, c, root = tree.n, tree.c, tree.root
    if tree.puzzle == "wrapslide":
        flag = "" if root == "all" else f" --root {root}"
        return f"{n}x{n} {c}-colour", f"wsdb build --n {n} --c {c}{flag}"
    if tree.puzzle == "sliding":  # n rows of c / n cells, the goal fixed
        return f"sliding {n}x{c // n} {root}", f"wsdb build --puzzle sliding --n {n} --m {c // n}"
    return f"{tree.puzzle} {n}x{n} {root}", f"wsdb build --puzzle {tree.puzzle} --n {n} --goal {root}"


def grouped_states(name: str, states: list[str], goal: str | None = None) -> dict:
    """Any puzzle's states, each checked before any work, grouped by
    board: {board: (puzzle, positions in ``states``, cells (S, N))}.
    Wrapslide's boards are (n, c), read from each state
    (:func:`wsdb.puzzle.text.parse_grouped`); another puzzle's as
    :func:`parse_puzzle_states` reads them."""
    if name == "wrapslide":
        if goal is not None:
            raise InputError("--goal is for the other puzzles: Wrapslide's goal is every quadrant monochrome")
        return parse_grouped(states)
    return parse_puzzle_states(name, states, goal)


def parse_puzzle_states(name: str, states: list[str], goal: str | None = None) -> dict:
    """States of another puzzle (not Wrapslide), grouped by board:
    {board: (puzzle, positions in ``states``, cells (S, N))}, the board
    being n, or (rows, cols) for the sliding puzzle. The board follows from
    each state's cells (the sliding puzzle's: from its rows), or from
    ``goal``; every state is checked (board, symbols, their counts) before
    any work, and an error names the bad state's position when there are
    several."""
    if name == "sliding":
        return _sliding_states(states, goal)
    if name not in OTHERS:
        raise InputError(f"unknown puzzle {name!r} here: expected one of {', '.join(OTHERS)}, sliding")
    groups: dict[int, tuple[Puzzle, list[int], list[np.ndarray]]] = {}

    def board(n: int) -> Puzzle:
        made = get_puzzle(name, n, goal=goal)
        assert isinstance(made, Puzzle)  # the catalog's other puzzles permute cells
        return made

    if goal is not None:
        fixed = board(board_size(goal, "goal"))
        groups[fixed.n] = (fixed, [], [])
    for i, text in enumerate(states):
        try:
            n = fixed.n if goal is not None else board_size(text, "state")
            if n not in groups:
                groups[n] = (board(n), [], [])
            puzzle, positions, cells = groups[n]
            cells.append(parse_cells(puzzle, text))
            positions.append(i)
        except WsdbError as e:
            raise _numbered(states, i, e) from None
    return _stacked(groups)


def _numbered(states: list[str], i: int, e: WsdbError) -> WsdbError:
    """The error of states[i], naming its place when there are several."""
    return type(e)(f"state {i + 1} ({str(states[i]).strip()!r}): {e}" if len(states) > 1 else str(e))


def _stacked(groups: dict) -> dict:
    """{board: (puzzle, positions, list of cells)} as arrays, boards with states only."""
    return {k: (p, np.asarray(pos, np.int64), np.stack(cells)) for k, (p, pos, cells) in groups.items() if pos}


def _sliding_states(states: list[str], goal: str | None) -> dict:
    """:func:`parse_puzzle_states` for the sliding puzzle, whose board is
    read from each state's rows (split by '/'); grouped by (rows, cols)."""
    if goal is not None:
        raise InputError("the sliding puzzle's goal is fixed (tiles in reading order, the blank last): give no --goal")
    groups: dict = {}
    for i, text in enumerate(states):
        try:
            board = board_rows(text)
            if board not in groups:
                groups[board] = (SlidingPuzzle(*board), [], [])
            puzzle, positions, cells = groups[board]
            cells.append(puzzle.parse(text).astype(np.uint8))
            positions.append(i)
        except WsdbError as e:
            raise _numbered(states, i, e) from None
    return _stacked(groups)
