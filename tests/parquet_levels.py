"""A stored tree written out as Parquet levels in this process, without
Dask: each depth cut into partitions by the key's hash, each partition
sorted by key, and the manifest, as wsdb/db/levels.py lays them out. The
import and PostgreSQL tests start from it, so the rows they load come from
the single-process engine, not from the engine under test; and the check
that two databases hold one tree row for row."""

import numpy as np

from wsdb.db.levels import LevelEntry, LevelFolder, Manifest
from wsdb.db.store import Store
from wsdb.engine import get_engine
from wsdb.engine.keys import sortable
from wsdb.engine.partition import owner
from wsdb.puzzle.tree_key import TreeKey


def write_levels(db, n: int, c: int, url: str, partitions: int = 4) -> Manifest:
    store, tree = Store.open(db), TreeKey.wrapslide(n, c)
    row = store.require_build(tree)
    layout = get_engine(n, c).layout
    folder = LevelFolder(url)
    man = Manifest("wrapslide", n, c, "all", layout.words, complete=bool(row["complete"]), max_depth=row["max_depth"])
    for lv in store.level_rows(tree):
        reps, _, parents, orbits = store.load(tree, layout, depth=lv["depth"])
        who = owner(reps, partitions)
        counts = []
        for j in range(partitions):
            mine = np.flatnonzero(who == j)
            mine = mine[np.argsort(sortable(reps[mine]), kind="stable")]
            folder.write_part(man, lv["depth"], j, reps[mine], parents[mine], orbits[mine])
            counts.append(len(mine))
        man.levels.append(LevelEntry(lv["depth"], partitions, lv["classes"], lv["states"], counts, seconds=0.5))
    folder.write_manifest(man)
    return man


def same_tree(a, b, n: int, c: int) -> tuple[dict, dict]:
    """Levels, classes, parents and the build row's facts identical, row by
    row, in databases ``a`` and ``b``; their build rows."""
    a, b, tree = Store.open(a), Store.open(b), TreeKey.wrapslide(n, c)
    assert a.level_rows(tree) == b.level_rows(tree)
    layout = get_engine(n, c).layout
    for x, y in zip(a.load(tree, layout), b.load(tree, layout)):
        assert np.array_equal(x, y)
    ra, rb = a.build_row(tree), b.build_row(tree)
    for k in ("complete", "god_number", "height", "classes", "states", "max_depth", "status"):
        assert ra[k] == rb[k], k
    return ra, rb
