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
from importlib.metadata import version

from .db.build import build
from .db.lookup import lookup, lookup_many, stored_builds, stored_levels
from .db.verify import verify
from .errors import WsdbError
from .puzzle import format_state, parse_state, random_states, wrapslide

__version__ = version("wsdb")


def __getattr__(name: str):
    # The solver loads numba (about 0.4 s); a lookup should not pay for it.
    if name in ("solve", "solve_many"):
        from .solver import solve as module
        return getattr(module, name)
    raise AttributeError(f"module 'wsdb' has no attribute {name!r}")


__all__ = ["build", "lookup", "lookup_many", "stored_builds", "stored_levels", "solve", "solve_many",
           "verify", "parse_state", "format_state", "random_states", "wrapslide", "WsdbError"]
