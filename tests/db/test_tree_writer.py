"""One writer of build rows (wsdb/db/tree_writer.py): a tree written
through it from the in-memory search is the tree `wsdb build` stores, and
it proves itself right; a row another live process holds is refused."""

import sqlite3

import pytest

import wsdb
from wsdb.db.store import Store
from wsdb.db.tree_writer import TreeWriter, class_columns
from wsdb.engine import get_engine
from wsdb.engine.bfs import grow
from wsdb.errors import WsdbError
from wsdb.puzzle.tree_key import TreeKey


@pytest.mark.parametrize("c", [2, 3])
def test_levels_written_through_the_writer_are_the_built_tree_and_verify(tmp_path, c):
    key = TreeKey.wrapslide(4, c)
    eng = get_engine(4, c)
    tree = grow(eng)  # the pure search, in memory
    said = []
    written = tmp_path / "w.sqlite"
    with TreeWriter.claim(written, key, progress=lambda level, s: said.append(level.depth)) as writer:
        writer.begin(tree.levels[0], None, class_columns(tree.levels[0], eng))
        for level in tree.levels[1:]:
            writer.put(level, eng)
    row = writer.finish(tree)
    assert said == list(range(len(tree.levels)))
    assert row["status"] == "done" and row["complete"] and row["god_number"] == len(tree.levels) - 1
    built = tmp_path / "b.sqlite"
    wsdb.build(4, c, db=built)
    a, b = Store.open(written), Store.open(built)
    assert a.level_rows(key) == b.level_rows(key)
    for x, y in zip(a.load(key, eng.layout), b.load(key, eng.layout)):
        assert (x == y).all()
    assert wsdb.verify(4, c, db=written).ok


def test_a_row_another_live_process_holds_is_refused_in_one_line(tmp_path):
    db = tmp_path / "w.sqlite"
    wsdb.build(4, 2, db=db)
    with sqlite3.connect(db) as conn:  # a build another host started: counted as alive
        conn.execute("update builds set status = 'building', builder = 'otherhost:1234' where n = 4 and c = 2")
    with pytest.raises(WsdbError, match="still running .*by otherhost:1234"):
        TreeWriter.claim(db, TreeKey.wrapslide(4, 2))
    assert TreeWriter.claim(db, TreeKey.wrapslide(4, 3)).stored is None  # another tree of the file is free
