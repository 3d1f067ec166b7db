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

from ..errors import WsdbError
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
            self.tx = self.store.sql.begin()
            return self.tx.__enter__()
        except exc.OperationalError as e:
            raise WsdbError(why_not_written(self.store, e)) from None

    def __exit__(self, kind, value, tb):
        failures = (exc.OperationalError, sqlite3.OperationalError)
        try:
            self.tx.__exit__(kind, value, tb)   # commit, or roll back on an exception
        except failures as e:
            raise WsdbError(why_not_written(self.store, e)) from None
        if kind is not None and issubclass(kind, failures):
            raise WsdbError(why_not_written(self.store, value)) from None
        return False


def check_writable(where: Location) -> None:
    """Refuse to start writing where nothing can be written (a read-only
    filesystem or file), before any work: SQLite itself would only say so
    at the first commit."""
    folder = where.path.parent if where.missing else where.path
    try:
        read_only_fs = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return
    if read_only_fs:
        raise WsdbError(f"cannot write {where.label}: it is on a read-only filesystem")
    if not where.missing and not os.access(where.path, os.W_OK):
        raise WsdbError(f"cannot write {where.label}: the file is read-only")


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
    if where.path is not None and not write:
        path = where.path
        return sa.create_engine("sqlite://", creator=lambda: connect_readonly(path))
    sql = sa.create_engine(where.url)
    event.listen(sql, "connect", write_pragmas)
    return sql


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
