"""Whether a stored build can be used: who is building it, and the one-line
messages for builds that are missing or unfinished. Shared by the
SQLAlchemy store and the light reader; plain Python, no SQL."""
from __future__ import annotations

import os


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


def describe(n: int, c: int, root: str, puzzle: str = "wrapslide") -> tuple[str, str]:
    """(what, command): how a message names the tree, and the `wsdb build`
    command that makes or resumes it."""
    if puzzle == "wrapslide":
        flag = "" if root == "all" else f" --root {root}"
        return f"{n}x{n} {c}-colour", f"wsdb build --n {n} --c {c}{flag}"
    if puzzle == "sliding":   # n rows of c / n cells, the goal fixed
        return f"sliding {n}x{c // n} {root}", f"wsdb build --puzzle sliding --n {n} --m {c // n}"
    return f"{puzzle} {n}x{n} {root}", f"wsdb build --puzzle {puzzle} --n {n} --goal {root}"


def unfinished(row: dict) -> str:
    """One line saying that a build is not finished, and what to do."""
    what, command = describe(row["n"], row["c"], row["root"], row.get("puzzle", "wrapslide"))
    if row["builder"] and builder_alive(row["builder"]) and row["builder"] != this_builder():
        return (f"the {what} build is still running (levels 0-{row['height']} done, by "
                f"{row['builder']}): try again when it has finished")
    return f"the {what} build was interrupted at depth {row['height']}: run `{command}` to resume it"


def no_build(label: str, n: int, c: int, root: str, puzzle: str = "wrapslide") -> str:
    """One line saying that a database holds no (n, c, root) build of ``puzzle``."""
    what, command = describe(n, c, root, puzzle)
    hint = "" if puzzle == "sliding" else " (add --max-depth D for big grids)"
    return f"{label} has no {what} database: run `{command}` first{hint}"


def finished(row: dict | None, label: str) -> dict | None:
    """The build row if finished, None if there is none; a one-line error
    (saying so, and how to resume) if it is not finished."""
    from ..errors import WsdbError

    if row is not None and row["status"] != "done":
        raise WsdbError(f"{label}: {unfinished(row)}")
    return row


def required(row: dict | None, label: str, n: int, c: int, root: str, puzzle: str = "wrapslide") -> dict:
    """The build row if it exists and is finished; else a one-line error."""
    from ..errors import WsdbError

    if finished(row, label) is None:
        raise WsdbError(no_build(label, n, c, root, puzzle))
    return row
