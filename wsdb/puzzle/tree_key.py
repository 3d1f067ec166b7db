"""A stored tree's identity (docs/architecture.md, "tree"): which puzzle, on
which board, grown from which level 0. The database files a build, its
levels and its classes under these four values; everything below the
command line and the API passes one :class:`TreeKey` instead of loose
arguments."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError

WRAPSLIDE = "wrapslide"


@dataclass(frozen=True, order=True)
class TreeKey:
    """(puzzle, n, c, root) of one tree, as its ``builds`` row holds them.

    ``n`` and ``c`` are the puzzle's own (Wrapslide: grid size and colours;
    the sliding puzzle: rows and every label, tiles and blank, so that its
    columns are ``c // n``); ``root`` is the kind of level 0 for a puzzle
    that has kinds (Wrapslide's ``all`` or ``single``, thesis §3.3), else
    the goal the tree grows from, as text."""

    puzzle: str
    n: int
    c: int
    root: str

    @classmethod
    def of(cls, puzzle, root: str | None = None) -> "TreeKey":
        """The tree of a puzzle object grown from ``root``: one of its kinds
        of root (default its first, Wrapslide's 'all'), or, for a puzzle
        without kinds, its goal (then no other root may be named)."""
        if puzzle.roots:
            root = puzzle.roots[0] if root is None else root
            if root not in puzzle.roots:
                raise InputError(f"unknown root {root!r}: expected one of {', '.join(puzzle.roots)}")
            return cls(puzzle.name, int(puzzle.n), int(puzzle.c), root)
        if root not in (None, puzzle.goal):
            raise InputError(f"--root is Wrapslide's: {puzzle.name} grows from its --goal")
        return cls(puzzle.name, int(puzzle.n), int(puzzle.c), puzzle.goal)

    @classmethod
    def wrapslide(cls, n: int, c: int, root: str = "all") -> "TreeKey":
        """A Wrapslide tree: the n x n grid of c colours from ``root``."""
        return cls(WRAPSLIDE, int(n), int(c), root)

    @classmethod
    def from_row(cls, row) -> "TreeKey":
        """The key of a ``builds`` or ``levels`` row (a dict or a pandas row)."""
        return cls(row.get("puzzle", WRAPSLIDE) or WRAPSLIDE, int(row["n"]), int(row["c"]), row["root"])

    @property
    def row(self) -> dict:
        """The key as the columns a row is filed under."""
        return {"puzzle": self.puzzle, "n": self.n, "c": self.c, "root": self.root}
