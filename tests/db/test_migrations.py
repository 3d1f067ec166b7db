"""The schema (wsdb/db/migrations): the migration scripts and the tables
that store.py queries describe the same schema."""
from importlib import resources

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from wsdb.db.store import HEAD, Store, metadata


def test_head_constant_matches_the_migrations():
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("wsdb.db.migrations")))
    assert ScriptDirectory.from_config(cfg).get_current_head() == HEAD


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
