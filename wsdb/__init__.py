"""wsdb: God-number databases and solvers for the puzzle Wrapslide.

Library use (the CLI is a thin layer over these)::

    import wsdb
    wsdb.build(4, 4, db="db/wsdb.sqlite")
    ans = wsdb.lookup("1212/3434/1243/3421", db="db/wsdb.sqlite")
    ans.distance, ans.moves
    sol = wsdb.solve("123412/341234/214321/432143/123412/341234", db="db/wsdb.sqlite")
    sol.moves, sol.length, sol.lower_bound, sol.optimal
"""
__version__ = "0.1.0"  # before the imports: store.py records it in each build row

from .build import build
from .errors import WsdbError
from .puzzle import format_state, parse_state, wrapslide
from .query import lookup, lookup_many
from .solve import solve, solve_many
from .verify import verify

__all__ = ["build", "lookup", "lookup_many", "solve", "solve_many", "verify", "parse_state", "format_state", "wrapslide", "WsdbError"]
