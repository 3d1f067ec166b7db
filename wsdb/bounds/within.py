"""Any solution within a given number of moves, the cheapest search first.

Some questions need a way to solved no longer than a budget, not the
shortest one: a bound's check (:mod:`wsdb.bounds.merging`) is served by any
sequence of at most G + W - K moves. There a narrow beam (thesis §4.2's
hand-over to the tree at every level, :mod:`.beam`) answers in a fraction of
the time of the full search, whose work below the beam's length only
shortens the sequence; the full ``auto`` solve (:mod:`.solve`) runs only
where the narrow beam's sequence is longer than the budget, or where it
found none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ..db.store import Store
from ..puzzle import parse_states
from ..solver.beam import beam_search
from ..solver.effort import NEVER, metered
from ..solver.guide import Guide, guide_for
from ..solver.settings import WITHIN_WIDTH
from ..solver.solve import iter_solve


@dataclass
class Within:
    """A way to solved of one state: its moves (names) and the search that
    found it (``beam``, or the method the full solve names)."""

    moves: list[str]
    method: str

    @property
    def length(self) -> int:
        return len(self.moves)


def solve_within(states: list[str], budget: int, store: Store | None, width: int = WITHIN_WIDTH) -> Iterator[Within]:
    """Each of ``states`` solved, in order: by a beam ``width`` wide where
    its sequence has at most ``budget`` moves, else by the full ``auto``
    solve (whose answer may still be longer: the caller decides). The
    beam's work is unbudgeted and deterministic, so the same state gives
    the same moves on any machine. States are checked at the call."""
    parsed = parse_states(states)
    guides: dict[tuple[int, int], Guide] = {}

    def answers() -> Iterator[Within]:
        for text, (puzzle, cells) in zip(states, parsed):
            grid = (puzzle.n, puzzle.c)
            if grid not in guides:  # tables load once per grid
                guides[grid] = guide_for(puzzle, store)
            guide = guides[grid]
            with metered():
                found, _ = beam_search(guide, cells, width, NEVER)
            if found is not None and found.length <= budget:
                yield Within([puzzle.move_names[m] for m in found.moves(store, puzzle, guide.endgame)], "beam")
            else:
                solution = next(iter_solve([text], store=store))
                assert solution.moves is not None  # solved for its moves, not its length only
                yield Within(list(solution.moves), solution.method)

    return answers()
