"""Other puzzles as data (docs/puzzles.md): a puzzle is a board, its moves
as named cell permutations, a goal state and the board's candidate
symmetries; :func:`define` turns them into a :class:`~wsdb.puzzle.model.Puzzle`
that the engine, the builder and lookup drive exactly as they drive
Wrapslide.

A goal is a state written as text, one symbol per cell: its distinct
symbols are the puzzle's labels (numbered in sorted order), their counts
the label multiset every state of the puzzle has. Nine distinct symbols on
3x3 make the puzzle with distinct pieces; fewer make a coloured variant
(the Rubik's Slide documents call them subgames).

Symmetry is found, not declared: a candidate map of the board is kept when
it carries the move set onto itself (so distances are preserved) and the
goal onto itself (so the distance to the goal is). Distinct labels rarely
keep any map but the identity; coloured goals often do.
"""
from __future__ import annotations

import re

import numpy as np

from ..errors import WsdbError
from .model import Puzzle
from .symmetry import closure, inverse

MAX_LABELS = 16   # 4 key bits a cell
DISTINCT = "123456789ABCDEFG"


def distinct_goal(n: int) -> str:
    """The default goal: distinct pieces 1..n^2 in reading order (letters after 9)."""
    cells = DISTINCT[:n * n]
    return "/".join(cells[i * n:(i + 1) * n] for i in range(n))


def parse_goal(text: str, n: int) -> tuple[str, np.ndarray]:
    """(symbols, cells) of a goal written as n rows of n symbols, rows split
    by '/', ',' or spaces, or n*n symbols in a row; labels are the distinct
    symbols in sorted order."""
    flat = _flat(text, n, "goal")
    symbols = "".join(sorted(set(flat)))
    if not 1 <= len(symbols) <= MAX_LABELS:
        raise WsdbError(f"goal uses {len(symbols)} distinct symbols: expected 1 to {MAX_LABELS}")
    lut = {s: i for i, s in enumerate(symbols)}
    return symbols, np.array([lut[s] for s in flat], dtype=np.uint8)


def parse_cells(puzzle: Puzzle, text: str) -> np.ndarray:
    """A state of ``puzzle`` (not Wrapslide) written with its goal's symbols,
    as label cells; the labels must be the goal's, with the same counts."""
    flat = _flat(text, puzzle.n, "state")
    unknown = sorted(set(flat) - set(puzzle.symbols))
    if unknown:
        raise WsdbError(f"state uses {''.join(unknown)!r}, which the goal {puzzle.goal} does not: "
                        f"expected the symbols {puzzle.symbols!r}")
    cells = np.array([puzzle.symbols.index(s) for s in flat], dtype=np.uint8)
    counts = np.bincount(cells, minlength=puzzle.c)
    if tuple(counts.tolist()) != puzzle.counts:
        got = ", ".join(f"{s}x{k}" for s, k in zip(puzzle.symbols, counts))
        want = ", ".join(f"{s}x{k}" for s, k in zip(puzzle.symbols, puzzle.counts))
        raise WsdbError(f"state has {got}: expected the goal's counts {want}")
    return cells


def format_cells(puzzle: Puzzle, cells: np.ndarray) -> str:
    """A state of ``puzzle`` as text: rows joined by '/', in the goal's symbols."""
    cells = np.asarray(cells).reshape(-1)
    flat = "".join(puzzle.symbols[int(v)] for v in cells)
    n = puzzle.n
    return "/".join(flat[i * n:(i + 1) * n] for i in range(n))


def _flat(text: str, n: int, what: str) -> str:
    return split_rows(text, n, n, what)


def split_rows(text: str, rows: int, cols: int, what: str) -> str:
    """The symbols of a state written as ``rows`` rows of ``cols`` symbols
    (rows split by '/', ',' or spaces, or all in one row), in reading order."""
    shape = f"{rows} rows of {cols} symbols"
    if not isinstance(text, str) or not text.strip():
        raise WsdbError(f"empty {what}: expected {shape}, rows split by '/'")
    parts = [r for r in re.split(r"[/,\s]+", text.strip()) if r]
    flat = "".join(parts)
    if len(flat) != rows * cols or (len(parts) > 1 and any(len(r) != cols for r in parts)):
        raise WsdbError(f"{what} {text.strip()!r} has {len(flat)} cells in rows of {[len(r) for r in parts]}: "
                        f"expected {shape}")
    return flat


def define(name: str, n: int, moves: list[np.ndarray], names: list[str], goal: str,
           candidates: np.ndarray | None = None) -> Puzzle:
    """A :class:`Puzzle` from its moves (``new[i] = old[p[i]]``, one move
    each), their names, the goal text and candidate symmetry maps.

    Moves that repeat another's permutation (on 2x2, R and R') are kept
    once, under the first name; the inverse of every move must be a move
    too, as breadth-first search by levels assumes (thesis §3.3)."""
    symbols, cells = parse_goal(goal, n)
    perms, kept = [], []
    seen: set[bytes] = set()
    ident = np.arange(n * n)
    for p, nm in zip(moves, names):
        p = np.asarray(p, dtype=np.int64)
        if (p == ident).all() or p.tobytes() in seen:
            continue
        seen.add(p.tobytes())
        perms.append(p)
        kept.append(nm)
    perms_arr = np.stack(perms)
    index = {p.tobytes(): i for i, p in enumerate(perms_arr)}
    inv = np.array([index.get(inverse(p).tobytes(), -1) for p in perms_arr], dtype=np.int64)
    if (inv < 0).any():
        raise ValueError(f"{name}: the inverse of {kept[int(np.argmin(inv))]} is not a move")
    m = len(perms_arr)
    blocked = np.zeros((m + 1, m), dtype=np.bool_)
    blocked[np.arange(m), inv] = True   # never undo the last move; the start row allows all
    maps = symmetries(perms_arr, cells, candidates if candidates is not None else ident[None])
    text = "/".join("".join(symbols[v] for v in cells[i * n:(i + 1) * n]) for i in range(n))
    return Puzzle(n=n, c=len(symbols), counts=tuple(np.bincount(cells, minlength=len(symbols)).tolist()),
                  moves=perms_arr, move_names=tuple(kept), move_family=np.arange(m), move_inverse=inv,
                  blocked=blocked, maps=maps, interchangeable=1, map_base=None, solved=cells[None],
                  name=name, symbols=symbols, goal=text)


def symmetries(moves: np.ndarray, goal: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """The candidate maps g (identity first) that carry every move onto a
    move, as g^-1 m g, and the goal onto itself: the maps under which the
    distance to the goal is invariant."""
    move_set = {p.tobytes() for p in moves}
    keep = []
    for g in candidates:
        gi = inverse(g)
        if (goal[g] == goal).all() and all(gi[m[g]].tobytes() in move_set for m in moves):
            keep.append(g)
    ident = np.arange(moves.shape[1])
    keep.sort(key=lambda g: not (g == ident).all())
    return np.stack(keep)


def torus_maps(n: int, dihedral: np.ndarray) -> np.ndarray:
    """Every map of the n x n torus: the dihedral maps followed by the n^2
    cyclic translations (8 n^2 maps for n >= 3)."""
    r, j = np.divmod(np.arange(n * n), n)
    return closure(n, list(dihedral) + [((r + 1) % n) * n + j, r * n + (j + 1) % n])
