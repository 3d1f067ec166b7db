"""The partitioned search (wsdb/engine/partition.py) without Dask: its
steps run in this process must grow exactly the levels of the
single-process search, for any number of partitions."""

import numpy as np
import pytest

from wsdb.engine import get_engine
from wsdb.engine.bfs import first_level, grow
from wsdb.engine.keys import sortable
from wsdb.engine.partition import expand_partition, key_hash, merge_partition, owner, sorted_share, sources, split


def test_partitions_nest_and_cover():
    rng = np.random.default_rng(1)
    keys = rng.integers(0, 2**63, size=(5000, 2), dtype=np.int64).astype(np.uint64)
    for p in (1, 2, 8, 64):
        who = owner(keys, p)
        assert who.min() >= 0 and who.max() < p
        # a key's partition under 2P is its partition under P, or that plus P
        assert ((owner(keys, 2 * p) & (p - 1)) == who).all()
    # a fair spread: no partition of 8 holds twice its share
    assert np.bincount(owner(keys, 8), minlength=8).max() < 2 * 5000 / 8
    assert (key_hash(keys) == key_hash(keys.copy())).all()


def test_sources_name_every_partition_that_can_hold_a_key():
    rng = np.random.default_rng(2)
    keys = rng.integers(0, 2**63, size=(2000, 1), dtype=np.int64).astype(np.uint64)
    for new, old in ((4, 4), (8, 2), (2, 8), (1, 4), (16, 1)):
        for j in range(new):
            mine = owner(keys, new) == j
            assert set(owner(keys[mine], old).tolist()) <= set(sources(j, new, old))


def test_split_keeps_every_row_once():
    keys = np.arange(100, dtype=np.uint64).reshape(-1, 1)
    pieces = split(keys, keys + np.uint64(1000), 4)
    got = np.concatenate([k for k, _ in pieces])
    assert sorted(got[:, 0].tolist()) == list(range(100))
    for j, (k, p) in enumerate(pieces):
        assert (owner(k, 4) == j).all() and (p == k + np.uint64(1000)).all()


def grow_partitioned(eng, partitions, max_depth=None):
    """The partitioned search run level by level in this process."""
    level0 = first_level(eng, "all")
    levels = [[k for k, _ in split(level0.reps, level0.reps, partitions)]]
    parents = [[np.zeros_like(k) for k in levels[0]]]
    while max_depth is None or len(levels) <= max_depth:
        pieces = [expand_partition(eng, part, partitions) for part in levels[-1]]
        new, new_parents = [], []
        for j in range(partitions):
            above = sorted_share(levels[-1], j, partitions)
            above2 = sorted_share(levels[-2], j, partitions) if len(levels) > 1 else sorted_share([], j, partitions)
            reps, par = merge_partition([p[j] for p in pieces], above, above2, eng.layout.words)
            new.append(reps)
            new_parents.append(par)
        if not sum(len(r) for r in new):
            break
        levels.append(new)
        parents.append(new_parents)
    return levels, parents


@pytest.mark.parametrize("c,partitions", [(2, 1), (3, 4), (4, 8)])
def test_partitioned_search_grows_the_single_process_tree(c, partitions):
    eng = get_engine(4, c)
    tree = grow(eng)
    levels, parents = grow_partitioned(eng, partitions)
    assert len(levels) == len(tree.levels)
    for lv, parts, pars in zip(tree.levels, levels, parents):
        reps = np.concatenate(parts)
        par = np.concatenate(pars)
        order = np.argsort(sortable(reps))
        assert (reps[order] == lv.reps).all()
        if lv.depth:  # the same parent as the single-process search keeps, class by class
            assert (par[order] == lv.parents).all()
        for j, part in enumerate(parts):  # each partition sorted, and only its own keys
            assert (owner(part, partitions) == j).all()
            key = sortable(part)
            assert (key[1:] > key[:-1]).all()
