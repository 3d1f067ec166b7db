"""A state proven at least K moves from solved (``wsdb bounds prove
--at-least K``): a lower bound on the grid's God number with no more work
than the bound needs.

IDA* handing over to the tree (:func:`.ida.ida_to_tree`) searches one
bound at a time, each a full iteration, and stops after bound K - 1: no
answer of fewer than K moves exists. It never starts bound K, the
iteration that would find the state's answer and cost about as much as all
before it together (on 6x6 each bound costs 10-13 times the one before).
If an iteration finds an answer, that answer is optimal and shorter than K.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..db.store import Store
from ..errors import WsdbError
from ..notices import step
from ..puzzle import format_state, parse_states
from . import effort
from .guide import Found, guide_for, tail
from .ida import ida_to_tree


@dataclass
class Proof:
    """What :func:`at_least` proved: the state's distance is at least
    ``lower``; ``found`` is an optimal answer (shorter than asked) where an
    iteration found one; ``timed_out`` where the effort ran out first."""

    n: int
    c: int
    state: str
    lower: int
    found: Found | None
    moves: list[str] | None
    timed_out: bool
    nodes: float


def at_least(state: str, k: int, store: Store, nodes: float, spread=None) -> Proof:
    """Prove ``state`` at least ``k`` moves from solved, within ``nodes``
    of work (:mod:`.effort`). Needs the grid's gather table and its stored
    partial tree (6x6 three and four colours); a state the tree holds has
    its stored distance. With ``spread`` (a :class:`.spread.Spread`) each
    bound is searched over Dask workers instead, until done (``nodes``
    counts this process's work only, so it is not a budget there)."""
    (puzzle, cells), = parse_states([state])
    text, n = format_state(cells, puzzle.n), puzzle.n
    # asked of the store first: the guide reads (and may derive) big tables
    two, own = store.finished_build(n, 2), store.finished_build(n, puzzle.c)
    if two is None or not two["complete"]:
        raise WsdbError(f"--at-least needs the {n}x{n} gather table, derived from the complete {n}x{n} two-colour "
                        f"tree (`wsdb build --n {n} --c 2`; 8x8's is too big to complete)")
    if own is None:
        raise WsdbError(f"--at-least needs the {puzzle.label} tree: `wsdb build --n {n} --c {puzzle.c}`")
    guide = guide_for(puzzle, store, pairs=True)
    eg = guide.endgame
    stored = int(eg.depth(cells[None])[0])
    if stored >= 0 or eg.complete:
        raise WsdbError(f"{text}: the stored tree holds it (`wsdb lookup` gives its distance, "
                        f"{stored if stored >= 0 else 'exactly'})")
    with effort.metered() as meter, step(f"proving {text} at least {k} moves from solved") as st:
        lower = max(guide.bound(cells), eg.height + 1)
        found, timed_out = None, False
        while lower < k and found is None and not timed_out:
            st.status = f"no answer of fewer than {lower} moves; searching {lower}"
            if spread is None:
                found, reached, timed_out = ida_to_tree(guide, cells, nodes, lower, upper=lower + 1)
            else:
                def shown(done, total, lower=lower):
                    st.status = (f"no answer of fewer than {lower} moves; searching {lower}: "
                                 f"{done} of {total} shares done")
                found, reached = spread.search(puzzle, cells, lower, shown)
            lower = found.length if found is not None else reached
        moves = None
        if found is not None:
            moves = [puzzle.move_names[m] for m in found.path] + tail(store, puzzle, eg, found.meet)
            if not puzzle.is_solved(puzzle.apply(cells, moves)):
                raise WsdbError(f"internal error: the proof's answer does not solve {text}; please report it")
        return Proof(puzzle.n, puzzle.c, text, lower, found, moves, timed_out, meter.spent)
