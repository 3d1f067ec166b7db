"""A state proven at least K moves from solved (``wsdb bounds prove
--at-least K``): a lower bound on the grid's God number with no more work
than the bound needs.

IDA* handing over to the tree (:func:`.ida.ida_to_tree`) searches one
bound at a time, each a full iteration, and stops after bound K - 1: no
answer of fewer than K moves exists. It never starts bound K, the
iteration that would find the state's answer and cost about as much as all
before it together (on 6x6 each bound costs 10-13 times the one before).
If an iteration finds an answer, that answer is optimal and shorter than K.
Each bound is searched share by share, and the command keeps every share
as it finishes (:mod:`.shares`): a proof stopped by a kill or a spent
``--effort`` resumes where it stopped.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..db.store import Store
from ..errors import WsdbError, InputError, NotBuiltError
from ..notices import left_at_pace, step
from ..puzzle import format_state, parse_states
from ..puzzle.tree_key import TreeKey
from ..solver import effort
from ..solver.guide import Found, guide_for, tail
from ..solver.settings import PROOF_SHARES
from .shares import Ledger, combine, search_here


@dataclass
class Proof:
    """What :func:`at_least` proved: the state's distance is at least
    ``lower``; ``found`` is an optimal answer (shorter than asked) where an
    iteration found one; ``timed_out`` where the effort ran out first.
    ``nodes`` is this run's work; ``reused`` the shares it read back from
    the store instead of searching (:mod:`.shares`), which took
    ``reused_seconds``; ``left`` the shares of the bound the effort cut,
    still to search."""

    n: int
    c: int
    state: str
    lower: int
    found: Found | None
    moves: list[str] | None
    timed_out: bool
    nodes: float
    reused: int = 0
    reused_seconds: float = 0.0
    left: int = 0


def at_least(
    state: str, k: int, store: Store, nodes: float, spread=None, keep: bool = False, fresh: bool = False
) -> Proof:
    """Prove ``state`` at least ``k`` moves from solved, within ``nodes``
    of work (:mod:`.effort`). Needs the grid's gather table and its stored
    partial tree (6x6 three and four colours); a state the tree holds has
    its stored distance. Each bound is cut into shares (:mod:`.shares`);
    with ``keep`` each share searched is kept in ``store`` (writable) as it
    finishes and the shares kept before are not searched again, unless
    ``fresh``. With ``spread`` (a :class:`.spread.Spread`) the shares are
    searched over Dask workers instead, until done (``nodes`` counts this
    process's work only, so it is not a budget there)."""
    ((puzzle, cells),) = parse_states([state])
    text, n = format_state(cells, puzzle.n), puzzle.n
    # asked of the store first: the guide reads (and may derive) big tables
    two, own = store.finished_build(TreeKey.wrapslide(n, 2)), store.finished_build(TreeKey.wrapslide(n, puzzle.c))
    if two is None or not two["complete"]:
        raise NotBuiltError(
            f"--at-least needs the {n}x{n} gather table, derived from the complete {n}x{n} two-colour "
            f"tree (`wsdb build --n {n} --c 2`; 8x8's is too big to complete)"
        )
    if own is None:
        raise NotBuiltError(f"--at-least needs the {puzzle.label} tree: `wsdb build --n {n} --c {puzzle.c}`")
    guide = guide_for(puzzle, store, pairs=True)
    eg = guide.tree
    stored = int(eg.depth(cells[None])[0])
    if stored >= 0 or eg.complete:
        raise InputError(
            f"{text}: the stored tree holds it (`wsdb lookup` gives its distance, "
            f"{stored if stored >= 0 else 'exactly'})"
        )
    ledger = Ledger(store, puzzle.n, puzzle.c, text, guide, keep, fresh)
    reused, reused_seconds, left = 0, 0.0, 0
    with effort.metered() as meter, step(f"proving {text} at least {k} moves from solved") as st:
        lower = max(guide.bound(cells), eg.height + 1)
        found, timed_out = None, False
        while lower < k and found is None and not timed_out:
            count, have = ledger.stored(lower)
            reused += len(have)
            reused_seconds += sum(r.seconds for r in have.values())
            shares = count or (PROOF_SHARES if spread is None else max(PROOF_SHARES, spread.shares()))
            todo = [] if any(r.found for r in have.values()) else [i for i in range(shares) if i not in have]

            def done(r, lower=lower, shares=shares, have=have):
                have[r.share] = r
                ledger.add(lower, shares, r)
                st.status = (
                    f"no answer of fewer than {lower} moves; searching {lower}: "
                    f"{len(have)} of {shares} shares done{_left(have, shares)}"
                )

            st.status = f"no answer of fewer than {lower} moves; searching {lower}" + (
                f" ({len(have)} of {shares} shares kept from before)" if have else ""
            )
            if todo and spread is None:
                timed_out = search_here(guide, cells, lower, nodes, shares, todo, done)
            elif todo:
                spread.search(puzzle, cells, lower, shares, todo, done)
            if timed_out:
                left = shares - len(have)
                break
            found, lower = combine(have)
        moves = None
        if found is not None:
            moves = [puzzle.move_names[m] for m in found.path] + tail(store, puzzle, eg, found.meet)
            if not puzzle.is_solved(puzzle.apply(cells, moves)):
                raise WsdbError(f"internal error: the proof's answer does not solve {text}; please report it")
        return Proof(
            puzzle.n, puzzle.c, text, lower, found, moves, timed_out, meter.spent, reused, reused_seconds, left
        )


def _left(have: dict, shares: int) -> str:
    """', about 2.1 h left' at the pace of the shares kept of a bound."""
    left = left_at_pace(sum(r.seconds for r in have.values()), len(have), shares)
    return f", {left} left" if left else ""
