"""What a database driver's error means when the storage, not the
request, is at fault: SQLite's SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_IOERR,
SQLITE_FULL and SQLITE_CANTOPEN, a table gone, a PostgreSQL connection lost
or a relation missing, each as the one line the user gets. Shared by the
SQLAlchemy engines (:func:`wsdb.db.connection.on_storage_failure`) and the
light reader (:mod:`wsdb.db.reader`); plain Python, no SQLAlchemy.

sqlite3 raises one class per result-code family (DatabaseError for
SQLITE_CORRUPT and SQLITE_NOTADB, OperationalError for the rest), so the
kind is read from SQLite's own message, which names its result code's text
(sqlite.org/rescode.html); psycopg raises one class per SQLSTATE.
"""

from __future__ import annotations

import sqlite3

from ..errors import DamagedError, StorageFailedError, WsdbError
from .location import Location


def storage_failure(where: Location, e: BaseException) -> WsdbError | None:
    """What a database driver's error means, as the one line the user gets
    (naming the database and what to run), when it is the storage's fault:
    damaged pages or a table gone (:class:`DamagedError`), an I/O error, a
    full disk, a file that cannot be opened, a server connection lost
    (:class:`StorageFailedError`). None for the rest (a lock, a read-only
    file, a bug), which their callers say or retry."""
    text = " ".join(str(e).split()) or type(e).__name__
    low = text.lower()
    verify = f"`wsdb verify --n N --c C{where.option}`"
    if isinstance(e, sqlite3.Error):
        if "malformed" in low or "corrupt" in low:
            return DamagedError(
                f"{where.label} is damaged (SQLite: {text}); nothing was changed: restore it from a copy, "
                f"then {verify} checks it"
            )
        if "not a database" in low:
            return DamagedError(
                f"{where.label} is not a readable SQLite database (SQLite: {text}): if it was a wsdb "
                "database it is damaged: restore it from a copy"
            )
        if "no such table" in low or "no such column" in low:
            return DamagedError(
                f"{where.label} is damaged: a wsdb table is gone (SQLite: {text}); nothing was changed: "
                f"restore it from a copy, then {verify} checks it"
            )
        if "disk i/o" in low or "short read" in low:
            return StorageFailedError(
                f"cannot read or write {where.label}: the storage failed (SQLite: {text}); nothing was "
                f"changed: once it works again, {verify} checks the builds"
            )
        if "full" in low:
            return StorageFailedError(
                f"cannot write {where.label}: the disk is full (SQLite: {text}); nothing of this step was kept"
            )
        if "unable to open" in low:
            return StorageFailedError(
                f"cannot open {where.label} (SQLite: {text}): the file or its folder vanished or cannot be read"
            )
        return None
    name = type(e).__name__
    module = type(e).__module__
    if module.startswith("psycopg"):
        if name in ("UndefinedTable", "UndefinedColumn", "UndefinedObject", "UndefinedFunction"):
            return DamagedError(
                f"{where.label} is damaged: a wsdb table is gone (PostgreSQL: {text}); nothing was "
                f"changed: restore it from a copy, then {verify} checks it"
            )
        lost = ("server closed the connection", "terminating connection", "connection is closed", "consuming input")
        if name in ("AdminShutdown", "ConnectionFailure", "CrashShutdown") or any(w in low for w in lost):
            return StorageFailedError(
                f"lost the connection to {where.label} (PostgreSQL: {text}); nothing was changed: "
                f"check the server, then run the command again ({verify} checks the builds)"
            )
        if name in ("DiskFull", "IoError", "DataCorrupted", "IndexCorrupted"):
            return StorageFailedError(
                f"{where.label}: the server's storage failed (PostgreSQL: {text}); nothing was changed"
            )
    return None
