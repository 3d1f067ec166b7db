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

import numpy as np

from .model import Puzzle
from .symmetry import closure, inverse
from .text import parse_goal


def define(
    name: str, n: int, moves: list[np.ndarray], names: list[str], goal: str, candidates: np.ndarray | None = None
) -> Puzzle:
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
    blocked[np.arange(m), inv] = True  # never undo the last move; the start row allows all
    maps = symmetries(perms_arr, cells, candidates if candidates is not None else ident[None])
    text = "/".join("".join(symbols[v] for v in cells[i * n : (i + 1) * n]) for i in range(n))
    return Puzzle(
        n=n,
        c=len(symbols),
        counts=tuple(np.bincount(cells, minlength=len(symbols)).tolist()),
        moves=perms_arr,
        move_names=tuple(kept),
        move_family=np.arange(m),
        move_inverse=inv,
        blocked=blocked,
        maps=maps,
        interchangeable=1,
        map_base=None,
        solved=cells[None],
        name=name,
        symbols=symbols,
        goal=text,
    )


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
