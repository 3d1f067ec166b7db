"""wsdb: God-number databases and solvers for the puzzle Wrapslide.

Library use (the CLI is a thin layer over these)::

    import wsdb
    wsdb.build(4, 4, db="db/wsdb.sqlite")
    ans = wsdb.lookup("1212/3434/1243/3421", db="db/wsdb.sqlite")
    ans.distance, ans.moves
    sol = wsdb.solve("123412/341234/214321/432143/123412/341234", db="db/wsdb.sqlite")
    sol.moves, sol.length, sol.lower_bound, sol.optimal

The package is layered; each subpackage imports only the ones below it:
``solver`` -> ``db`` -> ``engine`` -> ``puzzle`` (docs/architecture.md).
"""

# Only modules already loaded at Python's start (sys, os) or built in
# (_signal: `import signal` itself takes milliseconds, a window for Ctrl-C).
import _signal
import os
import sys


def _interrupted_early(signum, frame):
    """Ctrl-C before the command line is loaded: one line, status 130."""
    os.write(2, b"wsdb: interrupted\n")
    os._exit(130)


#: SIGINT's handler before the command's early one (restored by wsdb/__main__.py)
SIGINT_BEFORE = None
# `python -m wsdb` imports this package before wsdb/__main__.py runs (argv[0]
# is "-m" while the module is being found), and the `wsdb` script does too:
# a Ctrl-C in that import would be a traceback, so the command's early
# handler goes in here, first; importing wsdb as a library changes nothing.
# A Ctrl-C its parent told it to ignore (a background job) stays ignored.
_COMMAND = getattr(sys, "argv", [""])[:1] == ["-m"] or os.path.basename(getattr(sys, "argv", [""])[0]) == "wsdb"
if _COMMAND and _signal.getsignal(_signal.SIGINT) != _signal.SIG_IGN:
    try:
        SIGINT_BEFORE = _signal.signal(_signal.SIGINT, _interrupted_early)
    except ValueError:  # not the main thread: not a command start-up
        pass

from importlib import import_module  # noqa: E402  (after the handler, above)
from typing import TYPE_CHECKING  # noqa: E402

from .errors import (  # noqa: E402
    ClusterError,
    DamagedError,
    InputError,
    MissingDatabaseError,
    NotBuiltError,
    StateError,
    StorageError,
    WsdbError,
)

# Loaded when first used: importing the package costs nothing, so the
# command line starts at once (and Ctrl-C in its first moments is handled,
# wsdb/__main__.py); the builder and verify load SQLAlchemy (0.4 s), the
# solver numba (another 0.5 s), and a lookup needs neither.
_LAZY = {
    "build": "wsdb.db.build",
    "verify": "wsdb.db.verify",
    "solve": "wsdb.solver.solve",
    "solve_many": "wsdb.solver.solve",
    "lookup": "wsdb.db.lookup",
    "lookup_many": "wsdb.db.lookup",
    "stored_builds": "wsdb.db.lookup",
    "stored_levels": "wsdb.db.lookup",
    "format_state": "wsdb.puzzle",
    "parse_state": "wsdb.puzzle",
    "random_states": "wsdb.puzzle",
    "wrapslide": "wsdb.puzzle",
}


if TYPE_CHECKING:  # a type checker sees the lazy names' real types; at run time they load on first use
    from . import bounds, db, engine, puzzle, solver, stats, web  # noqa: F401
    from .db.build import build  # noqa: F401
    from .db.lookup import lookup, lookup_many, stored_builds, stored_levels  # noqa: F401
    from .db.verify import verify  # noqa: F401
    from .puzzle import format_state, parse_state, random_states, wrapslide  # noqa: F401
    from .solver.solve import solve, solve_many  # noqa: F401

    __version__: str


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    if name in (
        "puzzle",
        "engine",
        "db",
        "solver",
        "bounds",
        "stats",
        "web",
    ):  # wsdb.stats.levels(...) after import wsdb
        return import_module(f"wsdb.{name}")
    if name == "__version__":
        from .version import current

        return current()
    raise AttributeError(f"module 'wsdb' has no attribute {name!r}")


__all__ = [
    "build",
    "lookup",
    "lookup_many",
    "stored_builds",
    "stored_levels",
    "solve",
    "solve_many",
    "verify",
    "parse_state",
    "format_state",
    "random_states",
    "wrapslide",
    "WsdbError",
    "InputError",
    "StateError",
    "NotBuiltError",
    "MissingDatabaseError",
    "StorageError",
    "ClusterError",
    "DamagedError",
]


def __dir__() -> list[str]:
    """What tab completion offers: the lazy functions too (they are loaded on first use)."""
    return sorted(set(globals()) | set(__all__) | {"__version__"})
