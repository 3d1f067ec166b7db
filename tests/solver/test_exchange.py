"""Cell exchanges (wsdb/solver/exchange.py): the macros move exactly the
cells they claim, setups bring any cells to the macro's slots, and the
construction solves every state."""

import numpy as np
import pytest

from wsdb.puzzle import random_states, wrapslide
from wsdb.puzzle.moves import permutation_of
from wsdb.solver import exchange


@pytest.mark.parametrize("n", [4, 6, 8])
def test_macros_move_only_their_cells(n):
    p = wrapslide(n, 2)
    ident = np.arange(p.ncells)
    double, cycle = exchange.macros(n)
    perm = permutation_of(p.moves, double.seq)
    a, b, c, d = double.slots
    assert np.flatnonzero(perm != ident).tolist() == sorted(double.slots)
    assert (perm[a], perm[b], perm[c], perm[d]) == (b, a, d, c)
    perm = permutation_of(p.moves, cycle.seq)
    u, v, w = cycle.slots
    assert np.flatnonzero(perm != ident).tolist() == sorted(cycle.slots)
    assert (perm[u], perm[v], perm[w]) == (v, w, u)


@pytest.mark.parametrize("n", [4, 8])
def test_setups_bring_cells_to_the_slots(n):
    p = wrapslide(n, 2)
    _, cycle = exchange.macros(n)
    dist, first, nxt, _ = exchange.setups(n, cycle.slots)
    rng = np.random.default_rng(5)
    for _ in range(50):
        a, b, c = rng.choice(p.ncells, 3, replace=False)
        i = (a * p.ncells + b) * p.ncells + c
        path = exchange._path(first, nxt, i)
        assert len(path) == dist[i]
        # where do the contents of a, b, c end up after the setup?
        inv = np.argsort(permutation_of(p.moves, path))
        assert (inv[a], inv[b], inv[c]) == cycle.slots


@pytest.mark.parametrize("n,c", [(n, c) for n in (4, 6, 8) for c in (2, 3, 4)])
def test_exchanges_solve_every_state(n, c):
    p = wrapslide(n, c)
    for cells in random_states(p, 5, seed=n * 10 + c):
        seq = exchange.solve_by_exchanges(p, cells)
        assert p.is_solved(p.apply(cells, seq))
