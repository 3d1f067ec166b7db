"""The two-bit census (wsdb/engine/packed_kernels.py, wsdb/engine/intrinsics.py):
its codes and passes, and its levels against the byte table of distances
(wsdb/engine/rank_kernels.py), which keeps every state's distance."""

import numpy as np
import pytest
from numba import njit, prange

from wsdb.engine import packed_kernels as pk
from wsdb.engine.census import packed_table, ranked_table
from wsdb.engine.intrinsics import atomic_and
from wsdb.puzzle.catalog import get_puzzle


def codes(words, size):
    """The code of every state, unpacked in plain numpy."""
    shifts = 2 * (np.arange(size) % pk.FIELDS)
    return ((words[np.arange(size) // pk.FIELDS] >> shifts.astype(np.uint64)) & np.uint64(3)).astype(int)


def test_settle_moves_every_code_on_one_level():
    size = 70
    words = pk.unseen_words(size)
    rng = np.random.default_rng(0)
    before = rng.integers(0, 4, size)
    for i, c in enumerate(before):
        pk.set_code(words, i, int(c))
    assert (codes(words, size) == before).all()
    pk.settle(words)
    after = {pk.OLD: pk.OLD, pk.CUR: pk.OLD, pk.NEXT: pk.CUR, pk.UNSEEN: pk.UNSEEN}
    assert (codes(words, size) == [after[c] for c in before]).all()
    assert pk.first_current(words, size, 5).tolist() == np.flatnonzero(before == pk.NEXT)[:5].tolist()


@njit(parallel=True)
def _clear_all(words, order):
    # every bit of every word cleared twice over, from both threads; count
    # the clears that found their bit still set
    hits = np.zeros(order.shape[0], dtype=np.int64)
    for t in prange(order.shape[0]):
        b = order[t]
        bit = np.uint64(1) << np.uint64(b % 64)
        old = atomic_and(words, b // 64, ~bit)
        hits[t] = (old & bit) != 0
    return hits.sum()


def test_atomic_and_clears_each_bit_once():
    words = np.full(64, np.uint64(0xFFFFFFFFFFFFFFFF))
    order = np.random.default_rng(1).permutation(np.tile(np.arange(64 * 64), 2))
    assert _clear_all(words, order) == 64 * 64  # each bit counted once, by whichever clear came first
    assert (words == 0).all()


@pytest.mark.parametrize("name, n", [("rubiks-slide-hard", 3), ("rubeish", 3), ("rotate2x2", 3)])
def test_two_bit_levels_are_the_byte_table_levels(name, n):
    p = get_puzzle(name, n)
    ranking, table, states = ranked_table(p)
    _, words, packed_states = packed_table(p)
    assert packed_states == states
    # what stays CUR is the last level, state for state
    last = codes(words, ranking.size) == pk.CUR
    assert (last == (table == len(states) - 1)).all()


def test_a_census_stopped_early_keeps_its_last_level():
    p = get_puzzle("rubiks-slide-hard", 3)
    ranking, table, _ = ranked_table(p)
    _, words, states = packed_table(p, max_depth=6)
    assert len(states) == 7
    assert ((codes(words, ranking.size) == pk.CUR) == (table == 6)).all()
    assert ((codes(words, ranking.size) == pk.UNSEEN) == (table > 6)).all()
