"""The pure breadth-first search (wsdb/engine/bfs.py) against published
numbers and an independent brute-force BFS over raw states
(tests/bruteforce.py)."""

import numpy as np
import pytest

from wsdb.engine import get_engine
from wsdb.engine.bfs import dedupe, grow


@pytest.mark.parametrize("c", [2, 3])
def test_levels_match_brute_force_bfs(brute, c):
    states, classes = brute(4, c).states, brute(4, c).classes
    tree = grow(get_engine(4, c))
    assert [lv.states for lv in tree.levels] == states
    assert [lv.classes for lv in tree.levels] == classes
    assert tree.complete


@pytest.mark.parametrize("c", [2, 3, 4])
def test_single_root_reproduces_table_3_4(thesis, c):
    tree = grow(get_engine(4, c), root="single")
    published = thesis["classes_per_level"][f"4x4_c{c}"]
    assert [lv.classes for lv in tree.levels] == published
    assert tree.classes == thesis["class_totals"][f"4x4_c{c}"]
    assert tree.height == thesis["god_numbers"][f"4x4_c{c}"]


def test_6x6_two_colour_levels_published_so_far(thesis):
    tree = grow(get_engine(6, 2), max_depth=6)
    assert [lv.classes for lv in tree.levels] == thesis["classes_per_level"]["6x6_c2_levels_0_to_8_incomplete"][:7]


def test_dedupe_keeps_the_first_row_of_each_key():
    keys = np.array([[5], [3], [5], [9], [3], [1]], np.uint64)
    uniq, first = dedupe(keys)
    assert uniq.tolist() == [1, 3, 5, 9] and first.tolist() == [5, 1, 0, 3]
    wide = np.array([[1, 5], [0, 3], [1, 5]], np.uint64)  # two-word keys take the general path
    uniq, first = dedupe(wide)
    assert len(uniq) == 2 and first.tolist() == [1, 0]


def test_dedupe_of_wide_keys_is_numpys_unique():
    """The lexsort path against np.unique of the structured view (first
    occurrence of each key), on keys with many repeats and ties in a word."""
    from wsdb.engine.keys import sortable

    rng = np.random.default_rng(7)
    keys = np.stack(
        [
            rng.integers(0, 4, 5000, dtype=np.uint64),
            rng.integers(0, 50, 5000, dtype=np.uint64),
            rng.integers(0, 3, 5000, dtype=np.uint64),
        ],
        axis=1,
    )
    uniq, first = dedupe(keys)
    want, want_first = np.unique(sortable(keys), return_index=True)
    assert np.array_equal(uniq, want) and np.array_equal(first, want_first)
