"""Hashed key sets (wsdb/engine/keyindex.py): the exact index finds every
key and nothing else; the filter never says 'absent' of a key it holds."""

import numpy as np
import pytest

from wsdb.engine.keyindex import KeyFilter, KeyIndex


def distinct_keys(rng, count, words):
    return np.unique(rng.integers(0, 2**63, size=(count, words), dtype=np.uint64), axis=0)


@pytest.mark.parametrize("words", [1, 2, 3])
def test_index_finds_each_key_at_its_row(words):
    rng = np.random.default_rng(words)
    keys = distinct_keys(rng, 50_000, words)
    index, order = KeyIndex.of(keys)
    assert (index.keys == keys[order]).all() and sorted(order) == list(range(len(keys)))
    asked = keys[rng.permutation(len(keys))[:5000]]
    rows = index.rows(asked)
    assert (rows >= 0).all() and (index.keys[rows] == asked).all()
    absent = distinct_keys(rng, 5000, words)
    absent = absent[~(absent[:, None, :] == asked[None, :1000, :]).all(axis=2).any(axis=1)]
    held = {k.tobytes() for k in keys}
    expect = np.array([k.tobytes() in held for k in absent])
    assert ((index.rows(absent) >= 0) == expect).all()


def test_index_of_nothing_and_of_one_key():
    index, _ = KeyIndex.of(np.zeros((0, 1), np.uint64))
    assert index.rows(np.ones((3, 1), np.uint64)).tolist() == [-1, -1, -1]
    index, _ = KeyIndex.of(np.array([[7]], np.uint64))
    assert index.rows(np.array([[7], [8]], np.uint64)).tolist() == [0, -1]


@pytest.mark.parametrize("words", [1, 2])
def test_filter_holds_every_key_added_and_few_others(words):
    rng = np.random.default_rng(10 + words)
    keys = distinct_keys(rng, 200_000, words)
    added, others = keys[:100_000], keys[100_000:]
    filt = KeyFilter.sized(len(added))
    for part in np.array_split(added, 7):
        filt.add(part)
    assert filt.has(added).all()  # never a false 'absent'
    assert filt.has(others).mean() < 0.02  # three to four keys a word: under 1% expected
    assert filt.has(np.zeros((0, words), np.uint64)).shape == (0,)


def test_an_index_made_here_and_one_mapped_from_the_cache_share_one_compile():
    # a table mapped from the cache is read-only, a fresh one writable: two
    # argument types to numba; both reach the kernels read-only
    from wsdb.engine import kernels

    keys = distinct_keys(np.random.default_rng(5), 1000, 1)
    index, _ = KeyIndex.of(keys)
    filt = KeyFilter.sized(1000)
    filt.add(keys)
    want = index.rows(keys[:100]), filt.has(keys[:100])
    compiled = list(kernels.find_bucketed.signatures), list(kernels.filter_has.signatures)
    for a in (index.keys, index.starts, filt.words):
        a.flags.writeable = False
    assert np.array_equal(index.rows(keys[:100]), want[0]) and np.array_equal(filt.has(keys[:100]), want[1])
    assert (list(kernels.find_bucketed.signatures), list(kernels.filter_has.signatures)) == compiled
