"""The API's endpoints, one function each (FastAPI's ``APIRouter``): each
calls the library function of the CLI command of the same name and answers
with its ``to_dict()``, the CLI's ``--json``. What an endpoint needs of the
server (the database, the search gate, the time cap) it reads from the
application's state at each request. Reads (lookup, apply, random, info)
run concurrently and are never refused; only solves take a search slot."""

from __future__ import annotations

import secrets
import threading
from functools import lru_cache

from fastapi import APIRouter, HTTPException, Query, Request

from ..db.lookup import Answer
from ..errors import WsdbError, InputError
from ..puzzle.catalog import OtherPuzzleName, PuzzleName
from ..puzzle.model import Puzzle
from ..puzzle.sliding import SlidingPuzzle
from ..puzzle.catalog import kind
from ..puzzle.replay import Replay
from ..puzzle.tree_key import TreeKey
from ..solver.solve import Solution
from .models import ERRORS, ApplyIn, BuildOut, PuzzleOut, RandomOut, SolveIn, StateIn
from .settings import MAX_STATE_CHARS

router = APIRouter()


@router.get("/api/puzzle", response_model=PuzzleOut, responses=ERRORS)
def puzzle(request: Request, n: int = Query(4, ge=2, le=64), c: int = Query(4, ge=1, le=9)):
    """The grid n x n with c colours: colour counts, a solved state, the
    moves, and what the database holds for it."""
    from ..puzzle import format_state, wrapslide
    from ..solver.solve import derivation_minutes

    db = request.app.state.db
    p = wrapslide(n, c)
    build = _build_of(db, TreeKey.of(p))
    return PuzzleOut(
        n=n,
        c=c,
        counts=list(p.counts),
        solved=format_state(p.single_root(), n),
        moves=list(p.move_names),
        build=build,
        hint=_build_hint(build, n, c),
        first_solve_minutes=derivation_minutes(db, n, c) or None,
    )


@router.get("/api/board", response_model=PuzzleOut, responses=ERRORS)
def board(
    request: Request,
    puzzle: OtherPuzzleName = Query(),
    n: int = Query(ge=2, le=8),
    m: int | None = Query(None),
    goal: str | None = Query(None, max_length=MAX_STATE_CHARS),
):
    """Another puzzle's board (docs/puzzles.md): its goal, symbols and
    moves, and what the database holds for it (the page at /puzzles)."""
    from ..puzzle.catalog import get_puzzle

    p = get_puzzle(puzzle, n, goal=goal, m=m)
    build = _build_of(request.app.state.db, TreeKey.of(p))
    hint = None
    if build is None or not build["complete"]:
        flags = f" --m {p.cols}" if p.ranked_only else "" if goal is None else f" --goal {p.goal}"
        hint = f"wsdb build --puzzle {puzzle} --n {n}{flags}"
    symbols = p.symbols
    counts = [p.goal.count(ch) for ch in symbols]
    return PuzzleOut(
        n=p.n,
        c=p.c,
        counts=counts,
        solved=p.goal,
        moves=list(p.move_names),
        build=build,
        hint=hint,
        puzzle=puzzle,
        symbols=symbols,
        cols=getattr(p, "cols", p.n),
    )


@router.post("/api/lookup", response_model=Answer, responses=ERRORS)
def lookup(request: Request, req: StateIn):
    """Exact distance and an optimal move sequence from the database
    (`wsdb lookup STATE --json`)."""
    from ..db.lookup import lookup_many

    # a read of milliseconds: never refused for a search slot, run beside others (the server's threads)
    store = _reads(request)
    return lookup_many([req.state], db=request.app.state.db, store=store, puzzle=req.puzzle, goal=req.goal)[0].to_dict()


@router.post("/api/solve", response_model=Solution, responses=ERRORS)
def solve(request: Request, req: SolveIn):
    """A verified move sequence with a proven lower bound (`wsdb solve
    STATE --json`). A search that spends its effort returns its best
    verified sequence with `timed_out` true; one the time limit cuts
    short says `capped` too."""
    from ..solver.solve import solve as run

    cap = request.app.state.max_time_limit
    if req.time_limit > cap:
        raise HTTPException(400, f"time limit {req.time_limit:g} s is over this server's cap of {cap:g} s")
    with request.app.state.gate.slot():
        return run(
            req.state,
            db=request.app.state.db,
            method=req.method,
            time_limit=req.time_limit,
            length_only=req.length_only,
            puzzle=req.puzzle,
            goal=req.goal,
            effort=req.effort,
        ).to_dict()


@router.post("/api/apply", response_model=Replay, responses=ERRORS)
def apply(req: ApplyIn):
    """The state after each move (`wsdb apply STATE MOVES --json`)."""
    from ..puzzle.replay import replay

    return replay(req.state, req.move_list(), req.puzzle, req.goal).to_dict()


@router.get("/api/random", response_model=RandomOut, response_model_exclude_none=True, responses=ERRORS)
def random(
    request: Request,
    n: int = Query(ge=2, le=64),
    c: int | None = Query(None, ge=1, le=9),
    seed: int | None = Query(None, ge=0, lt=2**63),
    puzzle: PuzzleName = Query("wrapslide"),
    goal: str | None = Query(None, max_length=MAX_STATE_CHARS),
    m: int | None = Query(None),
    depth: int | None = Query(None, ge=0, le=255),
):
    """A uniformly random state (`wsdb random --json`): every
    arrangement of the colours equally likely; another puzzle's drawn
    uniformly from the reachable states of its complete stored tree.
    With `depth`, every state exactly that many moves from solved
    equally likely, drawn from the stored tree's level."""
    from ..puzzle.model import drawn, from_tree
    from ..puzzle.text import state_texts

    db = request.app.state.db
    seed = secrets.randbits(32) if seed is None else seed
    if kind(puzzle).grid:
        if c is None:
            raise InputError("c: expected the number of colours (2-4)")
        from ..puzzle import wrapslide

        p: Puzzle | SlidingPuzzle = wrapslide(n, c)
    else:
        from ..puzzle.catalog import get_puzzle

        p = get_puzzle(puzzle, n, goal=goal, m=m)
    if from_tree(p, depth):  # a read: never refused for a search slot
        cells = next(drawn(p, 1, seed, _sampler(db, p, _built_at(request, p), depth)))
    else:
        cells = next(drawn(p, 1, seed))
    if p.roots:
        return RandomOut(n=n, c=c, seed=seed, index=0, depth=depth, state=state_texts(p, cells)[0])
    return RandomOut(
        puzzle=puzzle, n=n, c=p.c, goal=p.goal, seed=seed, index=0, depth=depth, state=state_texts(p, cells)[0]
    )


@router.get("/api/info", response_model=list[BuildOut], responses=ERRORS)
def info(request: Request):
    """Every stored build (`wsdb info --json`)."""
    return _builds(request.app.state.db)


_opening = threading.Lock()


def _reads(request: Request):
    """What the application reads the database through, kept between
    requests: on a SQLite file a light reader (:mod:`wsdb.db.reader`) per
    server thread, each its own read-only handle (opening one costs 8 ms,
    a third of a lookup); on a server (PostgreSQL) one
    :class:`~wsdb.db.store.Store`, whose pool of connections serves the
    threads. None where neither can be kept (no database yet, an older
    schema): the request then opens the database itself and says why not."""
    from ..db.location import resolve
    from ..db.reader import open_reader

    state = request.app.state
    where = resolve(state.db)
    if where.path is not None:
        mine = state.readers.__dict__
        if mine.get("db") != where.label or mine.get("reader") is None:
            mine["db"], mine["reader"] = where.label, open_reader(state.db)
        return mine["reader"]
    if getattr(state, "server_store", None) is None:
        with _opening:
            if getattr(state, "server_store", None) is None:
                from ..db.store import Store

                state.server_store = Store.open(state.db)
    return state.server_store


def _builds(db) -> list[dict]:
    from ..db.store import Store
    from ..stats import build_records

    if Store.open_if_present(db) is None:  # no database yet: nothing stored, not an error
        return []
    return build_records(db)


def _build_of(db, tree: TreeKey) -> dict | None:
    """The stored build of ``tree`` (None: not stored)."""
    return next((b for b in _builds(db) if TreeKey.from_row(b) == tree), None)


def _built_at(request: Request, puzzle) -> str | None:
    """When ``puzzle``'s stored tree was built (None: not stored), so that a
    rebuilt tree gets a fresh sampler: one query of the kept reader."""
    reads = _reads(request)
    if reads is None:
        build = _build_of(request.app.state.db, TreeKey.of(puzzle))
    else:
        build = reads.build_row(TreeKey.of(puzzle))
    return None if build is None else build["built_at"]


@lru_cache(maxsize=32)
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
            deepest = default_depth(n, c)  # None: the command builds the grid to the end
        except WsdbError:  # a grid with no default depth: any stored tree is the user's choice
            return None
        if deepest is not None and build["height"] >= deepest:
            return None
    return f"wsdb build --n {n} --c {c}"
