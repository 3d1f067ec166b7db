"""The text form of a state (docs/rules.md, "Writing a state down").

Input: n lines of n symbols, or one line with rows split by '/', ',' or
spaces, or n*n symbols in a row; any 2-4 distinct symbols name the colours.
Output: rows joined by '/', colours as digits 1..c.
"""
from __future__ import annotations

import math
import re

import numpy as np

from ..errors import WsdbError
from .model import MAX_N, Puzzle, wrapslide


def parse_state(text: str) -> tuple[Puzzle, np.ndarray]:
    """Read a state in any accepted form and return its puzzle and cells.

    n follows from the length, c from the number of distinct symbols; the
    symbol with (5-c)q cells is the last colour, the others are numbered in
    their sorted order. Anything that does not fit raises WsdbError."""
    if not isinstance(text, str) or not text.strip():
        raise WsdbError("empty state: expected n*n colour symbols, rows optionally separated by '/', ',', spaces or newlines")
    rows = [r for r in re.split(r"[/,\s]+", text.strip()) if r]
    flat = "".join(rows)
    size = len(flat)
    n = math.isqrt(size)
    if n * n != size or n % 2 or n < 2:
        raise WsdbError(f"state has {size} cells: expected n*n cells for an even n "
                        "(16 for 4x4, 36 for 6x6, 64 for 8x8)")
    if len(rows) > 1 and any(len(r) != n for r in rows):
        raise WsdbError(f"rows of lengths {[len(r) for r in rows]}: expected {n} rows of {n} symbols")
    if n > MAX_N:
        raise WsdbError(f"{n}x{n} grid: expected n from 2 to {MAX_N}")
    codes = np.frombuffer(flat.encode("utf-32-le"), dtype="<u4")
    symbols, counts = np.unique(codes, return_counts=True)
    c = len(symbols)
    if c not in (2, 3, 4):
        raise WsdbError(f"state uses {c} distinct symbols: expected 2, 3 or 4 colours")
    puzzle = wrapslide(n, c)
    q = (n // 2) ** 2
    want = sorted(puzzle.counts)
    if sorted(counts.tolist()) != want:
        got = ", ".join(f"{chr(s)}x{k}" for s, k in zip(symbols, counts))
        raise WsdbError(f"colour counts {got} do not fit a {n}x{n} {c}-colour grid: "
                        f"expected {c - 1} colour(s) with {q} cells and one with {(5 - c) * q}")
    # Equal-count colours keep their sorted symbol order; the big one goes last.
    order = sorted(range(c), key=lambda i: (counts[i] > q, i))
    lut = {int(symbols[i]): col for col, i in enumerate(order)}
    cells = np.zeros(size, dtype=np.uint8)
    for sym, col in lut.items():
        cells[codes == sym] = col
    return puzzle, cells


def parse_states(states: list[str]) -> list[tuple[Puzzle, np.ndarray]]:
    """Parse every state before any work starts; an error names the bad
    state's position when there are several."""
    parsed = []
    for i, text in enumerate(states):
        try:
            parsed.append(parse_state(text))
        except WsdbError as e:
            raise WsdbError(f"state {i + 1} ({text.strip()!r}): {e}" if len(states) > 1 else str(e)) from None
    return parsed


def format_state(cells: np.ndarray, n: int | None = None) -> str:
    """The output form: rows joined by '/', colours as digits 1..c."""
    cells = np.asarray(cells, dtype=np.uint8)
    n = n or math.isqrt(cells.size)
    digits = (cells + ord("1")).tobytes().decode("ascii")
    return "/".join(digits[i * n:(i + 1) * n] for i in range(n))


def format_states(cells: np.ndarray, n: int) -> np.ndarray:
    """format_state over many states at once, vectorised (for database writes)."""
    cells = np.asarray(cells, dtype=np.uint8).reshape(-1, n, n)
    s = cells.shape[0]
    buf = np.full((s, n, n + 1), ord("/"), dtype=np.uint8)
    buf[:, :, :n] = cells + ord("1")
    flat = buf.reshape(s, n * (n + 1))[:, :-1]
    return np.ascontiguousarray(flat).view(f"S{n * (n + 1) - 1}").ravel().astype(str)
