"""Transpositions: for every two cells, a shortest sequence that swaps
their contents relative to the quadrants, found once per grid.

Where every quadrant has its own colour (four colours), all solved states
group the cells alike, so a sequence S that solves "a solved state with
cells i and j swapped" solves it for every solved state. Applied to any
state, S then acts as the transposition of i and j followed by a map that
carries quadrants onto quadrants: a cell that held its quadrant's colour
still does, and i and j have exchanged contents (:mod:`.repair` gives the
argument). A transposition of two cells of one quadrant is no move at all.

So a nearly solved state is finished by table lookups: each mutual pair
(i holds the colour j's quadrant wants, and j the colour of i's) costs one
transposition and fixes two cells, each longer cycle one cell per
transposition but the last. The table is found by meet in the middle with
the stored tree, one pair per symmetry orbit (the 32 maps of §3.2 carry a
pair and its sequence onto another pair and its sequence): on 8x8 four
colours 64 orbits cover the 1,536 pairs, 8-13 moves each (mean 10.2),
about 40 s with the depth-7 tree, once; the table is cached beside the
database.
"""

from __future__ import annotations

import numpy as np

from ..db.cache import cached_array
from ..db.store import Store
from ..notices import step
from ..puzzle import Puzzle
from ..puzzle.symmetry import geometric_maps
from ..puzzle.tree_key import TreeKey
from . import effort
from .exchange import nearest_goal
from .guide import Guide
from .meet import solve_near
from .settings import SWAP_MOVES_MAX, SWAP_REACH


def applies(puzzle: Puzzle) -> bool:
    """True where all solved states group the cells alike (every quadrant
    its own colour), so that one sequence serves every goal."""
    s = puzzle.solved
    same = s[:, :, None] == s[:, None, :]
    return bool((same == same[:1]).all())


def transpositions(guide: Guide, store: Store) -> np.ndarray | None:
    """(ncells, ncells, 1 + SWAP_MOVES_MAX) int16: entry [i, j] is the length of the
    shortest transposition of cells i and j (-1: none within reach, or the
    same quadrant), then its moves. None where the grid has no stored tree
    or its goals group cells differently (:func:`applies`)."""
    puzzle = guide.puzzle
    if guide.endgame is None or not applies(puzzle):
        return None
    build = store.finished_build(TreeKey.wrapslide(puzzle.n, puzzle.c))
    if build is None:  # the guide's endgame came from it: only a build dropped since leaves none
        return None
    key = (store.label, puzzle.n, puzzle.c, build["built_at"], build["classes"])
    if key not in _tables:
        _tables[key] = cached_array(
            store.path, f"transpositions{puzzle.n}c{puzzle.c}", build, lambda: derive(guide, store)
        )
    return _tables[key]


_tables: dict = {}


def derive(guide: Guide, store: Store) -> np.ndarray:
    """Search one pair per symmetry orbit (:mod:`.meet`) and map its sequence
    onto the rest of the orbit."""

    puzzle = guide.puzzle
    g = puzzle.solved[0]
    maps = geometric_maps(puzzle.n)
    images = move_images(puzzle, maps)
    table = np.full((puzzle.ncells, puzzle.ncells, 1 + SWAP_MOVES_MAX), -1, np.int16)
    done = np.zeros((puzzle.ncells, puzzle.ncells), bool)
    pairs = int((g[:, None] != g[None, :]).sum()) // 2
    with step(f"deriving the {puzzle.label} transposition table", "once per database") as st:
        for i, j in zip(*np.triu_indices(puzzle.ncells, 1)):
            if g[i] == g[j] or done[i, j]:
                continue
            v = g.copy()
            v[[i, j]] = v[[j, i]]
            seq = solve_near(guide, store, v, effort.NEVER, SWAP_REACH)
            for s, img in zip(maps, images):
                inv = np.argsort(s)
                a, b = int(inv[i]), int(inv[j])  # where the map puts the pair
                done[a, b] = done[b, a] = True
                if seq is not None and len(seq) <= SWAP_MOVES_MAX:
                    row = [len(seq), *img[seq]]
                    table[a, b, : len(row)] = table[b, a, : len(row)] = row
            st.count(int(done[g[:, None] != g[None, :]].sum()) // 2, pairs, "cell pairs")
    return table


def move_images(puzzle: Puzzle, maps: np.ndarray) -> np.ndarray:
    """(maps, moves): the move M' that the map s makes of M, so that
    applying M then s equals applying s then M'."""
    moves = puzzle.moves
    where = {m.tobytes(): k for k, m in enumerate(moves)}
    out = np.empty((len(maps), len(moves)), np.int64)
    for a, s in enumerate(maps):
        inv = np.argsort(s)
        for k, m in enumerate(moves):
            out[a, k] = where[inv[m[s]].tobytes()]
    return out


def best_transposition(
    table: np.ndarray, x: np.ndarray, goal: np.ndarray, wrong: np.ndarray
) -> tuple[float, list[int] | None]:
    """(cells fixed per move, moves) of the best transposition of two of the
    misplaced cells ``wrong`` of ``x``: a mutual pair fixes both, any other
    pair at most one; (0, None) when the table has none that helps."""
    effort.charge("transposition", 1)
    i, j = wrong[:, None], wrong[None, :]
    length = table[i, j, 0].astype(np.int64)
    fixed = (x[j] == goal[i]).astype(np.int64) + (x[i] == goal[j])
    rate = np.where((length > 0) & (fixed > 0), fixed / np.maximum(length, 1), 0.0)
    a, b = np.unravel_index(int(np.argmax(rate)), rate.shape)
    if rate[a, b] == 0:
        return 0.0, None
    return float(rate[a, b]), sequence(table, int(wrong[a]), int(wrong[b]))


def estimate(puzzle: Puzzle, table: np.ndarray, x: np.ndarray, cap: int = 400) -> int:
    """Moves that transpositions alone take to solve ``x`` (greedy, the best
    rate first): an upper bound to rank states a finish may start from,
    ``cap`` where the table runs out."""
    total = 0
    while total < cap:
        goal = nearest_goal(puzzle, x)
        wrong = np.flatnonzero(x != goal)
        if not wrong.size:
            return total
        _, seq = best_transposition(table, x, goal, wrong)
        if seq is None:
            break
        x = puzzle.apply(x, seq)
        total += len(seq)
    return cap


def sequence(table: np.ndarray, i: int, j: int) -> list[int] | None:
    """The transposition of cells i and j as move indices, or None."""
    length = int(table[i, j, 0])
    return None if length < 0 else [int(m) for m in table[i, j, 1 : 1 + length]]
