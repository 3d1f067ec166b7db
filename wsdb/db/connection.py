"""How wsdb connects to a database: read-only unless writing, SQLite's
pragmas for writers, refusing read-only media before any work, and turning
the environment's failures (a full disk, a lock, a read-only file) into one
line. The queries are in :mod:`wsdb.db.store`, the tables in
:mod:`wsdb.db.schema`."""

from __future__ import annotations

import os
import sqlite3
from importlib import resources

import sqlalchemy as sa
from sqlalchemy import event, exc

from ..errors import StorageError
from .failures import storage_failure
from .location import Location
from .reader import BUSY_MS, connect_readonly


class Writing:
    """``with Writing(store) as conn``: a transaction whose environmental
    failures become WsdbError (nothing is committed then)."""

    def __init__(self, store):
        self.store = store
        self.tx = None

    def __enter__(self):
        try:
            self.tx = for_writes(self.store.sql).begin()
            return self.tx.__enter__()
        except exc.OperationalError as e:
            raise StorageError(why_not_written(self.store, e)) from None

    def __exit__(self, kind, value, tb):
        failures = (exc.OperationalError, sqlite3.OperationalError)
        try:
            self.tx.__exit__(kind, value, tb)  # commit, or roll back on an exception
        except failures as e:
            raise StorageError(why_not_written(self.store, e)) from None
        if kind is not None and issubclass(kind, failures):
            raise StorageError(why_not_written(self.store, value)) from None
        return False


def check_writable(where: Location) -> None:
    """Refuse to start writing where nothing can be written (a read-only
    filesystem or file), before any work: SQLite itself would only say so
    at the first commit."""
    assert where.path is not None, "a file database: a server checks its own permissions"
    folder = where.path.parent if where.missing else where.path
    try:
        read_only_fs = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return
    if read_only_fs:
        raise StorageError(f"cannot write {where.label}: it is on a read-only filesystem")
    if not where.missing and not os.access(where.path, os.W_OK):
        raise StorageError(f"cannot write {where.label}: the file is read-only")


def on_storage_failure(where: Location):
    """A SQLAlchemy ``handle_error`` hook: a driver error that is the
    storage's fault (:func:`storage_failure`) is raised as its one line in
    place of SQLAlchemy's exception, in every query of every command."""

    def handle(context) -> None:
        failure = storage_failure(where, context.original_exception)
        if failure is not None:
            raise failure from None

    return handle


def why_not_written(store, e: Exception) -> str:
    text = str(getattr(e, "orig", e))
    if "full" in text or "disk I/O" in text:
        return f"cannot write {store.label}: the disk is full ({text}); nothing of this step was kept"
    if "readonly" in text or "read-only" in text:
        return f"cannot write {store.label}: it is read-only ({text})"
    if "locked" in text:
        return f"cannot write {store.label}: another process holds its write lock ({text}); try again"
    return f"cannot write {store.label}: {text}"


def revisions() -> set[str]:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("wsdb.db.migrations")))
    return {script.revision for script in ScriptDirectory.from_config(cfg).walk_revisions()}


def engine(where: Location, write: bool) -> sa.Engine:
    """A SQLAlchemy engine on the database: read-only connections (those
    of :func:`~wsdb.db.reader.connect_readonly`) unless ``write``."""
    reading = where.path is not None and not write
    if reading:
        path = where.path
        sql = sa.create_engine("sqlite://", creator=lambda: connect_readonly(path))
    else:
        sql = sa.create_engine(where.url)
        event.listen(sql, "connect", write_pragmas)
        if sql.dialect.name == "sqlite":
            event.listen(sql, "begin", begin_immediate)
    event.listen(sql, "handle_error", on_storage_failure(where))
    return sql


def for_writes(sql: sa.Engine) -> sa.Engine:
    """The engine for a writing transaction: on SQLite it begins with
    BEGIN IMMEDIATE (:func:`begin_immediate`)."""
    return sql.execution_options(wsdb_writes=True)


def begin_immediate(conn) -> None:
    """Transactions on SQLite are begun here. Python's sqlite3 module left
    schema statements outside any transaction, so a schema upgrade killed
    half-way was committed half-way; with the module's own transaction
    handling off (:func:`write_pragmas`) a transaction spans DDL too, and
    the whole upgrade, the version row included, commits at once or not at
    all (SQLAlchemy's documented recipe for transactional DDL on pysqlite).
    A writing transaction (:func:`for_writes`) takes the write lock at once
    with BEGIN IMMEDIATE, so a second writer waits for the first (two first
    builds of one new file) instead of failing on a stale snapshot; reads
    begin a plain deferred transaction and take no lock."""
    immediate = conn.get_execution_options().get("wsdb_writes", False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def write_pragmas(dbapi_conn, _record) -> None:
    # WAL: readers never wait for a build, and a build's level commits are
    # atomic; synchronous NORMAL loses at most the last commits on a power
    # cut, never consistency. 16 KiB pages (new files only) write faster.
    if isinstance(dbapi_conn, sqlite3.Connection):
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        cur.execute("PRAGMA page_size = 16384")
        cur.execute("PRAGMA journal_mode = WAL")
        cur.execute("PRAGMA synchronous = NORMAL")
        cur.execute("PRAGMA cache_size = -131072")
        cur.close()
        dbapi_conn.isolation_level = None  # no implicit BEGIN: begin_immediate says when
