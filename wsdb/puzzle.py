"""Wrapslide as data: cells, moves as cell permutations, symmetry maps, goal
(thesis §1.1 and §5.1 notation; SPEC §1-§2). Pure numpy, no numba, no SQL.

A :class:`Puzzle` holds everything the generic engine (``encoding`` +
``kernels``) needs; another sliding puzzle is added by writing another
constructor that fills the same fields.

Conventions: cells are numbered row-major, ``i = r * n + j``; a permutation
``p`` acts as ``new[i] = old[p[i]]``; colours inside the library are
0..c-1 (printed as 1..c), the last colour being the one with (5-c)q cells.
"""
from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .errors import WsdbError
from .symmetry import geometric_maps, interchangeable_colours

MOVE_FAMILIES = "TBLR"
MAX_N = 16
_MOVE_RE = re.compile(r"^([TBLR])(\d+)$")


@dataclass(frozen=True, eq=False)
class Puzzle:
    """One (n, c) Wrapslide grid as data for the generic engine."""

    n: int
    c: int
    counts: tuple[int, ...]          # cells per colour, colour 0 first
    moves: np.ndarray                # (4(n-1), n*n) cell permutations
    move_names: tuple[str, ...]      # thesis notation, same order as moves
    maps: np.ndarray                 # (32, n*n) geometric symmetry maps
    interchangeable: int             # colours 0..k-1 may be permuted freely
    solved: np.ndarray = field(repr=False)  # (s, n*n) every solved state

    @property
    def ncells(self) -> int:
        return self.n * self.n

    @property
    def label(self) -> str:
        return f"{self.n}x{self.n} {self.c}-colour"

    @property
    def states(self) -> int:
        """Number of states, the multinomial n^2! / (q!^(c-1) ((5-c)q)!) (thesis (3.1))."""
        total = math.factorial(self.ncells)
        for k in self.counts:
            total //= math.factorial(k)
        return total

    @property
    def group_order(self) -> int:
        """Geometric maps times colour permutations (768 for 4x4 four colours)."""
        return len(self.maps) * math.factorial(self.interchangeable)

    def move_index(self, name: str) -> int:
        """Index of a move given in thesis notation (``T1``, ``r3``...)."""
        m = _MOVE_RE.match(name.strip().upper())
        if m is None or not 1 <= int(m.group(2)) <= self.n - 1:
            raise WsdbError(
                f"unknown move {name!r}: expected T, B, L or R followed by a distance "
                f"1..{self.n - 1} (e.g. T1 or R{self.n - 1})")
        return MOVE_FAMILIES.index(m.group(1)) * (self.n - 1) + int(m.group(2)) - 1

    def apply(self, cells: np.ndarray, moves) -> np.ndarray:
        """Apply moves (indices or names) to a cell array, left to right."""
        out = np.asarray(cells)
        for mv in moves:
            idx = self.move_index(mv) if isinstance(mv, str) else int(mv)
            out = out[..., self.moves[idx]]
        return out

    def is_solved(self, cells: np.ndarray) -> bool:
        """True when every quadrant is monochrome."""
        g = np.asarray(cells).reshape(self.n, self.n)
        h = self.n // 2
        return all(len(np.unique(g[a:a + h, b:b + h])) == 1 for a in (0, h) for b in (0, h))

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
    """Refuse grid sizes and colour counts outside the game's rules (SPEC §1)."""
    if not (isinstance(n, int) and n >= 2 and n % 2 == 0 and n <= MAX_N):
        raise WsdbError(f"grid size n={n} is not allowed: expected an even n from 2 to {MAX_N} (4, 6 and 8 are the game's sizes)")
    if c not in (2, 3, 4):
        raise WsdbError(f"colour count c={c} is not allowed: expected 2, 3 or 4")


def slide_moves(n: int) -> tuple[np.ndarray, tuple[str, ...]]:
    """The 4(n-1) moves Tk, Bk, Lk, Rk (SPEC §1) as cell permutations."""
    r, j = np.divmod(np.arange(n * n), n)
    h = n // 2
    perms, names = [], []
    for fam in MOVE_FAMILIES:
        for k in range(1, n):
            if fam in "TB":  # a half slides k cells left
                rows = r < h if fam == "T" else r >= h
                src = np.where(rows, r * n + (j + k) % n, r * n + j)
            else:            # a half slides k cells up
                cols = j < h if fam == "L" else j >= h
                src = np.where(cols, ((r + k) % n) * n + j, r * n + j)
            perms.append(src)
            names.append(f"{fam}{k}")
    return np.stack(perms).astype(np.int64), tuple(names)


@lru_cache(maxsize=None)
def wrapslide(n: int, c: int) -> Puzzle:
    """The n x n Wrapslide grid with c colours (SPEC §1)."""
    check_grid(n, c)
    q = (n // 2) ** 2
    counts = tuple([q] * (c - 1) + [(5 - c) * q])
    moves, names = slide_moves(n)
    quad_counts = [1] * (c - 1) + [5 - c]
    solved = [
        _quadrant_state(n, quads)
        for quads in itertools.product(range(c), repeat=4)
        if [quads.count(col) for col in range(c)] == quad_counts
    ]
    return Puzzle(n=n, c=c, counts=counts, moves=moves, move_names=names,
                  maps=geometric_maps(n), interchangeable=interchangeable_colours(c),
                  solved=np.stack(solved))


def parse_state(text: str) -> tuple[Puzzle, np.ndarray]:
    """Read a state in any SPEC §2 form and return its puzzle and cells.

    n follows from the length, c from the number of distinct symbols; the
    symbol with (5-c)q cells is the last colour, the others are numbered in
    their sorted order. Anything that does not fit raises WsdbError."""
    if not isinstance(text, str) or not text.strip():
        raise WsdbError("empty state: expected n*n colour symbols, rows optionally separated by '/', ',', spaces or newlines")
    rows = [r for r in re.split(r"[/,\s]+", text.strip()) if r]
    flat = "".join(rows)
    size = len(flat)
    n = math.isqrt(size)
    if n * n != size or n % 2 or n < 2:
        raise WsdbError(f"state has {size} cells: expected n*n cells for an even n "
                        "(16 for 4x4, 36 for 6x6, 64 for 8x8)")
    if len(rows) > 1 and any(len(r) != n for r in rows):
        raise WsdbError(f"rows of lengths {[len(r) for r in rows]}: expected {n} rows of {n} symbols")
    if n > MAX_N:
        raise WsdbError(f"{n}x{n} grid: expected n from 2 to {MAX_N}")
    codes = np.frombuffer(flat.encode("utf-32-le"), dtype="<u4")
    symbols, counts = np.unique(codes, return_counts=True)
    c = len(symbols)
    if c not in (2, 3, 4):
        raise WsdbError(f"state uses {c} distinct symbols: expected 2, 3 or 4 colours")
    puzzle = wrapslide(n, c)
    q = (n // 2) ** 2
    want = sorted(puzzle.counts)
    if sorted(counts.tolist()) != want:
        got = ", ".join(f"{chr(s)}x{k}" for s, k in zip(symbols, counts))
        raise WsdbError(f"colour counts {got} do not fit a {n}x{n} {c}-colour grid: "
                        f"expected {c - 1} colour(s) with {q} cells and one with {(5 - c) * q}")
    # Equal-count colours keep their sorted symbol order; the big one goes last.
    order = sorted(range(c), key=lambda i: (counts[i] > q, i))
    lut = {int(symbols[i]): col for col, i in enumerate(order)}
    cells = np.zeros(size, dtype=np.uint8)
    for sym, col in lut.items():
        cells[codes == sym] = col
    return puzzle, cells


def parse_states(states: list[str]) -> list[tuple[Puzzle, np.ndarray]]:
    """Parse every state before any work starts; an error names the bad
    state's position when there are several."""
    parsed = []
    for i, text in enumerate(states):
        try:
            parsed.append(parse_state(text))
        except WsdbError as e:
            raise WsdbError(f"state {i + 1} ({text.strip()!r}): {e}" if len(states) > 1 else str(e)) from None
    return parsed


def format_state(cells: np.ndarray, n: int | None = None) -> str:
    """The SPEC §2 output form: rows joined by '/', colours as digits 1..c."""
    cells = np.asarray(cells, dtype=np.uint8)
    n = n or math.isqrt(cells.size)
    digits = (cells + ord("1")).tobytes().decode("ascii")
    return "/".join(digits[i * n:(i + 1) * n] for i in range(n))


def format_states(cells: np.ndarray, n: int) -> np.ndarray:
    """format_state over many states at once, vectorised (for database writes)."""
    cells = np.asarray(cells, dtype=np.uint8).reshape(-1, n, n)
    s = cells.shape[0]
    buf = np.full((s, n, n + 1), ord("/"), dtype=np.uint8)
    buf[:, :, :n] = cells + ord("1")
    flat = buf.reshape(s, n * (n + 1))[:, :-1]
    return np.ascontiguousarray(flat).view(f"S{n * (n + 1) - 1}").ravel().astype(str)
