"""The schema (wsdb/db/migrations): the migration scripts and the tables
that store.py queries describe the same schema."""

import contextlib
import shutil
import sqlite3
from importlib import resources
from pathlib import Path

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

import wsdb
from wsdb.db.schema import metadata
from wsdb.db.store import HEAD, Store


def test_head_constant_matches_the_migrations():
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("wsdb.db.migrations")))
    assert ScriptDirectory.from_config(cfg).get_current_head() == HEAD


def test_frozen_sql_is_what_the_generator_makes():
    # the revisions execute frozen text; the generator that made it must not
    # drift unnoticed (a changed view needs a new revision and a new file)
    from wsdb.db.grid_sql import classes_view_sql, grid_sql
    from wsdb.db.migrations import frozen_sql

    assert frozen_sql("0002_sqlite_grid") == grid_sql()
    assert frozen_sql("0004_sqlite_classes_view") == classes_view_sql()
    assert "when n=16 and c>2" in frozen_sql("0002_sqlite_grid")


def test_the_view_computes_every_grid_as_the_library_formats_it(db4):
    # the frozen view's text form of a class equals format_state of its representative
    import sqlite3
    from wsdb.engine import get_engine

    with sqlite3.connect(db4) as conn:
        rows = conn.execute("select rep, grid from classes where n = 4 and c = 4 order by rep limit 50").fetchall()
    eng = get_engine(4, 4)
    import numpy as np

    cells = eng.layout.decode(np.array([[r] for r, _ in rows], np.uint64))
    assert [g for _, g in rows] == [wsdb.format_state(x) for x in cells]


def test_models_match_the_migrated_schema(tmp_path):
    store = Store.open(tmp_path / "m.sqlite", create=True)
    with store.sql.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True, "compare_server_default": True})
        assert compare_metadata(ctx, metadata) == []


def test_a_changed_model_would_be_noticed(tmp_path):
    # the comparison above is not vacuous: a column the migrations lack shows up
    store = Store.open(tmp_path / "m.sqlite", create=True)
    other = sa.MetaData()
    for table in metadata.tables.values():
        table.to_metadata(other)
    sa.Table("levels", other, sa.Column("extra", sa.Integer), extend_existing=True)
    with store.sql.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), other)
    assert any(d[0] == "add_column" and d[3].name == "extra" for d in diff)


OLDEST = Path(__file__).resolve().parents[1] / "data" / "schema-0001.sqlite"


def test_a_database_of_the_oldest_schema_is_upgraded_with_its_data(tmp_path):
    # tests/data/schema-0001.sqlite was written by wsdb at commit 342564b
    # (schema revision 0001: classes stored their grid text), with
    # `wsdb build --n 4 --c 2`, `--n 4 --c 3 --max-depth 5` and
    # `--n 4 --c 3 --root single --max-depth 3`
    db = tmp_path / "old.sqlite"
    shutil.copy(OLDEST, db)
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert conn.execute("select version_num from alembic_version").fetchone() == ("0001",)
        old_classes = conn.execute(
            "select n, c, root, rep, grid, depth, parent, orbit_size from classes order by n, c, root, rep"
        ).fetchall()
        old_levels = conn.execute(
            "select n, c, root, depth, classes, states from levels order by n, c, root, depth"
        ).fetchall()
        old_builds = conn.execute(
            "select n, c, root, complete, max_depth, height, god_number, classes, states "
            "from builds order by n, c, root"
        ).fetchall()
    assert len(old_classes) == 78 + 591 + 39
    assert wsdb.lookup("1122/1122/2222/2222", db=db).distance == 0  # opening it upgrades it
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert conn.execute("select version_num from alembic_version").fetchone() == (HEAD,)
        assert (
            conn.execute(
                "select n, c, root, rep, grid, depth, parent, orbit_size from classes order by n, c, root, rep"
            ).fetchall()
            == old_classes
        )
        assert (
            conn.execute("select n, c, root, depth, classes, states from levels order by n, c, root, depth").fetchall()
            == old_levels
        )
        assert conn.execute("select distinct puzzle from classes").fetchall() == [("wrapslide",)]
        assert (
            conn.execute(
                "select n, c, root, complete, max_depth, height, god_number, classes, states "
                "from builds order by n, c, root"
            ).fetchall()
            == old_builds
        )
        assert {r[0] for r in conn.execute("select status from builds")} == {"done"}
    assert wsdb.verify(4, 2, db=db).ok and wsdb.verify(4, 3, db=db).ok and wsdb.verify(4, 3, db=db, root="single").ok
    tree, row = wsdb.build(4, 3, db=db)  # an upgraded partial build goes on to the end
    assert row["complete"] and row["god_number"] == 10 and wsdb.verify(4, 3, db=db).ok
