"""Wrapslide as data: cells, moves as cell permutations, symmetry maps, goal
(thesis §1.1 and §5.1; docs/rules.md). Pure numpy, no numba, no SQL.

A :class:`Puzzle` holds everything the generic engine (:mod:`wsdb.engine`)
and the solvers need; another puzzle is added by writing another constructor
that fills the same fields.

Conventions: cells are numbered row-major, ``i = r * n + j``; a permutation
``p`` acts as ``new[i] = old[p[i]]``; colours inside the library are
0..c-1 (printed as 1..c), the last colour being the one with (5-c)q cells.
"""

from __future__ import annotations

import itertools
import math
import numbers
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Iterator

import numpy as np

from ..errors import InputError
from . import moves as mv
from .symmetry import dihedral_maps, geometric_maps, interchangeable_colours

MAX_N = 16


@dataclass(frozen=True, eq=False)
class Puzzle:
    """One puzzle on an n x n board as data for the generic engine: a
    Wrapslide grid (:func:`wrapslide`) or another puzzle's definition
    (:mod:`wsdb.puzzle.catalog`)."""

    n: int
    c: int  # number of distinct labels (colours)
    counts: tuple[int, ...]  # cells per colour, colour 0 first
    moves: np.ndarray  # (M, n*n) cell permutations
    move_names: tuple[str, ...]  # thesis notation, same order as moves
    move_family: np.ndarray  # (M,) family of each move (rows of ``blocked``)
    move_inverse: np.ndarray  # (M,) the move undoing each move
    blocked: np.ndarray  # (F+1, F) pruning table, last row the start
    maps: np.ndarray  # (32, n*n) geometric symmetry maps
    interchangeable: int  # colours 0..k-1 may be permuted freely
    map_base: np.ndarray | None  # maps = these, each then a half-grid translation
    # (None: no such structure; the engine uses every map)
    solved: np.ndarray = field(repr=False)  # (s, n*n) every solved state
    name: str = "wrapslide"  # the puzzle's name (wsdb census --puzzle)
    symbols: str = ""  # how labels 0..c-1 are written ("" -> digits 1..c)
    goal: str = ""  # another puzzle: its goal as text
    #: the kinds of level 0 a tree may grow from (Wrapslide: every solved state,
    #: or the thesis' single root; another puzzle: its goal alone, so none to choose)
    roots: tuple[str, ...] = ()
    ranked_only: bool = False  # counted and stored only through the ranked table
    #: every arrangement of the labels is a state (Wrapslide, thesis (3.1)); another
    #: puzzle's moves may reach only some, so its random states come from its tree
    every_arrangement: bool = False
    #: a coarser grid's name where colours are merged (:func:`merged`), else ""
    title: str = ""

    @property
    def board(self) -> str:
        """The board and what it holds, as a picture's panel names it."""
        return f"{self.n}x{self.n}, {self.c} " + ("colours" if self.roots else "labels")

    @property
    def subgame(self) -> bool:
        """A coloured variant of a puzzle of distinct pieces (the Rubik's Slide
        thesis' "subgame"): its goal repeats labels, so the largest distance
        from the goal need not be the diameter."""
        return bool(self.goal) and self.c < self.ncells

    @property
    def ncells(self) -> int:
        return self.n * self.n

    @property
    def cols(self) -> int:
        """Cells a row: the board is n x n."""
        return self.n

    @property
    def label(self) -> str:
        if self.title:
            return self.title
        if self.roots:  # a Wrapslide grid: its size and colours
            return f"{self.n}x{self.n} {self.c}-colour"
        return f"{self.name} {self.n}x{self.n} {self.goal}"

    @property
    def states(self) -> int:
        """Number of arrangements of the labels, the multinomial
        n^2! / prod(count!); for Wrapslide every one is a state,
        n^2! / (q!^(c-1) ((5-c)q)!) (thesis (3.1)). Other puzzles may reach
        fewer (their tree says how many)."""
        total = math.factorial(self.ncells)
        for k in self.counts:
            total //= math.factorial(k)
        return total

    @property
    def arrangements(self) -> int:
        """Every arrangement of the labels, reachable or not: :attr:`states`
        (a puzzle of fixed cell permutations counts them all)."""
        return self.states

    @property
    def group_order(self) -> int:
        """Geometric maps times colour permutations (768 for 4x4 four colours)."""
        return len(self.maps) * math.factorial(self.interchangeable)

    def move_index(self, name: str) -> int:
        """Index of a move given by name (Wrapslide: thesis notation, ``T1``, ``r3``...)."""
        if self.roots:  # a Wrapslide grid: the thesis' notation, any case
            return mv.index(self.n, name)
        if name.strip() in self.move_names:
            return self.move_names.index(name.strip())
        raise InputError(f"unknown move {name!r} for {self.name}: expected one of {' '.join(self.move_names)}")

    def apply(self, cells: np.ndarray, moves) -> np.ndarray:
        """Apply moves (indices or names) to a cell array, left to right."""
        out = np.asarray(cells)
        for m in moves:
            idx = self.move_index(m) if isinstance(m, str) else int(m)
            out = out[..., self.moves[idx]]
        return out

    def is_solved(self, cells: np.ndarray) -> bool:
        """True when the state is one of the solved states."""
        return bool((self.solved == np.asarray(cells).reshape(-1)).all(axis=1).any())

    def solved_rows(self, states: np.ndarray) -> np.ndarray:
        """Whether each row of ``states`` (count, N) is a solved state."""
        row = np.dtype((np.void, self.ncells))
        cells = np.ascontiguousarray(states, dtype=np.uint8).view(row).ravel()
        return np.isin(cells, np.ascontiguousarray(self.solved, dtype=np.uint8).view(row).ravel())

    def single_root(self) -> np.ndarray:
        """The thesis' one root: colours in quadrants TL, TR, BL, BR with the
        double colour (c=3) side by side on the bottom row."""
        quads = {2: (0, 1, 1, 1), 3: (0, 1, 2, 2), 4: (0, 1, 2, 3)}[self.c]
        return _quadrant_state(self.n, quads)


def _quadrant_state(n: int, quads) -> np.ndarray:
    h = n // 2
    r, j = np.divmod(np.arange(n * n), n)
    return np.asarray(quads, dtype=np.uint8)[(r >= h) * 2 + (j >= h)]


def check_grid(n: int, c: int) -> None:
    """Refuse grid sizes and colour counts outside the game's rules."""
    if not (isinstance(n, numbers.Integral) and n >= 2 and n % 2 == 0 and n <= MAX_N):
        raise InputError(
            f"grid size n={n} is not allowed: expected an even n from 2 to {MAX_N} (4, 6 and 8 are the game's sizes)"
        )
    if c not in (2, 3, 4):
        raise InputError(f"colour count c={c} is not allowed: expected 2, 3 or 4")


@lru_cache(maxsize=None)
def wrapslide(n: int, c: int) -> Puzzle:
    """The n x n Wrapslide grid with c colours: colours 1..c-1 fill one
    quadrant each, colour c the rest; solved when every quadrant is
    monochrome, whichever colour sits where."""
    check_grid(n, c)
    q = (n // 2) ** 2
    counts = tuple([q] * (c - 1) + [(5 - c) * q])
    perms, names = mv.slide_moves(n)
    quad_counts = [1] * (c - 1) + [5 - c]
    solved = [
        _quadrant_state(n, quads)
        for quads in itertools.product(range(c), repeat=4)
        if [quads.count(col) for col in range(c)] == quad_counts
    ]
    return Puzzle(
        n=n,
        c=c,
        counts=counts,
        moves=perms,
        move_names=names,
        move_family=mv.families(n),
        move_inverse=mv.inverses(n),
        blocked=mv.BLOCKED,
        maps=geometric_maps(n),
        interchangeable=interchangeable_colours(c),
        map_base=dihedral_maps(n) if n >= 4 else None,
        solved=np.stack(solved),
        roots=("all", "single"),
        every_arrangement=True,
    )


def merged_colours(puzzle: Puzzle, together: str) -> list[int]:
    """The colours (0-based) ``together`` names as digits 1..c: two or
    more, not all."""
    picked = sorted({int(ch) - 1 for ch in together}) if together.isdigit() else []
    if len(picked) < 2 or len(picked) == puzzle.c or picked[-1] >= puzzle.c or picked[0] < 0:
        raise InputError(
            f"--merge {together!r}: expected two or more of the colours 1-{puzzle.c}, but not all, as digits (e.g. 12)"
        )
    return picked


def merged(puzzle: Puzzle, together: str) -> Puzzle:
    """The coarser grid where the colours named in ``together`` (digits
    1..c, as printed) become one colour: every state of ``puzzle`` has one
    image there, and the image of a solved state is solved. It is the first
    phase of a phase bound (docs/frontier.md): merged colours first, the
    rest after. The merged colour is numbered first, the others keep their
    order."""
    picked = merged_colours(puzzle, together)
    rest = [k for k in range(puzzle.c) if k not in picked]
    image = np.empty(puzzle.c, dtype=np.uint8)
    image[picked] = 0
    image[rest] = np.arange(1, len(rest) + 1)
    counts = [sum(puzzle.counts[k] for k in picked)] + [puzzle.counts[k] for k in rest]
    solved = np.unique(image[puzzle.solved], axis=0)
    same = 1
    while same < len(counts) and counts[same] == counts[0]:
        same += 1
    swapped = {tuple(s) for s in solved.tolist()}
    if same > 1 and any(tuple(np.where(s == 0, 1, np.where(s == 1, 0, s))) not in swapped for s in solved):
        same = 1
    names = "+".join(str(k + 1) for k in picked)
    title = (
        f"{puzzle.n}x{puzzle.n} {puzzle.c}-colour with colours {names} merged "
        f"({' / '.join(str(k) for k in counts)} cells)"
    )
    return replace(
        puzzle, c=len(counts), counts=tuple(counts), solved=solved, interchangeable=same, title=title, roots=("all",)
    )


def merged_goal_count(puzzle: Puzzle, together: str) -> int:
    """How many states :func:`merged_goal_states` lists."""
    picked, coarse = merged_colours(puzzle, together), merged(puzzle, together)
    return math.prod(
        math.comb(sum(puzzle.counts[k] for k in picked[i:]), puzzle.counts[picked[i]]) for i in range(len(picked) - 1)
    ) * len(coarse.solved)


def merged_goal_states(puzzle: Puzzle, together: str) -> np.ndarray:
    """Every state of ``puzzle`` whose image with ``together`` merged is
    solved: the merged cells of each coarse solved state filled with the
    merged colours, in their counts, every way (sorted, each once)."""
    picked, coarse = merged_colours(puzzle, together), merged(puzzle, together)
    others = np.array([k for k in range(puzzle.c) if k not in picked], dtype=np.uint8)
    out = []
    for solved in coarse.solved:
        base = np.zeros(puzzle.ncells, dtype=np.uint8)
        rest = np.flatnonzero(solved > 0)
        base[rest] = others[solved[rest] - 1]
        out += list(_fillings(base, np.flatnonzero(solved == 0), [(k, puzzle.counts[k]) for k in picked]))
    return np.unique(np.array(out, dtype=np.uint8), axis=0)


def _fillings(base: np.ndarray, cells: np.ndarray, colours: list[tuple[int, int]]):
    """``base`` with ``cells`` coloured by (colour, count) in every way."""
    (colour, count), later = colours[0], colours[1:]
    if not later:
        state = base.copy()
        state[cells] = colour
        yield state
        return
    for chosen in itertools.combinations(range(len(cells)), count):
        state = base.copy()
        state[cells[list(chosen)]] = colour
        yield from _fillings(state, np.delete(cells, chosen), later)


def random_states(puzzle: Puzzle, count: int, seed: int | np.random.Generator) -> np.ndarray:
    """``count`` states drawn uniformly from all arrangements of the
    puzzle's colour multiset, reproducibly from ``seed`` (a uniform random
    permutation of the cells, not a random walk), as a (count, N) array.
    Given a Generator instead of a seed, successive calls continue one
    stream: k calls of m states equal one call of k*m."""
    rng = np.random.default_rng(seed)
    base = np.repeat(np.arange(len(puzzle.counts)), puzzle.counts).astype(np.uint8)
    out = np.empty((count, base.size), np.uint8)
    for i in range(count):
        out[i] = rng.permutation(base)
    return out


#: states drawn at once by :func:`drawn`: a million states need no big array
CHUNK = 100_000


def from_tree(puzzle, depth: int | None = None) -> bool:
    """Whether random states of ``puzzle`` (at ``depth``) must come from its
    stored tree (a :class:`wsdb.db.sample.TreeSampler`): always, but for a
    puzzle whose every arrangement is a state drawn at any distance
    (Wrapslide, thesis (3.1)), which a random permutation of the cells draws."""
    return not (puzzle.every_arrangement and depth is None)


def drawn(puzzle, count: int, seed: int, sampler=None, chunk: int = CHUNK) -> Iterator[np.ndarray]:
    """``count`` uniformly random states of ``puzzle``, (k, N) label cells a
    chunk at a time, from one stream seeded by ``seed``, so the states are
    the same however they are chunked (``wsdb random`` and ``/api/random``
    alike): random permutations of the cells, or drawn by ``sampler``
    where :func:`from_tree` says they must be."""
    rng = np.random.default_rng(seed)
    for start in range(0, count, chunk):
        k = min(chunk, count - start)
        yield sampler.draw(k, rng) if sampler is not None else random_states(puzzle, k, rng)
