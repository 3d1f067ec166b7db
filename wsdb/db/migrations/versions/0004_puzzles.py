"""Other puzzles' trees beside Wrapslide's (issue 12): a ``puzzle`` column.

* ``builds`` and ``levels`` gain ``puzzle`` ('wrapslide' for every
  existing row, and the default), first in their primary keys: a tree is
  now (puzzle, n, c, root). For the other puzzles ``root`` holds the goal
  the tree grows from, as text, and ``c`` the number of labels.
* ``puzzles`` numbers the puzzles a database holds (0: 'wrapslide'), and
  ``class_rows`` gains ``puzzle_id``, that number, in its primary key after
  (n, c, root): an integer 0 takes no bytes in a SQLite record, where the
  name would add a third to every Wrapslide row and a fifth to a 6x6 build's
  time, and queries naming (n, c, root) still use the key's prefix.
* ``builds.symbols``: how another puzzle's labels 0..c-1 are written (the
  goal's distinct symbols in sorted order); NULL for Wrapslide (1..c).
* The ``classes`` view gains ``puzzle`` (the name), and its ``grid`` is
  computed for the other puzzles too (``sql/0004_sqlite_classes_view.sql``, made by :func:`wsdb.db.grid_sql.classes_view_sql`).

SQLite cannot change a primary key in place, so the three tables are
copied into new ones (once; minutes for a database of several GB, as
revision 0002's rewrite). PostgreSQL adds the column and swaps the keys.
Every existing row is kept as it was.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

from wsdb.db.migrations import frozen_sql

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_KEY = sa.Integer().with_variant(sa.Numeric(39, 0), "postgresql")
_COUNT = sa.Integer().with_variant(sa.BigInteger(), "postgresql")

# one cell at a time from the last, in the tree's own symbols, in rows as long as
# the goal's (root); the bits a label takes follow wsdb.engine.keys.KeyLayout.for_colours
PG_PUZZLE_GRID = """
create or replace function wsdb_puzzle_grid(root text, c integer, symbols text, rep numeric) returns text
language plpgsql immutable as $$
declare
  base numeric := 2 ^ (case when c <= 2 then 1 when c <= 4 then 2 when c <= 8 then 3 else 4 end);
  size integer := length(replace(root, '/', ''));
  cols integer := coalesce(nullif(position('/' in root), 0) - 1, size);
  v numeric := rep;
  cells text := '';
begin
  for i in 1..size loop
    cells := substr(symbols, 1 + mod(v, base)::integer, 1) || cells;
    v := div(v, base);
  end loop;
  return (select string_agg(substr(cells, r * cols + 1, cols), '/' order by r)
          from generate_series(0, size / cols - 1) r);
end $$
"""
PG_VIEW = """
create view classes as select
  case when r.puzzle_id = 0 then 'wrapslide' else (select p.name from puzzles p where p.id = r.puzzle_id) end
    as puzzle, r.n, r.c, r.root, r.rep,
  case when r.puzzle_id = 0 then wsdb_grid(r.n, r.c, r.rep)
       else wsdb_puzzle_grid(r.root, r.c, (select b.symbols from builds b join puzzles p on p.name = b.puzzle
                                        where p.id = r.puzzle_id and b.n = r.n and b.c = r.c
                                        and b.root = r.root), r.rep) end as grid,
  r.depth, r.parent, r.orbit_size
from class_rows r
"""
OLD_PG_VIEW = (
    "create view classes as select n, c, root, rep, wsdb_grid(n, c, rep) as grid, depth, parent, "
    "orbit_size from class_rows"
)

_TREE = ("n", "c", "root")
#: the column that tells puzzles apart in each table, and its value for Wrapslide
_MARKER = {"builds": ("puzzle", "'wrapslide'"), "levels": ("puzzle", "'wrapslide'"), "class_rows": ("puzzle_id", "0")}


def _marker_column(table: str) -> sa.Column:
    if table == "class_rows":
        return sa.Column("puzzle_id", sa.Integer, nullable=False, server_default="0")
    return sa.Column("puzzle", sa.Text, nullable=False, server_default="wrapslide")


def _tables(puzzle: bool) -> dict:
    """(columns, primary key, options) of the three tables, with or
    without the puzzle columns."""

    def tree(table):
        cols = [
            sa.Column("n", sa.Integer, nullable=False),
            sa.Column("c", sa.Integer, nullable=False),
            sa.Column("root", sa.Text, nullable=False, server_default="all"),
        ]
        if not puzzle:
            return cols, _TREE
        if table == "class_rows":  # after (n, c, root), so queries naming those use the key's prefix
            return cols + [_marker_column(table)], _TREE + ("puzzle_id",)
        return [_marker_column(table)] + cols, ("puzzle",) + _TREE

    builds_cols, builds_key = tree("builds")
    builds = (
        builds_cols
        + [
            sa.Column("complete", sa.Boolean, nullable=False),
            sa.Column("max_depth", sa.Integer),
            sa.Column("height", sa.Integer, nullable=False),
            sa.Column("god_number", sa.Integer),
            sa.Column("classes", _COUNT, nullable=False),
            sa.Column("states", _COUNT, nullable=False),
            sa.Column("seconds", sa.Float, nullable=False),
            sa.Column("version", sa.Text, nullable=False),
            sa.Column("built_at", sa.Text, nullable=False),
            sa.Column("status", sa.Text, nullable=False, server_default="done"),
            sa.Column("builder", sa.Text),
        ]
        + ([sa.Column("symbols", sa.Text)] if puzzle else [])
    )
    levels_cols, levels_key = tree("levels")
    levels = levels_cols + [
        sa.Column("depth", sa.Integer, nullable=False),
        sa.Column("classes", _COUNT, nullable=False),
        sa.Column("states", _COUNT, nullable=False),
    ]
    rows_cols, rows_key = tree("class_rows")
    class_rows = rows_cols + [
        sa.Column("rep", _KEY, nullable=False),
        sa.Column("depth", sa.Integer, nullable=False),
        sa.Column("parent", _KEY),
        sa.Column("orbit_size", sa.Integer, nullable=False),
    ]
    return {
        "builds": (builds, builds_key, {}),
        "levels": (levels, levels_key + ("depth",), {}),
        "class_rows": (class_rows, rows_key + ("rep",), {"sqlite_with_rowid": False}),
    }


def _copy_sqlite(puzzle: bool) -> None:
    """Re-create the three tables with (or without) the puzzle columns and
    copy the rows over (SQLite: a primary key is fixed at creation); going
    back keeps Wrapslide's rows only."""
    for name, (columns, key, options) in _tables(puzzle).items():
        marker, wrapslide = _MARKER[name]
        op.create_table(f"{name}_new", *columns, sa.PrimaryKeyConstraint(*key), **options)
        shared = [c.name for c in columns if c.name not in (marker, "symbols")]
        into = ([marker] if puzzle else []) + shared
        values = ([wrapslide] if puzzle else []) + shared
        where = "" if puzzle else f" where {marker} = {wrapslide}"
        op.execute(f"insert into {name}_new ({', '.join(into)}) select {', '.join(values)} from {name}{where}")
        op.drop_table(name)
        op.rename_table(f"{name}_new", name)


def _swap_pg_keys(puzzle: bool) -> None:
    """PostgreSQL: add (or drop) the puzzle columns and re-make the keys."""
    bind = op.get_bind()
    for name, (_, key, _) in _tables(puzzle).items():
        marker, wrapslide = _MARKER[name]
        old = sa.inspect(bind).get_pk_constraint(name)["name"]
        assert old is not None, f"{name} has a named primary key on PostgreSQL"
        if puzzle:
            op.add_column(name, _marker_column(name))
        else:
            op.execute(f"delete from {name} where {marker} <> {wrapslide}")
        op.drop_constraint(old, name, type_="primary")
        if not puzzle:
            op.drop_column(name, marker)
        op.create_primary_key(f"{name}_pkey", name, list(key))
    if puzzle:
        op.add_column("builds", sa.Column("symbols", sa.Text))
    else:
        op.drop_column("builds", "symbols")


def upgrade() -> None:
    op.execute("drop view classes")
    op.create_table(
        "puzzles",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("name", sa.Text, nullable=False, unique=True),
    )
    op.execute("insert into puzzles (id, name) values (0, 'wrapslide')")
    if op.get_bind().dialect.name == "postgresql":
        _swap_pg_keys(True)
        op.execute(PG_PUZZLE_GRID)
        op.execute(PG_VIEW)
    else:
        _copy_sqlite(True)
        op.execute(frozen_sql("0004_sqlite_classes_view"))


def downgrade() -> None:
    """Back to Wrapslide alone: the other puzzles' rows are dropped."""
    op.execute("drop view classes")
    if op.get_bind().dialect.name == "postgresql":
        _swap_pg_keys(False)
        op.execute("drop function wsdb_puzzle_grid")
        op.execute(OLD_PG_VIEW)
    else:
        _copy_sqlite(False)
        op.execute(
            f"create view classes as select n, c, root, rep, {frozen_sql('0002_sqlite_grid')} as grid, depth, parent, "
            "orbit_size from class_rows"
        )
    op.drop_table("puzzles")
