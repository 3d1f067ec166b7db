"""Exports (wsdb/stats/export.py): every class, streamed, and nothing
half-written."""

import csv

import pyarrow.parquet as pq
import pytest

import wsdb
from wsdb.db.store import Store
from wsdb.engine.keys import KeyLayout
from wsdb.errors import WsdbError
from wsdb.puzzle.tree_key import TreeKey
from wsdb.stats.export import export


def stored(db, n, c):
    layout = KeyLayout.for_colours(n * n, c)
    reps, depth, parents, orbits = Store.open(db).load(TreeKey.wrapslide(n, c), layout)
    return {
        layout.to_int(r): (int(d), layout.to_int(p) if d else None, int(o))
        for r, d, p, o in zip(reps, depth, parents, orbits)
    }


def test_csv_holds_every_class_in_small_chunks(db4, tmp_path):
    out = tmp_path / "c3.csv"
    assert export(4, 3, out, db=db4, chunk=1000) == 14523
    with open(out) as f:
        rows = list(csv.DictReader(f))
    want = stored(db4, 4, 3)
    got = {
        int(r["rep"]): (int(r["depth"]), int(r["parent"]) if r["parent"] else None, int(r["orbit_size"])) for r in rows
    }
    assert got == want
    assert all(wsdb.parse_state(r["grid"])[0].n == 4 for r in rows[:50])


def test_parquet_with_wide_keys_as_decimal_text(tmp_path):
    db = tmp_path / "w.sqlite"
    wsdb.build(6, 4, db=db, max_depth=3)
    out = tmp_path / "w.parquet"
    count = export(6, 4, out, db=db, chunk=50)
    table = pq.read_table(out).to_pydict()
    assert count == len(table["rep"]) == Store.open(db).build_row(TreeKey.wrapslide(6, 4))["classes"]
    want = stored(db, 6, 4)
    got = {
        int(r): (d, int(p) if p else None, o)
        for r, d, p, o in zip(table["rep"], table["depth"], table["parent"], table["orbit_size"])
    }
    assert got == want


def test_failures_leave_no_file_and_keep_an_old_one(db4, tmp_path, monkeypatch):
    with pytest.raises(WsdbError, match="does not exist"):
        export(4, 2, tmp_path / "no" / "x.csv", db=db4)
    with pytest.raises(WsdbError, match="expected csv, jsonl or parquet"):
        export(4, 2, tmp_path / "x.txt", db=db4)
    old = tmp_path / "old.csv"
    old.write_text("precious\n")

    def dying(*args, **kwargs):
        yield [(1, 0, None, 1)]
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Store, "iter_classes", dying)
    with pytest.raises(WsdbError, match="No space left"):
        export(4, 2, old, db=db4)
    assert old.read_text() == "precious\n" and sorted(p.name for p in tmp_path.iterdir()) == ["old.csv"]


def test_the_command(run, db4, tmp_path):
    res = run("export", tmp_path / "a.csv", "--n", 4, "--c", 2, "--db", db4)
    assert res.exit_code == 0 and "wrote 78 classes" in res.stdout
    res = run("export", tmp_path / "a.dat", "--n", 4, "--c", 2, "--format", "parquet", "--db", db4)
    assert res.exit_code == 0 and pq.read_table(tmp_path / "a.dat").num_rows == 78
    res = run("export", tmp_path / "b.csv", "--n", 6, "--c", 2, "--db", db4)
    assert res.exit_code == 2 and "wsdb build --n 6 --c 2" in res.stderr


def test_a_target_that_is_not_a_regular_file_is_refused(run, db4, tmp_path):
    # the finished file is renamed into place: over a FIFO or a device it would replace it
    import os

    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    res = run("export", fifo, "--n", 4, "--c", 2, "--db", db4)
    assert res.exit_code == 2 and "not a regular file" in res.stderr
    assert fifo.is_fifo()
    link = tmp_path / "full.csv"
    link.symlink_to("/dev/full")
    res = run("export", link, "--n", 4, "--c", 2, "--db", db4)
    assert res.exit_code == 2 and "not a regular file" in res.stderr and link.is_symlink()


def test_a_long_export_tells_how_far_it_has_got(db4, tmp_path, monkeypatch):
    """No wait of over 2 seconds is silent: the export is announced, counts
    the classes written against the build's own count, and ends on the whole."""
    from wsdb import notices

    monkeypatch.setattr(notices, "QUIET_FOR", 0.0)
    counted = []
    real = notices.Step.count
    monkeypatch.setattr(notices.Step, "count", lambda st, *a: (real(st, *a), counted.append(st.status)))
    said = []
    with notices.listening(said.append):
        assert export(4, 3, tmp_path / "p.csv", db=db4, chunk=5000) == 14523
    assert [s.split(" (")[0] for s in counted] == [f"{k:,} of 14,523 classes" for k in (0, 5000, 10000, 14523)]
    assert said[0].startswith("exporting 4x4 3-colour to p.csv") and "done in" in said[-1]


def test_jsonl_and_standard_output_hold_the_same_rows(db4, tmp_path, run):
    import json

    want = stored(db4, 4, 3)
    res = run("export", "-", "--n", 4, "--c", 3, "--format", "jsonl", "--db", db4)
    assert res.exit_code == 0 and not (tmp_path / "-").exists()
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert {r["rep"]: (r["depth"], r["parent"], r["orbit_size"]) for r in rows} == want
    assert "wrote 14,523 classes" in res.stderr
    csv_out = run("export", "-", "--n", 4, "--c", 3, "--db", db4).stdout.splitlines()
    assert csv_out[0] == "rep,grid,depth,parent,orbit_size" and len(csv_out) == len(want) + 1
    out = tmp_path / "c3.jsonl"
    assert export(4, 3, out, db=db4) == len(want) and len(out.read_text().splitlines()) == len(want)


def test_parquet_names_its_tree_and_reads_back_integer_parents(db4, tmp_path):
    import pandas as pd

    from wsdb.db.parquet_meta import read_tree_metadata

    out = tmp_path / "c3.parquet"
    export(4, 3, out, db=db4)
    facts = read_tree_metadata(pq.read_metadata(out).metadata)
    assert (facts["puzzle"], facts["n"], facts["c"], facts["root"]) == ("wrapslide", "4", "3", "all")
    assert facts["version"] == wsdb.__version__ and "order 64" in facts["symmetry"]  # 32 maps x 2! colours
    df = pd.read_parquet(out)
    assert str(df["parent"].dtype) == "Int64" and str(df["rep"].dtype) == "int64"
    want = stored(db4, 4, 3)
    assert {int(r): None if pd.isna(p) else int(p) for r, p in zip(df.rep, df.parent)} == {
        r: v[1] for r, v in want.items()
    }
