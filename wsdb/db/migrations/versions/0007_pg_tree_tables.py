"""PostgreSQL: ``class_rows`` partitioned by tree, one tree table a tree
(a range partition on (n, c, root, puzzle_id)), each with its own primary
key on ``rep``; SQLite is unchanged.

A build fills its tree's partition by COPY with no index and makes the key
once, by one sort, when it finishes (:mod:`wsdb.db.tree_tables`): inserting
into the one composite key cost most of a PostgreSQL build. Every existing
row moves to its tree's partition, keyed as before (a class once per
tree); the ``classes`` view is made again from its own definition.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

import hashlib

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

COLUMNS = (
    "n integer not null, c integer not null, root text not null default 'all', "
    "puzzle_id integer not null default 0, rep numeric(39,0) not null, depth integer not null, "
    "parent numeric(39,0), orbit_size integer not null"
)
NAMES = "n, c, root, puzzle_id, rep, depth, parent, orbit_size"


def _partition(n, c, root, pid) -> str:
    # as wsdb.db.tree_tables.tree_table was written with this revision
    digest = hashlib.sha1(f"{n}|{c}|{root}|{pid}".encode()).hexdigest()[:10]
    return f"class_rows_{int(n)}_{int(c)}_{int(pid)}_{digest}"


def _text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _view_sql(bind) -> str:
    return bind.exec_driver_sql("select pg_get_viewdef('classes'::regclass, true)").scalar()


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    view = _view_sql(bind)
    op.execute("drop view classes")
    op.execute("alter table class_rows rename to class_rows_0006")
    op.execute(f"create table class_rows ({COLUMNS}) partition by range (n, c, root, puzzle_id)")
    trees = bind.exec_driver_sql("select distinct n, c, root, puzzle_id from class_rows_0006").all()
    for n, c, root, pid in trees:
        name = _partition(n, c, root, pid)
        op.execute(
            f"create table {name} partition of class_rows for values from "
            f"({n}, {c}, {_text(root)}, {pid}) to ({n}, {c}, {_text(root)}, {pid + 1})"
        )
        op.execute(
            f"insert into {name} ({NAMES}) select {NAMES} from class_rows_0006 "
            f"where n = {n} and c = {c} and root = {_text(root)} and puzzle_id = {pid} order by rep"
        )
        op.execute(f"alter table {name} add primary key (rep)")
    op.execute("drop table class_rows_0006")
    op.execute(f"create view classes as {view}")


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    view = _view_sql(bind)
    op.execute("drop view classes")
    op.execute(f"create table class_rows_0006 ({COLUMNS}, primary key (n, c, root, puzzle_id, rep))")
    op.execute(f"insert into class_rows_0006 ({NAMES}) select {NAMES} from class_rows")
    op.execute("drop table class_rows cascade")
    op.execute("alter table class_rows_0006 rename to class_rows")
    op.execute("alter index class_rows_0006_pkey rename to class_rows_pkey")
    op.execute(f"create view classes as {view}")
