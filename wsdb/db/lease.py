"""A build's lease on its tree: taken before the first level, renewed
while the build works, released when it ends; judged in :mod:`.status`.

A lock dies with the process or connection that holds it, or, for a
build started on another machine, cannot be checked at all. A lease
needs neither: it is a row (``leases``, migration 0012) saying who holds
the tree (host:pid and a random token), since when, when it was last
renewed and how long it lasts unrenewed. A build that is gone (killed,
its machine down) stops renewing; once its lease is stale the next build
takes the tree over and resumes from the deepest level stored.

What the databases give makes taking one atomic: on SQLite the claim's
transaction begins with BEGIN IMMEDIATE (the file's write lock), on
PostgreSQL with a transaction-scoped advisory lock on the tree, and the
row is changed only if it still says what was read (compare and swap),
so of two builds racing for one tree exactly one holds it. Every level a
holder stores renews the lease in the level's own transaction, and a
holder whose lease another build took over stores nothing more.

Clocks: a lease's age is read on the reader's clock against the holder's,
so the machines sharing a database keep their clocks within a small part
of the timeout (NTP does).
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from datetime import datetime, timezone

import sqlalchemy as sa
from sqlalchemy import exc

from ..errors import InputError, StorageError, WsdbError
from ..notices import duration
from ..puzzle.catalog import describe
from ..puzzle.tree_key import TreeKey
from .schema import builds, leases, tree_is
from .status import LEASE_TIMEOUT, Holding, beat, holding, this_builder


class HeldError(StorageError):
    """The tree is held by a live lease of another build."""


class LeaseLostError(StorageError):
    """This build's lease went stale and another build took the tree over."""


def stored_lease(conn, tree: TreeKey) -> Holding | None:
    """The lease row of ``tree``, or None."""
    row = conn.execute(
        sa.select(leases.c.holder, leases.c.token, leases.c.taken_at, leases.c.renewed_at, leases.c.timeout).where(
            *tree_is(leases, tree)
        )
    ).first()
    return None if row is None else Holding(*row)


def _advisory_key(tree: TreeKey) -> int:
    """A signed 64-bit number naming ``tree`` for PostgreSQL's advisory locks."""
    digest = hashlib.blake2b(f"wsdb lease {tree.puzzle} {tree.n} {tree.c} {tree.root}".encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "big", signed=True)


class Lease:
    """The lease this process holds on ``tree`` in ``store``: :meth:`take`
    it, then pass it to every write of the tree (:meth:`hold` renews it in
    that transaction); a thread renews it meanwhile; :meth:`release` at
    the end. :attr:`taken_from` is the stale lease taken over, if any."""

    def __init__(self, store, tree: TreeKey, timeout: float = LEASE_TIMEOUT):
        if not timeout > 0:
            raise InputError(f"--lease-timeout {timeout}: expected a number of seconds above 0")
        self.store, self.tree, self.timeout = store, tree, float(timeout)
        self.holder = this_builder()
        self.token = secrets.token_hex(8)
        self.taken_from: Holding | None = None
        self.lost: str | None = None  # why the lease is gone, once the heartbeat found it taken
        self._stop = threading.Event()
        self._beating: threading.Thread | None = None

    # ---- take ---------------------------------------------------------------

    @classmethod
    def take(cls, store, tree: TreeKey, timeout: float = LEASE_TIMEOUT, heartbeat: bool = True) -> "Lease":
        """The lease of ``tree``, taken: at once where none is held or the
        one held is stale (:attr:`taken_from` says whose); a one-line
        :class:`HeldError` naming the holder and its age where a live one
        is held. Renewed by a thread of its own with ``heartbeat``."""
        lease = cls(store, tree, timeout)
        try:
            with store._write() as conn:
                lease.taken_from = lease._claim(conn)
        except exc.IntegrityError:  # another build inserted its lease between our read and write
            lease._refuse(None)
        if heartbeat:
            lease._beating = threading.Thread(target=lease._heartbeat, name="wsdb-lease", daemon=True)
            lease._beating.start()
        return lease

    def _claim(self, conn) -> Holding | None:
        if conn.dialect.name == "postgresql":  # claims of one tree wait for each other
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_advisory_key(self.tree))))
        row = conn.execute(sa.select(builds).where(*tree_is(builds, self.tree))).first()
        stored = stored_lease(conn, self.tree)
        held = stored or (holding(dict(row._mapping)) if row is not None else None)
        if held is not None and held.live():
            self._refuse(held)
        now = time.time()
        values = dict(
            holder=self.holder,
            token=self.token,
            taken_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            renewed_at=now,
            timeout=self.timeout,
        )
        if stored is None:
            conn.execute(leases.insert().values(**self.tree.row, **values))
        else:  # compare and swap: only the lease as read is replaced
            done = conn.execute(
                leases.update()
                .where(*tree_is(leases, self.tree), leases.c.token == stored.token)
                .where(leases.c.renewed_at == stored.renewed_at)
                .values(**values)
            )
            if done.rowcount != 1:
                self._refuse(stored_lease(conn, self.tree))
        return held

    def _refuse(self, held: Holding | None):
        what, _ = describe(self.tree)
        who = f"held by {held.said()}; stale after {duration(held.timeout)} unrenewed" if held else "by another build"
        raise HeldError(
            f"{self.store.label}: the {what} build is still running ({who}): try again when it has "
            "finished, or once its lease is stale"
        )

    def said(self) -> str:
        """The line a build says when it took a stale lease over ('' when it took a free tree)."""
        if self.taken_from is None:
            return ""
        held = self.taken_from
        return (
            f"took over the build held by {held.holder}: its lease was last renewed "
            f"{duration(held.age())} ago (stale after {duration(held.timeout)})"
        )

    # ---- renew --------------------------------------------------------------

    def hold(self, conn) -> None:
        """Renew the lease inside the caller's write transaction, which
        fails (and stores nothing) where another build took the tree over."""
        if self.lost is not None:
            raise LeaseLostError(self.lost)
        done = conn.execute(
            leases.update()
            .where(*tree_is(leases, self.tree), leases.c.token == self.token)
            .values(renewed_at=time.time())
        )
        if done.rowcount != 1:
            self.lost = self._lost_line(stored_lease(conn, self.tree))
            raise LeaseLostError(self.lost)

    def _lost_line(self, now: Holding | None) -> str:
        what, _ = describe(self.tree)
        who = f"by {now.holder}" if now is not None else "and released"
        return (
            f"{self.store.label}: this {what} build's lease went stale and was taken over {who}: "
            "stopping; every level stored is kept"
        )

    def _heartbeat(self) -> None:
        """Renew every :func:`~.status.beat` seconds until released; a
        renewal that cannot get the write lock waits for the next beat, one
        that finds the lease taken over marks it lost."""
        while not self._stop.wait(beat(self.timeout)):
            try:
                with self.store._write() as conn:
                    self.hold(conn)
            except LeaseLostError:
                return
            except (WsdbError, exc.SQLAlchemyError, OSError):
                continue  # busy, or the database briefly unreachable: the next beat tries again

    # ---- release ------------------------------------------------------------

    def stop(self) -> None:
        """Stop renewing (the heartbeat ends within a beat)."""
        self._stop.set()
        if self._beating is not None and self._beating is not threading.current_thread():
            self._beating.join(timeout=beat(self.timeout) + 15)
        self._beating = None

    def drop(self, conn) -> None:
        """Delete the lease inside the caller's write transaction (the build
        is finished, or stops here), and clear the build row's builder."""
        conn.execute(leases.delete().where(*tree_is(leases, self.tree), leases.c.token == self.token))
        conn.execute(
            builds.update().where(*tree_is(builds, self.tree), builds.c.builder == self.holder).values(builder=None)
        )

    def release(self) -> None:
        """Stop renewing and give the tree up: the next build resumes it at
        once. Quietly nothing where the database cannot be written now (the
        lease then goes stale by itself)."""
        self.stop()
        if self.lost is not None:
            return
        try:
            with self.store._write() as conn:
                self.drop(conn)
        except (WsdbError, exc.SQLAlchemyError, OSError):
            pass
