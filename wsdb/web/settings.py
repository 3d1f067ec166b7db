"""The server's limits and defaults, in one place: ``wsdb serve``'s options,
:func:`wsdb.web.app.create_app` and :func:`wsdb.web.app.serve` all read them
from here."""

HOST = "127.0.0.1"  # loopback: only this machine can reach the server
PORT = 8000
MAX_TIME_LIMIT = 30.0  # seconds: the longest search one solve request may ask for
MAX_BUSY = 2  # lookups and solves running at once; more are refused with 503

MAX_STATE_CHARS = 400  # an 8x8 state with separators is 71 characters
MAX_MOVES = 500
MAX_EFFORT = 1000.0  # millions of nodes: the time limit caps a request anyway
DEFAULT_TIME_LIMIT = 10.0
#: the largest request body the API reads: a state, a method and 500 moves fit in a few KB
MAX_BODY = 64 * 1024
