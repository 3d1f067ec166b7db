"""Whether a stored build can be used: who is building it, and the one-line
messages for builds that are missing or unfinished. Shared by the
SQLAlchemy store and the light reader; plain Python, no SQL."""

from __future__ import annotations

import os

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


def unfinished(row: dict, db_option: str = "") -> str:
    """One line saying that a build is not finished, and what to do (the
    command naming the database with ``db_option``, as the user did)."""
    what, command = describe(TreeKey.from_row(row))
    command += db_option
    if row["builder"] and builder_alive(row["builder"]) and row["builder"] != this_builder():
        return (
            f"the {what} build is still running (levels 0-{row['height']} done, by "
            f"{row['builder']}): try again when it has finished"
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
