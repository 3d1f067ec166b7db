"""Parquet levels (wsdb/db/levels.py) open with the one call each reader
documents, local and through an fsspec URL, and give the rows of `wsdb
export` of the same tree (written by another path: SQL rows streamed to one
file); each file names its tree; folders of the first layout still read."""

import json
import shutil

import numpy as np
import pytest

import wsdb
from wsdb.db.levels import LevelFolder, ParquetTree
from wsdb.db.parquet_meta import read_tree_metadata
from wsdb.db.store import Store
from wsdb.engine import get_engine
from wsdb.puzzle.tree_key import TreeKey

from ..parquet_levels import write_levels

pa = pytest.importorskip("pyarrow")
pytest.importorskip("fsspec")
COLUMNS = ["rep", "depth", "parent", "orbit_size"]


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """4x4 three colours (14,523 classes) built, exported and kept as levels."""
    base = tmp_path_factory.mktemp("readers")
    db = base / "w.sqlite"
    wsdb.build(4, 3, db=db)
    levels = base / "levels"
    write_levels(db, 4, 3, str(levels))
    from wsdb.stats.export import export

    export(4, 3, base / "export.parquet", db=db)
    import pandas as pd

    expected = pd.read_parquet(base / "export.parquet")[COLUMNS]
    return db, levels, _rows(expected)


def _rows(df) -> list[tuple]:
    """The rows as plain Python values, sorted: a null parent is None."""
    df = df[COLUMNS]
    return sorted(
        (int(r), int(d), None if p is None or p != p else int(p), int(o))
        for r, d, p, o in zip(
            df["rep"].tolist(),
            df["depth"].tolist(),
            df["parent"].astype(object).where(df["parent"].notna(), None).tolist(),
            df["orbit_size"].tolist(),
        )
    )


def test_the_export_is_the_tree(tree):
    db, _, expected = tree
    assert len(expected) == Store.open(db).require_build(TreeKey.wrapslide(4, 3))["classes"] == 14_523
    assert sum(1 for r in expected if r[2] is None) == sum(1 for r in expected if r[1] == 0) > 0


def test_pandas_reads_the_folder_with_integer_columns(tree):
    import pandas as pd

    _, levels, expected = tree
    df = pd.read_parquet(levels)
    assert _rows(df) == expected
    assert {str(df[c].dtype) for c in ("rep", "depth", "orbit_size")} <= {"uint64", "int16", "int64"}
    assert str(df["parent"].dtype) == "UInt64"


def test_dask_reads_the_folder(tree):
    dd = pytest.importorskip("dask.dataframe")
    _, levels, expected = tree
    df = dd.read_parquet(str(levels)).compute()
    assert _rows(df) == expected
    assert str(df["parent"].dtype) == "UInt64"


def test_pyarrow_reads_the_folder_as_a_hive_dataset(tree):
    import pyarrow.dataset as ds

    _, levels, expected = tree
    table = ds.dataset(str(levels), partitioning="hive").to_table()
    assert table.schema.field("depth").type == pa.int16()
    assert _rows(table.to_pandas()) == expected


def test_duckdb_reads_the_folder_with_hive_partitioning(tree):
    duckdb = pytest.importorskip("duckdb")
    _, levels, expected = tree
    con = duckdb.connect()
    got = con.execute(
        f"select rep, depth, parent, orbit_size from read_parquet('{levels}/**/*.parquet', hive_partitioning = true)"
    ).fetchall()
    assert sorted(got) == expected
    meta = con.execute(f"select key, value from parquet_kv_metadata('{levels}/depth_00/*.parquet')").fetchall()
    assert (b"wsdb.puzzle", b"wrapslide") in meta


def test_readers_open_an_fsspec_url(tree):
    import fsspec
    import pandas as pd

    _, levels, expected = tree
    mem = fsspec.filesystem("memory")
    mem.put(str(levels), "/readers-levels", recursive=True)
    try:
        assert _rows(pd.read_parquet("memory://readers-levels")) == expected
        duckdb = pytest.importorskip("duckdb")
        con = duckdb.connect()
        con.register_filesystem(mem)
        got = con.execute(
            "select rep, depth, parent, orbit_size from "
            "read_parquet('memory://readers-levels/**/*.parquet', hive_partitioning = true)"
        ).fetchall()
        assert sorted(got) == expected
    finally:
        mem.rm("/readers-levels", recursive=True)


def test_each_file_names_its_tree_and_its_wsdb(tree):
    import pyarrow.parquet as pq

    _, levels, _ = tree
    files = sorted(levels.glob("depth_*/*.parquet"))
    assert files
    for f in files:
        facts = read_tree_metadata(pq.read_metadata(f).metadata)
        assert facts["puzzle"] == "wrapslide" and (facts["n"], facts["c"], facts["root"]) == ("4", "3", "all")
        assert facts["depth"] == str(int(f.parent.name.split("_")[1]))
        assert facts["version"] == wsdb.__version__
        assert "order" in facts["symmetry"]


def test_a_folder_of_the_first_layout_still_reads(tree, tmp_path):
    """format 1: manifest.json, depth=DD folders, the roots' parent stored as 0."""
    db, levels, _ = tree
    old = tmp_path / "old"
    shutil.copytree(levels, old)
    for d in sorted(old.glob("depth_*")):
        d.rename(old / d.name.replace("depth_", "depth="))
    man = json.loads((old / "_manifest.json").read_text())
    (old / "_manifest.json").unlink()
    (old / "manifest.json").write_text(json.dumps(dict(man, format=1)))
    t, layout = TreeKey.wrapslide(4, 3), get_engine(4, 3).layout
    new, first = ParquetTree(str(levels)).load_all(t), ParquetTree(str(old)).load_all(t)
    for a, b in zip(new, first):
        assert np.array_equal(a, b)
    assert LevelFolder(str(old)).manifest().format == 1
    reps = Store.open(db).load(t, layout)[0][::997]
    found, depth, _ = ParquetTree(str(old)).fetch(t, layout, reps)
    assert found.all() and np.array_equal(depth, Store.open(db).fetch(t, layout, reps)[1])
