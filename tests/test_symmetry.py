"""The 32-map symmetry group and canonical representatives (SPEC §3)."""
import itertools

import numpy as np
import pytest

from conftest import random_states
from wsdb.engine import engine
from wsdb.puzzle import wrapslide
from wsdb.symmetry import compose, geometric_maps, inverse


@pytest.mark.parametrize("n", [4, 6, 8])
def test_group_has_32_maps_and_is_closed(n):
    maps = geometric_maps(n)
    assert len(maps) == 32
    keys = {m.tobytes() for m in maps}
    assert len(keys) == 32
    for a in maps:
        assert inverse(a).tobytes() in keys
        for b in maps[:8]:
            assert compose(a, b).tobytes() in keys


@pytest.mark.parametrize("n", [4, 6, 8])
def test_every_map_carries_moves_onto_moves_and_solved_onto_solved(n):
    p = wrapslide(n, 4)
    moves = {m.tobytes() for m in p.moves}
    solved = {s.tobytes() for s in p.solved}
    for g in p.maps:
        gi = inverse(g)
        for m in p.moves:
            # the move seen through g: g^-1, then m, then g
            assert compose(compose(gi, m), g).tobytes() in moves
        for s in p.solved:
            assert s[g].tobytes() in solved


@pytest.mark.parametrize("n, c", [(4, 2), (4, 3), (4, 4), (6, 3), (8, 2), (8, 4)])
def test_canonical_is_invariant_and_minimal(n, c):
    p, e = wrapslide(n, c), engine(n, c)
    rng = np.random.default_rng(7)
    perms = [np.array(s) for s in itertools.permutations(range(p.interchangeable))]
    for cells in random_states(p, 20, seed=n * 10 + c):
        canon = e.canonical(e.encode(cells))
        images = []
        for g in p.maps:
            for sigma in perms:
                full = np.concatenate([sigma, np.arange(p.interchangeable, c)]).astype(np.uint8)
                images.append(full[cells[g]])
        images = np.stack(images)
        # invariant under a random group element ...
        other = e.canonical(e.encode(images[rng.integers(len(images))]))
        assert (other == canon).all()
        # ... and the smallest encoding of all 32 x k! images
        smallest = min(e.layout.to_int(k) for k in e.encode(images))
        assert e.layout.to_int(canon[0]) == smallest


@pytest.mark.parametrize("n, c", [(4, 3), (4, 4), (6, 2), (6, 4), (8, 3)])
def test_numpy_and_numba_engines_agree(n, c):
    from wsdb.engine import SmallEngine

    p, big = wrapslide(n, c), engine(n, c)
    small = SmallEngine(p)
    raw = big.encode(np.stack(random_states(p, 30, seed=5)))
    assert (small.canonical(raw) == big.canonical(raw)).all()
    targets = big.canonical(big.move(raw, 3))
    for eng in (small, big):
        found, nxt = eng.step(raw, targets)
        assert (found >= 0).all() and (big.canonical(nxt) == targets).all()
