"""What the API reads and answers (pydantic models): each answer model has
the fields of the matching CLI command's ``--json``, and :data:`ERRORS` the
one-line refusals every endpoint may give."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field

from ..puzzle.catalog import PuzzleName
from ..solver.methods import MethodName
from .settings import DEFAULT_TIME_LIMIT, MAX_EFFORT, MAX_MOVES, MAX_STATE_CHARS


class Refusal(BaseModel):
    """What went wrong, in the CLI's words (one line)."""

    detail: str


class StateIn(BaseModel):
    state: str = Field(max_length=MAX_STATE_CHARS, description="A state as the CLI reads it, e.g. 1212/3434/1243/3421.")
    puzzle: PuzzleName = Field("wrapslide", description="Another puzzle's state (docs/puzzles.md), as --puzzle.")
    goal: str | None = Field(None, max_length=MAX_STATE_CHARS, description="That puzzle's goal, as --goal.")


class SolveIn(StateIn):
    method: MethodName = "auto"
    # strict: a JSON string or boolean is not a number, as the schema says (schemathesis sends them)
    effort: float | None = Field(
        None,
        gt=0,
        le=MAX_EFFORT,
        strict=True,
        description="Work, in millions of nodes (default: the CLI's); the same state and effort give the same moves.",
    )
    time_limit: float = Field(
        DEFAULT_TIME_LIMIT,
        gt=0,
        le=600,
        strict=True,
        description="A cap in seconds (at most the server's); an answer it cut short says `capped`.",
    )
    length_only: bool = False


class ApplyIn(StateIn):
    # a list, or the CLI's words as one string ("T1 R3"): both are what a person would send
    moves: Annotated[list[str], Field(max_length=MAX_MOVES)] | Annotated[str, Field(max_length=MAX_MOVES * 8)] = Field(
        description='Move names in the thesis\' notation: a list, ["T1", "R3"], or one string split '
        'by spaces or commas, "T1 R3".'
    )

    def move_list(self) -> list[str]:
        """The moves as a list; one string stays whole, as ``replay`` splits
        each word it is given by spaces and commas."""
        return [self.moves] if isinstance(self.moves, str) else self.moves


class RandomOut(BaseModel):
    puzzle: str | None = None  # other puzzles only (the CLI's --json has them too)
    n: int
    c: int
    goal: str | None = None
    depth: int | None = None  # asked for: the state is exactly this many moves from solved
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
        None,
        description="About how long the first solve of this grid on this server spends deriving the "
        "solver's deeper trees (once per database); null when nothing is left to derive.",
    )
    puzzle: str = "wrapslide"
    symbols: str = Field("", description="Other puzzles: the labels' symbols, in order (Wrapslide: 1..c).")
    cols: int | None = Field(None, description="Cells a row (n for square boards).")


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": Refusal, "description": "Bad input, with the CLI's one-line reason."},
    413: {
        "model": Refusal,
        "description": "A request body over 64 KiB (a state, a method and "
        "500 moves fit in a few KB): refused before it is read.",
    },
    422: {"model": Refusal, "description": "A request of the wrong shape."},
    500: {
        "model": Refusal,
        "description": "The database is damaged (an answer checked itself and "
        "failed): the line names the build and points at `wsdb verify`.",
    },
    503: {"model": Refusal, "description": "The server is busy: try again shortly."},
}
