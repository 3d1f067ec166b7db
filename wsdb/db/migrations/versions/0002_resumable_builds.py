"""Resumable builds: a build row exists from the first level on, with its
status; ``grid`` becomes computed; the depth index goes.

* ``builds.status``: 'building' while levels are still being added (the
  row says how far it got), 'done' once finished. Existing rows are done.
* ``builds.builder``: host:pid of the process building it, NULL when done,
  so a reader can tell a running build from an interrupted one.
* The class rows move to ``class_rows`` without ``grid``, and ``classes``
  becomes a view over it that computes ``grid`` from (n, c, rep) when read
  (``sql/0002_sqlite_grid.sql``, made by ``wsdb.db.grid_sql``): builds no longer format and write a string
  per class. Dropping the stored column rewrites the table once (minutes
  for a database of several GB). Readers see the same ``classes``.
* ``ix_classes_depth`` is dropped: it cost a third of the write time of a
  build, and per-depth questions are answered by ``levels`` or a scan of
  one build's rows.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

from wsdb.db.migrations import frozen_sql

# PostgreSQL: the grid by a function over the NUMERIC key, one cell (one
# base-2 or base-4 digit, the last cell least significant) at a time
PG_GRID = """
create or replace function wsdb_grid(n integer, c integer, rep numeric) returns text
language plpgsql immutable strict as $$
declare
  base numeric := case when c = 2 then 2 else 4 end;
  v numeric := rep;
  cells text := '';
begin
  for i in 1..n * n loop
    cells := chr(49 + mod(v, base)::integer) || cells;
    v := div(v, base);
  end loop;
  return (select string_agg(substr(cells, r * n + 1, n), '/' order by r) from generate_series(0, n - 1) r);
end $$
"""
PG_VIEW = (
    "create view classes as select n, c, root, rep, wsdb_grid(n, c, rep) as grid, depth, parent, "
    "orbit_size from class_rows"
)

# the view as this revision made it (0004 re-creates it with the puzzle column)
SQLITE_VIEW = (
    f"create view classes as select n, c, root, rep, {frozen_sql('0002_sqlite_grid')} as grid, depth, parent, "
    "orbit_size from class_rows"
)

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("builds") as batch:
        batch.add_column(sa.Column("status", sa.Text, nullable=False, server_default="done"))
        batch.add_column(sa.Column("builder", sa.Text))
    op.drop_index("ix_classes_depth", table_name="classes")
    op.execute("alter table classes rename to class_rows")
    op.execute("alter table class_rows drop column grid")
    if op.get_bind().dialect.name == "postgresql":
        op.execute(PG_GRID)
        op.execute(PG_VIEW)
    else:
        op.execute(SQLITE_VIEW)


def downgrade() -> None:
    op.execute("drop view classes")
    op.execute("alter table class_rows add column grid text not null default ''")
    pg = op.get_bind().dialect.name == "postgresql"
    op.execute(f"update class_rows set grid = {'wsdb_grid(n, c, rep)' if pg else frozen_sql('0002_sqlite_grid')}")
    if pg:
        op.execute("drop function wsdb_grid")
    op.execute("alter table class_rows rename to classes")
    op.create_index("ix_classes_depth", "classes", ["n", "c", "root", "depth"])
    op.execute(
        "delete from classes where exists (select 1 from builds b where b.status = 'building' "
        "and b.n = classes.n and b.c = classes.c and b.root = classes.root)"
    )
    op.execute(
        "delete from levels where exists (select 1 from builds b where b.status = 'building' "
        "and b.n = levels.n and b.c = levels.c and b.root = levels.root)"
    )
    op.execute("delete from builds where status = 'building'")
    with op.batch_alter_table("builds") as batch:
        batch.drop_column("builder")
        batch.drop_column("status")
