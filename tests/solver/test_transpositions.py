"""Transposition tables (wsdb/solver/transpositions.py): every entry solves
its swapped pair for every goal at once, at the pair's true distance, and
repairs that read the table finish states without cell exchanges."""

import numpy as np
import pytest

from wsdb.puzzle import random_states, wrapslide
from wsdb.solver import effort
from wsdb.solver.repair import repair
from wsdb.solver.transpositions import applies, derive, sequence, transpositions


@pytest.fixture
def partial(partial4):
    _, store, guide = partial4
    return store, guide, transpositions(guide, store)


def test_only_grids_whose_goals_group_cells_alike_have_a_table():
    assert applies(wrapslide(4, 4)) and applies(wrapslide(6, 4))
    assert not applies(wrapslide(4, 2)) and not applies(wrapslide(4, 3))


def test_every_entry_solves_its_pair_for_every_goal_at_its_true_distance(partial, exact_distance):
    _, guide, table = partial
    p = guide.puzzle
    distance = exact_distance(4)
    quadrant = np.arange(p.ncells) // p.n // (p.n // 2) * 2 + np.arange(p.ncells) % p.n // (p.n // 2)
    entries = 0
    for i in range(p.ncells):
        for j in range(p.ncells):
            seq = sequence(table, i, j)
            if quadrant[i] == quadrant[j]:
                assert seq is None  # the same colour: nothing to swap
                continue
            assert seq is not None  # 4x4 pairs: within the depth-4 tree plus forward levels
            entries += 1
            for g in p.solved:  # all 24 goals, one sequence
                v = g.copy()
                v[[i, j]] = v[[j, i]]
                assert p.is_solved(p.apply(v, seq))
            assert len(seq) == distance(v)
    assert entries == 16 * 12


def test_the_table_is_cached_beside_the_database(partial):
    store, guide, table = partial
    assert np.array_equal(table, derive(guide, store))
    cached = list(store.path.parent.glob(f"{store.path.name}.cache/transpositions4c4-*.npy"))
    assert len(cached) == 1 and np.array_equal(np.load(cached[0]), table)


def test_repairs_with_the_table_need_no_cell_exchanges(partial):
    store, guide, table = partial
    p = guide.puzzle
    rng = np.random.default_rng(0)
    for cells in random_states(p, 8, seed=21):
        moves, reached, exchanges = repair(guide, store, cells, effort.NEVER, rng, table)
        assert exchanges == 0
        assert p.is_solved(reached) and np.array_equal(p.apply(cells, moves), reached)
