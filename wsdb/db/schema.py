"""The schema as SQLAlchemy tables, for queries. The Alembic migrations
(:mod:`wsdb.db.migrations`) own the schema and make it; a test checks that
these tables describe the same one. The tables are a public interface
(docs/sql.md):

* ``builds``     one row per build (puzzle, n, c, root, status, complete, ...)
* ``puzzles``    the puzzles whose trees the database holds, numbered (0: Wrapslide)
* ``levels``     classes and states per depth
* ``classes``    one row per class: rep, grid, depth, parent, orbit_size; a
  view over ``class_rows`` (the same without ``grid``, which the view
  computes from the key when read, :mod:`wsdb.db.grid_sql`)
* ``solve_runs`` one row per `wsdb eval` run: grid, method, parameters,
  seed, version, machine, dates
* ``solves``     one row per state a run solved: length, lower bound,
  whether proven optimal, the exact distance where known, seconds
* ``bounds``     one row per proven bound on a grid's God number: lower or
  upper, value, witness (a state, or phases), method, seconds, version
* ``proof_shares`` one row per share of an IDA* bound a proof searched in
  full: the state, how bounds are cut, bound, share, answer or next bound
* ``check_slices`` one row per slice of a moves-off check made in full:
  the check (grid, merged colours, level, distance, scheme), slice, the
  liftings it leaves and the states that leave them
* ``leases``     one row per tree being built: who holds it (host:pid and
  a random token), since when, last renewed, and its timeout
* ``check_solutions`` one row per lifting a moves-off check solved one by
  one: the state, the moves that solve it, their length

``rep`` and ``parent`` hold the key of :mod:`wsdb.engine.keys`: an INTEGER
where it fits 63 bits, else its big-endian bytes.
"""

from __future__ import annotations

import sqlalchemy as sa

#: The default puzzle, whose rows every older database holds
WRAPSLIDE = "wrapslide"


def _tree_columns(by_id: bool = False) -> list[sa.Column]:
    """(puzzle, n, c, root), or for ``class_rows`` (n, c, root, puzzle_id):
    a puzzle's number (``puzzles``) takes no bytes in a Wrapslide row where
    its name would take ten, and after (n, c, root) it leaves queries that
    name those on the key's prefix (migration 0004)."""
    tree: list[sa.Column] = [
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("c", sa.Integer, primary_key=True),
        sa.Column("root", sa.Text, primary_key=True, server_default="all"),
    ]
    if by_id:
        return tree + [sa.Column("puzzle_id", sa.Integer, primary_key=True, server_default="0")]
    return [sa.Column("puzzle", sa.Text, primary_key=True, server_default=WRAPSLIDE)] + tree


class Key(sa.types.TypeDecorator):
    """``rep`` and ``parent``: an INTEGER in SQLite (big-endian bytes for
    keys wider than 63 bits, SQLite being dynamically typed); NUMERIC(39)
    in PostgreSQL, which holds every key up to 128 bits as a number. Values
    read from PostgreSQL come back as ints, which
    :meth:`~wsdb.engine.keys.KeyLayout.from_sql` accepts for any width."""

    impl = sa.Integer
    cache_ok = True

    def load_dialect_impl(self, dialect):
        return dialect.type_descriptor(sa.Numeric(39, 0) if dialect.name == "postgresql" else sa.Integer())

    def process_bind_param(self, value, dialect):
        if dialect.name == "postgresql" and isinstance(value, (bytes, memoryview)):
            return int.from_bytes(value, "big")
        return value

    def process_result_value(self, value, dialect):
        return int(value) if dialect.name == "postgresql" and value is not None else value


#: Counts that outgrow 32 bits; SQLite's INTEGER is 64-bit already
Count = sa.Integer().with_variant(sa.BigInteger(), "postgresql")

metadata = sa.MetaData()
builds = sa.Table(
    "builds",
    metadata,
    *_tree_columns(),
    sa.Column("complete", sa.Boolean, nullable=False),
    sa.Column("max_depth", sa.Integer),
    sa.Column("height", sa.Integer, nullable=False),
    sa.Column("god_number", sa.Integer),
    sa.Column("classes", Count, nullable=False),
    sa.Column("states", Count, nullable=False),
    sa.Column("seconds", sa.Float, nullable=False),
    sa.Column("version", sa.Text, nullable=False),
    sa.Column("built_at", sa.Text, nullable=False),
    sa.Column("status", sa.Text, nullable=False, server_default="done"),
    sa.Column("builder", sa.Text),
    sa.Column("symbols", sa.Text),  # other puzzles: how labels 0..c-1 are written
    sa.Column("levels", sa.Text),  # Parquet levels holding the classes (migration 0006); NULL: class rows
)
levels = sa.Table(
    "levels",
    metadata,
    *_tree_columns(),
    sa.Column("depth", sa.Integer, primary_key=True),
    sa.Column("classes", Count, nullable=False),
    sa.Column("states", Count, nullable=False),
)
class_rows = sa.Table(
    "class_rows",
    metadata,
    *_tree_columns(by_id=True),
    sa.Column("rep", Key, primary_key=True),
    sa.Column("depth", sa.Integer, nullable=False),
    sa.Column("parent", Key),
    sa.Column("orbit_size", sa.Integer, nullable=False),
    sqlite_with_rowid=False,
)

#: The puzzles whose trees a database holds, numbered; 0 is Wrapslide.
puzzles = sa.Table(
    "puzzles",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("name", sa.Text, nullable=False, unique=True),
)

solve_runs = sa.Table(
    "solve_runs",
    metadata,
    sa.Column("run_id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("n", sa.Integer, nullable=False),
    sa.Column("c", sa.Integer, nullable=False),
    sa.Column("method", sa.Text, nullable=False),
    sa.Column("params", sa.Text, nullable=False),  # JSON: time limit and the method's settings
    sa.Column("seed", Count, nullable=False),
    sa.Column("count", sa.Integer, nullable=False),  # states asked for
    sa.Column("version", sa.Text, nullable=False),
    sa.Column("host", sa.Text, nullable=False),
    sa.Column("processor", sa.Text, nullable=False),
    sa.Column("cores", sa.Integer, nullable=False),
    sa.Column("memory_bytes", Count, nullable=False),
    sa.Column("started_at", sa.Text, nullable=False),
    sa.Column("finished_at", sa.Text),
    sa.Column("status", sa.Text, nullable=False),  # running, done, interrupted
    sa.Column("runner", sa.Text),  # host:pid of the run's process (migration 0005)
)
solves = sa.Table(
    "solves",
    metadata,
    sa.Column("run_id", sa.Integer, sa.ForeignKey("solve_runs.run_id", ondelete="CASCADE"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),  # position in the run's random draw
    sa.Column("state", sa.Text, nullable=False),
    sa.Column("length", sa.Integer, nullable=False),
    sa.Column("lower_bound", sa.Integer, nullable=False),
    sa.Column("optimal", sa.Boolean, nullable=False),  # proven: length == lower_bound
    sa.Column("exact", sa.Integer),  # the distance, where known
    sa.Column("seconds", sa.Float, nullable=False),
    sa.Column("timed_out", sa.Boolean, nullable=False),
    sa.Column("solved_by", sa.Text, nullable=False),  # what produced the sequence
    sa.Column("moves", sa.Text, nullable=False),
)

bounds = sa.Table(
    "bounds",
    metadata,
    sa.Column("bound_id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("n", sa.Integer, nullable=False),
    sa.Column("c", sa.Integer, nullable=False),
    sa.Column("kind", sa.Text, nullable=False),  # lower, upper
    sa.Column("value", sa.Integer, nullable=False),
    sa.Column("witness", sa.Text, nullable=False),  # JSON: the state, or the phases
    sa.Column("method", sa.Text, nullable=False),  # tree, optimal, counting, phases
    sa.Column("seconds", sa.Float, nullable=False),
    sa.Column("proven_at", sa.Text, nullable=False),
    sa.Column("version", sa.Text, nullable=False),
    sa.Column("command", sa.Text, nullable=False),  # the command that proves it again
    sa.CheckConstraint("kind in ('lower', 'upper')", name="bounds_kind"),
)

#: A long proof's progress (`wsdb bounds prove --at-least`), so that it resumes (migration 0009)
proof_shares = sa.Table(
    "proof_shares",
    metadata,
    sa.Column("n", sa.Integer, nullable=False),
    sa.Column("c", sa.Integer, nullable=False),
    sa.Column("state", sa.Text, primary_key=True),
    sa.Column("scheme", sa.Text, primary_key=True),  # the split depth, streams and pruning tables
    sa.Column("bound", sa.Integer, primary_key=True),
    sa.Column("shares", sa.Integer, primary_key=True),  # how many the bound is cut into
    sa.Column("share", sa.Integer, primary_key=True),
    sa.Column("answer", sa.Text),  # JSON: path, meet, rest; NULL: none in this share
    sa.Column("next_bound", sa.Integer, nullable=False),
    sa.Column("nodes", sa.Float, nullable=False),
    sa.Column("seconds", sa.Float, nullable=False),
    sa.Column("searched_at", sa.Text, nullable=False),
    sa.Column("version", sa.Text, nullable=False),
)

#: A long moves-off check's progress (`wsdb bounds compute --merge --off`), so that it resumes (migration 0010)
check_slices = sa.Table(
    "check_slices",
    metadata,
    sa.Column("n", sa.Integer, primary_key=True),
    sa.Column("c", sa.Integer, primary_key=True),
    sa.Column("merge", sa.Text, primary_key=True),  # the colours merged, as given
    sa.Column("level", sa.Integer, primary_key=True),  # of the merged grid
    sa.Column("at_most", sa.Integer, primary_key=True),  # from solved, where a path must finish
    sa.Column("scheme", sa.Text, primary_key=True),  # the paths tried and the states checked
    sa.Column("slices", sa.Integer, primary_key=True),  # how many the states are cut into
    sa.Column("slice", sa.Integer, primary_key=True),
    sa.Column("states", sa.Integer, nullable=False),
    sa.Column("unavoidable", sa.BigInteger, nullable=False),
    sa.Column("still", sa.LargeBinary, nullable=False),  # the states with liftings left, 8 bytes each
    sa.Column("seconds", sa.Float, nullable=False),
    sa.Column("checked_at", sa.Text, nullable=False),
    sa.Column("version", sa.Text, nullable=False),
)

#: The liftings a moves-off check solved one by one, so that it resumes (migration 0011)
check_solutions = sa.Table(
    "check_solutions",
    metadata,
    sa.Column("state", sa.Text, primary_key=True),  # the lifting, as `wsdb solve` reads it
    sa.Column("n", sa.Integer, nullable=False),
    sa.Column("c", sa.Integer, nullable=False),
    sa.Column("moves", sa.Text, nullable=False),  # as `wsdb solve` prints them
    sa.Column("length", sa.Integer, nullable=False),
    sa.Column("seconds", sa.Float, nullable=False),
    sa.Column("solved_at", sa.Text, nullable=False),
    sa.Column("version", sa.Text, nullable=False),
)

#: Who holds each tree being built (:mod:`wsdb.db.lease`, migration 0012)
leases = sa.Table(
    "leases",
    metadata,
    *_tree_columns(),
    sa.Column("holder", sa.Text, nullable=False),  # host:pid
    sa.Column("token", sa.Text, nullable=False),  # this claim's random word
    sa.Column("taken_at", sa.Text, nullable=False),
    sa.Column("renewed_at", sa.Float, nullable=False),  # seconds since the epoch
    sa.Column("timeout", sa.Float, nullable=False),  # stale when not renewed for this long
)

#: The public ``classes``: a view over ``class_rows`` that adds ``grid``
#: (:mod:`wsdb.db.grid_sql`); created by the migrations, queried through this.
views = sa.MetaData()
classes = sa.Table(
    "classes",
    views,
    *_tree_columns(),
    sa.Column("rep", Key, primary_key=True),
    sa.Column("grid", sa.Text),
    sa.Column("depth", sa.Integer),
    sa.Column("parent", Key),
    sa.Column("orbit_size", sa.Integer),
)


def tree_is(table: sa.Table, tree) -> tuple:
    """The conditions that pick the rows of ``table`` of ``tree`` (a
    :class:`~wsdb.puzzle.tree_key.TreeKey`): by its puzzle's name, or in
    ``class_rows`` by its puzzle's number (0 for Wrapslide)."""
    if "puzzle_id" in table.c:  # class_rows: the puzzle by its number
        which = table.c.puzzle_id == (
            0
            if tree.puzzle == WRAPSLIDE
            else sa.select(puzzles.c.id).where(puzzles.c.name == tree.puzzle).scalar_subquery()
        )
    else:
        which = table.c.puzzle == tree.puzzle
    return which, table.c.n == tree.n, table.c.c == tree.c, table.c.root == tree.root
