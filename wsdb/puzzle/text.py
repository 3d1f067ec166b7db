"""The text form of every puzzle's states (docs/rules.md, "Writing a state
down"; docs/puzzles.md).

Wrapslide: n lines of n symbols, or one line with rows split by '/', ','
or spaces, or n*n symbols in a row; any 2-4 distinct symbols name the
colours. Output: rows joined by '/', colours as digits 1..c.

Another puzzle writes its states in its goal's symbols (a goal's distinct
symbols are its labels), the sliding puzzle its tiles 1..9, A, B, ... and
the blank ``_``, rows of its width; every puzzle's output is its symbols,
rows joined by '/' (:func:`state_texts`).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict

import numpy as np

from ..errors import WsdbError, InputError, StateError
from .model import MAX_N, Puzzle, wrapslide

#: Wrapslide's colours as written: 1..c
DIGITS = "123456789"


def parse_state(text: str) -> tuple[Puzzle, np.ndarray]:
    """Read a state in any accepted form and return its puzzle and cells.

    n follows from the length, c from the number of distinct symbols; the
    symbol with (5-c)q cells is the last colour, the others are numbered in
    their sorted order. Anything that does not fit raises WsdbError."""
    if not isinstance(text, str) or not text.strip():
        raise StateError(
            "empty state: expected n*n colour symbols, rows optionally separated by '/', ',', spaces or newlines"
        )
    rows = [r for r in re.split(r"[/,\s]+", text.strip()) if r]
    flat = "".join(rows)
    size = len(flat)
    n = math.isqrt(size)
    if n * n != size or n % 2 or n < 2:
        raise StateError(
            f"state has {size} cells: expected n*n cells for an even n (16 for 4x4, 36 for 6x6, 64 for 8x8)"
        )
    if len(rows) > 1 and any(len(r) != n for r in rows):
        raise StateError(f"rows of lengths {[len(r) for r in rows]}: expected {n} rows of {n} symbols")
    if n > MAX_N:
        raise StateError(f"{n}x{n} grid: expected n from 2 to {MAX_N}")
    # surrogatepass: a byte that is not UTF-8 on the command line reaches here as a lone surrogate
    # (Python's surrogateescape), a symbol like any other rather than an encoding error
    codes = np.frombuffer(flat.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    symbols, counts = np.unique(codes, return_counts=True)
    c = len(symbols)
    if c not in (2, 3, 4):
        raise StateError(f"state uses {c} distinct symbols: expected 2, 3 or 4 colours")
    puzzle = wrapslide(n, c)
    q = (n // 2) ** 2
    want = sorted(puzzle.counts)
    if sorted(counts.tolist()) != want:
        got = ", ".join(f"{_shown(s)}x{k}" for s, k in zip(symbols, counts))
        raise StateError(f"colour counts {got} do not fit a {n}x{n} {c}-colour grid: expected {expected_counts(c, q)}")
    # Equal-count colours keep their sorted symbol order; the big one goes last.
    order = sorted(range(c), key=lambda i: (counts[i] > q, i))
    lut = {int(symbols[i]): col for col, i in enumerate(order)}
    cells = np.zeros(size, dtype=np.uint8)
    for sym, col in lut.items():
        cells[codes == sym] = col
    return puzzle, cells


def expected_counts(c: int, q: int) -> str:
    """The colour counts of a c-colour grid in words: c - 1 colours of q
    cells (a quadrant) and one of (5 - c) q (thesis §1.1)."""
    words = {1: "one colour", 2: "two colours", 3: "three colours", 4: "four colours"}
    if c == 4:
        return f"{words[4]} with {q} cells each"
    return f"{words[c - 1]} with {q} cells and one with {(5 - c) * q}"


def parse_states(states: list[str]) -> list[tuple[Puzzle, np.ndarray]]:
    """Parse every state before any work starts; an error names the bad
    state's position when there are several."""
    parsed = []
    for i, text in enumerate(states):
        try:
            parsed.append(parse_state(text))
        except WsdbError:
            _raise_for(states, i)
    return parsed


def _raise_for(states: list[str], i: int) -> None:
    """Raise parse_state's error for states[i], naming its position when
    there are several states."""
    try:
        parse_state(states[i])
    except WsdbError as e:
        text = states[i]
        raise type(e)(f"state {i + 1} ({text.strip()!r}): {e}" if len(states) > 1 else str(e)) from None
    raise AssertionError(f"state {i + 1} was taken for bad, but it parses")  # pragma: no cover


_TO_SPACE = str.maketrans("/,", "  ")


def parse_grouped(states: list[str]) -> dict[tuple[int, int], tuple[Puzzle, np.ndarray, np.ndarray]]:
    """:func:`parse_states` for large batches: {(n, c): (puzzle, positions
    in ``states``, cells (S, N))}. Accepts, rejects and numbers exactly as
    :func:`parse_state` does (a test checks this on random text), but
    counts symbols and assigns colours for a whole batch at once: about
    5 us a state instead of 100. A bad state raises the error that
    :func:`parse_states` raises for the first bad one."""
    by_size: dict[int, tuple[list[int], list[str]]] = defaultdict(lambda: ([], []))
    slow: list[int] = []
    bad: list[int] = []
    for i, text in enumerate(states):
        if not isinstance(text, str) or not text.isascii():
            slow.append(i)
            continue
        rows = text.translate(_TO_SPACE).split()
        flat = "".join(rows)
        size = len(flat)
        n = math.isqrt(size)
        if n * n != size or n % 2 or not 2 <= n <= MAX_N or (len(rows) > 1 and any(len(r) != n for r in rows)):
            bad.append(i)
            continue
        pos, flats = by_size[n]
        pos.append(i)
        flats.append(flat)
    groups: dict[tuple[int, int], tuple[list, list]] = defaultdict(lambda: ([], []))
    for n, (pos, flats) in by_size.items():
        for lo in range(0, len(pos), 1 << 14):  # bounds the (S, 256) count matrix
            part = np.asarray(pos[lo : lo + (1 << 14)])
            codes = np.frombuffer("".join(flats[lo : lo + (1 << 14)]).encode("ascii"), np.uint8).reshape(len(part), -1)
            for c, rows, cells in _colour_batch(n, codes, bad, part):
                groups[(n, c)][0].append(part[rows])
                groups[(n, c)][1].append(cells)
    for i in slow:
        try:
            puzzle, cells = parse_state(states[i])
        except WsdbError:
            bad.append(i)
            continue
        groups[(puzzle.n, puzzle.c)][0].append(np.array([i]))
        groups[(puzzle.n, puzzle.c)][1].append(cells[None])
    if bad:
        _raise_for(states, min(bad))
    return {key: (wrapslide(*key), np.concatenate(pos), np.concatenate(cells)) for key, (pos, cells) in groups.items()}


def _colour_batch(n: int, codes: np.ndarray, bad: list[int], positions: np.ndarray):
    """Yield (c, rows, cells) for the rows of ``codes`` (S, n*n symbol
    bytes) that are valid states; append the positions of the others to
    ``bad``."""
    size = codes.shape[1]
    srt = np.sort(codes, axis=1)
    starts = np.ones(srt.shape, dtype=bool)
    starts[:, 1:] = srt[:, 1:] != srt[:, :-1]
    colours = starts.sum(axis=1)
    q = (n // 2) ** 2
    ok_any = np.zeros(len(codes), dtype=bool)
    for c in (2, 3, 4):
        rows = np.flatnonzero(colours == c)
        if not rows.size:
            continue
        at = np.nonzero(starts[rows])[1].reshape(-1, c)  # where each symbol's run starts
        counts = np.diff(np.concatenate([at, np.full((len(at), 1), size)], axis=1), axis=1)
        keep = (np.sort(counts, axis=1) == sorted(wrapslide(n, c).counts)).all(axis=1)
        rows, at, counts = rows[keep], at[keep], counts[keep]
        if not rows.size:
            continue
        ok_any[rows] = True
        symbols = np.take_along_axis(srt[rows], at, axis=1)
        # colours in symbol order, the big colour last (as parse_state numbers them)
        order = np.argsort((counts > q) * 256 + symbols, axis=1, kind="stable")
        cells = np.zeros((rows.size, size), dtype=np.uint8)
        for colour in range(1, c):
            sym = np.take_along_axis(symbols, order[:, colour : colour + 1], axis=1)
            cells[codes[rows] == sym] = colour
        yield c, rows, cells
    bad.extend(positions[~ok_any].tolist())


def format_state(cells: np.ndarray, n: int | None = None) -> str:
    """The output form: rows joined by '/', colours as digits 1..c."""
    cells = np.asarray(cells, dtype=np.uint8)
    n = n or math.isqrt(cells.size)
    digits = (cells + ord("1")).tobytes().decode("ascii")
    return "/".join(digits[i * n : (i + 1) * n] for i in range(n))


def format_states(cells: np.ndarray, n: int) -> np.ndarray:
    """format_state over many states at once, vectorised (for database writes)."""
    return _written(np.asarray(cells, dtype=np.uint8), DIGITS, n, n)


def state_texts(puzzle, cells: np.ndarray) -> list[str]:
    """States (S, N) of any puzzle as text, rows of the puzzle's width
    joined by '/', in its symbols (Wrapslide's: the digits 1..c)."""
    symbols = puzzle.symbols or DIGITS[: puzzle.c]
    cells = np.asarray(cells)
    if not symbols.isascii():  # a goal written in other symbols: one state at a time
        return [_joined("".join(symbols[int(v)] for v in row.reshape(-1)), puzzle.cols) for row in cells]
    return _written(cells, symbols, puzzle.ncells // puzzle.cols, puzzle.cols).tolist()


def _written(cells: np.ndarray, symbols: str, rows: int, cols: int) -> np.ndarray:
    """States (S, rows * cols) as text in ASCII ``symbols``, rows joined by
    '/', all at once: each label's byte looked up, the separators set in
    place, each state's bytes read as one string."""
    codes = np.frombuffer(symbols.encode("ascii"), np.uint8)
    cells = cells.reshape(-1, rows, cols)
    buf = np.full((cells.shape[0], rows, cols + 1), ord("/"), dtype=np.uint8)
    if (np.diff(codes) == 1).all():  # consecutive bytes (Wrapslide's digits): one add, faster than a lookup
        buf[:, :, :cols] = cells.astype(np.uint8) + codes[0]
    else:
        buf[:, :, :cols] = codes[cells]
    flat = buf.reshape(cells.shape[0], rows * (cols + 1))[:, :-1]
    return np.ascontiguousarray(flat).view(f"S{rows * (cols + 1) - 1}").ravel().astype(str)


def _joined(flat: str, cols: int) -> str:
    return "/".join(flat[i : i + cols] for i in range(0, len(flat), cols))


def board_size(text: str, what: str) -> int:
    """The n of an n x n state (or goal) written as text."""
    cells = len(re.sub(r"[/,\s]+", "", str(text)))
    n = math.isqrt(cells)
    if cells == 0 or n * n != cells:
        raise StateError(f"{what} {str(text).strip()!r} has {cells} cells: expected n*n for an n x n board")
    return n


def board_rows(text: str) -> tuple[int, int]:
    """(rows, columns) of a sliding board written as text, its rows split by '/'."""
    rows = [r for r in re.split(r"[/,\s]+", str(text).strip()) if r]
    if len(rows) < 2:
        raise StateError(f"state {str(text).strip()!r}: expected its rows split by '/', e.g. _5321/94876")
    return len(rows), len(rows[0])


def parse_tiles(puzzle, text: str) -> np.ndarray:
    """A sliding board written as rows of symbols (the blank ``_``), as
    label cells: each of the puzzle's symbols once."""
    flat = split_rows(text, puzzle.rows, puzzle.cols, "state")
    if sorted(flat) != sorted(puzzle.symbols):
        raise StateError(f"state {text.strip()!r} must hold each of {puzzle.symbols!r} once")
    return np.array([puzzle.symbols.index(s) for s in flat], dtype=np.int64)


MAX_LABELS = 16  # 4 key bits a cell
DISTINCT = "123456789ABCDEFG"


def distinct_goal(n: int) -> str:
    """The default goal: distinct pieces 1..n^2 in reading order (letters after 9)."""
    return _joined(DISTINCT[: n * n], n)


def parse_goal(text: str, n: int) -> tuple[str, np.ndarray]:
    """(symbols, cells) of a goal written as n rows of n symbols, rows split
    by '/', ',' or spaces, or n*n symbols in a row; labels are the distinct
    symbols in sorted order."""
    flat = split_rows(text, n, n, "goal")
    symbols = "".join(sorted(set(flat)))
    if not 1 <= len(symbols) <= MAX_LABELS:
        raise InputError(f"goal uses {len(symbols)} distinct symbols: expected 1 to {MAX_LABELS}")
    lut = {s: i for i, s in enumerate(symbols)}
    return symbols, np.array([lut[s] for s in flat], dtype=np.uint8)


def parse_cells(puzzle: Puzzle, text: str) -> np.ndarray:
    """A state of ``puzzle`` (not Wrapslide) written with its goal's symbols,
    as label cells; the labels must be the goal's, with the same counts."""
    flat = split_rows(text, puzzle.n, puzzle.n, "state")
    unknown = sorted(set(flat) - set(puzzle.symbols))
    if unknown:
        raise StateError(
            f"state uses {''.join(unknown)!r}, which the goal {puzzle.goal} does not: "
            f"expected the symbols {puzzle.symbols!r}"
        )
    cells = np.array([puzzle.symbols.index(s) for s in flat], dtype=np.uint8)
    counts = np.bincount(cells, minlength=puzzle.c)
    if tuple(counts.tolist()) != puzzle.counts:
        got = ", ".join(f"{s}x{k}" for s, k in zip(puzzle.symbols, counts))
        want = ", ".join(f"{s}x{k}" for s, k in zip(puzzle.symbols, puzzle.counts))
        raise StateError(f"state has {got}: expected the goal's counts {want}")
    return cells


def format_cells(puzzle: Puzzle, cells: np.ndarray) -> str:
    """A state of ``puzzle`` as text: rows joined by '/', in the goal's symbols."""
    return state_texts(puzzle, np.asarray(cells).reshape(1, -1))[0]


def split_rows(text: str, rows: int, cols: int, what: str) -> str:
    """The symbols of a state written as ``rows`` rows of ``cols`` symbols
    (rows split by '/', ',' or spaces, or all in one row), in reading order."""
    shape = f"{rows} rows of {cols} symbols"
    if not isinstance(text, str) or not text.strip():
        raise StateError(f"empty {what}: expected {shape}, rows split by '/'")
    parts = [r for r in re.split(r"[/,\s]+", text.strip()) if r]
    flat = "".join(parts)
    if len(flat) != rows * cols or (len(parts) > 1 and any(len(r) != cols for r in parts)):
        raise StateError(
            f"{what} {text.strip()!r} has {len(flat)} cells in rows of {[len(r) for r in parts]}: expected {shape}"
        )
    return flat


def _shown(code: int) -> str:
    """A symbol as a message shows it: itself, or its escape where it is not
    a character a terminal can print (a lone surrogate: a byte that was not UTF-8)."""
    return f"\\u{code:04x}" if 0xD800 <= code <= 0xDFFF else chr(code)
