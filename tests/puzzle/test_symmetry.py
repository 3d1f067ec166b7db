"""The 32-map symmetry group (wsdb/puzzle/symmetry.py, thesis §3.2)."""

import numpy as np
import pytest

from wsdb.puzzle import random_states, wrapslide
from wsdb.puzzle.symmetry import canonical_cells, compose, geometric_maps, inverse, interchangeable_colours


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


@pytest.mark.parametrize("n, c", [(4, 3), (6, 4)])
def test_numpy_canonical_form_is_the_smallest_image(n, c):
    import itertools

    p = wrapslide(n, c)
    k = interchangeable_colours(c)
    perms = [np.array(list(s) + list(range(k, c)), np.uint8) for s in itertools.permutations(range(k))]
    for cells in random_states(p, 10, seed=3):
        images = [tuple(sigma[cells[g]]) for g in p.maps for sigma in perms]
        assert tuple(canonical_cells(cells, p.maps, k)[0]) == min(images)
