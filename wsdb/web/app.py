"""The application behind ``wsdb serve``: the page, the JSON API's routes
(:mod:`.routes`) and what every request shares.

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
import threading
from contextlib import asynccontextmanager
from importlib.resources import files

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from ..errors import SERVER_FAULTS, WsdbError, StorageError
from .guards import BodyLimit, Gate
from .routes import router
from .settings import HOST, MAX_BUSY, MAX_TIME_LIMIT, PORT

STATIC = files("wsdb.web") / "static"


def create_app(db=None, max_time_limit: float = MAX_TIME_LIMIT, max_busy: int = MAX_BUSY, on_ready=None) -> FastAPI:
    """The web application over the database ``db`` (a path or URL, as
    ``--db`` takes it): at most ``max_busy`` solves at once (reads are never refused),
    each solve at most ``max_time_limit`` seconds of search. ``on_ready()``
    runs once the server listens."""

    @asynccontextmanager
    async def lifespan(app):
        if on_ready is not None:
            on_ready()
        yield

    # /docs and /redoc serve Swagger UI and ReDoc from the package, not a CDN: they work offline
    app = FastAPIOffline(
        title="wsdb",
        summary="Exact distances and solutions for Wrapslide",
        lifespan=lifespan,
        description="The JSON API of `wsdb serve`: every answer has the fields of the CLI's `--json`.",
    )
    app.add_middleware(BodyLimit)
    app.state.gate = Gate(max_busy)
    app.state.readers = threading.local()  # each server thread's read-only handle (routes._reads)
    app.state.db = db  # read at each request, so a test can point a built app elsewhere
    app.state.max_time_limit = max_time_limit
    app.add_exception_handler(WsdbError, _bad_input)
    app.add_exception_handler(RequestValidationError, _one_line)
    app.add_api_route("/", _page("index.html"), include_in_schema=False)
    app.add_api_route("/puzzles", _page("puzzles.html"), include_in_schema=False)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.include_router(router)
    return app


async def _bad_input(request: Request, e: Exception):
    """The CLI's one line, as HTTP 400 (``e`` is a WsdbError: the handler is
    registered for it); a damaged database is the server's fault, not the
    request's: 500, with the same line, as is storage that failed under the
    request (:data:`~wsdb.errors.SERVER_FAULTS`)."""
    return JSONResponse({"detail": str(e)}, status_code=500 if isinstance(e, SERVER_FAULTS) else 400)


async def _one_line(request: Request, e: Exception):
    """A request of the wrong shape: 422 with the first problem in one line."""
    assert isinstance(e, RequestValidationError)  # the handler is registered for it
    first = e.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "request"
    return JSONResponse({"detail": f"{where}: {first.get('msg', 'invalid')}"}, status_code=422)


def _page(name: str):
    """A route answering with one of the page's files."""

    def page():
        return FileResponse(str(STATIC / name))

    return page


def serve(
    host: str = HOST,
    port: int = PORT,
    db=None,
    max_time_limit: float = MAX_TIME_LIMIT,
    max_busy: int = MAX_BUSY,
    on_ready=None,
) -> None:
    """Serve the page and the API until interrupted (uvicorn);
    ``on_ready()`` is called once the server listens."""
    import socket

    import uvicorn

    try:  # a taken port is the usual failure: say so in one line, before uvicorn logs it
        with socket.create_server((host, port)):
            pass
    except OSError as e:
        taken = e.errno == errno.EADDRINUSE
        shown = host if len(host) <= 80 else host[:77] + "..."
        raise StorageError(
            f"cannot listen on {shown}:{port} ({e.strerror}): "
            + (
                "pick another with --port"
                if taken
                else "expected an address of this machine with --host, such as 127.0.0.1"
            )
        ) from None
    app = create_app(db, max_time_limit=max_time_limit, max_busy=max_busy, on_ready=on_ready)
    uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning")).run()
