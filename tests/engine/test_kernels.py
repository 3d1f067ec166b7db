"""The numba key kernels (wsdb/engine/kernels.py), through the engine that
binds them, against definitions written out in numpy."""

import itertools

import numpy as np
import pytest

from wsdb.engine import get_engine
from wsdb.engine.engines import SmallEngine
from wsdb.engine.keys import sortable
from wsdb.puzzle import random_states, wrapslide


def all_images(p, cells):
    perms = [
        np.array(list(s) + list(range(p.interchangeable, p.c)), np.uint8)
        for s in itertools.permutations(range(p.interchangeable))
    ]
    return np.stack([sigma[cells[g]] for g in p.maps for sigma in perms])


@pytest.mark.parametrize("n, c", [(4, 2), (4, 3), (4, 4), (6, 3), (8, 2), (8, 4)])
def test_canonical_is_invariant_and_minimal(n, c):
    p, e = wrapslide(n, c), get_engine(n, c)
    rng = np.random.default_rng(7)
    for cells in random_states(p, 20, seed=n * 10 + c):
        canon = e.canonical(e.encode(cells))
        images = all_images(p, cells)
        # invariant under a random group element ...
        other = e.canonical(e.encode(images[rng.integers(len(images))]))
        assert (other == canon).all()
        # ... and the smallest encoding of all 32 x k! images
        smallest = min(e.layout.to_int(k) for k in e.encode(images))
        assert e.layout.to_int(canon[0]) == smallest


@pytest.mark.parametrize("n, c", [(4, 2), (6, 4), (8, 2), (8, 4), (10, 3)])
def test_the_encode_kernel_lays_out_keys_as_the_numpy_layout_does(n, c):
    p, e = wrapslide(n, c), get_engine(n, c)
    cells = random_states(p, 40, seed=n + c)
    keys = e.encode(cells)
    assert keys.dtype == np.uint64 and keys.shape == (40, e.layout.words)
    assert (keys == e.layout.encode(cells)).all()
    assert (e.layout.decode(keys) == cells).all()
    assert (e.encode(cells[0]) == keys[:1]).all()  # one state, as a 1-d row


@pytest.mark.parametrize("n, c", [(4, 4), (6, 2), (8, 3)])
def test_move_and_expand_apply_the_cell_permutations(n, c):
    p, e = wrapslide(n, c), get_engine(n, c)
    cells = random_states(p, 8, seed=1)
    keys = e.encode(cells)
    for m in (0, len(p.moves) // 2, len(p.moves) - 1):
        assert (e.decode(e.move(keys, m)) == cells[:, p.moves[m]]).all()
    reps = e.canonical(keys)
    children = e.expand(reps).reshape(len(reps), len(p.moves), -1)
    start = e.decode(reps)
    for m in range(len(p.moves)):
        assert (children[:, m] == e.canonical(e.encode(start[:, p.moves[m]]))).all()


@pytest.mark.parametrize("n, c", [(4, 3), (4, 4), (6, 2)])
def test_orbit_sizes_count_the_distinct_images(n, c):
    p, e = wrapslide(n, c), get_engine(n, c)
    cells = np.concatenate([p.solved[:2], random_states(p, 10, seed=4)])
    sizes = e.orbit_sizes(e.canonical(e.encode(cells)))
    for cell, size in zip(cells, sizes):
        assert size == len({x.tobytes() for x in all_images(p, cell)})


def test_step_finds_a_move_into_the_target_class():
    p, e = wrapslide(6, 4), get_engine(6, 4)
    raw = e.encode(random_states(p, 30, seed=5))
    targets = e.canonical(e.move(raw, 7))
    found, nxt = e.step(raw, targets)
    assert (found >= 0).all() and (e.canonical(nxt) == targets).all()
    # random 6x6 four-colour states are far from solved: no move reaches it
    solved = e.canonical(e.encode(p.solved[:1]))
    assert (e.step(raw, solved.repeat(len(raw), axis=0))[0] == -1).all()


@pytest.mark.parametrize("n, c", [(4, 2), (4, 3), (4, 4), (6, 2), (6, 3), (8, 2), (8, 4)])
def test_step_signature_filter_never_skips_the_right_move(n, c):
    # step tests a quadrant signature before canonicalising a child; the
    # numpy engine canonicalises every child: the first move found must agree
    p, fast, slow = wrapslide(n, c), get_engine(n, c), SmallEngine(wrapslide(n, c))
    raw = fast.encode(random_states(p, 40, seed=n * 10 + c))
    for m in (0, 3, len(p.moves) - 1):
        targets = fast.canonical(fast.move(raw, m))
        got, want = fast.step(raw, targets), slow.step(raw, targets)
        assert (got[0] == want[0]).all() and (got[1] == want[1]).all()
        assert (got[0] <= m).all()


@pytest.mark.parametrize("n, c", [(4, 4), (8, 4)])
def test_find_keys_agrees_with_a_sorted_search(n, c):
    p, e = wrapslide(n, c), get_engine(n, c)
    keys = e.canonical(e.encode(random_states(p, 500, seed=6)))
    table = keys[np.lexsort(keys.T[::-1])]
    view = sortable(table)
    table = table[np.concatenate([[True], view[1:] != view[:-1]])]
    queries = np.concatenate([table[::3], e.canonical(e.encode(random_states(p, 50, seed=9)))])
    rows = e.find(table, queries)
    for q, r in zip(queries, rows):
        hit = np.flatnonzero((table == q).all(axis=1))
        assert r == (hit[0] if hit.size else -1)
