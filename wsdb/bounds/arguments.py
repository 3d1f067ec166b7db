"""Proven bounds on God's numbers Θ(n, c) (docs/frontier.md), each with
the witness it rests on and the command that proves it again.

Four arguments, each a :class:`Bound`:

* ``tree``: a complete tree gives Θ exactly: a lower bound (a deepest
  class's state) and an upper bound (every class is within its height);
* ``counting``: every state within d moves of the ``roots`` solved states
  has a shortest sequence that the searches' pruning rule allows (no two
  moves of one family in a row, and of two commuting families one order
  only: the puzzle's ``blocked`` table; thesis §5.1), so at most ``roots``
  times the number of such sequences of at most d moves lie within d, and
  Θ is at least the first d where that reaches the number of states. Where
  a partial tree from every solved state is stored, its levels give the
  exact count up to its height D, and each further level holds at most the
  states at D times the pruned sequences that may follow a move;
* ``optimal``: a state's proven distance (IDA*, or the solver's proven
  lower bound where IDA* did not finish) bounds Θ from below;
* ``phases``: merging colours maps a grid onto a coarser one (thesis §1
  colour counts, as :func:`wsdb.solver.phases.coarsen` merges them). Any state is at most
  Θ(coarse) moves from one whose coarse image is solved; from there, the
  largest exact distance among those states finishes. Θ is at most the sum,
  applied down the chain c -> c-1 -> ... -> 2 (another merge of colours,
  counted by a census: :mod:`.merging`).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone

import numpy as np

from ..db.build import COMPLETE
from ..db.lookup import lookup_grid
from ..db.proven import proven_god_number
from ..db.store import Store
from ..errors import WsdbError, InputError, NotBuiltError
from ..puzzle.model import check_grid, merged_goal_count, merged_goal_states, wrapslide
from ..puzzle.text import state_texts
from ..puzzle.catalog import describe
from ..puzzle.tree_key import TreeKey
from ..version import current as current_version

#: The game's grid sizes, whose God numbers the bounds are about.
GRIDS = (4, 6, 8)
#: The most states a phase's set may hold for its exact distances to be
#: looked up one by one in the finer grid's complete tree.
MAX_PHASE_STATES = 2_000_000


@dataclass
class Bound:
    """One proven bound on Θ(n, c)."""

    n: int
    c: int
    kind: str  # lower, upper
    value: int
    method: str  # tree, counting, optimal, phases
    witness: dict = field(default_factory=dict)
    seconds: float = 0.0
    command: str = ""

    def row(self) -> dict:
        """The ``bounds`` row (docs/sql.md)."""
        out = asdict(self)
        out["witness"] = json.dumps(self.witness, separators=(",", ":"))
        out["proven_at"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        out["version"] = current_version()
        return out


def argument(method: str, witness: dict) -> str:
    """What a bound rests on, in a few words: its method, and for a
    counting bound past a stored tree, the tree's depth."""
    return method + (f" past the tree's depth {witness['tree_depth']}" if "tree_depth" in witness else "")


def continuations(blocked: np.ndarray, family: np.ndarray):
    """For j = 0, 1, 2, ...: how many move sequences of j moves the pruning
    table allows after each of its rows (a move of family f, or the start in
    the last row), as a list of Python ints (they outgrow 64 bits). A
    sequence is allowed where no move of family g follows one of family f
    with ``blocked[f, g]``."""
    fams = blocked.shape[1]
    per_family = np.bincount(family, minlength=fams).tolist()
    follows = [[g for g in range(fams) if not blocked[r, g]] for r in range(blocked.shape[0])]
    here = [1] * blocked.shape[0]
    while True:
        yield here
        here = [sum(per_family[g] * here[g] for g in gs) for gs in follows]


def first_radius(
    blocked: np.ndarray, family: np.ndarray, states: int, depth: int, within: int, level: int
) -> tuple[int, int]:
    """(d, the states that can lie within d - 1): the first d at which the
    states within ``depth`` moves (``within``, ``level`` of them at exactly
    ``depth``) and, for each further move, ``level`` times the most
    sequences the pruning table allows after any move (after the start
    where ``depth`` is 0) reach ``states``. No more states lie within d - 1,
    so one of them is at least d moves from solved."""
    rows = slice(-1, None) if depth == 0 else slice(0, blocked.shape[0] - 1)
    steps = continuations(blocked, family)
    next(steps)
    d, before = depth, within
    while within < states:
        d, before = d + 1, within
        within += level * max(next(steps)[rows])
    return d, before


def counting(n: int, c: int) -> Bound:
    """The counting bound from the solved states alone (module docstring)."""
    roots = len(wrapslide(n, c).solved)
    return _counted(n, c, 0, roots, roots)


def counting_past_tree(store: Store, n: int, c: int) -> list[Bound]:
    """The counting bound from the exact levels of a stored partial tree
    grown from every solved state (module docstring); [] without one."""
    tree = TreeKey.wrapslide(n, c)
    row = store.finished_build(tree)
    if row is None or row["complete"]:
        return []
    rows = store.level_rows(tree)
    depth, level = rows[-1]["depth"], rows[-1]["states"]
    return [_counted(n, c, depth, sum(r["states"] for r in rows), level, tree_depth=depth, level_states=level)]


def _counted(n: int, c: int, depth: int, within: int, level: int, **known) -> Bound:
    """The counting bound from ``within`` states known within ``depth``
    moves, ``level`` of them at exactly ``depth`` (:func:`first_radius`)."""
    p = wrapslide(n, c)
    d, before = first_radius(p.blocked, p.move_family, p.states, depth, within, level)
    return Bound(
        n,
        c,
        "lower",
        d,
        "counting",
        dict(states=p.states, solved=len(p.solved), moves=int(p.moves.shape[0]), **known, within=before),
        0.0,
        f"wsdb bounds compute --n {n} --c {c}",
    )


def from_tree(store: Store, n: int, c: int) -> list[Bound]:
    """Θ(n, c) exactly, from a complete tree: [lower, upper]; [] without one.
    A tree stopped at its depth limit whose levels hold every state is
    complete in fact: its height is the God number."""
    tree = TreeKey.wrapslide(n, c)
    row = store.finished_build(tree)
    god = None if row is None else proven_god_number(row, wrapslide(n, c))
    if row is None or god is None:
        return []
    deepest = store.classes_at_depth(tree, god, limit=1)[0]["grid"]
    command = f"wsdb lookup {deepest}"
    return [
        Bound(n, c, "lower", god, "tree", dict(state=deepest, distance=god), row["seconds"], command),
        Bound(
            n,
            c,
            "upper",
            god,
            "tree",
            dict(classes=row["classes"], states=row["states"], height=god),
            row["seconds"],
            f"wsdb build --n {n} --c {c}",
        ),
    ]


def by_state(
    state: str,
    db=None,
    effort: float | None = None,
    method: str = "optimal",
    at_least: int | None = None,
    dask: dict | None = None,
    fresh: bool = False,
) -> Bound:
    """A lower bound exhibited by one state: its distance proven optimal by
    IDA* (``wsdb solve --method optimal``), or the lower bound the search
    proved where it did not finish; ``method="meet"`` proves it by meet in
    the middle with the stored partial tree instead (on 8x8 two colours, a
    bound past the tree's reach). With ``at_least`` K, IDA* proves only that
    no answer is shorter than K (:mod:`wsdb.bounds.proof`), or finds the
    state's optimal answer where it is; with ``dask`` (``scheduler``,
    ``workers``, ``memory``: :func:`wsdb.db.distributed.connect`) each
    bound is searched over Dask workers (:mod:`wsdb.bounds.spread`). An
    ``at_least`` proof keeps its shares in the database as they finish and
    resumes from those kept, unless ``fresh`` (:mod:`wsdb.bounds.shares`)."""
    if at_least is not None:
        return _at_least(state, db, effort, at_least, dask, fresh)
    if dask is not None:
        raise InputError("the dask engine proves --at-least K: add it, or leave --engine out")
    from ..solver.solve import solve

    t0 = time.perf_counter()
    sol = solve(state, db=db, method=method, effort=effort)
    value = sol.length if sol.optimal else sol.lower_bound
    witness = dict(state=sol.state, distance=sol.length if sol.optimal else None, moves=sol.moves, optimal=sol.optimal)
    command = f"wsdb solve {sol.state} --method {method}" + (f" --effort {effort:g}" if effort else "")
    return Bound(sol.n, sol.c, "lower", value, method, witness, time.perf_counter() - t0, command)


def _at_least(state: str, db, effort: float | None, k: int, dask: dict | None = None, fresh: bool = False) -> Bound:
    from ..solver.solve import budget_nodes, check_request
    from .proof import at_least

    check_request("optimal", None, effort)
    if not 1 <= k <= 100:
        raise InputError(f"--at-least {k}: expected a number of moves from 1 to 100")
    if dask is not None and effort is not None:
        raise InputError("--effort is one process's work: a proof over Dask runs until done (leave --effort out)")
    store = Store.open(db, write=True)
    t0 = time.perf_counter()
    # no effort given: as long as the proof takes (each bound is announced as it starts)
    if dask is None:
        proof = at_least(state, k, store, math.inf if effort is None else budget_nodes(effort), keep=True, fresh=fresh)
    else:
        proof = _spread_at_least(state, k, store, db, dask, fresh)
    witness = dict(
        state=proof.state,
        distance=proof.found.length if proof.found else None,
        moves=proof.moves,
        optimal=proof.found is not None,
        at_least=proof.lower,
        nodes=round(proof.nodes),
        shares_reused=proof.reused,
        shares_left=proof.left,
    )
    command = f"wsdb bounds prove {proof.state} --at-least {k}" + (f" --effort {effort:g}" if effort else "")
    # the proof's seconds: this run's, and those of the shares it read back instead of searching
    seconds = time.perf_counter() - t0 + proof.reused_seconds
    return Bound(proof.n, proof.c, "lower", proof.lower, "optimal", witness, seconds, command)


def _spread_at_least(state: str, k: int, store: Store, db, dask: dict, fresh: bool):
    """:func:`wsdb.bounds.proof.at_least` with each bound spread over Dask workers."""
    from ..db.build import dask_engine
    from ..db.location import resolve
    from .proof import at_least
    from .spread import Spread

    where = resolve(db)  # the workers open the database by its absolute path, or a server's URL
    worker_db = str(where.path) if where.path else where.url
    with dask_engine().dask_client(**dask) as client:
        return at_least(state, k, store, math.inf, spread=Spread(client, worker_db), keep=True, fresh=fresh)


def phase_size(n: int, c: int) -> int:
    """How many states :func:`phase_states` lists: a way to fill the merged
    cells for each coarse solved state."""
    return merged_goal_count(wrapslide(n, c), f"{c - 1}{c}")


def phase_states(n: int, c: int) -> np.ndarray:
    """Every state of the (n, c) grid whose (c-1)-colour image is solved
    (the last two colours merged: the thesis' coarser grid): the merged
    cells of each coarse solved state filled with the last two colours in
    every way."""
    if phase_size(n, c) > MAX_PHASE_STATES:
        raise InputError(
            f"the {n}x{n} {c}-colour phase holds {phase_size(n, c):,} states, "
            f"more than the {MAX_PHASE_STATES:,} looked up one by one"
        )
    return merged_goal_states(wrapslide(n, c), f"{c - 1}{c}")


def phase_worst(store: Store, n: int, c: int) -> tuple[int, str]:
    """The largest exact distance among :func:`phase_states`, read from the
    (n, c) complete tree, and a state at it."""
    row = store.finished_build(TreeKey.wrapslide(n, c))
    if row is None or not row["complete"]:
        raise NotBuiltError(
            f"the {n}x{n} {c}-colour phase needs the exact distance of {phase_size(n, c):,} states, "
            f"and no complete {n}x{n} {c}-colour tree is stored here (`wsdb build --n {n} --c {c}` "
            "where it fits), nor their distances proven one by one"
        )
    states = phase_states(n, c)
    p = wrapslide(n, c)
    distances = [a.distance for a in lookup_grid(store, p, states)]
    known = [d for d in distances if d is not None]
    assert len(known) == len(distances), "a complete tree holds every state of the phase"
    far = max(range(len(known)), key=lambda i: known[i])
    return known[far], state_texts(p, states[far : far + 1])[0]


def from_phases(store: Store, n: int, c: int) -> Bound:
    """The best phase upper bound: Θ(n, k) exactly from a complete tree for
    some k < c, plus each later phase's worst case (:func:`phase_worst`,
    each phase read once whichever k it follows)."""
    t0 = time.perf_counter()
    best, later = None, {}
    for k in range(2, c):
        top = store.finished_build(TreeKey.wrapslide(n, k))
        if top is None or not top["complete"]:
            continue
        phases = [dict(grid=f"{n}x{n} {k} colours", worst=top["god_number"], by="tree")]
        for j in range(k + 1, c + 1):
            if j not in later:
                worst, state = phase_worst(store, n, j)
                later[j] = dict(
                    grid=f"{n}x{n} {j} colours from {j - 1} solved", worst=worst, state=state, states=phase_size(n, j)
                )
            phases.append(later[j])
        value = sum(ph["worst"] for ph in phases)
        if best is None or value < best.value:
            best = Bound(
                n, c, "upper", value, "phases", dict(phases=phases), 0.0, f"wsdb bounds compute --n {n} --c {c}"
            )
    if best is None:
        if (n, 2) not in COMPLETE:  # 8x8: no coarser grid's tree can be finished
            raise NotBuiltError(
                f"it needs a complete tree of {n}x{n} with fewer than {c} colours, and {n}x{n} trees "
                f"are grown part way only (two colours: {wrapslide(n, 2).states:.1e} states)"
            )
        raise NotBuiltError(
            f"no complete tree of {n}x{n} with fewer than {c} colours here: build `wsdb build --n {n} --c 2` first"
        )
    best.seconds = time.perf_counter() - t0
    return best


def check(n: int, c: int) -> None:
    """Refuse a grid the bounds are not about (before anything is opened)."""
    check_grid(n, c)
    if n not in GRIDS:
        raise InputError(f"bounds are kept for the game's grids: expected --n 4, 6 or 8, got {n}")


def compute(store: Store, n: int, c: int) -> tuple[list[Bound], list[str]]:
    """Every bound wsdb can prove for Θ(n, c) from what the database holds,
    and a line for each argument it could not make, saying why (the bound
    by merging colours, minutes on 6x6, is asked for on its own:
    :mod:`.merging`)."""
    check(n, c)
    found, missing = [counting(n, c)], []
    found += from_tree(store, n, c) + counting_past_tree(store, n, c)
    exact = any(b.method == "tree" for b in found)
    if not exact and not any(b.method == "counting" and b.witness.get("tree_depth") for b in found):
        # the answer would change with a build: say which (the README's 8x8 three-colour 22 needs one)
        tree = TreeKey.wrapslide(n, c)
        what, command = describe(tree)
        missing.append(
            f"tree: no {what} tree in {store.label}: `{command}{store.db_option}` stores one, and "
            "its levels raise the counting bound (or, complete, give the God number)"
        )
    if c > 2:
        try:
            found.append(from_phases(store, n, c))
        except WsdbError as e:
            if not exact:  # with the God number itself proven, no upper bound is missing
                missing.append(f"phases: {e}")
    return found, missing


def record(store: Store, bounds: list[Bound]) -> int:
    """Store the bounds not stored yet (the same grid, kind, value, method
    and witness); how many were new."""
    held = {(r["n"], r["c"], r["kind"], r["value"], r["method"], r["witness"]) for r in store.bound_rows()}
    new = 0
    for b in bounds:
        row = b.row()
        if (b.n, b.c, b.kind, b.value, b.method, row["witness"]) not in held:
            store.add_bound(row)
            new += 1
    return new
