"""The thesis' heuristic (van Zyl 2016, chapter 4), as published.

* Objective (§4.1): the sum of |colour difference| over horizontally and
  vertically adjacent cells inside quadrants one to three (top-left,
  top-right, bottom-left); zero exactly when the grid is solved.
* First component (§4.2): from a root, a *pair* of game trees whose levels
  alternate horizontal moves (T, B) and vertical moves (L, R), one tree
  starting with each; level i branches only its m_i best states (Table 4.1),
  down to the maximum depth. Then the k best states of all levels become the
  roots of the next pairs. It stops when a solved state appears.
* Second component (§4.2-4.3): when the k best objective values stop
  decreasing, their classes are looked up in the stored (partial) tree; a
  hit is spliced with the tree's optimal tail. When none of the k is stored,
  wsdb also looks up every other state of that iteration, where the thesis
  would iterate on (possibly for ever, §4.2).

The m_i, depths and k are the thesis' 6x6 values (Table 4.1 and §4.2):
a tree has as many levels as Table 4.1 lists m_i (its maximum depth), level
i < depth branching its m_i best states, so the last m_i is never needed;
it gives none for 4x4 and 8x8, so those use the values of the same colour
count (4x4) or of four colours (8x8, the deepest setting).
"""

from __future__ import annotations

import numpy as np

from ..puzzle.moves import HORIZONTAL, VERTICAL, of_families
from . import effort
from .guide import Found, Guide
from .settings import THESIS_K_BEST, THESIS_M_I, THESIS_PATIENCE


def objective(cells: np.ndarray, n: int) -> np.ndarray:
    """§4.1 objective of each state in (S, n*n) ``cells``."""
    g = cells.reshape(-1, n, n).astype(np.int16)
    h = n // 2
    total = np.zeros(len(g), np.int64)
    for a, b in ((0, 0), (0, h), (h, 0)):
        q = g[:, a : a + h, b : b + h]
        total += np.abs(np.diff(q, axis=1)).sum(axis=(1, 2))
        total += np.abs(np.diff(q, axis=2)).sum(axis=(1, 2))
    return total


def _game_tree(guide: Guide, root: np.ndarray, first_vertical: bool, m_i):
    """One game tree of the pair: every generated state with its path."""
    horizontal = of_families(guide.n, HORIZONTAL)
    vertical = of_families(guide.n, VERTICAL)
    level_cells = root[None]
    level_paths: list[list[int]] = [[]]
    out_cells: list[np.ndarray] = []
    out_paths: list[list[int]] = []
    for i in range(len(m_i)):  # level i+1 from the m_i best of level i (the root at i = 0)
        moves = vertical if (i % 2 == 0) == first_vertical else horizontal
        score = objective(level_cells, guide.n)
        keep = np.argsort(score, kind="stable")[: m_i[i - 1]] if i else np.arange(1)
        parents = level_cells[keep]
        children = parents[:, guide.puzzle.moves[moves]].reshape(-1, parents.shape[1])
        paths = [level_paths[k] + [int(mv)] for k in keep for mv in moves]
        out_cells.append(children)
        out_paths.extend(paths)
        level_cells, level_paths = children, paths
    return np.concatenate(out_cells), out_paths


def thesis_search(guide: Guide, start: np.ndarray, deadline: float) -> tuple[Found | None, bool]:
    """Run the heuristic; returns (solution or None, whether the budget ran out)."""
    m_i = THESIS_M_I[guide.c]
    k = THESIS_K_BEST[guide.c]
    roots = start[None]
    root_paths: list[list[int]] = [[]]
    best_obj, since = int(objective(start[None], guide.n)[0]), 0
    if best_obj == 0:
        return Found([], start, 0), False
    while not effort.past(deadline):
        trees: list[np.ndarray] = []
        paths: list[list[int]] = []
        for root, rpath in zip(roots, root_paths):
            for first_vertical in (False, True):
                c, p = _game_tree(guide, root, first_vertical, m_i)
                trees.append(c)
                paths.extend(rpath + q for q in p)
        cells = np.concatenate(trees)
        effort.charge("objective", len(cells))
        score = objective(cells, guide.n)
        solved = np.flatnonzero(score == 0)
        if solved.size:
            i = min(solved, key=lambda j: len(paths[j]))
            return Found(paths[i], cells[i], 0), False
        # the k best distinct states, shortest path first among equals
        order = np.lexsort((np.array([len(p) for p in paths]), score))
        _, first = np.unique(cells[order], axis=0, return_index=True)
        chosen = order[np.sort(first)][:k]
        roots, root_paths = cells[chosen], [paths[i] for i in chosen]
        if guide.c == 2 and guide.endgame is not None:
            # §4.2: a two-colour state of objective two has just two cells
            # astray, so it goes straight to the stored tree
            low = chosen[score[chosen] <= 2]
            found = _hand_over(guide, cells[low], [paths[i] for i in low])
            if found is not None:
                return found, False
        top = int(score[chosen[0]])
        if top < best_obj:
            best_obj, since = top, 0
        else:
            since += 1
        if since >= THESIS_PATIENCE and guide.endgame is not None:
            # the k best first (the thesis); if none is stored, every state of
            # this iteration (wsdb's addition: the thesis would loop on)
            for pool, pool_paths in ((roots, root_paths), (cells, paths)):
                found = _hand_over(guide, pool, pool_paths)
                if found is not None:
                    return found, False
    return None, True


def _hand_over(guide: Guide, pool: np.ndarray, paths: list[list[int]]) -> Found | None:
    """The shortest whole through a state of ``pool`` whose class is stored
    (§4.2, second component), or None when none is."""
    depth = guide.tree.depth(pool)
    hit = np.flatnonzero(depth >= 0)
    if not hit.size:
        return None
    i = min(hit, key=lambda j: len(paths[j]) + depth[j])
    return Found(paths[i], pool[i], int(depth[i]))
