"""Lookups' fast path into a SQLite file: the standard library's sqlite3,
read-only, without SQLAlchemy.

Importing SQLAlchemy takes about 0.4 s on the 2-core reference machine,
longer than a whole lookup should; a lookup needs two queries, the build
row and the depth and parent of some keys, so it asks them here. The file
must have the current schema (else :func:`open_reader` returns None and
:class:`~wsdb.db.store.Store` opens it, migrating or refusing it with its
usual messages). The key query is shared with the store, so there is one
implementation of it for SQLite.
"""

from __future__ import annotations

import json
import os
import sqlite3
from urllib.parse import quote

import numpy as np

from ..engine.keys import distinct, member, sortable, unsortable
from ..errors import DamagedError, WsdbError
from ..puzzle.tree_key import WRAPSLIDE, TreeKey
from .failures import storage_failure
from .location import resolve
from .migrations import HEAD
from .status import Holding, required

BUSY_MS = 10_000  # how long a connection waits for another's write lock
CHUNK = 5000  # keys per IN (...) query when keys are BLOBs
MMAP_BYTES = 1 << 31  # readers map the file: key searches a third faster than through read()

_BUILD_COLUMNS = (
    "puzzle",
    "n",
    "c",
    "root",
    "complete",
    "max_depth",
    "height",
    "god_number",
    "classes",
    "states",
    "seconds",
    "version",
    "built_at",
    "status",
    "builder",
    "symbols",
    "levels",
)


def connect_readonly(path) -> sqlite3.Connection:
    """A read-only sqlite3 connection. On a read-only filesystem SQLite
    cannot open a WAL database even for reading (it needs its shared-memory
    file), so there the file is opened as immutable, which is exact because
    nothing can change it."""
    immutable = "" if os.access(path.parent, os.W_OK) else "&immutable=1"
    conn = sqlite3.connect(f"file:{quote(str(path))}?mode=ro{immutable}", uri=True, check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
    conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
    return conn


class Reader:
    """A wsdb SQLite file opened read-only for lookups."""

    def __init__(self, conn: sqlite3.Connection, where):
        self.conn = conn
        self.where = where  # the Location opened
        self.label = where.label
        self.db_option = where.option  # how a hint names the database again (Location.option)

    def _failed(self, e: sqlite3.Error, what: str) -> WsdbError:
        """The one line for SQLite's error ``e`` while reading ``what``."""
        return storage_failure(self.where, e) or DamagedError(
            f"{self.label}: cannot read {what} ({e}); run `wsdb verify`"
        )

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def build_row(self, tree: TreeKey) -> dict | None:
        """The stored build of ``tree``, or None."""
        try:
            row = self.conn.execute(
                f"SELECT {', '.join(_BUILD_COLUMNS)} FROM builds WHERE puzzle=? AND n=? AND c=? AND root=?",
                (tree.puzzle, tree.n, tree.c, tree.root),
            ).fetchone()
            if row is None:
                return None
            found = dict(zip(_BUILD_COLUMNS, row))
            if found["status"] != "done":  # who holds it (status.unfinished says)
                lease = self.conn.execute(
                    "SELECT holder, token, taken_at, renewed_at, timeout FROM leases "
                    "WHERE puzzle=? AND n=? AND c=? AND root=?",
                    (tree.puzzle, tree.n, tree.c, tree.root),
                ).fetchone()
                found["lease"] = None if lease is None else Holding(*lease)
        except sqlite3.Error as e:  # damaged pages, a table dropped, the storage failing
            raise self._failed(e, "its builds") from None
        return found

    def require_build(self, tree: TreeKey) -> dict:
        """The stored, finished build, or a clear error saying how to make
        or finish it."""
        return required(self.build_row(tree), self.label, tree, self.db_option)

    def fetch(self, tree: TreeKey, layout, keys: np.ndarray):
        """Depth and parent of each key: (found, depth, parents (S, W))."""
        try:
            return fetch_keys(self.conn, tree, layout, keys)
        except sqlite3.Error as e:  # damaged pages, a table dropped, the storage failing
            raise self._failed(e, "the class rows") from None


def open_reader(db=None) -> Reader | None:
    """The database as a :class:`Reader` when it is a SQLite file with the
    current schema; None otherwise (a server, a missing or foreign file,
    an older or newer schema: the store then decides what to say)."""
    try:
        where = resolve(db)
    except WsdbError:
        return None
    if where.path is None or not where.path.is_file():
        return None
    try:
        conn = connect_readonly(where.path)
        rev = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.Error:
        return None
    if rev is None or rev[0] != HEAD:
        conn.close()
        return None
    return Reader(conn, where)


def fetch_keys(conn: sqlite3.Connection, tree: TreeKey, layout, keys: np.ndarray):
    """Depth and parent of each key from a sqlite3 connection: (found,
    depth, parents (S, W)); keys not stored get found=False, depth -1.

    INTEGER keys travel as one JSON array, joined to the table key by key
    (one primary-key search each, no statement per key); BLOB keys in IN
    lists."""
    keys = np.asarray(keys, dtype=np.uint64).reshape(-1, layout.words)
    uniq = unsortable(distinct(sortable(keys)), layout.words)
    values = layout.to_sql(uniq)
    # Wrapslide's number is 0 (migration 0004); another puzzle's is looked up once by the query
    which = "0" if tree.puzzle == WRAPSLIDE else "(SELECT id FROM puzzles WHERE name = ?)"
    args = (tree.n, tree.c, tree.root) + (() if tree.puzzle == WRAPSLIDE else (tree.puzzle,))
    where = f"r.n = ? AND r.c = ? AND r.root = ? AND r.puzzle_id = {which}"
    rows: list = []
    if layout.sql_integer:
        rows = conn.execute(
            f"SELECT r.rep, r.depth, r.parent FROM json_each(?) AS k CROSS JOIN class_rows AS r "
            f"ON {where} AND r.rep = k.value",
            (json.dumps(values), *args),
        ).fetchall()
    else:
        for i in range(0, len(values), CHUNK):
            part = values[i : i + CHUNK]
            rows += conn.execute(
                f"SELECT r.rep, r.depth, r.parent FROM class_rows AS r WHERE {where} AND "
                f"r.rep IN ({','.join('?' * len(part))})",
                (*args, *part),
            ).fetchall()
    return match_rows(layout, keys, rows)


def match_rows(layout, keys: np.ndarray, rows: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Line up fetched (rep, depth, parent) rows with ``keys``: (found,
    depth, parents (S, W)). A row whose depth is not a number of moves, or
    whose parent is not a key where it needs one, is damage
    (:class:`~wsdb.errors.DamagedError`), never an answer."""
    found = np.zeros(len(keys), dtype=bool)
    depth = np.full(len(keys), -1, dtype=np.int64)
    parents = np.zeros_like(keys)
    if not rows:
        return found, depth, parents
    reps, depths, pars = zip(*rows)
    for rep, d in zip(reps, depths):
        if type(d) is not int or d < 0:
            raise DamagedError(f"class {_shown(rep)} has depth {d!r}: expected a number of moves")
    got = sortable(layout.from_sql(reps))
    order = np.argsort(got, kind="stable")
    found, at = member(got[order], sortable(keys))
    at = order[at[found]]
    stored = np.asarray(depths, dtype=np.int64)
    depth[found] = stored[at]
    inner = np.flatnonzero(found)[stored[at] > 0]
    if inner.size:
        has = stored > 0
        wanted = [(rep, p) for rep, p, h in zip(reps, pars, has) if h]
        check_parents(layout, wanted)
        parent_keys = np.zeros((len(rows), layout.words), np.uint64)
        parent_keys[has] = layout.from_sql([p for _, p in wanted])
        parents[inner] = parent_keys[at[stored[at] > 0]]
    return found, depth, parents


def check_parents(layout, rows: list) -> None:
    """(rep, parent) rows of classes below level 0: every parent must be
    the key of a class (an INTEGER, or the bytes of a wide key), or the
    rows are damaged (:class:`~wsdb.errors.DamagedError`)."""
    for rep, p in rows:
        if (
            isinstance(p, bool)
            or not isinstance(p, (int, bytes, memoryview))
            or (layout.sql_integer and not (isinstance(p, int) and 0 <= p < 1 << 63))
            or (not isinstance(p, int) and len(p) > 8 * layout.words)
        ):
            raise DamagedError(f"class {_shown(rep)} has parent {_shown(p)}: expected the key of a class")


def _shown(value) -> str:
    """A stored value as a message shows it: a key as an integer, anything
    else as it is, cut to 80 characters."""
    if isinstance(value, (bytes, memoryview)):
        value = int.from_bytes(bytes(value), "big")
    text = repr(value) if not isinstance(value, int) else str(value)
    return text if len(text) <= 80 else text[:77] + "..."
