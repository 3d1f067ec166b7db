"""One IDA* iteration spread over Dask workers: `wsdb bounds prove STATE
--at-least K --engine dask` (a way past one machine for a proof).

A proof that a state is at least K moves from solved searches every bound
below K in full, each about eleven times the one before (docs/solver.md),
so the last bounds are hours or days on one machine. An iteration's
streams already divide the nodes at one depth among them without talking
(:func:`.kernels.horizon_dfs`); here the same division goes one step
further: the nodes at depth ``SPREAD_SPLIT`` are dealt out to ``shares``
tasks, and share i searches those numbered i modulo ``shares`` (each with
its own streams). Above that depth every share searches the same nodes, so
the shares together search exactly the iteration, as one process would.
The bound has an answer if any share has one, and the next bound is the
smallest any share reached (:func:`.shares.combine`); each share is kept
as it finishes (:mod:`.shares`), so a proof whose client is lost resumes.

Whether a task finds an answer, and which, is a pure function of its
arguments (the database, the state, the bound, its share), so Dask runs a
lost worker's tasks again elsewhere and the proof does not change. A
worker thread carries its visit tables from one share of a bound to the
next, as one process does; a share's own next bound may then be larger
(what an earlier share searched is skipped), but the bound's, the least of
all its shares', is not. Each worker opens the database once and reads
the solver's tables from its cache (the pair census memory-mapped, shared
between workers on one machine); the client reads them first, deriving
them where they are not cached yet, so the workers find them beside a
database they share with it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ..puzzle import Puzzle
from ..solver.guide import Found, Guide
from .shares import ShareResult
from ..solver.settings import IDA_STREAMS, SPREAD_SHARES, SPREAD_SPLIT, VISIT_SLOTS
from ..solver.visit_kernels import visit_tables

#: each worker's guide, made once per (database, grid)
_guides: dict[tuple[str, int, int], Guide] = {}
#: each worker thread's visit tables, carried between the shares of one bound (:func:`_visits_for`)
_thread = threading.local()


def share_task(db: str, n: int, c: int, cells: np.ndarray, bound: int, share: int, shares: int):
    """Search share ``share`` of ``shares`` of bound ``bound`` from ``cells``:
    ((path, meeting state, moves left) of an answer, or None; the next
    bound; the work and seconds it took)."""
    import time

    from ..db.store import Store
    from ..puzzle import wrapslide
    from ..solver import effort
    from ..solver.guide import guide_for
    from ..solver.ida import search_bound

    key = (db, n, c)
    if key not in _guides:
        _guides[key] = guide_for(wrapslide(n, c), Store.open(db), pairs=True)
    t0 = time.perf_counter()
    this_bound = (key, cells.tobytes(), bound, shares)
    visits = _visits_for(this_bound)
    _thread.visits = None  # until this share is searched in full without an answer
    with effort.metered() as meter:
        found, nxt, _ = search_bound(_guides[key], cells, bound, effort.NEVER, share, shares, SPREAD_SPLIT, visits)
    if found is None:
        _thread.visits = (this_bound, visits)
    answer = None if found is None else (found.path, found.meet, found.rest)
    return answer, nxt, meter.spent, time.perf_counter() - t0


def _visits_for(bound_key: tuple):
    """The visit tables this worker thread carries from share to share of
    one bound, as one process does (:mod:`.shares`): a state a share
    searched in full without an answer needs no search in the next. Kept
    only after such a share (a share with an answer stops part-way, and a
    failed one may have), per thread (a worker's threads search at once),
    and new ones for another bound."""
    kept = getattr(_thread, "visits", None)
    if kept is not None and kept[0] == bound_key:
        return kept[1]
    return visit_tables(IDA_STREAMS, VISIT_SLOTS)


@dataclass
class Spread:
    """Bounds searched on a Dask cluster: ``client`` (:func:`wsdb.db.distributed.connect`),
    ``db`` a database every worker can open (a file on a shared folder, or a
    server's URL)."""

    client: Any  # a dask.distributed Client
    db: str

    def shares(self) -> int:
        """How many tasks a bound is cut into at least: ``SPREAD_SHARES``
        per worker thread, so that a share that happens to be slow does not
        hold up the bound while the others idle."""
        threads = sum(self.client.nthreads().values())
        return max(1, threads) * SPREAD_SHARES

    def search(
        self,
        puzzle: Puzzle,
        cells: np.ndarray,
        bound: int,
        shares: int,
        todo: list[int],
        done: Callable[[ShareResult], None],
    ) -> None:
        """Search the shares ``todo`` of bound ``bound`` (cut into
        ``shares``) from ``cells`` over the workers, calling ``done`` with
        each one as it finishes (:func:`.shares.combine` makes the bound of
        them)."""
        from distributed import as_completed

        k = len(todo)
        futures = self.client.map(
            share_task,
            [self.db] * k,
            [puzzle.n] * k,
            [puzzle.c] * k,
            [cells] * k,
            [bound] * k,
            todo,
            [shares] * k,
            pure=False,
        )
        share_of = {f.key: i for f, i in zip(futures, todo)}
        for future in as_completed(futures):
            answer, nxt, nodes, seconds = future.result()
            found = None if answer is None else Found(list(answer[0]), answer[1], int(answer[2]))
            done(ShareResult(share_of[future.key], found, int(nxt), float(nodes), float(seconds)))
