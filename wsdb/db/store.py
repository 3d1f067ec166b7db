"""The database: SQLAlchemy tables and every query wsdb makes.

Nothing else in wsdb talks SQL. The schema is owned by the Alembic
migrations in :mod:`wsdb.db.migrations`, applied automatically the first time
a database is used; the tables below describe the same schema for queries,
and a test checks that the two agree. The tables are a public interface
(README, "SQL interface"):

* ``builds``  one row per finished build (n, c, root, complete, ...)
* ``levels``  classes and states per depth
* ``classes`` one row per class: rep, grid, depth, parent, orbit_size

``rep`` and ``parent`` hold the key of :mod:`wsdb.engine.keys`: an INTEGER
where it fits 63 bits, else its big-endian bytes.
"""
from __future__ import annotations

import sqlite3
from importlib import resources
from typing import Iterable, Iterator

import numpy as np
import sqlalchemy as sa
from sqlalchemy import event, exc

from ..errors import WsdbError
from .location import Location, resolve

HEAD = "0001"  # latest migration; a test checks it against the migration scripts


def _tree_columns() -> list[sa.Column]:
    return [sa.Column("n", sa.Integer, primary_key=True),
            sa.Column("c", sa.Integer, primary_key=True),
            sa.Column("root", sa.Text, primary_key=True, server_default="all")]


metadata = sa.MetaData()
builds = sa.Table(
    "builds", metadata, *_tree_columns(),
    sa.Column("complete", sa.Boolean, nullable=False),
    sa.Column("max_depth", sa.Integer),
    sa.Column("height", sa.Integer, nullable=False),
    sa.Column("god_number", sa.Integer),
    sa.Column("classes", sa.Integer, nullable=False),
    sa.Column("states", sa.Integer, nullable=False),
    sa.Column("seconds", sa.Float, nullable=False),
    sa.Column("version", sa.Text, nullable=False),
    sa.Column("built_at", sa.Text, nullable=False),
)
levels = sa.Table(
    "levels", metadata, *_tree_columns(),
    sa.Column("depth", sa.Integer, primary_key=True),
    sa.Column("classes", sa.Integer, nullable=False),
    sa.Column("states", sa.Integer, nullable=False),
)
classes = sa.Table(
    "classes", metadata, *_tree_columns(),
    sa.Column("rep", sa.Integer, primary_key=True),
    sa.Column("grid", sa.Text, nullable=False),
    sa.Column("depth", sa.Integer, nullable=False),
    sa.Column("parent", sa.Integer),
    sa.Column("orbit_size", sa.Integer, nullable=False),
    sa.Index("ix_classes_depth", "n", "c", "root", "depth"),
    sqlite_with_rowid=False,
)

_CHUNK = 5000  # keys per IN (...) query; far below SQLite's parameter limit


class Store:
    """An open wsdb database."""

    def __init__(self, sql: sa.Engine, where: Location):
        self.sql = sql
        self.where = where

    @property
    def label(self) -> str:
        return self.where.label

    @property
    def path(self):
        """The database file (None for servers and in-memory databases)."""
        return self.where.path

    @classmethod
    def open(cls, db=None, create: bool = False) -> "Store":
        """Open (or, with ``create``, make) a wsdb database and bring its
        schema up to date. Refuses missing files and foreign databases
        without writing anything."""
        where = resolve(db)
        if where.missing:
            if not create:
                raise WsdbError(f"no database at {where.label}: build one with `wsdb build --n N --c C`, "
                                "or point --db / WSDB_DB at an existing one")
            where.path.parent.mkdir(parents=True, exist_ok=True)
        sql = sa.create_engine(where.url)
        event.listen(sql, "connect", _pragmas)
        store = cls(sql, where)
        store._check_schema(create)
        return store

    @classmethod
    def open_if_present(cls, db=None) -> "Store | None":
        """The database, or None when the default one does not exist yet (a
        solver then works without tables); a database the user named must
        exist."""
        where = resolve(db)
        if where.missing and not where.explicit:
            return None
        return cls.open(db)

    def _check_schema(self, create: bool) -> None:
        try:
            with self.sql.connect() as conn:
                names = set(sa.inspect(conn).get_table_names())
                rev = conn.execute(sa.text("select version_num from alembic_version")).scalar() \
                    if "alembic_version" in names else None
        except exc.OperationalError as e:
            if "locked" in str(e.orig):
                raise WsdbError(f"{self.label} is locked by another process (a build writing it?): "
                                "try again when it has finished") from None
            raise WsdbError(f"{self.label} cannot be read ({e.orig}): expected a wsdb database") from None
        except exc.DatabaseError as e:
            raise WsdbError(f"{self.label} is not a SQLite database ({e.orig}): expected a wsdb database") from None
        if rev == HEAD:
            return
        if rev is None and names:
            raise WsdbError(f"{self.label} is not a wsdb database (it has tables {', '.join(sorted(names))} "
                            "but no wsdb schema): expected a database made by `wsdb build`")
        if rev is None and not create:
            raise WsdbError(f"{self.label} holds no wsdb tables: build one with `wsdb build --n N --c C`")
        self.migrate()

    def migrate(self) -> None:
        """Apply the Alembic migrations up to head."""
        from alembic import command
        from alembic.config import Config
        from alembic.util import CommandError

        cfg = Config()
        cfg.set_main_option("script_location", str(resources.files("wsdb.db.migrations")))
        with self.sql.begin() as conn:
            cfg.attributes["connection"] = conn
            try:
                command.upgrade(cfg, "head")
            except CommandError as e:
                raise WsdbError(f"{self.label}: cannot migrate its schema ({e}); expected a database "
                                "made by this or an older wsdb") from None

    # ---- builds ------------------------------------------------------------

    def build_rows(self) -> list[dict]:
        """Every stored build."""
        with self.sql.connect() as conn:
            rows = conn.execute(sa.select(builds).order_by(builds.c.n, builds.c.c, builds.c.root))
            return [dict(r._mapping) for r in rows]

    def build_row(self, n: int, c: int, root: str = "all") -> dict | None:
        """The stored build of (n, c, root), or None."""
        with self.sql.connect() as conn:
            row = conn.execute(sa.select(builds).where(*_tree_is(builds, n, c, root))).first()
            return dict(row._mapping) if row else None

    def require_build(self, n: int, c: int, root: str = "all") -> dict:
        """The stored build, or a clear error saying how to make it."""
        row = self.build_row(n, c, root)
        if row is None:
            flag = "" if root == "all" else f" --root {root}"
            raise WsdbError(f"{self.label} has no {n}x{n} {c}-colour database: run "
                            f"`wsdb build --n {n} --c {c}{flag}` first (add --max-depth D for big grids)")
        return row

    def level_rows(self, n: int, c: int, root: str = "all") -> list[dict]:
        """Per-depth class and state counts as stored."""
        with self.sql.connect() as conn:
            rows = conn.execute(sa.select(levels.c.depth, levels.c.classes, levels.c.states)
                                .where(*_tree_is(levels, n, c, root)).order_by(levels.c.depth))
            return [dict(r._mapping) for r in rows]

    def replace_tree(self, build: dict, level_rows: list[dict],
                     class_batches: Iterable[Iterable[tuple]]) -> None:
        """Replace the stored (n, c, root) tree in one transaction: the build
        row, its level rows, and the class rows, given as batches of tuples
        (rep, grid, depth, parent, orbit_size); batches may be lazy."""
        key = (build["n"], build["c"], build["root"])
        with self.sql.begin() as conn:
            for table in (classes, levels, builds):
                conn.execute(table.delete().where(*_tree_is(table, *key)))
            for batch in class_batches:
                _insert_many(conn, classes, key, batch)
            conn.execute(levels.insert(), level_rows)
            conn.execute(builds.insert(), [build])

    def all_level_rows(self) -> list[dict]:
        """Every ``levels`` row of every build, in (n, c, root, depth) order."""
        with self.sql.connect() as conn:
            rows = conn.execute(sa.select(levels).order_by(levels.c.n, levels.c.c, levels.c.root, levels.c.depth))
            return [dict(r._mapping) for r in rows]

    # ---- classes -----------------------------------------------------------

    def classes_at_depth(self, n: int, c: int, depth: int, root: str = "all",
                         limit: int | None = None) -> list[dict]:
        """Representatives (grid, orbit_size) at one depth, in key order."""
        stmt = (sa.select(classes.c.grid, classes.c.orbit_size)
                .where(*_tree_is(classes, n, c, root), classes.c.depth == depth)
                .order_by(classes.c.rep).limit(limit))
        with self.sql.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(stmt)]

    def orbit_profile(self, n: int, c: int, root: str = "all") -> list[dict]:
        """How many classes (and states) have each orbit size."""
        stmt = (sa.select(classes.c.orbit_size, sa.func.count().label("classes"),
                          sa.func.sum(classes.c.orbit_size).label("states"))
                .where(*_tree_is(classes, n, c, root))
                .group_by(classes.c.orbit_size).order_by(classes.c.orbit_size))
        with self.sql.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(stmt)]

    def iter_classes(self, n: int, c: int, root: str = "all", chunk: int = 100_000) -> Iterator[list[tuple]]:
        """Every stored class as (rep, grid, depth, parent, orbit_size), in
        key order, a chunk of rows at a time (memory stays bounded)."""
        stmt = (sa.select(classes.c.rep, classes.c.grid, classes.c.depth, classes.c.parent, classes.c.orbit_size)
                .where(*_tree_is(classes, n, c, root)).order_by(classes.c.rep))
        with self.sql.connect() as conn:
            result = conn.execution_options(yield_per=chunk).execute(stmt)
            for part in result.partitions():
                yield [tuple(r) for r in part]

    def fetch(self, n: int, c: int, layout, keys: np.ndarray, root: str = "all"):
        """Depth and parent of each key: (found, depth, parents (S, W)).

        Keys that are not stored get found=False, depth -1."""
        keys = np.asarray(keys, dtype=np.uint64).reshape(-1, layout.words)
        sql_keys = layout.to_sql(keys)
        got: dict = {}
        with self.sql.connect() as conn:
            uniq = list(dict.fromkeys(sql_keys))
            for i in range(0, len(uniq), _CHUNK):
                stmt = sa.select(classes.c.rep, classes.c.depth, classes.c.parent).where(
                    *_tree_is(classes, n, c, root), classes.c.rep.in_(uniq[i:i + _CHUNK]))
                for rep, depth, parent in conn.execute(stmt):
                    got[rep] = (depth, parent)
        found = np.array([k in got for k in sql_keys], dtype=bool)
        depth = np.array([got[k][0] if k in got else -1 for k in sql_keys], dtype=np.int64)
        parent_vals = [got[k][1] for k in sql_keys if k in got and got[k][1] is not None]
        parents = np.zeros_like(keys)
        has_parent = found & (depth > 0)
        if parent_vals:
            parents[has_parent] = layout.from_sql(parent_vals)
        return found, depth, parents

    def load(self, n: int, c: int, layout, root: str = "all", depth: int | None = None):
        """All stored classes (optionally of one depth), sorted by key:
        (reps (S, W), depths, parents (S, W), orbit sizes)."""
        stmt = sa.select(classes.c.rep, classes.c.depth, classes.c.parent, classes.c.orbit_size) \
            .where(*_tree_is(classes, n, c, root))
        if depth is not None:
            stmt = stmt.where(classes.c.depth == depth)
        with self.sql.connect() as conn:
            rows = conn.execute(stmt).all()
        if not rows:
            empty = np.zeros((0, layout.words), np.uint64)
            return empty, np.zeros(0, np.int64), empty.copy(), np.zeros(0, np.int64)
        rep, dep, par, orb = zip(*rows)
        reps = layout.from_sql(rep)
        parents = np.zeros_like(reps)
        dep = np.asarray(dep, np.int64)
        if (dep > 0).any():
            parents[dep > 0] = layout.from_sql([p for p, d in zip(par, dep) if d > 0])
        order = np.lexsort(reps.T[::-1])
        return reps[order], dep[order], parents[order], np.asarray(orb, np.int64)[order]

    def keys_and_depths(self, n: int, c: int, layout, root: str = "all",
                        chunk: int = 500_000) -> tuple[np.ndarray, np.ndarray]:
        """Every stored class as (reps (S, W) sorted by key, depths int8),
        read in chunks so memory stays near the size of the result (the
        solver's endgame tables; 9.7 M classes of 6x6 three colours)."""
        stmt = sa.select(classes.c.rep, classes.c.depth).where(*_tree_is(classes, n, c, root))
        reps, depths = [], []
        with self.sql.connect() as conn:
            result = conn.execution_options(yield_per=chunk).execute(stmt)
            for part in result.partitions():
                rep, dep = zip(*part)
                reps.append(layout.from_sql(rep))
                depths.append(np.asarray(dep, np.int8))
        if not reps:
            return np.zeros((0, layout.words), np.uint64), np.zeros(0, np.int8)
        keys, depth = np.concatenate(reps), np.concatenate(depths)
        del reps, depths
        order = np.lexsort(keys.T[::-1])
        return keys[order], depth[order]


def _tree_is(table, n, c, root):
    return table.c.n == n, table.c.c == c, table.c.root == root


def _insert_many(conn, table: sa.Table, prefix: tuple, rows: Iterable[tuple]) -> None:
    """Insert ``prefix + row`` for every row (tuples in the table's column
    order), streamed through the table's compiled INSERT and the driver's
    executemany: no list of rows is ever built, and it is three times
    faster than SQLAlchemy's one-dict-per-row path."""
    compiled = table.insert().compile(dialect=conn.dialect)
    names = [col.name for col in table.columns]
    if compiled.positiontup != names:
        raise RuntimeError(f"unexpected parameter order for {table.name}: {compiled.positiontup}")
    cursor = conn.connection.cursor()
    try:
        cursor.executemany(str(compiled), (prefix + tuple(r) for r in rows))
    finally:
        cursor.close()


def _pragmas(dbapi_conn, _record) -> None:
    # Bulk writes of millions of rows: a bigger page cache and no fsync per
    # page; the one-transaction write still rolls back cleanly on a crash.
    if isinstance(dbapi_conn, sqlite3.Connection):
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA cache_size = -262144")
        cur.execute("PRAGMA synchronous = NORMAL")
        cur.close()
