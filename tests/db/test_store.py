"""The database layer (wsdb/db/store.py): schema by Alembic, foreign or
missing databases refused, interrupted builds leave no trace."""

import hashlib
import sqlite3

import pytest

import wsdb
from wsdb.db.store import HEAD, Store
from wsdb.db.tree_writer import TreeWriter
from wsdb.engine.keys import KeyLayout
from wsdb.errors import WsdbError
from wsdb.puzzle.tree_key import TreeKey


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_schema_comes_from_the_migrations(tmp_path):
    db = tmp_path / "new.sqlite"
    Store.open(db, create=True)
    with sqlite3.connect(db) as conn:
        names = {r[0] for r in conn.execute("select name from sqlite_master where type='table'")}
        views = {r[0] for r in conn.execute("select name from sqlite_master where type='view'")}
        version = conn.execute("select version_num from alembic_version").fetchone()[0]
    assert {"builds", "levels", "class_rows", "alembic_version"} <= names and version == HEAD
    assert views == {"classes"}


def test_missing_database_is_not_created(tmp_path):
    with pytest.raises(WsdbError, match="no database at"):
        wsdb.lookup("1212/3434/1243/3421", db=tmp_path / "nope.sqlite")
    assert not (tmp_path / "nope.sqlite").exists()


def test_foreign_and_broken_databases_are_refused_untouched(tmp_path):
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("create table people (name text)")
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is not sqlite" * 100)
    for path, fragment in [(foreign, "not a wsdb database"), (garbage, "not a SQLite database")]:
        before = digest(path)
        for call in (lambda: wsdb.lookup("1212/3434/1243/3421", db=path), lambda: wsdb.build(4, 2, db=path)):
            with pytest.raises(WsdbError, match=fragment):
                call()
        assert digest(path) == before


def test_unbuilt_grid_says_how_to_build_it(db4):
    with pytest.raises(WsdbError, match="wsdb build --n 6 --c 2"):
        wsdb.lookup("111222/111222/111222/222222/222222/222222", db=db4)


def test_an_interrupted_build_keeps_its_levels_and_resumes_to_the_same_rows(tmp_path, monkeypatch):
    clean = tmp_path / "clean.sqlite"
    wsdb.build(4, 3, db=clean)
    db = tmp_path / "i.sqlite"
    calls = {"n": 0}
    real = TreeWriter.level_row

    def dying(*args, **kwargs):  # dies while level 5 is handed to the store
        calls["n"] += 1
        if calls["n"] == 6:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(TreeWriter, "level_row", dying)
    with pytest.raises(KeyboardInterrupt):
        wsdb.build(4, 3, db=db)
    s = Store.open(db)
    row = s.build_row(TreeKey.wrapslide(4, 3))
    assert row["status"] == "building" and row["height"] == 4 and len(s.level_rows(TreeKey.wrapslide(4, 3))) == 5
    with pytest.raises(WsdbError, match="interrupted at depth 4.*wsdb build --n 4 --c 3"):
        wsdb.lookup("1212/1212/3333/3333", db=db)
    monkeypatch.setattr(TreeWriter, "level_row", real)
    computed = []
    tree, row = wsdb.build(4, 3, db=db, progress=lambda level, seconds: computed.append(level.depth))
    assert row["status"] == "done" and row["god_number"] == 10
    assert computed == [5, 6, 7, 8, 9, 10]  # levels 0-4 were found stored, not redone
    assert [lv.classes for lv in tree.levels] == [2, 2, 7, 28, 107, 445, 1684, 5160, 6260, 825, 3]
    with sqlite3.connect(db) as a, sqlite3.connect(clean) as b:
        q = "select rep, grid, depth, parent, orbit_size from classes order by rep"
        assert a.execute(q).fetchall() == b.execute(q).fetchall()
        q = "select depth, classes, states from levels order by depth"
        assert a.execute(q).fetchall() == b.execute(q).fetchall()
    assert wsdb.verify(4, 3, db=db).ok


def test_a_finished_partial_build_goes_deeper(tmp_path):
    db = tmp_path / "d.sqlite"
    wsdb.build(4, 4, db=db, max_depth=6)
    tree, row = wsdb.build(4, 4, db=db, max_depth=9)
    assert row["height"] == 9 and not row["complete"] and len(tree.levels) == 10
    tree, row = wsdb.build(4, 4, db=db)
    assert row["complete"] and row["god_number"] == 12 and wsdb.verify(4, 4, db=db).ok


def test_keys_and_depths_match_the_full_load(db4):
    store = Store.open(db4)
    layout = KeyLayout.for_colours(16, 4)
    reps, depths, _, _ = store.load(TreeKey.wrapslide(4, 4), layout)
    keys, dep = store.keys_and_depths(TreeKey.wrapslide(4, 4), layout, chunk=1000)  # many chunks
    assert (keys == reps).all() and (dep == depths).all()


def test_fetch_finds_stored_keys_and_their_parents(db4):
    store = Store.open(db4)
    layout = KeyLayout.for_colours(16, 4)
    reps, depths, parents, _ = store.load(TreeKey.wrapslide(4, 4), layout)
    pick = [0, 5, len(reps) // 2, len(reps) - 1]
    found, depth, par = store.fetch(TreeKey.wrapslide(4, 4), layout, reps[pick])
    assert found.all() and (depth == depths[pick]).all()
    deeper = depth > 0
    assert (par[deeper] == parents[pick][deeper]).all()
    missing = layout.encode([[3] * 16])  # not a 4x4 four-colour state at all
    assert store.fetch(TreeKey.wrapslide(4, 4), layout, missing)[0].tolist() == [False]


def test_a_second_store_in_one_process_keeps_the_first_ones_writes(db4, tmp_path):
    # closing any descriptor of a file drops the process's POSIX locks on it, SQLite's too: a second
    # Store.open that read the file's header left the first store's connection unlocked, another
    # process's reader then deleted the write-ahead log, and the first store's next commit was lost
    import shutil
    import subprocess
    import sys

    path = tmp_path / "w.sqlite"
    shutil.copy(db4, path)
    first = Store.open(path, write=True)
    with first.sql.connect() as conn:  # a connection the pool keeps open, as a long proof's is
        conn.exec_driver_sql("select count(*) from builds").all()
        conn.exec_driver_sql("pragma journal_mode").all()
        Store.open(path)  # as `wsdb bounds prove` opens it again for the solver
        subprocess.run(
            [
                sys.executable,
                "-c",
                f"import sqlite3; c = sqlite3.connect({str(path)!r}); "
                "c.execute('select count(*) from builds').fetchall(); c.close()",
            ],
            check=True,
        )
    row = dict(
        n=6,
        c=4,
        kind="lower",
        value=19,
        method="optimal",
        witness="{}",
        seconds=1.0,
        command="wsdb bounds prove X",
        proven_at="2026-11-26T00:00:00+00:00",
        version="0",
    )
    first.add_bound(row)
    first.sql.dispose()
    with sqlite3.connect(path) as conn:
        assert conn.execute("select count(*) from bounds where value = 19").fetchone()[0] == 1
