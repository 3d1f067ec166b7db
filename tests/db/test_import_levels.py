"""``wsdb import`` (wsdb/db/import_levels.py): a tree kept as Parquet levels
loaded into a database as class rows must be the single-process build, row
for row, and prove itself with verify; damaged levels and a tree already
stored are refused in one line with nothing written."""

import hashlib

import numpy as np
import pytest

import wsdb
from wsdb.db.store import Store
from wsdb.engine import get_engine
from wsdb.errors import DamagedError
from wsdb.puzzle.tree_key import TreeKey

from ..parquet_levels import same_tree, write_levels

pytest.importorskip("pyarrow")
pytest.importorskip("fsspec")


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """4x4 three colours whole and 6x6 three colours to depth 4 (keys of two
    words), built by the single-process engine, and their Parquet levels."""
    base = tmp_path_factory.mktemp("import")
    db = base / "local.sqlite"
    wsdb.build(4, 3, db=db)
    wsdb.build(6, 3, db=db, max_depth=4)
    levels = {(4, 3): str(base / "l43"), (6, 3): str(base / "l63")}
    write_levels(db, 4, 3, levels[(4, 3)])
    write_levels(db, 6, 3, levels[(6, 3)], partitions=8)
    return db, levels


def same_rows(a, b, n, c):
    _, row = same_tree(a, b, n, c)
    assert row["levels"] is None and row["builder"] is None


@pytest.mark.parametrize("n,c", [(4, 3), (6, 3)])
def test_an_import_stores_the_single_process_rows(source, tmp_path, run, n, c):
    local, levels = source
    db = tmp_path / "t.sqlite"
    res = run("import", levels[(n, c)], "--db", db, "-q")
    assert res.exit_code == 0, res.output
    same_rows(local, db, n, c)
    tree = TreeKey.wrapslide(n, c)
    assert Store.open(db).build_row(tree)["seconds"] == pytest.approx(
        0.5 * (Store.open(local).build_row(tree)["height"] + 1)
    )
    assert run("verify", "--n", n, "--c", c, "--db", db, "-q").exit_code == 0


def test_an_import_replaces_the_levels_its_own_build_names(source, tmp_path, run):
    local, levels = source
    db = tmp_path / "own.sqlite"
    assert run("import", levels[(4, 3)], "--db", db, "-q").exit_code == 0
    store = Store.open(db, write=True)  # as a dask build leaves it: the row names the levels
    store.update_build(TreeKey.wrapslide(4, 3), {"levels": levels[(4, 3)]})
    store.close()
    assert Store.open(db).build_row(TreeKey.wrapslide(4, 3))["levels"] == levels[(4, 3)]
    assert run("import", levels[(4, 3)], "--db", db, "-q").exit_code == 0
    same_rows(local, db, 4, 3)


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_tree_stored_as_rows_needs_force(source, tmp_path, run):
    local, levels = source
    db = tmp_path / "rows.sqlite"
    wsdb.build(4, 3, db=db)
    before = digest(db)
    res = run("import", levels[(4, 3)], "--db", db, "-q")
    assert res.exit_code == 2 and "--force" in res.stderr and len(res.stderr.splitlines()) == 1
    assert digest(db) == before
    assert run("import", levels[(4, 3)], "--db", db, "-q", "--force").exit_code == 0
    same_rows(local, db, 4, 3)


def test_damaged_levels_are_one_line_and_write_nothing(source, tmp_path, run):
    import shutil

    local, levels = source
    bad = tmp_path / "bad"
    shutil.copytree(levels[(4, 3)], bad)
    victim = bad / "depth_06" / "part-00002.parquet"
    db = tmp_path / "new.sqlite"
    cases = [
        ("a missing file", lambda: victim.unlink(), "part-00002.parquet is missing"),
        (
            "a replaced file",
            lambda: shutil.copy(bad / "depth_07" / "part-00002.parquet", victim),
            "part-00002.parquet holds",
        ),
        ("no manifest", lambda: (bad / "_manifest.json").unlink(), "no manifest"),
    ]
    for what, damage, said in cases:
        damage()
        res = run("import", bad, "--db", db, "-q")
        assert res.exit_code in (1, 2), what
        assert said in res.stderr and len(res.stderr.splitlines()) == 1, (what, res.stderr)
        assert not db.exists(), what
    res = run("import", tmp_path / "nowhere", "--db", db, "-q")
    assert res.exit_code == 2 and "nowhere: no such folder" in res.stderr and not db.exists()
    res = run("import", victim.parent / "part-00001.parquet", "--db", db, "-q")
    assert res.exit_code == 2 and "a file, not a folder" in res.stderr and not db.exists()


@pytest.mark.parametrize("n,c", [(4, 3), (6, 3)])
def test_the_solvers_reader_of_parquet_levels_equals_the_rows(source, n, c):
    """keys_and_depths (the solver's endgame) reads only the key columns of
    a Parquet tree: the same sorted keys and depths as from the rows."""
    from wsdb.db.levels import ParquetTree

    local, levels = source
    want = Store.open(local).keys_and_depths(TreeKey.wrapslide(n, c), get_engine(n, c).layout)
    got = ParquetTree(levels[(n, c)]).keys_and_depths(TreeKey.wrapslide(n, c))
    assert np.array_equal(want[0], got[0]) and np.array_equal(want[1], got[1]) and got[1].dtype == np.int8
    with pytest.raises(DamagedError, match="not of this build"):
        ParquetTree(levels[(n, c)]).keys_and_depths(TreeKey.wrapslide(n, c + 1))


def test_an_interrupted_import_is_finished_by_running_it_again(source, tmp_path, run, monkeypatch):
    from wsdb.db.store import Store as RealStore

    local, levels = source
    db = tmp_path / "cut.sqlite"
    real = RealStore.add_level

    def add_level(self, key, row, columns, totals, lease=None):  # the import dies after storing depth 5
        real(self, key, row, columns, totals, lease)
        if row["depth"] == 5:
            raise KeyboardInterrupt

    monkeypatch.setattr(RealStore, "add_level", add_level)
    res = run("import", levels[(4, 3)], "--db", db, "-q")
    assert res.exit_code == 130 and "run it again" in res.stderr
    assert Store.open(db).build_row(TreeKey.wrapslide(4, 3))["status"] == "building"
    monkeypatch.setattr(RealStore, "add_level", real)
    assert run("import", levels[(4, 3)], "--db", db, "-q").exit_code == 0
    same_rows(local, db, 4, 3)


def test_random_states_of_a_level_are_the_same_from_parquet_levels(source, tmp_path):
    """`wsdb random --depth` reads a tree kept as Parquet levels through the
    same store call: the same seed draws the same states as from the rows."""
    import shutil
    import sqlite3

    from wsdb.db.sample import TreeSampler
    from wsdb.puzzle import wrapslide

    local, levels = source
    kept = tmp_path / "kept.sqlite"
    shutil.copy(local, kept)
    with sqlite3.connect(kept) as conn:
        conn.execute("update builds set levels = ? where n = 6 and c = 3", (levels[(6, 3)],))
    assert Store.open(kept).parquet(TreeKey.wrapslide(6, 3)) is not None
    rows, parquet = (TreeSampler(wrapslide(6, 3), db, depth=4) for db in (local, kept))
    assert rows.states == parquet.states > 0
    draw = [s.draw(200, np.random.default_rng(9)) for s in (rows, parquet)]
    assert (draw[0] == draw[1]).all()
