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
from importlib import import_module

from .errors import WsdbError

# Loaded when first used: importing the package costs nothing, so the
# command line starts at once (and Ctrl-C in its first moments is handled,
# wsdb/__main__.py); the builder and verify load SQLAlchemy (0.4 s), the
# solver numba (another 0.5 s), and a lookup needs neither.
_LAZY = {"build": "wsdb.db.build", "verify": "wsdb.db.verify",
         "solve": "wsdb.solver.solve", "solve_many": "wsdb.solver.solve",
         "lookup": "wsdb.db.lookup", "lookup_many": "wsdb.db.lookup", "stored_builds": "wsdb.db.lookup",
         "stored_levels": "wsdb.db.lookup", "format_state": "wsdb.puzzle", "parse_state": "wsdb.puzzle",
         "random_states": "wsdb.puzzle", "wrapslide": "wsdb.puzzle"}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    if name in ("puzzle", "engine", "db", "solver", "stats", "web"):   # wsdb.stats.levels(...) after import wsdb
        return import_module(f"wsdb.{name}")
    if name == "__version__":
        from importlib.metadata import version
        return version("wsdb")
    raise AttributeError(f"module 'wsdb' has no attribute {name!r}")


__all__ = ["build", "lookup", "lookup_many", "stored_builds", "stored_levels", "solve", "solve_many",
           "verify", "parse_state", "format_state", "random_states", "wrapslide", "WsdbError"]
