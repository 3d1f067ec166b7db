"""The upper bound on Θ(n, c) by merging colours (docs/frontier.md,
`wsdb bounds compute --merge`): solve the grid with some colours taken as
one, then the colours apart.

* Phase 1 is the merged grid (:func:`wsdb.puzzle.model.merged`): from any
  state, at most its God number G moves reach a state whose merged image
  is solved. A census counts it: over the subset numbering where it has
  two colours (6x6 three colours with 1+2 merged: 18 cells against 18),
  else over classes.
* Phase 2 starts from every state whose merged image is solved; its worst
  case W is the largest of their exact distances, from a complete tree or
  proven one class at a time by IDA* (`wsdb solve --method optimal`).

So Θ ≤ G + W. Where the census kept its table (two colours, two merged),
one move comes off when no state needs both worst cases: every state of
the merged grid at G has several shortest paths to solved, read from the
table, and each lifting of it (each way to split its merged cells into
the two merged colours) needs only one path that does not finish on a
phase-2 state at W. Then a state at most G - 1 from its merged goal takes
at most G - 1 + W moves, and one at G at most G + W - 1: Θ ≤ G + W - 1.

In general K moves come off when, for each j < K, every lifting of every
state at G - j has a path that finishes at most W - K + j from solved
(a shortest one, or a detour one or two moves longer that finishes as
many moves nearer): a state at G - j then takes at most G + W - K moves, and one
nearer than G - K + 1 at most G - K + W. Each level is checked at one
state per orbit under the grid's symmetries, which carry paths, liftings
and phase-2 distances alike: at G of the states the census lists, above
it read from the table. Where every path tried
leaves only a few liftings (``solve_left``), each is solved by the solver
instead: a solution of at most G + W - K moves serves it as a path would,
and so does it for every state of its orbit. The checks run strictest
first: a level that passes within some distance passes within any larger
one, so ``off`` checks in all decide how many moves come off, and a level
checked again a move looser is checked only at the states that the
stricter check left liftings of.
"""

from __future__ import annotations

import hashlib
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import numpy as np

from ..db.census_cache import cached_level, cached_subset_table, census_progress
from ..db.lookup import lookup_grid
from ..db.store import Store
from ..engine.census import census
from ..engine.engines import Engine
from ..engine.subsets import word_cells
from ..errors import WsdbError, InputError, DamagedError
from ..notices import left_at_pace, say, step
from ..puzzle.model import Puzzle, merged, merged_colours, merged_goal_count, merged_goal_states, wrapslide
from ..puzzle.text import state_texts
from ..puzzle.tree_key import TreeKey
from . import lifting
from .arguments import MAX_PHASE_STATES, Bound, check
from ..version import current as current_version

#: Shortest paths tried per state of the merged grid at its God number
#: before its liftings that finish at the worst case on every path tried
#: are taken as needing both worst cases.
TRIES = 24

#: Liftings that every path tried leaves past the budget which are then
#: solved one by one (``wsdb solve``): a solution within the budget serves
#: a lifting as well as a path does. More than this many and the check
#: fails without solving them.
SOLVE_LEFT = 64

#: Paths tried in a first pass over every state checked; only the states
#: with a lifting left are checked again with all the tries. The paths
#: tried in all are the same at any value, so the counts are; what changes
#: is how soon a state is served. On 6x6 three colours, 8 (against 4) took
#: a quarter less time at level 12 within 11, where most states need more
#: than 4 shortest paths before any detour, and as long at level 11 within 12.
FIRST_TRIES = 8

#: How many states of a check are tried first with each choice of how many
#: shortest paths precede the detours, to take the one that walks fewest
#: paths (:func:`_fewest_walks`). Any choice leaves the same liftings.
PILOT = 2000

#: How a check chooses its paths, as its kept slices name it: a change to
#: the choice (:func:`wsdb.engine.subset_kernels.descend`) changes what a
#: slice finds, and must change this so that no slice kept before is reused.
PATHS = 1

#: The distance of a packed arrangement that is no phase-2 state, past any
#: budget.
NONE = 10_000


def merged_phase_states(fine: Puzzle, together: str) -> tuple[Puzzle, np.ndarray]:
    """The coarser grid that merges the colours ``together`` (digits as
    printed, :func:`wsdb.puzzle.model.merged`), and every state of ``fine``
    whose image there is solved (:func:`wsdb.puzzle.model.merged_goal_states`)."""
    coarse, ways = merged(fine, together), merged_goal_count(fine, together)
    if ways > MAX_PHASE_STATES:
        raise InputError(
            f"the states with {coarse.label} solved are {ways:,}, more than the "
            f"{MAX_PHASE_STATES:,} whose distances are found one class at a time"
        )
    return coarse, merged_goal_states(fine, together)


def by_merging(
    store: Store,
    n: int,
    c: int,
    together: str,
    tries: int = TRIES,
    off: int = 1,
    detours: bool = True,
    solve_left: int = SOLVE_LEFT,
    fresh: bool = False,
) -> Bound:
    """The two-phase upper bound of the module docstring, with its phases
    (and, where it applies, the states at the merged grid's deepest levels
    checked, for up to ``off`` moves off the sum, with ``tries`` paths from
    each state and, with ``detours``, from each neighbour as far or further;
    up to ``solve_left`` liftings that no path serves are solved one by one)
    as the witness. Each check keeps its slices in ``store`` (where it is
    open for writing) as they finish and resumes from those kept, unless
    ``fresh`` (then each is checked again and must agree)."""
    check(n, c)
    fine = wrapslide(n, c)
    t0 = time.perf_counter()
    coarse, states = merged_phase_states(fine, together)
    table = None
    with step(
        f"phase 1: {coarse.label}",
        f"a census of its {coarse.states:,} states (kept beside the database and read from there the next time)",
    ) as st:
        if coarse.c == 2:
            table = cached_subset_table(store, coarse, census_progress(st), resident=True)  # read at random
            height, total, method = table.height, sum(table.states), "ranked"
            far = table.ranking.unrank(table.last[:1]) if table.last is not None else None
        else:
            cen = census(coarse)
            height, total, method, far = cen.height, cen.total, cen.method, None
    first: dict[str, Any] = dict(
        grid=coarse.label,
        worst=height,
        by=f"census ({method})",
        states=total,
        seconds=round(time.perf_counter() - t0, 1),
    )
    if far is not None and len(far):
        first["state"] = state_texts(coarse, far)[0]
    t1 = time.perf_counter()
    reps, cls = _classes(fine, states)
    with step(
        f"phase 2: {fine.label} from its merged image solved",
        f"the exact distances of {len(reps):,} classes ({len(states):,} states)",
    ):
        distances, how = _exact_distances(store, fine, reps)
    far2 = int(np.argmax(distances))
    second: dict[str, Any] = dict(
        grid=f"{fine.label} from the merged colours solved",
        worst=int(distances[far2]),
        by=how,
        state=state_texts(fine, reps[far2 : far2 + 1])[0],
        states=len(states),
        classes=len(reps),
        seconds=round(time.perf_counter() - t1, 1),
    )
    value = first["worst"] + second["worst"]
    witness = dict(phases=[first, second], merged=together)
    two = len(merged_colours(fine, together)) == 2  # a split of the merged cells is one colour's cells
    if table is not None and table.last is not None and two and height > 0 and off > 0:
        checks, taken = _moves_off(
            store,
            table,
            coarse,
            fine,
            together,
            states,
            distances[cls],
            second["worst"],
            tries,
            off,
            detours,
            solve_left,
            fresh,
        )
        witness["checks"] = checks
        value -= taken
    return Bound(
        n,
        c,
        "upper",
        value,
        "phases",
        witness,
        time.perf_counter() - t0,
        f"wsdb bounds compute --n {n} --c {c} --merge {together}"
        + (f" --off {off}" if off > 1 else "")
        + (f" --tries {tries}" if tries != TRIES else "")
        + (f" --solve-left {solve_left}" if solve_left != SOLVE_LEFT else ""),
    )


def _moves_off(
    store: Store,
    table,
    coarse: Puzzle,
    fine: Puzzle,
    together: str,
    states: np.ndarray,
    distances: np.ndarray,
    worst: int,
    tries: int,
    off: int,
    detours: bool,
    solve_left: int,
    fresh: bool = False,
) -> tuple[list[dict], int]:
    """The checks of the module docstring for ``off`` moves off, strictest
    first: (each check made, as the witness keeps it; the moves that come
    off). A level that passes within some distance passes within any larger
    one, so where level G - j fails for K moves off it is checked again for
    K - 1, and the levels above it, passed for K, hold for K - 1 as they
    are: ``off`` checks in all (each a pass, taking j on, or a failure,
    taking k down), not one per level per move. Each level below the
    deepest is read from the table once and kept, and a level checked again
    a move looser is checked only at the states whose liftings the stricter
    check left: each other state has a path for each lifting within the
    stricter distance, so within the looser one."""
    height, levels = table.height, {}
    checks: list[dict] = []
    k, j = off, 0
    while j < k:
        depth, above = height - j, worst - k + j
        t0 = time.perf_counter()
        if depth not in levels:
            levels[depth] = _level(store, table, coarse, depth)
        cells = levels[depth]
        with step(
            f"the {coarse.label} states at {depth}",
            f"whether each way to split their merged cells has a shortest path finishing at most {above} from solved",
        ) as st:

            def checked(done, size, spent, timed, st=st):
                # at the pace of the slices this run checked (those kept are read back at once)
                left = left_at_pace(spent, timed, timed + size - done)
                st.status = f"{done / size:.0%} of {size:,} orbits checked" + (f", {left} left" if left else "")

            kept = (
                Kept(
                    store,
                    dict(
                        n=fine.n,
                        c=fine.c,
                        merge=together,
                        level=depth,
                        at_most=above,
                        scheme=_scheme(tries, detours, cells),
                    ),
                    fresh,
                )
                if store.writable
                else None
            )
            left, liftings, still = _worst_liftings(
                table,
                coarse,
                fine,
                together,
                states,
                distances,
                cells,
                depth,
                above,
                tries,
                detours,
                checked,
                solve_left,
                kept,
            )
        check = dict(level=depth, at_most=above, states=len(cells), orbits=True, tries=tries, unavoidable=left)
        if kept is not None and kept.reused:
            check["resumed"] = kept.reused  # slices kept by an earlier run, read back
        if checks and checks[-1]["level"] == depth:
            check["again"] = True  # only the states the check a move stricter left liftings of
        if left > solve_left:  # said, since the bound stored is then a move weaker than it might be
            say(
                f"{fine.label}: level {depth} within {above} leaves {left:,} ways to split that no path "
                f"serves, more than --solve-left {solve_left:,}: checked again a move looser; the same "
                f"command with --solve-left {left} solves them instead"
                + (" (the slices kept are read back)" if kept is not None else "")
            )
        if len(liftings):
            check["solved"], reused = _solved(
                store, fine, liftings, depth + above, merged_colours(fine, together), fresh
            )
            if reused:
                check["solutions_resumed"] = reused  # solved by an earlier run, replayed
            left -= sum(s["within"] for s in check["solved"])
            check["left"] = left
        check["seconds"] = round(time.perf_counter() - t0, 1)
        checks.append(check)
        if left:
            k -= 1  # the same level once more, a move looser, at the states with liftings left
            levels[depth] = still
        else:
            j += 1
    return checks, k


def _classes(fine: Puzzle, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The phase-2 ``states`` by class: one state of each, and each state's
    class, as an index into those."""
    engine = Engine(fine)
    _, keep, cls = np.unique(engine.canonical(engine.encode(states)), axis=0, return_index=True, return_inverse=True)
    return states[keep], np.ravel(cls)


def _level(store: Store, table, coarse: Puzzle, depth: int) -> np.ndarray:
    """The merged grid's states at ``depth``, as words, one of each orbit
    under its symmetries: at its God number from the states the census
    lists, above it read from the table (kept beside the database)."""
    if depth == table.height:
        cells = table.ranking.cell_words(table.last)
        if table.ranking.halved:  # an index stands for a state and its swap: both at the God number
            full = np.uint64((1 << coarse.ncells) - 1)
            cells = np.concatenate([cells, ~cells & full])
        return table.ranking.orbits(cells, coarse.maps)
    with step(
        f"the {coarse.label} states at {depth}",
        f"one of each orbit under its {len(coarse.maps)} symmetries, read from the census table",
    ) as st:

        def progress(done, size):
            st.status = (
                f"{done / size:.0%} of the table read"
                if done < size
                else "table read; walking each state found down to the goal"
            )

        return cached_level(store, coarse, table, depth, progress)


def sampled_checks(
    store: Store,
    n: int,
    c: int,
    together: str,
    off: int,
    tries: int = TRIES,
    size: int = PILOT,
    seed: int = 2016,
    solve: int = 0,
) -> list[dict]:
    """What the checks for ``off`` moves off would leave, measured on a
    sample where the full checks are too long to make (docs/frontier.md):
    each level G - j (j < ``off``) within W - ``off`` + j, as
    :func:`by_merging` checks it, on ``size`` of its orbits drawn with
    ``seed``, and with ``solve`` the first ``solve`` liftings the sample
    leaves solved one by one within G + W - ``off`` moves, as the full
    check would solve them. Per level: the level, the distance, its
    orbits (``states``), the sample, the sampled orbits with a lifting
    left and the liftings left, and the liftings solved with their median
    seconds and longest solution. Needs the merged grid's census (two
    colours) and each level's states, both kept beside the database."""
    from .within import solve_within

    check(n, c)
    fine = wrapslide(n, c)
    coarse, states = merged_phase_states(fine, together)
    if coarse.c != 2 or len(merged_colours(fine, together)) != 2:
        raise InputError("a check needs two colours merged into a grid of two (e.g. 6x6 three colours, --merge 12)")
    table = cached_subset_table(store, coarse, resident=True)
    reps, cls = _classes(fine, states)
    distances = _exact_distances(store, fine, reps)[0][cls]
    worst, rng, out = int(distances.max()), np.random.default_rng(seed), []
    for j in range(off):
        depth, above = table.height - j, worst - off + j
        cells = _level(store, table, coarse, depth)
        sample = np.sort(rng.choice(cells, size=min(size, len(cells)), replace=False))
        left, liftings, still = _worst_liftings(
            table,
            coarse,
            fine,
            together,
            states,
            distances,
            sample,
            depth,
            above,
            tries,
            listed=sys.maxsize if solve else 0,
        )  # every one
        row: dict[str, Any] = dict(
            level=depth, at_most=above, states=len(cells), sample=len(sample), states_left=len(still), left=left
        )
        if solve and len(liftings):
            texts = list(state_texts(fine, liftings[:: max(1, len(liftings) // solve)][:solve]))
            seconds, lengths, t0 = [], [], time.perf_counter()
            for sol in solve_within(texts, depth + above, store):
                seconds.append(time.perf_counter() - t0)
                lengths.append(sol.length)
                t0 = time.perf_counter()
            row |= dict(
                solved=len(texts),
                within=sum(x <= depth + above for x in lengths),
                longest=max(lengths),
                median_seconds=float(np.median(seconds)),
            )
        out.append(row)
    return out


@dataclass
class Kept:
    """Where a check keeps its slices (``check_slices``), so that it
    resumes: the store, the check (n, c, merge, level, at_most, scheme),
    whether each slice is checked again (``fresh``), and how many were read
    back (``reused``)."""

    store: Store
    check: dict
    fresh: bool = False
    reused: int = 0


def _scheme(tries: int, detours: bool, cells: np.ndarray) -> str:
    """A check's paths and states, as its kept slices name them: the states
    by their count and a digest of their words in order."""
    digest = hashlib.blake2b(np.ascontiguousarray(cells, dtype="<u8").tobytes(), digest_size=8).hexdigest()
    return f"tries {tries}, detours {int(detours)}, paths {PATHS}, {len(cells)} states {digest}"


def _worst_liftings(
    table,
    coarse: Puzzle,
    fine: Puzzle,
    together: str,
    states: np.ndarray,
    distances: np.ndarray,
    cells: np.ndarray,
    depth: int,
    above: int,
    tries: int,
    detours: bool = True,
    progress=None,
    listed: int = 0,
    kept: Kept | None = None,
) -> tuple[int, np.ndarray, np.ndarray]:
    """How many liftings of the merged grid's states ``cells`` (words, each
    at ``depth``) finish on a phase-2 state more than ``above`` from solved
    along every shortest path tried, and then (with ``detours``) along every
    path one or two moves longer tried (a detour through a neighbour as far
    or one further), more than ``above`` less the moves added; where they
    are at most ``listed``, those liftings (states of ``fine``); and the
    states of ``cells`` with a lifting left.
    ``progress`` is told (states checked, states, and the seconds and
    states of the slices this call checked, not read back) after each of about a
    hundred slices; with ``kept``, each slice is kept as it finishes and
    one kept already is read back instead of checked."""
    ranking = table.ranking
    weights = np.uint64(1) << np.arange(fine.ncells, dtype=np.uint64)

    def word(mask):
        return (mask * weights).sum(axis=1, dtype=np.uint64)

    picked = merged_colours(fine, together)
    goals = word(coarse.solved == 0)
    home = word(np.isin(states, picked))  # the merged cells: which goal each finishes on
    cells_of, rank_of, dense = _packed_distances(coarse.solved == 0, goals, home, states == picked[0], distances)
    # a path s moves longer than ``depth`` serves an arrangement within ``above`` - s of solved
    far = np.stack([[_bits(f > above - s) for s in range(3)] for f in dense])
    per_goal = [np.flatnonzero((f > above) & (f < NONE)).astype(np.uint64) for f in dense]
    bad = np.zeros((len(goals), max(1, max(len(b) for b in per_goal))), dtype=np.uint64)
    for g, b in enumerate(per_goal):
        bad[g, : len(b)] = b
    nbad = np.array([len(b) for b in per_goal], dtype=np.int64)

    def check(part, tries, shortest):
        return lifting.unavoidable(
            ranking, table.words, part, depth, tries, shortest, goals, cells_of, rank_of, bad, nbad, far, detours
        )

    def check_one(cell):
        return lifting.left_liftings(
            ranking, table.words, cell, depth, tries, goals, cells_of, rank_of, bad, nbad, far, detours
        )

    total, still = _in_slices(cells, check, tries, kept, progress)
    if not 0 < total <= listed:
        return total, np.zeros((0, fine.ncells), dtype=np.uint8), still
    rest = [k for k in range(fine.c) if k not in picked]
    pieces: list[np.ndarray] = []
    for cell in still:
        found = check_one(cell)
        s = np.full((len(found), fine.ncells), rest[0], dtype=np.uint8)
        s[:, word_cells(cell, fine.ncells)] = picked[1]
        s[word_cells(found, fine.ncells)] = picked[0]
        pieces.append(s)
    liftings = np.concatenate(pieces)
    if len(liftings) != total:
        raise InputError(
            f"{total} liftings were counted but {len(liftings)} listed: the check is not repeatable; no bound is stored"
        )
    return total, liftings, still


def _in_slices(cells: np.ndarray, check, tries: int, kept: Kept | None, progress) -> tuple[int, np.ndarray]:
    """``check(states, tries, shortest)`` (the liftings left and the paths
    walked per state, the first ``shortest`` shortest paths walked before
    the detours) over ``cells`` in about a hundred slices: (the liftings
    left in all, the states that leave them). With ``kept``, each slice is kept as it finishes and one
    kept already is read back instead of checked; ``progress`` is told
    (states checked, states, seconds and states of the slices checked here)
    after each slice."""
    slice_ = max(1, -(-len(cells) // 100))
    slices = -(-len(cells) // slice_)
    stored = {} if kept is None or kept.fresh else kept.store.check_slice_rows(kept.check | dict(slices=slices))
    total, shortest, spent, timed = 0, None, 0.0, 0
    lefts: list[np.ndarray] = []
    for i, at in enumerate(range(0, len(cells), slice_)):
        part = cells[at : at + slice_]
        row = stored.get(i)
        if row is not None and row["states"] == len(part):
            assert kept is not None  # a stored slice comes from the kept check
            count, here_left = row["unavoidable"], np.frombuffer(row["still"], dtype="<u8").astype(np.uint64)
            kept.reused += 1
        else:
            t0 = time.perf_counter()
            if shortest is None:
                shortest = _fewest_walks(cells, check, min(tries, FIRST_TRIES))
            # Few paths first, all of them only where some lifting is left: the
            # paths tried with more tries include those tried with fewer, so the
            # count is the same, and a state that needs every detour tried
            # costs the time of hundreds that need one path.
            here = check(part, min(tries, FIRST_TRIES), shortest)[0]
            again = here != 0
            if tries > FIRST_TRIES and again.any():
                here[again] = check(part[again], tries, tries)[0]
            if (here < 0).any():
                raise WsdbError(
                    "a shortest path read from the census did not reach a solved state: the table "
                    "is damaged (out of memory?); no bound is stored"
                )
            count, here_left = int(here.sum()), part[here > 0]
            took = time.perf_counter() - t0
            spent, timed = spent + took, timed + len(part)
            if kept is not None:
                kept.store.add_check_slice(
                    kept.check
                    | dict(
                        slices=slices,
                        slice=i,
                        states=len(part),
                        unavoidable=count,
                        still=np.ascontiguousarray(here_left, dtype="<u8").tobytes(),
                        seconds=round(took, 3),
                        checked_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                        version=current_version(),
                    )
                )
        total += count
        lefts.append(here_left)
        if progress is not None:
            progress(min(at + slice_, len(cells)), len(cells), spent, timed)
    return total, np.concatenate(lefts) if lefts else np.zeros(0, dtype=np.uint64)


def _fewest_walks(cells: np.ndarray, check, tries: int) -> int:
    """How many of the ``tries`` shortest paths to walk before the detours
    in a check's first pass: the number that walks fewest paths in all on
    :data:`PILOT` of its states, spread over them. Where the budget leaves
    room, a detour serves liftings that the next shortest path, much like
    those before it, does not (6x6 three colours, paths a state: level 11
    within 12, 10.1 all shortest paths first against 8.1 with 3; level 12
    within 11, 14.7 against 21.6): the best number is found, not set."""
    if tries <= 1:
        return tries
    sample = cells[:: max(1, len(cells) // PILOT)][:PILOT]
    walked = {s: int(check(sample, tries, s)[1].sum()) for s in range(1, tries + 1)}
    return min(walked, key=lambda s: (walked[s], -s))


def _solved(
    store: Store, fine: Puzzle, liftings: np.ndarray, budget: int, picked: list[int], fresh: bool = False
) -> tuple[list[dict], int]:
    """Each of ``liftings`` solved, its moves replayed: a lifting that no
    path serves is served all the same by any sequence of at most
    ``budget`` moves that solves it. Any will do, so a narrow beam answers
    first and the full solve only where its sequence is longer
    (:func:`~wsdb.bounds.within.solve_within`). Its swap of the two merged
    colours ``picked`` is a lifting too, solved by the same moves where the
    goal does not tell those colours apart (Wrapslide's: each quadrant one
    colour, whichever): each sequence found is replayed on the swap, which
    is solved on its own only where they fail. Where the store is open for
    writing, each solution is kept as it is found (``check_solutions``),
    and one kept already is replayed and used instead of solving again,
    unless ``fresh``: (the solutions, how many were kept already)."""
    from ..puzzle.replay import replay
    from .within import solve_within

    texts = list(state_texts(fine, liftings))
    swapped = liftings.copy()
    swapped[liftings == picked[0]], swapped[liftings == picked[1]] = picked[1], picked[0]
    partner = dict(zip(texts, state_texts(fine, swapped)))
    kept = {} if fresh or not store.writable else store.check_solution_rows(texts)
    found: dict[str, dict] = {}

    def keep(text, moves, length, seconds):
        found[text] = row = dict(
            state=text,
            n=fine.n,
            c=fine.c,
            moves=moves,
            length=length,
            seconds=round(seconds, 3),
            solved_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            version=current_version(),
        )
        if store.writable:
            store.keep_check_solution(row)

    def borrowed(text):  # its partner's moves, where they solve it
        other = found.get(partner[text]) or kept.get(partner[text])
        return other if other is not None and replay(text, other["moves"].split()).solved else None

    def solve(states, st, done):
        t0 = time.perf_counter()
        for i, sol in enumerate(solve_within(states, budget, store) if states else ()):
            if not replay(states[i], sol.moves).solved:
                raise WsdbError(f"the moves found for {states[i]} do not solve it; no bound is stored")
            keep(states[i], " ".join(sol.moves), sol.length, time.perf_counter() - t0)
            t0 = time.perf_counter()
            st.status = f"{done + i + 1} solved, the rest by the same moves as their swaps where those solve them"

    todo = [t for t in texts if t not in kept]
    first, chosen = [], set()
    for t in todo:
        if partner[t] not in chosen and partner[t] not in kept:
            first.append(t)
            chosen.add(t)
    with step(
        "the liftings no path serves",
        f"{len(first)} solved one by one, their {len(todo) - len(first)} "
        "swaps by the same moves" + (f", {len(kept)} solved by an earlier run" if kept else ""),
    ) as st:
        solve(first, st, 0)
        rest = []
        for t in todo:
            if t not in found:
                other = borrowed(t)
                if other is None:
                    rest.append(t)
                else:
                    keep(t, other["moves"], other["length"], 0.0)
        solve(rest, st, len(first))
    out = []
    for text in texts:
        row = found.get(text)
        if row is None:
            row = kept[text]
            moves = row["moves"].split()
            if len(moves) != row["length"] or not replay(text, moves).solved:
                raise DamagedError(
                    f"{store.label}: the moves kept for {text} do not solve it in "
                    f"{row['length']}; `--fresh` solves it again"
                )
        out.append(dict(state=text, moves=row["moves"], length=row["length"], within=row["length"] <= budget))
    return out, len(kept)


def _packed_distances(
    merged_cells: np.ndarray, goals: np.ndarray, home: np.ndarray, first: np.ndarray, distances: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The phase-2 distances as a dense table per goal, for the check
    kernel's look-ups: the goals' merged cells (``merged_cells``, a mask a
    goal; ``goals``, the same as words), as ``cells_of[g, r]``, the r-th
    merged cell of goal g, and ``rank_of[g, cell]``, its r (-1 off them);
    and ``dense[g, x]``, the distance of the arrangement on goal g
    (``home``, a word of its merged cells) whose first merged colour
    (``first``, a mask a state) holds the cells r of the bits of x
    (:data:`NONE` for none)."""
    ncells = merged_cells.shape[1]
    cells_of = np.stack([np.flatnonzero(m) for m in merged_cells]).astype(np.int64)
    width = cells_of.shape[1]
    rank_of = np.full((len(merged_cells), ncells), -1, dtype=np.int64)
    dense = np.full((len(merged_cells), 1 << width), NONE, dtype=np.int16)
    bits = np.uint64(1) << np.arange(width, dtype=np.uint64)
    for g, cells in enumerate(cells_of):
        rank_of[g, cells] = np.arange(width)
        on = home == goals[g]
        packed = (first[on][:, cells] * bits).sum(axis=1, dtype=np.uint64)
        dense[g, packed.astype(np.int64)] = distances[on]
    return cells_of, rank_of, dense


def _bits(mask: np.ndarray) -> np.ndarray:
    """A boolean table as 64-bit words, bit i of word i // 64 for entry i."""
    out = np.packbits(mask, bitorder="little")
    return np.concatenate([out, np.zeros(-len(out) % 8, dtype=np.uint8)]).view(np.uint64)


def _exact_distances(store: Store, fine: Puzzle, reps: np.ndarray) -> tuple[np.ndarray, str]:
    """Each state's exact distance, from the complete tree where one is
    stored, else proven optimal one by one; refuses where a proof did not
    finish (a distance not proven is no upper bound's worst case)."""
    row = store.finished_build(TreeKey.wrapslide(fine.n, fine.c))
    if row is not None and row["complete"]:
        return np.array([a.distance for a in lookup_grid(store, fine, reps)]), "tree"
    from ..solver.solve import iter_solve

    texts = state_texts(fine, reps)
    out = np.empty(len(texts), dtype=np.int64)
    for i, sol in enumerate(iter_solve(list(texts), store=store, method="optimal", length_only=True)):
        if not sol.optimal:
            raise WsdbError(
                f"phase 2: {texts[i]} was not proven optimal within the effort (length "
                f"{sol.length}, at least {sol.lower_bound}); no upper bound is stored"
            )
        out[i] = sol.length
    return out, "optimal"
