"""The JSON API and the page behind ``wsdb serve``.

Each endpoint answers with the fields of the matching CLI command's
``--json`` (lookup, solve, apply, random, info) and refuses bad input with
the CLI's one-line reason: HTTP 400 for a state or value the library
rejects, 422 for a request of the wrong shape, 503 when the server is busy.
Nothing here writes to the database.

The thesis' player window (§5.2, Objective IX) checked no input (§6.2);
this one checks everything before any work starts.
"""
from __future__ import annotations

import errno
import json
import secrets
import threading
from contextlib import asynccontextmanager, contextmanager
from functools import lru_cache
from importlib.resources import files
from typing import Literal

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel, Field

from ..db.lookup import Answer
from ..errors import DamagedError, WsdbError
from ..puzzle.catalog import NAMES as PUZZLES
from ..puzzle.replay import Replay
from ..puzzle.tree_key import TreeKey
from ..solver.solve import METHODS, Solution

STATIC = files("wsdb.web") / "static"
MAX_STATE_CHARS = 400       # an 8x8 state with separators is 71 characters
MAX_MOVES = 500
MAX_EFFORT = 1000.0        # millions of nodes: the time limit caps a request anyway
DEFAULT_TIME_LIMIT = 10.0


class Problem(BaseModel):
    """What went wrong, in the CLI's words (one line)."""

    detail: str


class StateIn(BaseModel):
    state: str = Field(max_length=MAX_STATE_CHARS, description="A state as the CLI reads it, e.g. 1212/3434/1243/3421.")
    puzzle: Literal[PUZZLES] = Field("wrapslide", description="Another puzzle's state (docs/puzzles.md), as --puzzle.")
    goal: str | None = Field(None, max_length=MAX_STATE_CHARS, description="That puzzle's goal, as --goal.")


class SolveIn(StateIn):
    method: Literal[METHODS] = "auto"
    # strict: a JSON string or boolean is not a number, as the schema says (schemathesis sends them)
    effort: float | None = Field(None, gt=0, le=MAX_EFFORT, strict=True, description="Work, in millions of nodes (default: "
                                 "the CLI's); the same state and effort give the same moves.")
    time_limit: float = Field(DEFAULT_TIME_LIMIT, gt=0, le=600, strict=True, description="A cap in seconds (at most the "
                              "server's); an answer it cut short says `capped`.")
    length_only: bool = False


class ApplyIn(StateIn):
    moves: list[str] = Field(max_length=MAX_MOVES, description="Move names in the thesis' notation, e.g. [\"T1\", \"R3\"].")


class RandomOut(BaseModel):
    puzzle: str | None = None   # other puzzles only (the CLI's --json has them too)
    n: int
    c: int
    goal: str | None = None
    depth: int | None = None    # asked for: the state is exactly this many moves from solved
    seed: int
    index: int
    state: str


class BuildOut(BaseModel):
    puzzle: str
    n: int
    c: int
    root: str
    status: str
    complete: bool
    max_depth: int | None
    height: int
    god_number: int | None
    classes: int
    states: int
    seconds: float | None
    version: str | None
    built_at: str | None
    db_bytes: int | None
    cache_bytes: int | None
    parquet_levels: str | None
    parquet_bytes: int | None


class PuzzleOut(BaseModel):
    """What the page needs to draw and check a grid: the cells each colour
    must fill, a solved state, the move names, and how exact answers are."""

    n: int
    c: int
    counts: list[int] = Field(description="Cells of colour 1, 2, ... in every state.")
    solved: str
    moves: list[str]
    build: BuildOut | None = Field(description="The stored tree of this grid, if any.")
    hint: str | None = Field(description="How to make answers exact, when the database cannot.")
    first_solve_minutes: float | None = Field(
        None, description="About how long the first solve of this grid on this server spends deriving the "
                          "solver's deeper trees (once per database); null when nothing is left to derive.")
    puzzle: str = "wrapslide"
    symbols: str = Field("", description="Other puzzles: the labels' symbols, in order (Wrapslide: 1..c).")
    cols: int | None = Field(None, description="Cells a row (n for square boards).")


ERRORS = {400: {"model": Problem, "description": "Bad input, with the CLI's one-line reason."},
          413: {"model": Problem, "description": "A request body over 64 KiB (a state, a method and "
                                                 "500 moves fit in a few KB): refused before it is read."},
          422: {"model": Problem, "description": "A request of the wrong shape."},
          500: {"model": Problem, "description": "The database is damaged (an answer checked itself and "
                                                 "failed): the line names the build and points at `wsdb verify`."},
          503: {"model": Problem, "description": "The server is busy: try again shortly."}}


#: the largest request body the API reads: a state, a method and 500 moves fit in a few KB
MAX_BODY = 64 * 1024


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is answered 413
    before the application sees it, whether its length is declared or the
    body comes in chunks (at most ``limit`` bytes are ever held)."""

    def __init__(self, app, limit: int = MAX_BODY):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await self._refuse(send)
        held, size = [], 0
        while True:
            message = await receive()
            held.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.limit:
                return await self._refuse(send)
            if not message.get("more_body"):
                break

        async def replay():
            return held.pop(0) if held else await receive()
        return await self.app(scope, replay, send)

    async def _refuse(self, send):
        body = json.dumps({"detail": f"request body over {self.limit:,} bytes: expected a state, a method "
                                     "and at most 500 moves"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


class Gate:
    """At most ``limit`` searches at once; more are refused at once rather
    than queued, so one user cannot stall the server."""

    def __init__(self, limit: int):
        self.limit = limit
        self._slots = threading.BoundedSemaphore(limit)

    @contextmanager
    def slot(self):
        if not self._slots.acquire(blocking=False):
            raise HTTPException(503, f"the server is busy ({self.limit} searches running): try again in a moment")
        try:
            yield
        finally:
            self._slots.release()


def create_app(db=None, max_time_limit: float = 30.0, max_busy: int = 2, on_ready=None) -> FastAPI:
    """The web application over the database ``db`` (a path or URL, as
    ``--db`` takes it): at most ``max_busy`` lookups and solves at once,
    each solve at most ``max_time_limit`` seconds of search. ``on_ready()``
    runs once the server listens."""
    @asynccontextmanager
    async def lifespan(app):
        if on_ready is not None:
            on_ready()
        yield

    # /docs and /redoc serve Swagger UI and ReDoc from the package, not a CDN: they work offline
    app = FastAPIOffline(title="wsdb", summary="Exact distances and solutions for Wrapslide", lifespan=lifespan,
                  description="The JSON API of `wsdb serve`: every answer has the fields of the CLI's `--json`.")
    app.add_middleware(BodyLimit)
    gate = app.state.gate = Gate(max_busy)
    app.state.db = db     # read at each request, so a test can point a built app elsewhere

    @app.exception_handler(WsdbError)
    async def bad_input(request: Request, e: WsdbError):   # the CLI's one line, as HTTP 400
        # a damaged database is the server's fault, not the request's: 500, with the same line
        return JSONResponse({"detail": str(e)}, status_code=500 if isinstance(e, DamagedError) else 400)

    @app.exception_handler(RequestValidationError)
    async def one_line(request: Request, e: RequestValidationError):
        first = e.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "request"
        return JSONResponse({"detail": f"{where}: {first.get('msg', 'invalid')}"}, status_code=422)

    @app.get("/", include_in_schema=False)
    def page():
        return FileResponse(str(STATIC / "index.html"))

    @app.get("/puzzles", include_in_schema=False)
    def puzzles_page():
        return FileResponse(str(STATIC / "puzzles.html"))

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.get("/api/puzzle", response_model=PuzzleOut, responses=ERRORS)
    def puzzle(n: int = Query(4, ge=2, le=64), c: int = Query(4, ge=1, le=9)):
        """The grid n x n with c colours: colour counts, a solved state, the
        moves, and what the database holds for it."""
        from ..puzzle import format_state, wrapslide
        from ..solver.solve import derivation_minutes

        p = wrapslide(n, c)
        build = _build(app.state.db, n, c)
        return PuzzleOut(n=n, c=c, counts=list(p.counts), solved=format_state(p.single_root(), n),
                         moves=list(p.move_names), build=build, hint=_build_hint(build, n, c),
                         first_solve_minutes=derivation_minutes(app.state.db, n, c) or None)

    @app.get("/api/board", response_model=PuzzleOut, responses=ERRORS)
    def board(puzzle: Literal[PUZZLES[1:]] = Query(), n: int = Query(ge=2, le=8), m: int | None = Query(None),
              goal: str | None = Query(None, max_length=MAX_STATE_CHARS)):
        """Another puzzle's board (docs/puzzles.md): its goal, symbols and
        moves, and what the database holds for it (the page at /puzzles)."""
        from ..puzzle.catalog import get_puzzle

        p = get_puzzle(puzzle, n, goal=goal, m=m)
        build = _build_of(app.state.db, TreeKey.of(p))
        hint = None
        if build is None or not build["complete"]:
            flags = f" --m {p.cols}" if puzzle == "sliding" else "" if goal is None else f" --goal {p.goal}"
            hint = f"wsdb build --puzzle {puzzle} --n {n}{flags}"
        symbols = p.symbols
        counts = [p.goal.count(ch) for ch in symbols]
        return PuzzleOut(n=p.n, c=p.c, counts=counts, solved=p.goal, moves=list(p.move_names), build=build,
                         hint=hint, puzzle=puzzle, symbols=symbols, cols=getattr(p, "cols", p.n))

    @app.post("/api/lookup", response_model=Answer, responses=ERRORS)
    def lookup(req: StateIn):
        """Exact distance and an optimal move sequence from the database
        (`wsdb lookup STATE --json`)."""
        from ..db.lookup import lookup as run

        with gate.slot():
            return run(req.state, db=app.state.db, puzzle=req.puzzle, goal=req.goal).to_dict()

    @app.post("/api/solve", response_model=Solution, responses=ERRORS)
    def solve(req: SolveIn):
        """A verified move sequence with a proven lower bound (`wsdb solve
        STATE --json`). A search that spends its effort returns its best
        verified sequence with `timed_out` true; one the time limit cuts
        short says `capped` too."""
        from ..solver.solve import solve as run

        if req.time_limit > max_time_limit:
            raise HTTPException(400, f"time limit {req.time_limit:g} s is over this server's cap of "
                                     f"{max_time_limit:g} s")
        with gate.slot():
            return run(req.state, db=app.state.db, method=req.method, time_limit=req.time_limit,
                       length_only=req.length_only, puzzle=req.puzzle, goal=req.goal, effort=req.effort).to_dict()

    @app.post("/api/apply", response_model=Replay, responses=ERRORS)
    def apply(req: ApplyIn):
        """The state after each move (`wsdb apply STATE MOVES --json`)."""
        from ..puzzle.replay import replay

        return replay(req.state, req.moves, req.puzzle, req.goal).to_dict()

    @app.get("/api/random", response_model=RandomOut, response_model_exclude_none=True, responses=ERRORS)
    def random(n: int = Query(ge=2, le=64), c: int | None = Query(None, ge=1, le=9),
               seed: int | None = Query(None, ge=0, lt=2**63), puzzle: Literal[PUZZLES] = Query("wrapslide"),
               goal: str | None = Query(None, max_length=MAX_STATE_CHARS), m: int | None = Query(None),
               depth: int | None = Query(None, ge=0, le=255)):
        """A uniformly random state (`wsdb random --json`): every
        arrangement of the colours equally likely; another puzzle's drawn
        uniformly from the reachable states of its complete stored tree.
        With `depth`, every state exactly that many moves from solved
        equally likely, drawn from the stored tree's level."""
        import numpy as np

        from ..puzzle import format_state, random_states, wrapslide
        from ..puzzle.text import state_texts

        seed = secrets.randbits(32) if seed is None else seed
        if puzzle == "wrapslide":
            if c is None:
                raise WsdbError("c: expected the number of colours (2-4)")
            p = wrapslide(n, c)
            if depth is None:
                cells = random_states(p, 1, seed)[0]
                return RandomOut(n=n, c=c, seed=seed, index=0, state=format_state(cells, n))
        else:
            from ..puzzle.catalog import get_puzzle

            p = get_puzzle(puzzle, n, goal=goal, m=m)
        with gate.slot():
            cells = _sampler(app.state.db, p, _built_at(app.state.db, p), depth).draw(
                1, np.random.default_rng(seed))
        if p.roots:
            return RandomOut(n=n, c=c, seed=seed, index=0, depth=depth, state=format_state(cells[0], n))
        return RandomOut(puzzle=puzzle, n=n, c=p.c, goal=p.goal, seed=seed, index=0, depth=depth,
                         state=state_texts(p, cells)[0])

    @app.get("/api/info", response_model=list[BuildOut], responses=ERRORS)
    def info():
        """Every stored build (`wsdb info --json`)."""
        return _builds(app.state.db)

    return app


def _builds(db) -> list[dict]:
    from ..db.store import Store
    from ..stats import build_records

    if Store.open_if_present(db) is None:   # no database yet: nothing stored, not an error
        return []
    return build_records(db)


def _build_of(db, tree: TreeKey) -> dict | None:
    """The stored build of ``tree`` (None: not stored)."""
    return next((b for b in _builds(db) if TreeKey.from_row(b) == tree), None)


def _built_at(db, puzzle) -> str | None:
    """When ``puzzle``'s stored tree was built (None: not stored), so that a
    rebuilt tree gets a fresh sampler."""
    build = _build_of(db, TreeKey.of(puzzle))
    return None if build is None else build["built_at"]


@lru_cache(maxsize=4)
def _sampler(db, puzzle, built_at, depth=None):
    """The random-state sampler of a stored tree (or of one of its levels),
    kept between requests: reading a tree's classes takes seconds for the
    2x5 sliding puzzle."""
    from ..db.sample import TreeSampler

    return TreeSampler(puzzle, db, depth=depth)


def _build_hint(build: dict | None, n: int, c: int) -> str | None:
    """The `wsdb build` that would make more answers exact; none where the
    tree is complete, or as deep as that command grows it (running it again
    would add nothing)."""
    from ..db.build import default_depth

    if build is not None:
        if build["complete"]:
            return None
        try:
            deepest = default_depth(n, c)   # None: the command builds the grid to the end
        except WsdbError:   # a grid with no default depth: any stored tree is the user's choice
            return None
        if deepest is not None and build["height"] >= deepest:
            return None
    return f"wsdb build --n {n} --c {c}"


def _build(db, n: int, c: int) -> dict | None:
    return next((b for b in _builds(db) if b["n"] == n and b["c"] == c and b["root"] == "all"), None)


def serve(host: str = "127.0.0.1", port: int = 8000, db=None, max_time_limit: float = 30.0,
          max_busy: int = 2, on_ready=None) -> None:
    """Serve the page and the API until interrupted (uvicorn);
    ``on_ready()`` is called once the server listens."""
    import socket

    import uvicorn

    try:   # a taken port is the usual failure: say so in one line, before uvicorn logs it
        with socket.create_server((host, port)):
            pass
    except OSError as e:
        taken = e.errno == errno.EADDRINUSE
        shown = host if len(host) <= 80 else host[:77] + "..."
        raise WsdbError(f"cannot listen on {shown}:{port} ({e.strerror}): "
                        + ("pick another with --port" if taken else "expected an address of this machine with "
                           "--host, such as 127.0.0.1")) from None
    app = create_app(db, max_time_limit=max_time_limit, max_busy=max_busy, on_ready=on_ready)
    uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning")).run()
