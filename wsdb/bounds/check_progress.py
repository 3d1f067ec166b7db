"""How far each kept moves-off check got (`wsdb bounds checks`): the slices
a `wsdb bounds compute --merge ... --off K` keeps as they finish
(:mod:`wsdb.bounds.merging`), read back per check as slices kept, states
checked, liftings left so far and the time left at their pace (the
median slice's: a slice timed across a pause, a stopped process or other
work beside it, takes far longer than the rest); and per
grid, the liftings no path serves that its checks solved one by one and
kept. The same compute command goes on from there.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..db.store import Store
from ..notices import left_at_pace


@dataclass
class KeptCheck:
    """One check's kept slices: the grid, the colours merged, the level of
    the merged grid and the distance from solved its paths must finish
    within (``at_most``), the scheme (paths tried, states checked),
    ``done`` of ``slices`` kept, the states they hold, the liftings no
    path serves among them (``unavoidable``), the seconds kept and the
    median slice's seconds."""

    n: int
    c: int
    merge: str
    level: int
    at_most: int
    scheme: str
    done: int
    slices: int
    states: int
    unavoidable: int
    seconds: float
    last: str
    median_seconds: float

    def row(self) -> dict:
        return asdict(self)

    def text(self) -> str:
        where = f"{self.done} of {self.slices} slices kept ({self.states:,} states)"
        left = left_at_pace(self.median_seconds * self.done, self.done, self.slices)
        if left:
            where += f", {left} left at their pace"
        return (
            f"{self.n}x{self.n} {self.c} colours  merge {self.merge}  level {self.level} within {self.at_most}: "
            f"{where}; {self.unavoidable:,} ways to split left so far; {self.seconds:,.0f} s kept, "
            f"last {self.last[:16]}  ({self.scheme})"
        )


def kept_checks(store: Store, n: int | None = None, c: int | None = None) -> list[KeptCheck]:
    """Every kept check of the (n, c) grids, by grid, merge, level (deepest
    first) and distance."""
    return [KeptCheck(**{k: r[k] for k in KeptCheck.__dataclass_fields__}) for r in store.check_progress(n, c)]


@dataclass
class KeptSolutions:
    """The liftings a grid's moves-off checks solved one by one and kept
    (``solved``), the longest solution, their seconds and the last."""

    n: int
    c: int
    solved: int
    longest: int
    seconds: float
    last: str

    def row(self) -> dict:
        return asdict(self)

    def text(self) -> str:
        return (
            f"{self.n}x{self.n} {self.c} colours: {self.solved:,} ways to split solved one by one and kept, "
            f"the longest in {self.longest} moves; {self.seconds:,.0f} s kept, last {self.last[:16]}"
        )


def kept_solutions(store: Store, n: int | None = None, c: int | None = None) -> list[KeptSolutions]:
    """Per grid of the (n, c) grids, the liftings its checks solved and kept."""
    return [KeptSolutions(**r) for r in store.check_solution_progress(n, c)]
