"""Derived arrays cached beside the database (wsdb/db/cache.py)."""

import numpy as np

from wsdb.db.cache import cache_file, cached_array

BUILD = {"built_at": "2026-11-22T10:00:00+00:00", "classes": 78}


def test_made_once_then_read(tmp_path):
    db = tmp_path / "x.sqlite"
    calls = []

    def make():
        calls.append(1)
        return np.arange(10)

    first = cached_array(db, "t", BUILD, make)
    second = cached_array(db, "t", BUILD, make, mmap=True)
    assert calls == [1] and (first == second).all()
    assert cache_file(db, "t", BUILD).exists()
    assert not list(cache_file(db, "t", BUILD).parent.glob("*.tmp.npy"))


def test_a_rebuild_invalidates(tmp_path):
    db = tmp_path / "x.sqlite"
    other = dict(BUILD, built_at="2026-11-23T10:00:00+00:00")
    assert cache_file(db, "t", BUILD) != cache_file(db, "t", other)


def test_in_memory_databases_get_no_cache():
    assert cache_file(None, "t", BUILD) is None
    assert cached_array(None, "t", BUILD, lambda: np.ones(3)).sum() == 3


def test_a_mapped_table_is_read_only_when_made_as_when_read(tmp_path):
    """A kernel compiles once per argument type and a read-only array is its
    own type: the process that makes a table and every later one that maps
    it must pass the same type, so that numba's cache serves both."""
    db = tmp_path / "x.sqlite"
    made = cached_array(db, "t", BUILD, lambda: np.arange(10), mmap=True)
    read = cached_array(db, "t", BUILD, lambda: np.arange(10), mmap=True)
    assert not made.flags.writeable and not read.flags.writeable
    assert cached_array(None, "t", BUILD, lambda: np.arange(10), mmap=True).flags.writeable is False
    assert cached_array(db, "u", BUILD, lambda: np.arange(10)).flags.writeable  # not mapped: as made
