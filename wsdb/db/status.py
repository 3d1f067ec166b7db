"""Whether a stored build can be used: who is building it (its lease,
judged here; taken and renewed in :mod:`.lease`), and the one-line
messages for builds that are missing or unfinished. Shared by the
SQLAlchemy store and the light reader; plain Python, no SQL."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from datetime import datetime

from ..notices import duration
from ..puzzle.catalog import describe, stored_puzzle
from ..puzzle.tree_key import TreeKey


def _host() -> str:
    # socket costs 4 ms of start-up; only the build-status paths need it.
    import socket

    return socket.gethostname()


def this_builder() -> str:
    """How a build names the process running it (host:pid)."""
    return f"{_host()}:{os.getpid()}"


def builder_alive(builder: str | None) -> bool:
    """Whether the process named by ``builder`` still runs (on this host;
    a build started on another host counts as alive)."""
    if not builder:
        return False
    host, _, pid = builder.rpartition(":")
    if host != _host():
        return True
    try:
        os.kill(int(pid), 0)
    except (ProcessLookupError, ValueError):
        return False
    except PermissionError:
        return True
    return True


#: Seconds a build's lease lasts unrenewed before another build may take the
#: tree over. A holder renews every tenth of it (30 s) from a thread of its
#: own, and with every level it stores; SQLite's longest write transaction
#: here (8.7 M classes of 6x6 three colours, 25 s) and a heartbeat waiting
#: out the 10 s busy timeout fit ten times over, so only a holder that is
#: gone (killed, its machine down, cut off from the database) lets it lapse;
#: a crashed node's tree waits five minutes, nothing beside a week's run.
LEASE_TIMEOUT = 300.0


def beat(timeout: float) -> float:
    """How often a holder renews a lease of ``timeout`` seconds."""
    return max(0.2, min(30.0, timeout / 10))


@dataclass(frozen=True)
class Holding:
    """A lease as stored: who holds a tree being built, since when, when it
    was last renewed (seconds since the epoch) and how long it lasts
    unrenewed. ``token`` is the holder's random word ('' for a build an
    older wsdb marked, judged by its build row)."""

    holder: str
    token: str
    taken_at: str
    renewed_at: float
    timeout: float

    def age(self, now: float | None = None) -> float:
        """Seconds since the lease was last renewed."""
        return max(0.0, (time.time() if now is None else now) - self.renewed_at)

    def live(self, now: float | None = None) -> bool:
        """Renewed within its timeout, by a process that may still run (on
        this host, one whose process id is gone holds nothing: no wait)."""
        return self.age(now) <= self.timeout and builder_alive(self.holder)

    def said(self, now: float | None = None) -> str:
        """'host:pid, renewed 4 s ago': the holder and its lease's age."""
        return f"{self.holder}, renewed {duration(self.age(now))} ago"


def holding(row: dict) -> Holding | None:
    """The lease on a build row's tree: the stored lease (``row['lease']``,
    as the store and the reader attach it), else for a row an older wsdb
    marked 'building' its builder, renewed when its last level was stored."""
    lease = row.get("lease")
    if lease is not None:
        return lease
    if row.get("status") == "building" and row.get("builder"):
        return Holding(row["builder"], "", str(row["built_at"]), _epoch(row["built_at"]), LEASE_TIMEOUT)
    return None


def _epoch(iso) -> float:
    try:
        return datetime.fromisoformat(str(iso)).timestamp()
    except ValueError:
        return 0.0  # unreadable: as old as can be


def unfinished(row: dict, db_option: str = "") -> str:
    """One line saying that a build is not finished, and what to do (the
    command naming the database with ``db_option``, as the user did)."""
    what, command = describe(TreeKey.from_row(row))
    command += db_option
    held = holding(row)
    if held is not None and held.live() and held.holder != this_builder():
        return (
            f"the {what} build is still running (levels 0-{row['height']} done, by "
            f"{held.said()}): try again when it has finished"
        )
    return f"the {what} build was interrupted at depth {row['height']}: run `{command}` to resume it"


def no_build(label: str, tree: TreeKey, db_option: str = "") -> str:
    """One line saying that a database holds no build of ``tree``."""
    what, command = describe(tree)
    command += db_option
    hint = "" if stored_puzzle(tree).ranked_only else " (add --max-depth D for big grids)"  # built whole
    return f"{label} has no {what} database: run `{command}` first{hint}"


def finished(row: dict | None, label: str, db_option: str = "") -> dict | None:
    """The build row if finished, None if there is none; a one-line error
    (saying so, and how to resume) if it is not finished."""
    from ..errors import NotBuiltError

    if row is not None and row["status"] != "done":
        raise NotBuiltError(f"{label}: {unfinished(row, db_option)}")
    return row


def required(row: dict | None, label: str, tree: TreeKey, db_option: str = "") -> dict:
    """The build row if it exists and is finished; else a one-line error."""
    from ..errors import NotBuiltError

    done = finished(row, label, db_option)
    if done is None:
        raise NotBuiltError(no_build(label, tree, db_option))
    return done
