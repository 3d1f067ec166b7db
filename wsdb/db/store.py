"""The database's queries: :class:`Store`, an open wsdb database, and every
query wsdb makes through SQLAlchemy. The tables are in :mod:`wsdb.db.schema`
(owned by the Alembic migrations, applied automatically the first time a
database is used), how a connection is opened and what a failed write
says in :mod:`wsdb.db.connection`. A lookup's two queries on a SQLite
file are in :mod:`wsdb.db.reader`, without SQLAlchemy."""

from __future__ import annotations

import sqlite3
import statistics
import time
from importlib import resources
from itertools import repeat
from typing import Iterable, Iterator

import numpy as np
import sqlalchemy as sa
from sqlalchemy import exc

from ..errors import WsdbError, MissingDatabaseError, StorageError, DamagedError
from ..puzzle.tree_key import TreeKey
from . import tree_tables
from .connection import Writing, check_writable, engine, for_writes, revisions
from .location import Location, resolve
from .migrations import HEAD
from .reader import BUSY_MS, CHUNK, check_parents, fetch_keys, match_rows
from .schema import (
    WRAPSLIDE,
    bounds,
    builds,
    check_slices,
    check_solutions,
    class_rows,
    classes,
    levels,
    proof_shares,
    puzzles,
    solve_runs,
    solves,
    tree_is,
)
from .status import builder_alive, finished, required


class Store:
    """An open wsdb database: read-only unless opened to write."""

    def __init__(self, sql: sa.Engine, where: Location, writable: bool):
        self.sql = sql
        self.where = where
        self.writable = writable

    @property
    def label(self) -> str:
        return self.where.label

    @property
    def path(self):
        """The database file (None for servers and in-memory databases)."""
        return self.where.path

    @property
    def db_option(self) -> str:
        """How a hint names this database again: ' --db LABEL', or '' for the default."""
        return self.where.option

    def close(self) -> None:
        """Close the pooled connections (a server sees a clean log-off)."""
        self.sql.dispose()

    @classmethod
    def open(cls, db=None, create: bool = False, write: bool = False) -> "Store":
        """Open a wsdb database: read-only by default (lookups, stats and
        verify never block a build, and work on read-only media); with
        ``write`` for writing, and with ``create`` making it if missing.
        Refuses missing files and foreign databases without writing
        anything, and brings an older schema up to date."""
        where = resolve(db)
        if where.missing:
            assert where.path is not None  # only a file can be missing
            if not create:
                raise MissingDatabaseError(
                    f"no database at {where.label}: build one with `wsdb build --n N --c C`, "
                    "or point --db / WSDB_DB at an existing one"
                )
            if where.explicit and not where.path.parent.is_dir():  # only the default db/ folder is made
                raise MissingDatabaseError(
                    f"cannot create {where.label}: the folder {where.path.parent} does not exist"
                )
            try:
                where.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StorageError(f"cannot create {where.label}: {e.strerror}") from None
        check_file(where)
        write = write or create
        if write and where.path is not None:
            check_writable(where)
        if where.missing or where.path is None:  # a new file (or memory): make the schema
            store = cls(engine(where, True), where, True)
            store._check_schema(create)
            store.interrupt_dead_runs()
            return store
        # look before touching anything: a foreign file must stay as it was
        store = cls(engine(where, False), where, False)
        store._check_schema(create)
        if not write:
            return store
        store = cls(engine(where, True), where, True)
        store.interrupt_dead_runs()
        return store

    @classmethod
    def of(cls, db=None) -> "Store":
        """``db`` itself when it is an open :class:`Store`, else the
        database it names opened read-only (:meth:`open`): what the library
        functions that take either call first."""
        return db if isinstance(db, Store) else cls.open(db)

    @classmethod
    def open_if_present(cls, db=None) -> "Store | None":
        """The database (read-only), or None when the default one does not
        exist yet (a solver then works without tables); a database the user
        named must exist."""
        where = resolve(db)
        if where.missing and not where.explicit:
            return None
        return cls.open(db)

    def _schema_revision(self) -> tuple[set, str | None]:
        """The tables and the Alembic revision. SQLite answers 'locked' at
        once, without its busy timeout, where waiting could deadlock (a new
        file's switch to WAL while another process makes its schema), so a
        lock is retried here for as long as the timeout."""
        deadline = time.monotonic() + BUSY_MS / 1000
        while True:
            try:
                with self.sql.connect() as conn:
                    names = set(sa.inspect(conn).get_table_names())
                    return names, conn.execute(
                        sa.text("select version_num from alembic_version")
                    ).scalar() if "alembic_version" in names else None
            except exc.OperationalError as e:
                if "locked" not in str(e.orig) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _check_schema(self, create: bool) -> None:
        try:
            names, rev = self._schema_revision()
        except exc.OperationalError as e:
            if "locked" in str(e.orig):
                raise StorageError(
                    f"{self.label} is locked by another process: try again when it has finished"
                ) from None
            raise StorageError(f"{self.label} cannot be read ({e.orig}): expected a wsdb database") from None
        except exc.DatabaseError as e:
            raise StorageError(f"{self.label} is not a SQLite database ({e.orig}): expected a wsdb database") from None
        if rev == HEAD:
            return
        if rev is None and names:
            raise StorageError(
                f"{self.label} is not a wsdb database (it has tables {', '.join(sorted(names))} "
                "but no wsdb schema): expected a database made by `wsdb build`"
            )
        if rev is None and not create:
            raise StorageError(f"{self.label} holds no wsdb tables: build one with `wsdb build --n N --c C`")
        if rev is not None and rev not in revisions():
            raise StorageError(
                f"{self.label} was made by a newer wsdb (schema revision {rev}; this wsdb knows "
                f"up to {HEAD}): upgrade wsdb to read it"
            )
        if self.writable:
            self.migrate()
            self.checkpoint()
            return
        try:  # an older schema: upgrade it once, through a writable connection
            Store(engine(self.where, True), self.where, True).migrate()
        except WsdbError as e:
            raise StorageError(
                f"{self.label} has an older schema (revision {rev}) that cannot be upgraded "
                f"here ({e}): open it once where it is writable"
            ) from None

    def migrate(self) -> None:
        """Apply the Alembic migrations up to head."""
        from alembic import command
        from alembic.config import Config
        from alembic.util import CommandError

        cfg = Config()
        cfg.set_main_option("script_location", str(resources.files("wsdb.db.migrations")))
        try:
            with for_writes(self.sql).begin() as conn:  # one transaction for the whole upgrade
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
        except CommandError as e:
            raise StorageError(
                f"{self.label}: cannot migrate its schema ({e}); expected a database made by this or an older wsdb"
            ) from None
        except exc.OperationalError as e:
            raise StorageError(f"{self.label}: cannot migrate its schema ({e.orig})") from None

    # ---- builds ------------------------------------------------------------

    def build_rows(self) -> list[dict]:
        """Every stored build."""
        with self.sql.connect() as conn:
            rows = conn.execute(
                sa.select(builds).order_by(
                    builds.c.puzzle != WRAPSLIDE, builds.c.puzzle, builds.c.n, builds.c.c, builds.c.root
                )
            )
            return [dict(r._mapping) for r in rows]

    def build_row(self, tree: TreeKey) -> dict | None:
        """The stored build of ``tree``, or None."""
        from .lease import stored_lease

        try:
            with self.sql.connect() as conn:
                row = conn.execute(sa.select(builds).where(*tree_is(builds, tree))).first()
                lease = stored_lease(conn, tree) if row is not None and row.status != "done" else None
        except exc.DatabaseError as e:  # a table dropped or broken under a current schema
            raise DamagedError(f"{self.label}: cannot read its builds ({e.orig}); run `wsdb verify`") from None
        if row is None:
            return None
        return dict(row._mapping) if row.status == "done" else dict(row._mapping, lease=lease)

    def require_build(self, tree: TreeKey) -> dict:
        """The stored, finished build, or a clear error saying how to make
        or finish it."""
        return required(self.build_row(tree), self.label, tree, self.db_option)

    def finished_build(self, tree: TreeKey) -> dict | None:
        """The stored build if finished, None if there is none; an error
        (saying so, and how to resume) if it is not finished."""
        return finished(self.build_row(tree), self.label, self.db_option)

    def level_rows(self, tree: TreeKey) -> list[dict]:
        """Per-depth class and state counts as stored."""
        with self.sql.connect() as conn:
            rows = conn.execute(
                sa.select(levels.c.depth, levels.c.classes, levels.c.states)
                .where(*tree_is(levels, tree))
                .order_by(levels.c.depth)
            )
            return [dict(r._mapping) for r in rows]

    def begin_tree(self, build: dict, level_row: dict, columns: Iterable[tuple], lease=None) -> None:
        """Start the build row's tree afresh in one transaction: whatever
        was stored goes, the build row (status 'building') and level 0 come.
        ``columns`` as for :meth:`add_level`; ``lease`` (a
        :class:`~.lease.Lease`) is renewed in the same transaction, which
        fails where it was taken over."""
        tree = TreeKey.from_row(build)
        with self._write() as conn:
            pid = _registered_id(conn, tree.puzzle)
            if conn.dialect.name == "postgresql":  # the tree's own table, new and without a key
                tree_tables.create_tree_table(conn, tree, pid)
            else:
                conn.execute(class_rows.delete().where(*tree_is(class_rows, tree)))
            for table in (levels, builds):
                conn.execute(table.delete().where(*tree_is(table, tree)))
            _insert_classes(conn, tree, level_row["depth"], columns)
            conn.execute(levels.insert(), [level_row])
            conn.execute(builds.insert(), [build])
            if lease is not None:
                lease.hold(conn)

    def add_level(self, tree: TreeKey, level_row: dict, columns: Iterable[tuple], build: dict, lease=None) -> None:
        """Add one finished level in one transaction: its class rows, its
        levels row, and the build row's new totals, with ``lease`` renewed
        (:meth:`begin_tree`). A crash leaves the level wholly in or out.
        ``columns`` yields chunks of (rep, parent, orbit_size) arrays of SQL
        values (parent None at depth 0)."""
        with self._write() as conn:
            _insert_classes(conn, tree, level_row["depth"], columns)
            conn.execute(levels.insert(), [level_row])
            conn.execute(builds.update().where(*tree_is(builds, tree)).values(**build))
            if lease is not None:
                lease.hold(conn)

    def update_build(self, tree: TreeKey, values: dict, lease=None) -> None:
        """Change the build row of ``tree`` (``lease`` renewed with it)."""
        self._update_build(tree, values, lease=lease)

    def grow_tree(self, tree: TreeKey, values: dict, lease=None) -> None:
        """Mark a stored tree as growing again (resumed, or taken deeper):
        change its build row; on PostgreSQL its tree table's key goes until
        :meth:`finish_tree` (:mod:`.tree_tables`)."""
        self._update_build(tree, values, tree_tables.drop_key, lease)

    def finish_tree(self, tree: TreeKey, values: dict, lease=None) -> None:
        """Change the build row of a tree whose last level is stored, in
        one transaction with, on PostgreSQL, its tree table's key, and with
        ``lease`` checked and given up."""
        self._update_build(tree, values, tree_tables.add_key, lease, release=True)

    def _update_build(self, tree: TreeKey, values: dict, tree_table=None, lease=None, release=False) -> None:
        """The build row's change, in one transaction with ``tree_table``
        (conn, tree, puzzle number) on PostgreSQL and with ``lease``
        renewed (or, with ``release``, checked and dropped)."""
        with self._write() as conn:
            if tree_table is not None and conn.dialect.name == "postgresql":
                tree_table(conn, tree, _puzzle_id(conn, tree.puzzle))
            conn.execute(builds.update().where(*tree_is(builds, tree)).values(**values))
            if lease is not None:
                lease.hold(conn)
                if release:
                    lease.drop(conn)

    def checkpoint(self) -> None:
        """Move everything from the write-ahead log into the database file
        and empty the log, so the file alone holds the data (to copy or
        ship it). Waits for readers a moment; harmless if they stay."""
        if self.sql.dialect.name == "sqlite" and self.writable:
            with self.sql.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

    def _write(self):
        """A write transaction, with the environment's failures (a full
        disk, a read-only file) as one-line errors."""
        return Writing(self)

    # ---- solver runs (wsdb eval) --------------------------------------------

    def interrupt_dead_runs(self) -> int:
        """Mark 'interrupted' the runs still 'running' whose process is gone
        (killed with kill -9: it could not say so itself); how many."""
        with self.sql.connect() as conn:
            running = conn.execute(
                sa.select(solve_runs.c.run_id, solve_runs.c.runner).where(solve_runs.c.status == "running")
            ).all()
        dead = [run_id for run_id, runner in running if runner is not None and not builder_alive(runner)]
        if dead:
            with self._write() as conn:
                conn.execute(
                    solve_runs.update()
                    .where(solve_runs.c.run_id.in_(dead), solve_runs.c.status == "running")
                    .values(status="interrupted")
                )
        return len(dead)

    def start_run(self, row: dict) -> int:
        """Record a new solver run (status 'running'); its run_id."""
        with self._write() as conn:
            return int(conn.execute(solve_runs.insert().values(**row, status="running")).inserted_primary_key[0])

    def add_solve(self, row: dict) -> None:
        """Store one solved state of a run, committed at once."""
        with self._write() as conn:
            conn.execute(solves.insert(), [row])

    def end_run(self, run_id: int, status: str, finished_at: str) -> None:
        """Mark a run done or interrupted."""
        with self._write() as conn:
            conn.execute(
                solve_runs.update().where(solve_runs.c.run_id == run_id).values(status=status, finished_at=finished_at)
            )

    def run_rows(self) -> list[dict]:
        """Every solver run, oldest first."""
        with self.sql.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(sa.select(solve_runs).order_by(solve_runs.c.run_id))]

    def solve_rows(self, run_id: int | None = None) -> list[dict]:
        """The solved states of one run, or of every run, in run order."""
        stmt = sa.select(solves).order_by(solves.c.run_id, solves.c.idx)
        if run_id is not None:
            stmt = stmt.where(solves.c.run_id == run_id)
        with self.sql.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(stmt)]

    # ---- bounds (wsdb bounds) ------------------------------------------------

    def _of_grid(self, stmt, table: sa.Table, n: int | None, c: int | None) -> list[dict]:
        """The rows of ``stmt`` (on ``table``), only grid n (where given) and c."""
        if n is not None:
            stmt = stmt.where(table.c.n == n)
        if c is not None:
            stmt = stmt.where(table.c.c == c)
        with self.sql.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(stmt)]

    def add_bound(self, row: dict) -> int:
        """Store one proven bound; its bound_id."""
        with self._write() as conn:
            return int(conn.execute(bounds.insert().values(**row)).inserted_primary_key[0])

    def bound_rows(self, n: int | None = None, c: int | None = None) -> list[dict]:
        """The stored bounds, by grid, kind and value."""
        stmt = sa.select(bounds).order_by(bounds.c.n, bounds.c.c, bounds.c.kind, bounds.c.value, bounds.c.bound_id)
        return self._of_grid(stmt, bounds, n, c)

    # ---- a long proof's shares (wsdb bounds prove --at-least) ------------------------------

    def share_rows(self, state: str, scheme: str) -> list[dict]:
        """The shares of ``state``'s bounds searched under ``scheme``, by bound and share."""
        t = proof_shares
        stmt = sa.select(t).where(t.c.state == state, t.c.scheme == scheme).order_by(t.c.bound, t.c.shares, t.c.share)
        with self.sql.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(stmt)]

    def proof_progress(self, n: int | None = None, c: int | None = None) -> list[dict]:
        """Per kept proof (state, scheme) and bound cut: shares, how many
        are kept (done), how many hold an answer, their smallest next bound,
        seconds and nodes, and when the last was searched; by grid, state,
        scheme and bound."""
        t = proof_shares
        stmt = (
            sa.select(
                t.c.n,
                t.c.c,
                t.c.state,
                t.c.scheme,
                t.c.bound,
                t.c.shares,
                sa.func.count().label("done"),
                sa.func.count(t.c.answer).label("answered"),
                sa.func.min(t.c.next_bound).label("next_bound"),
                sa.func.sum(t.c.seconds).label("seconds"),
                sa.func.sum(t.c.nodes).label("nodes"),
                sa.func.max(t.c.searched_at).label("last"),
            )
            .group_by(t.c.n, t.c.c, t.c.state, t.c.scheme, t.c.bound, t.c.shares)
            .order_by(t.c.n, t.c.c, t.c.state, t.c.scheme, t.c.bound, t.c.shares)
        )
        return self._of_grid(stmt, t, n, c)

    def add_share(self, row: dict) -> None:
        """Keep one searched share, committed at once. A share stored
        already (another process proving the same state, or ``--fresh``)
        must say the same: an answer, or none. Its next bound may differ: a
        share searched after others of its bound skips what they searched
        (:mod:`wsdb.bounds.shares`), and the bound's next is the least of all."""
        t = proof_shares
        try:
            with self._write() as conn:
                conn.execute(t.insert(), [row])
        except exc.IntegrityError:
            key = [t.c[k] == row[k] for k in ("state", "scheme", "bound", "shares", "share")]
            with self.sql.connect() as conn:
                old = conn.execute(sa.select(t.c.answer).where(*key)).one()
            if (old.answer is None) != (row["answer"] is None):
                raise DamagedError(
                    f"{self.label}: share {row['share']} of {row['shares']} of bound {row['bound']} "
                    f"for {row['state']} is stored with another result than its search gives now"
                ) from None

    # ---- a long moves-off check's slices (wsdb bounds compute --merge --off) ----------------------

    _CHECK = ("n", "c", "merge", "level", "at_most", "scheme", "slices")

    def check_slice_rows(self, check: dict) -> dict[int, dict]:
        """The slices kept of one moves-off check (``check``: n, c, merge,
        level, at_most, scheme, slices), by slice."""
        t = check_slices
        stmt = sa.select(t).where(*[t.c[k] == check[k] for k in self._CHECK])
        with self.sql.connect() as conn:
            return {r.slice: dict(r._mapping) for r in conn.execute(stmt)}

    def check_progress(self, n: int | None = None, c: int | None = None) -> list[dict]:
        """Per kept moves-off check (n, c, merge, level, at_most, scheme,
        slices): how many slices are kept (done), their states, the liftings
        they leave, their seconds, the median slice's seconds and when the
        last was checked; by grid, merge, level and distance."""
        t = check_slices
        cols = [t.c[k] for k in self._CHECK]
        stmt = (
            sa.select(
                *cols,
                sa.func.count().label("done"),
                sa.func.sum(t.c.states).label("states"),
                sa.func.sum(t.c.unavoidable).label("unavoidable"),
                sa.func.sum(t.c.seconds).label("seconds"),
                sa.func.max(t.c.checked_at).label("last"),
            )
            .group_by(*cols)
            .order_by(t.c.n, t.c.c, t.c.merge, t.c.level.desc(), t.c.at_most)
        )
        each: dict[tuple, list[float]] = {}  # a median in Python: SQLite has no median
        for r in self._of_grid(sa.select(*cols, t.c.seconds), t, n, c):
            each.setdefault(tuple(r[k] for k in self._CHECK), []).append(r["seconds"])
        rows = self._of_grid(stmt, t, n, c)
        for r in rows:
            r["median_seconds"] = statistics.median(each[tuple(r[k] for k in self._CHECK)])
        return rows

    def add_check_slice(self, row: dict) -> None:
        """Keep one checked slice, committed at once. A slice stored already
        (another process, or ``--fresh``) must say the same."""
        t = check_slices
        try:
            with self._write() as conn:
                conn.execute(t.insert(), [row])
        except exc.IntegrityError:
            key = [t.c[k] == row[k] for k in self._CHECK + ("slice",)]
            with self.sql.connect() as conn:
                old = conn.execute(sa.select(t.c.unavoidable, t.c.still).where(*key)).one()
            if (old.unavoidable, bytes(old.still)) != (row["unavoidable"], row["still"]):
                raise DamagedError(
                    f"{self.label}: slice {row['slice']} of {row['slices']} of the check of level "
                    f"{row['level']} within {row['at_most']} is stored with another result than "
                    "the check gives now"
                ) from None

    def check_solution_rows(self, states: list[str]) -> dict[str, dict]:
        """The kept solutions of those of ``states`` a moves-off check
        solved already, by state."""
        t, out = check_solutions, {}
        with self.sql.connect() as conn:
            for at in range(0, len(states), 500):  # bound the parameters of one IN
                stmt = sa.select(t).where(t.c.state.in_(states[at : at + 500]))
                out.update({r.state: dict(r._mapping) for r in conn.execute(stmt)})
        return out

    def check_solution_progress(self, n: int | None = None, c: int | None = None) -> list[dict]:
        """Per grid: how many liftings the moves-off checks solved and kept
        (solved), the longest solution, their seconds and when the last was
        solved; by grid."""
        t = check_solutions
        stmt = (
            sa.select(
                t.c.n,
                t.c.c,
                sa.func.count().label("solved"),
                sa.func.max(t.c.length).label("longest"),
                sa.func.sum(t.c.seconds).label("seconds"),
                sa.func.max(t.c.solved_at).label("last"),
            )
            .group_by(t.c.n, t.c.c)
            .order_by(t.c.n, t.c.c)
        )
        return self._of_grid(stmt, t, n, c)

    def keep_check_solution(self, row: dict) -> None:
        """Keep one lifting's solution, committed at once, in place of one
        kept before (``--fresh`` solves again)."""
        t = check_solutions
        with self._write() as conn:
            conn.execute(t.delete().where(t.c.state == row["state"]))
            conn.execute(t.insert(), [row])

    def all_level_rows(self) -> list[dict]:
        """Every ``levels`` row of every build, in (n, c, root, depth) order."""
        with self.sql.connect() as conn:
            rows = conn.execute(sa.select(levels).order_by(levels.c.n, levels.c.c, levels.c.root, levels.c.depth))
            return [dict(r._mapping) for r in rows]

    def tree_bytes(self, tree: TreeKey) -> int | None:
        """On PostgreSQL, the bytes of a tree's own table of class rows with
        its key and TOAST (:mod:`.tree_tables`); None on other databases, or
        where the tree has no table."""
        if self.sql.dialect.name != "postgresql":
            return None
        with self.sql.connect() as conn:
            pid = _puzzle_id(conn, tree.puzzle)
            if pid is None:
                return None
            name = tree_tables.tree_table(tree, pid)
            return conn.execute(sa.text("SELECT pg_total_relation_size(to_regclass(:name))"), {"name": name}).scalar()

    # ---- classes -----------------------------------------------------------

    def parquet(self, tree: TreeKey):
        """The :class:`~wsdb.db.levels.ParquetTree` holding this tree's
        classes when its build keeps them as Parquet levels (``wsdb build
        --engine dask``), else None: every query of classes below reads it
        instead of ``class_rows``."""
        row = self.build_row(tree)
        if row is None or not row.get("levels"):
            return None
        from .levels import ParquetTree

        return ParquetTree(row["levels"], self.label)

    def classes_at_depth(self, tree: TreeKey, depth: int, limit: int | None = None) -> list[dict]:
        """Representatives (grid, orbit_size) at one depth, in key order."""
        pq = self.parquet(tree)
        if pq is not None:
            return pq.classes_at_depth(depth, limit)
        stmt = (
            sa.select(classes.c.grid, classes.c.orbit_size)
            .where(*tree_is(classes, tree), classes.c.depth == depth)
            .order_by(classes.c.rep)
            .limit(limit)
        )
        with self.sql.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(stmt)]

    def orbit_profile(self, tree: TreeKey) -> list[dict]:
        """How many classes (and states) have each orbit size."""
        pq = self.parquet(tree)
        if pq is not None:
            return pq.orbit_profile()
        stmt = (
            sa.select(
                class_rows.c.orbit_size,
                sa.func.count().label("classes"),
                sa.func.sum(class_rows.c.orbit_size).label("states"),
            )
            .where(*tree_is(class_rows, tree))
            .group_by(class_rows.c.orbit_size)
            .order_by(class_rows.c.orbit_size)
        )
        with self.sql.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(stmt)]

    def iter_classes(self, tree: TreeKey, chunk: int = 100_000) -> Iterator[list[tuple]]:
        """Every stored class as (rep, depth, parent, orbit_size), in key
        order, a chunk of rows at a time (memory stays bounded; a Parquet
        tree is read whole first)."""
        pq = self.parquet(tree)
        if pq is not None:
            yield from pq.iter_classes(tree, chunk)
            return
        stmt = (
            sa.select(class_rows.c.rep, class_rows.c.depth, class_rows.c.parent, class_rows.c.orbit_size)
            .where(*tree_is(class_rows, tree))
            .order_by(class_rows.c.rep)
        )
        with self.sql.connect() as conn:
            result = conn.execution_options(yield_per=chunk).execute(stmt)
            for part in result.partitions():
                yield [tuple(r) for r in part]

    def fetch(self, tree: TreeKey, layout, keys: np.ndarray):
        """Depth and parent of each key: (found, depth, parents (S, W)).

        Keys that are not stored get found=False, depth -1. (A build kept as
        Parquet levels is fetched from them by the lookup itself, which
        opens them once for a whole walk: :func:`wsdb.db.lookup.lookup_grid`.)"""
        keys = np.asarray(keys, dtype=np.uint64).reshape(-1, layout.words)
        try:
            with self.sql.connect() as conn:
                if self.sql.dialect.name == "sqlite":
                    raw = conn.connection.driver_connection
                    assert raw is not None  # an open connection has its sqlite3 one
                    return fetch_keys(raw, tree, layout, keys)
                values = list(dict.fromkeys(layout.to_sql(keys)))
                rows = []
                for i in range(0, len(values), CHUNK):
                    stmt = sa.select(class_rows.c.rep, class_rows.c.depth, class_rows.c.parent).where(
                        *tree_is(class_rows, tree), class_rows.c.rep.in_(values[i : i + CHUNK])
                    )
                    rows += [tuple(r) for r in conn.execute(stmt)]
        except (exc.DatabaseError, sqlite3.DatabaseError) as e:  # a table dropped or broken
            raise DamagedError(f"cannot read the class rows ({getattr(e, 'orig', e)})") from None
        return match_rows(layout, keys, rows)

    def missing_objects(self) -> list[str]:
        """The tables and views of the schema that the database lacks
        (someone dropped them): 'table levels', 'view classes', ..."""
        with self.sql.connect() as conn:
            inspector = sa.inspect(conn)
            tables, views = set(inspector.get_table_names()), set(inspector.get_view_names())
        want = [("table", t) for t in ("builds", "levels", "class_rows", "puzzles", "solve_runs", "solves")]
        return [
            f"{kind} {name}"
            for kind, name in want + [("view", "classes")]
            if name not in (tables if kind == "table" else views)
        ]

    def mistyped(self, tree: TreeKey) -> str | None:
        """The first stored value of a tree whose type is not its column's
        (SQLite stores what it is given: a depth 'x', a parent of text, a
        complete of 'yes'), as one line; None when all are right. On
        PostgreSQL the column types enforce this."""
        if self.sql.dialect.name != "sqlite":
            return None
        key = "n = :n and c = :c and root = :root"
        pid = "(select id from puzzles where name = :puzzle)"
        probes = [
            (
                "builds",
                f"select 'builds', {{col}}, typeof({{col}}) from builds where {key} and puzzle = :puzzle",
                {
                    "complete": "integer",
                    "height": "integer",
                    "classes": "integer",
                    "states": "integer",
                    "god_number": "integer null",
                    "max_depth": "integer null",
                },
            ),
            (
                "levels",
                f"select depth, {{col}}, typeof({{col}}) from levels where {key} and puzzle = :puzzle",
                {"depth": "integer", "classes": "integer", "states": "integer"},
            ),
            (
                "class_rows",
                f"select rep, {{col}}, typeof({{col}}) from class_rows where {key} and puzzle_id = {pid}",
                {"rep": "integer blob", "depth": "integer", "parent": "integer blob null", "orbit_size": "integer"},
            ),
        ]
        args = tree.row
        with self.sql.connect() as conn:
            for table, query, cols in probes:
                for col, allowed in cols.items():
                    kinds = "', '".join(allowed.split())
                    row = conn.execute(
                        sa.text(query.format(col=col) + f" and typeof({col}) not in ('{kinds}') limit 1"), args
                    ).first()
                    if row is not None:
                        value = row[1] if not isinstance(row[1], bytes) else f"x'{row[1].hex()}'"
                        return f"{table}.{col} holds {value!r} ({row[2]}) at {row[0]}: expected {' or '.join(allowed.split())}"
        return None

    def load(self, tree: TreeKey, layout, depth: int | None = None):
        """All stored classes (optionally of one depth), sorted by key:
        (reps (S, W), depths, parents (S, W), orbit sizes)."""
        pq = self.parquet(tree)
        if pq is not None:
            return pq.load(tree, depth)
        stmt = sa.select(class_rows.c.rep, class_rows.c.depth, class_rows.c.parent, class_rows.c.orbit_size).where(
            *tree_is(class_rows, tree)
        )
        if depth is not None:
            stmt = stmt.where(class_rows.c.depth == depth)
        with self.sql.connect() as conn:
            rows = conn.execute(stmt).all()
        if not rows:
            empty = np.zeros((0, layout.words), np.uint64)
            return empty, np.zeros(0, np.int64), empty.copy(), np.zeros(0, np.int64)
        rep, dep, par, orb = zip(*rows)
        reps = layout.from_sql(rep)
        parents = np.zeros_like(reps)
        depths = np.asarray(dep, np.int64)
        if (depths > 0).any():
            inner = [(r, p) for r, p, d in zip(rep, par, depths) if d > 0]
            check_parents(layout, inner)
            parents[depths > 0] = layout.from_sql([p for _, p in inner])
        order = np.lexsort(reps.T[::-1])
        return reps[order], depths[order], parents[order], np.asarray(orb, np.int64)[order]

    def keys_and_orbits(self, tree: TreeKey, layout, depth: int, chunk: int = 500_000) -> tuple[np.ndarray, np.ndarray]:
        """The classes at ``depth`` as (reps (S, W) sorted by key, orbit
        sizes), read in chunks and without parents: what drawing random
        states of one level needs (8.5 M classes of 6x6 three colours)."""
        pq = self.parquet(tree)
        if pq is not None:
            reps, _, _, orbits = pq.load(tree, depth)
            return reps, orbits
        stmt = sa.select(class_rows.c.rep, class_rows.c.orbit_size).where(
            *tree_is(class_rows, tree), class_rows.c.depth == depth
        )
        return self._keys_with(stmt, layout, chunk, np.int64)  # in key order on any backend: a seed repeats

    def keys_and_depths(self, tree: TreeKey, layout, chunk: int = 500_000) -> tuple[np.ndarray, np.ndarray]:
        """Every stored class as (reps (S, W) sorted by key, depths int8),
        read in chunks so memory stays near the size of the result (the
        solver's endgame tables; 9.7 M classes of 6x6 three colours)."""
        pq = self.parquet(tree)
        if pq is not None:
            return pq.keys_and_depths(tree)
        stmt = sa.select(class_rows.c.rep, class_rows.c.depth).where(*tree_is(class_rows, tree))
        return self._keys_with(stmt, layout, chunk, np.int8)

    def _keys_with(self, stmt, layout, chunk: int, dtype) -> tuple[np.ndarray, np.ndarray]:
        """The rows (rep, value) ``stmt`` selects, read ``chunk`` rows at a
        time so memory stays near the size of the result: (reps (S, W)
        sorted by key, values as ``dtype``)."""
        reps, values = [], []
        with self.sql.connect() as conn:
            result = conn.execution_options(yield_per=chunk).execute(stmt)
            for part in result.partitions():
                rep, value = zip(*part)
                reps.append(layout.from_sql(rep))
                values.append(np.asarray(value, dtype))
        if not reps:
            return np.zeros((0, layout.words), np.uint64), np.zeros(0, dtype)
        keys, column = np.concatenate(reps), np.concatenate(values)
        del reps, values
        order = np.lexsort(keys.T[::-1])
        return keys[order], column[order]


#: (device, inode) of the database files :func:`_sqlite_file` has accepted in this process
_ACCEPTED: set[tuple[int, int]] = set()


def check_file(where) -> None:
    """Refuse, in one line, a database file that is a directory or not
    SQLite's (a file that does not exist yet passes)."""
    if where.path is not None and where.path.is_dir():
        raise StorageError(f"{where.label} is a directory: expected a database file")
    if where.path is not None and not where.missing and not _sqlite_file(where.path):
        raise StorageError(f"{where.label} is not a SQLite database file: expected a wsdb database")


def _sqlite_file(path) -> bool:
    """Whether a file is SQLite's (its header), or empty (a new database);
    a file that says it is empty but reads otherwise (/proc/self/status)
    or is no regular file is not.

    Each file is read once per process: closing any descriptor of a file
    drops every POSIX lock the process holds on it, SQLite's included
    (sqlite.org/howtocorrupt.html, 2.2). A second Store on a database this
    process already has open would otherwise leave its connections
    unlocked; another process (a `sqlite3` shell reading it) then took
    itself for the last one, checkpointed and deleted the write-ahead log,
    and a later commit here went into the deleted log: a proven bound
    reported as stored was lost."""
    try:
        if not path.is_file():
            return False
        st = path.stat()
        if (st.st_dev, st.st_ino) in _ACCEPTED:
            return True
        with open(path, "rb") as f:
            head = f.read(16)
    except OSError:
        return False
    ok = head == b"" or head == b"SQLite format 3\x00"
    if ok:
        _ACCEPTED.add((st.st_dev, st.st_ino))
    return ok


def _registered_id(conn, puzzle: str) -> int:
    """The number of ``puzzle`` in ``puzzles``, given it if the database lacks it."""
    pid = _puzzle_id(conn, puzzle, register=True)
    assert pid is not None
    return pid


def _puzzle_id(conn, puzzle: str, register: bool = False) -> int | None:
    """The number of ``puzzle`` in ``puzzles`` (Wrapslide's is 0); with
    ``register``, a new one is given to a puzzle the database lacks."""
    if puzzle == WRAPSLIDE:
        return 0
    pid = conn.execute(sa.select(puzzles.c.id).where(puzzles.c.name == puzzle)).scalar()
    if pid is None and register:
        pid = conn.execute(sa.select(sa.func.coalesce(sa.func.max(puzzles.c.id), 0) + 1)).scalar()
        conn.execute(puzzles.insert().values(id=pid, name=puzzle))
    return pid


def _insert_classes(conn, tree: TreeKey, depth: int, columns: Iterable[tuple], per: int = 256) -> None:
    """Insert one level's class rows: through COPY on PostgreSQL
    (:func:`_copy_classes`), else ``per`` rows to a statement. A
    multi-row VALUES with n, c, root, the puzzle's number and depth written
    in as literals binds 3 values a row instead of 8 and steps the statement
    once per ``per`` rows: twice as fast as one row per step (4.3 -> 2.0 us
    a row on SQLite), and the B-tree insert is then most of what is left."""
    n, c, root = tree.n, tree.c, tree.root
    pid = _registered_id(conn, tree.puzzle)  # the caller made its build row, so it is registered
    if conn.dialect.name == "postgresql":
        _copy_classes(conn, tree, pid, depth, columns)
        return
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    head = "INSERT INTO class_rows (n, c, root, puzzle_id, rep, depth, parent, orbit_size) VALUES "
    lit_root = sa.literal(root, sa.Text).compile(dialect=conn.dialect, compile_kwargs={"literal_binds": True})
    cursor = conn.connection.cursor()
    try:
        for reps, parents, orbits in columns:
            one = (
                f"({int(n)},{int(c)},{lit_root},{pid},{mark},{int(depth)},{'NULL' if parents is None else mark},{mark})"
            )
            cols = [reps, orbits] if parents is None else [reps, parents, orbits]
            table = np.empty((len(reps), len(cols)), dtype=object if reps.dtype == object else np.int64)
            for j, col in enumerate(cols):
                table[:, j] = col
            whole = len(reps) // per * per
            if whole:
                cursor.executemany(head + ",".join([one] * per), table[:whole].reshape(-1, per * len(cols)).tolist())
            if whole < len(reps):
                cursor.executemany(head + one, table[whole:].tolist())
    finally:
        cursor.close()


def _copy_classes(conn, tree: TreeKey, pid: int, depth: int, columns: Iterable[tuple]) -> None:
    """Stream one level's class rows into the tree's table on
    PostgreSQL (:mod:`.tree_tables`) with COPY, in PostgreSQL's text format:
    one stream a chunk instead of one statement per 256 rows, and nothing
    for the server to parse or route. ``pid`` is the tree's puzzle number;
    wide keys (big-endian bytes) are written as the numbers NUMERIC(39)
    holds."""
    n, c, root = tree.n, tree.c, tree.root
    text_root = root.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
    text_root = text_root.replace("{", "{{").replace("}", "}}")  # the rows go through str.format
    row = (f"{int(n)}\t{int(c)}\t{text_root}\t{pid}\t" + "{}\t" + f"{int(depth)}" + "\t{}\t{}\n").format
    cursor = conn.connection.cursor()
    try:
        with cursor.copy(
            f"COPY {tree_tables.tree_table(tree, pid)} "
            "(n, c, root, puzzle_id, rep, depth, parent, orbit_size) FROM STDIN"
        ) as copy:
            for reps, parents, orbits in columns:  # depth 0 has no parents: NULL, \N in COPY's text
                parents = repeat("\\N", len(reps)) if parents is None else _numbers(parents)
                copy.write("".join(map(row, _numbers(reps), parents, orbits.tolist())))
    finally:
        cursor.close()


def _numbers(keys: np.ndarray) -> list[int]:
    """SQL key values as Python ints: wide keys come as big-endian bytes."""
    if keys.dtype == object:
        return [int.from_bytes(v, "big") for v in keys]
    return keys.tolist()
