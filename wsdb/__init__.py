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

from .db.lookup import lookup, lookup_many, stored_builds, stored_levels
from .errors import WsdbError
from .puzzle import format_state, parse_state, random_states, wrapslide

# Loaded when first used: the builder and verify load SQLAlchemy (0.4 s),
# the solver numba (another 0.5 s); a lookup needs neither.
_LAZY = {"build": "wsdb.db.build", "verify": "wsdb.db.verify",
         "solve": "wsdb.solver.solve", "solve_many": "wsdb.solver.solve"}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    if name == "__version__":
        from importlib.metadata import version
        return version("wsdb")
    raise AttributeError(f"module 'wsdb' has no attribute {name!r}")


__all__ = ["build", "lookup", "lookup_many", "stored_builds", "stored_levels", "solve", "solve_many",
           "verify", "parse_state", "format_state", "random_states", "wrapslide", "WsdbError"]
