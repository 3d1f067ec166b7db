"""Derived arrays cached beside the database (wsdb/db/cache.py)."""

import numpy as np

from wsdb.db.cache import cache_file, cached_array, why_unusable

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
    assert not [f for f in cache_file(db, "t", BUILD).parent.iterdir() if f.name.startswith(".")]


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


# ---- processes sharing the folder, damaged files ---------------------------------------

DERIVE = """
import sys, time
import numpy as np
from pathlib import Path
from wsdb.db.cache import cached_array
t = float(sys.argv[2])
def make():
    time.sleep(max(0.0, t - time.time()))  # both derive at the same instant
    return np.arange(3_000_000, dtype=np.uint64) * 7
a = cached_array(Path(sys.argv[1]), "t", {"built_at": "2026-11-22T10:00:00+00:00", "classes": 78}, make)
print(int(a.sum()))
"""


def test_two_processes_deriving_one_table_at_once_both_succeed_with_the_same_bytes(tmp_path):
    import subprocess
    import sys
    import time

    db = tmp_path / "x.sqlite"
    t = time.time() + 2.5
    procs = [
        subprocess.Popen([sys.executable, "-c", DERIVE, str(db), str(t)], stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    want = int((np.arange(3_000_000, dtype=np.uint64) * 7).sum())
    assert [p.returncode for p in procs] == [0, 0] and [int(o) for o in outs] == [want, want]
    path = cache_file(db, "t", BUILD)
    assert (np.load(path) == np.arange(3_000_000, dtype=np.uint64) * 7).all()
    assert sorted(f.name for f in path.parent.iterdir()) == [path.name, path.name + ".sum"]  # no temporary left


def _damaged_is_made_again(tmp_path, damage):
    from wsdb.notices import listening

    db = tmp_path / "x.sqlite"
    cached_array(db, "t", BUILD, lambda: np.arange(100_000))
    path = cache_file(db, "t", BUILD)
    damage(path)
    said, calls = [], []

    def make():
        calls.append(1)
        return np.arange(100_000)

    with listening(said.append):
        again = cached_array(db, "t", BUILD, make, mmap=True)
    assert calls == [1] and (again == np.arange(100_000)).all()
    assert any(str(path) in line and "derived again" in line for line in said), said
    assert (np.load(path) == np.arange(100_000)).all() and why_unusable(path) is None  # replaced
    return said


def test_a_truncated_cache_file_is_said_made_again_and_replaced(tmp_path):
    def cut(path):
        with open(path, "r+b") as f:
            f.truncate(path.stat().st_size // 2)

    (line,) = [s for s in _damaged_is_made_again(tmp_path, cut) if "not used" in s]
    assert "bytes where its checksum says" in line


def test_a_cache_file_of_another_table_copied_over_one_is_never_used(tmp_path):
    def other_grid(path):  # the same shape and size, other numbers: only the hash tells
        np.save(path, np.arange(100_000)[::-1].copy())

    (line,) = [s for s in _damaged_is_made_again(tmp_path, other_grid) if "not used" in s]
    assert "do not match its checksum" in line


def test_a_cache_file_without_its_checksum_is_made_again(tmp_path):
    def unsummed(path):
        path.with_name(path.name + ".sum").unlink()

    assert any("no checksum" in s for s in _damaged_is_made_again(tmp_path, unsummed))


def test_two_first_solves_of_one_grid_on_a_fresh_database_both_answer(tmp_path, db4):
    import shutil
    import subprocess
    import sys
    import time

    db = tmp_path / "fresh.sqlite"
    shutil.copy(db4, db)
    state = "1212/3434/1243/3421"
    at = (
        "import sys, time; from wsdb.cli import entry; import wsdb.solver.solve; t = float(sys.argv[1]); "
        "sys.argv = ['wsdb'] + sys.argv[2:]; time.sleep(max(0.0, t - time.time())); entry()"
    )
    t = time.time() + 3
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", at, str(t), "solve", state, "--db", str(db), "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    import json

    answers = [json.loads(o) for o, _ in outs]
    assert answers[0]["moves"] == answers[1]["moves"] and answers[0]["optimal"]
    folder = db.with_name(db.name + ".cache")
    tables = sorted(folder.glob("*.npy"))
    assert tables and all(why_unusable(p) is None for p in tables)
    assert not [f for f in folder.iterdir() if f.name.startswith(".")]  # no temporary left
