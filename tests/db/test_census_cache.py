"""The census of a two-colour grid and the levels read from it, cached
beside the database (wsdb/db/census_cache.py): read back equal to what a
fresh census makes, shared by grids with the same rules, refused where
the file does not fit."""

from types import SimpleNamespace

import numpy as np
import pytest

import wsdb
from wsdb.db.census_cache import cached_level, cached_subset_table, rules_digest
from wsdb.db.store import Store
from wsdb.engine.census import subset_table
from wsdb.puzzle.model import merged, wrapslide
from wsdb.solver.pairs import coarse


@pytest.fixture
def store(tmp_path):
    db = tmp_path / "w.sqlite"
    wsdb.build(4, 2, db=db)
    s = Store.open(db)
    yield s
    s.close()


def test_the_census_is_made_once_and_read_back_equal(store, tmp_path):
    grid = merged(wrapslide(4, 3), "12")
    fresh = subset_table(grid)
    made = cached_subset_table(store, grid)
    files = sorted(p.name for p in (tmp_path / "w.sqlite.cache").glob("census*.npy"))
    assert len(files) == 3
    read = cached_subset_table(store, grid)
    for table in (made, read):
        assert np.array_equal(table.words, fresh.words)
        assert table.states == fresh.states and table.height == fresh.height
        assert np.array_equal(table.last, fresh.last)
    level = cached_level(store, grid, read, fresh.height - 1)
    assert np.array_equal(level, fresh.ranking.level(fresh.words, fresh.height - 1, grid.maps))
    assert np.array_equal(cached_level(store, grid, read, fresh.height - 1), level)  # read back
    assert len(list((tmp_path / "w.sqlite.cache").glob("census*.npy"))) == 4


def test_a_resident_census_is_read_into_the_process_and_equal(store, tmp_path):
    # mapped: pages of the file, shared; resident: the process's own memory
    grid = merged(wrapslide(4, 3), "12")
    cached_subset_table(store, grid)
    mapped, resident = cached_subset_table(store, grid), cached_subset_table(store, grid, resident=True)
    assert isinstance(mapped.words, np.memmap) and not isinstance(resident.words, np.memmap)
    assert np.array_equal(resident.words, mapped.words) and resident.states == mapped.states


def test_grids_with_the_same_rules_share_one_file_and_others_do_not():
    # the pair bound's grid of 4x4 four colours is 4x4 three colours with 1 and 2 merged
    assert rules_digest(coarse(wrapslide(4, 4), (0, 1))) == rules_digest(merged(wrapslide(4, 3), "12"))
    assert rules_digest(merged(wrapslide(4, 3), "12")) != rules_digest(wrapslide(4, 2))


def test_a_cached_census_that_is_damaged_is_made_again_never_used(store, tmp_path):
    grid = merged(wrapslide(4, 3), "12")
    fresh = subset_table(grid)
    cached_subset_table(store, grid)
    words = next((tmp_path / "w.sqlite.cache").glob("census*-words-*.npy"))
    for damage in (
        lambda: np.save(words, np.zeros(3, dtype=np.uint64)),  # another table's bytes
        lambda: words.write_bytes(b"\x93NUMPY"),  # cut short
        lambda: words.unlink(),  # gone
    ):
        damage()
        table = cached_subset_table(store, grid)
        assert np.array_equal(table.words, fresh.words) and table.states == fresh.states
    level = cached_level(store, grid, table, 3)
    next((tmp_path / "w.sqlite.cache").glob("census*-level3-*.npy")).write_bytes(b"\x93NUMPY")
    assert np.array_equal(cached_level(store, grid, table, 3), level)


def test_without_a_database_file_it_is_only_made(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    grid = merged(wrapslide(4, 3), "12")
    table = cached_subset_table(SimpleNamespace(path=None), grid)  # a server or in-memory store
    assert table.height == subset_table(grid).height
    assert not list(tmp_path.iterdir())
