"""Keys: round trips, byte tables, SQLite values (wsdb/engine/keys.py)."""

import numpy as np
import pytest

from wsdb.engine.keys import KeyLayout, distinct, member, sortable
from wsdb.puzzle import random_states, wrapslide


@pytest.mark.parametrize("n, c", [(2, 4), (4, 2), (4, 4), (6, 2), (6, 4), (8, 2), (8, 3), (8, 4), (10, 4)])
def test_round_trips(n, c):
    p = wrapslide(n, c)
    lay = KeyLayout.for_colours(p.ncells, c)
    cells = random_states(p, 50, seed=n + c)
    keys = lay.encode(cells)
    assert keys.shape == (50, lay.words)
    assert (lay.decode(keys) == cells).all()
    assert (lay.from_sql(lay.to_sql(keys)) == keys).all()
    for k in keys[:5]:
        assert (lay.from_int(lay.to_int(k)) == k).all()
    # byte tables apply exactly the cell permutation
    tables = lay.tables(p.moves[:3])
    for t, perm in zip(tables, p.moves[:3]):
        for k, cl in zip(keys[:5], cells[:5]):
            out = np.zeros(lay.words, np.uint64)
            for j in range(lay.chunks):
                w = lay.words - 1 - j // 8
                out |= t[j, int(k[w] >> np.uint64(8 * (j % 8))) & 255]
            assert (lay.decode(out[None])[0] == cl[perm]).all()


def test_key_order_is_lexicographic_cell_order():
    lay = KeyLayout.for_colours(16, 4)
    a = np.array([[0] * 15 + [3]], dtype=np.uint8)
    b = np.array([[1] + [0] * 15], dtype=np.uint8)
    assert lay.to_int(lay.encode(a)[0]) < lay.to_int(lay.encode(b)[0])


def test_wide_keys_sort_numerically():
    lay = KeyLayout.for_colours(64, 4)
    ints = [5, 1 << 100, (1 << 64) + 3, 1 << 64, 7]
    keys = np.stack([lay.from_int(i) for i in ints])
    view = distinct(sortable(keys))
    assert [lay.to_int(np.asarray(v.tolist(), np.uint64)) for v in view] == sorted(set(ints))
    found, _ = member(view, sortable(np.stack([lay.from_int(1 << 64), lay.from_int(2)])))
    assert found.tolist() == [True, False]
