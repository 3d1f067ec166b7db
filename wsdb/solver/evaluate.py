"""Solver runs as data (thesis Objective VI, chapter 5): solve a draw of
random states with one method and store one row per state, so runs can be
compared and shared (issue 13).

The states are exactly those of ``wsdb random --n N --c C --count K --seed
S``, so a run can be repeated, or a single state solved again by hand. Each
state's row is committed as soon as it is solved: an interrupted run keeps
what it finished (its status says 'interrupted'). The tables are
``solve_runs`` and ``solves`` (docs/sql.md).
"""

from __future__ import annotations

import json
import os
import platform
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable

from ..db.location import resolve
from ..db.status import this_builder
from ..db.store import Store
from ..errors import NotBuiltError, InputError
from ..puzzle import check_grid, format_states, random_states, wrapslide
from .results import Solution
from .learned import DEFAULT_GUIDE, read_learned
from .settings import (
    BEAM_WIDTH,
    DEFAULT_LEARNED_WIDTH,
    DEFAULT_WIDTH,
    LEARNED_AUTO,
    LEARNED_WIDTH,
    MEET_CHILDREN,
    NODE_COSTS,
)
from .solve import budget_nodes, check_request, iter_solve
from ..version import current as current_version


@dataclass
class Run:
    """What an evaluation did: its run id, how many states it stored, and
    whether it finished."""

    run_id: int
    stored: int
    count: int
    status: str


def machine() -> dict:
    """The machine a run is measured on: host, processor, usable cores and
    physical memory."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        memory = 0
    return {
        "host": platform.node(),
        "processor": platform.processor() or platform.machine(),
        "cores": cores,
        "memory_bytes": memory,
    }


def draw(n: int, c: int, count: int, seed: int) -> list[str]:
    """The states of ``wsdb random --n n --c c --count count --seed seed``."""
    return format_states(random_states(wrapslide(n, c), count, seed), n).tolist()


def evaluate(
    n: int,
    c: int,
    count: int,
    seed: int,
    method: str = "auto",
    time_limit: float | None = None,
    db=None,
    on_solved: Callable[[Solution], None] | None = None,
    effort: float | None = None,
    guide: str = DEFAULT_GUIDE,
) -> Run:
    """Solve ``count`` random states of the (n, c) grid drawn with ``seed``
    by ``method`` and store a run row and one row per state in ``db`` (the
    default database is made if missing; one named must exist). ``on_solved`` sees each solution (a progress bar). On
    KeyboardInterrupt the run is marked 'interrupted', its finished rows
    stay, and the interrupt goes on up. ``effort`` (millions of nodes a
    state), ``time_limit`` (a cap in seconds) and ``guide`` (learned) are as for :func:`.solve.solve`."""
    return Evaluation(n, c, count, seed, method, time_limit, db, effort, guide).run(on_solved)


class Evaluation:
    """A run checked and ready: arguments and database are checked, and the
    tables loaded, when it is made; :meth:`run` solves and stores."""

    def __init__(
        self,
        n: int,
        c: int,
        count: int,
        seed: int,
        method: str = "auto",
        time_limit: float | None = None,
        db=None,
        effort: float | None = None,
        guide: str = DEFAULT_GUIDE,
    ):
        check_grid(n, c)
        check_request(method, time_limit, effort)
        if count < 1:
            raise InputError(f"count {count}: expected at least one state")
        if seed < 0:
            raise InputError(f"seed {seed}: expected a non-negative integer")
        self.limit, self.effort = time_limit, budget_nodes(effort) / 1e6
        self.n, self.c, self.count, self.seed, self.method, self.guide = n, c, count, seed, method, guide
        # a database named by the user must exist (as for `wsdb solve`); the default one is made
        self.store = Store.open(db, create=not resolve(db).explicit, write=True)
        # tables load (and kernels compile) now, before the clock of the first state starts
        next(
            iter_solve([format_states(wrapslide(n, c).solved[:1], n)[0]], method=method, store=self.store, guide=guide)
        )

    def params(self) -> dict:
        """:func:`method_params`, and the learned guide where the answers
        depend on it (``learned``, and ``auto`` on ``LEARNED_AUTO`` grids
        with a guide kept): its file, recipe, rounds and weights' hash."""
        params = method_params(self.n, self.c, self.method, self.limit, self.effort)
        auto = self.method == "auto" and (self.n, self.c) in LEARNED_AUTO
        if self.method == "learned" or auto:
            try:
                learned = read_learned(self.store, wrapslide(self.n, self.c), self.guide)
            except NotBuiltError:  # auto without a guide: the phases
                return params
            about = learned.about
            params["guide"] = {
                "file": learned.path.name,
                **{k: about.get(k) for k in ("recipe", "rounds_done", "seconds", "weights_xxh3_128", "wsdb_version")},
            }
        return params

    def run(self, on_solved: Callable[[Solution], None] | None = None) -> Run:
        """Solve the draw, storing each answer as it comes."""
        n, c, method, store = self.n, self.c, self.method, self.store
        solutions = iter_solve(
            draw(n, c, self.count, self.seed),
            method=method,
            time_limit=self.limit,
            store=store,
            effort=self.effort,
            guide=self.guide,
        )
        run_id = store.start_run(
            {
                "n": n,
                "c": c,
                "method": method,
                "params": json.dumps(self.params()),
                "seed": self.seed,
                "count": self.count,
                "version": current_version(),
                **machine(),
                "started_at": _now(),
                "runner": this_builder(),
            }
        )
        stored, status = 0, "interrupted"
        try:
            for idx, sol in enumerate(solutions):
                store.add_solve(
                    {
                        "run_id": run_id,
                        "idx": idx,
                        "state": sol.state,
                        "length": sol.length,
                        "lower_bound": sol.lower_bound,
                        "optimal": sol.optimal,
                        "exact": sol.exact,
                        "seconds": sol.seconds,
                        "timed_out": sol.timed_out,
                        "solved_by": sol.method,
                        "moves": " ".join(sol.moves or []),  # an eval asks for the moves: always there
                    }
                )
                stored += 1
                if on_solved is not None:
                    on_solved(sol)
            status = "done"
        finally:
            store.end_run(run_id, status, _now())
        return Run(run_id, stored, self.count, status)


def method_params(n: int, c: int, method: str, time_limit: float | None, effort: float) -> dict:
    """The settings a run depends on, stored with it as JSON: the effort
    (millions of nodes a state) and what a node of each kind of work
    counts, the time-limit cap (None: none), and the solver's tuned
    constants for this grid."""
    params = {"effort": effort, "node_costs": NODE_COSTS, "time_limit": time_limit}
    if method in ("auto", "beam", "meet", "optimal", "phases"):
        params["beam_width"] = BEAM_WIDTH.get((n, c), DEFAULT_WIDTH)
    if method == "learned":
        params["learned_width"] = LEARNED_WIDTH.get((n, c), DEFAULT_LEARNED_WIDTH)
    if method in ("auto", "meet"):
        params["meet_children"] = MEET_CHILDREN.get((n, c), MEET_CHILDREN[0])
    return params


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
