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
smallest any share reached (:func:`.ida.search_bound`).

A task is a pure function of its arguments (the database, the state, the
bound, its share), so Dask runs a lost worker's tasks again elsewhere and
the proof does not change. Each worker opens the database once and reads
the solver's tables from its cache (the pair census memory-mapped, shared
between workers on one machine); the client reads them first, deriving
them where they are not cached yet, so the workers find them beside a
database they share with it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..puzzle import Puzzle
from .guide import Found, Guide
from .settings import SPREAD_SHARES, SPREAD_SPLIT

#: each worker's guide, made once per (database, grid)
_guides: dict[tuple[str, int, int], Guide] = {}


def share_task(db: str, n: int, c: int, cells: np.ndarray, bound: int, share: int, shares: int):
    """Search share ``share`` of ``shares`` of bound ``bound`` from ``cells``:
    ((path, meeting state, moves left) of an answer, or None; the next bound)."""
    from ..db.store import Store
    from ..puzzle import wrapslide
    from . import effort
    from .guide import guide_for
    from .ida import search_bound

    key = (db, n, c)
    if key not in _guides:
        _guides[key] = guide_for(wrapslide(n, c), Store.open(db), pairs=True)
    found, nxt, _ = search_bound(_guides[key], cells, bound, effort.NEVER, share, shares, SPREAD_SPLIT)
    return (None if found is None else (found.path, found.meet, found.rest)), nxt


@dataclass
class Spread:
    """Bounds searched on a Dask cluster: ``client`` (:func:`wsdb.db.distributed.connect`),
    ``db`` a database every worker can open (a file on a shared folder, or a
    server's URL)."""

    client: object
    db: str

    def shares(self) -> int:
        """How many tasks a bound is cut into: ``SPREAD_SHARES`` per worker
        thread, so that a share that happens to be slow does not hold up
        the bound while the others idle."""
        threads = sum(self.client.nthreads().values())
        return max(1, threads) * SPREAD_SHARES

    def search(self, puzzle: Puzzle, cells: np.ndarray, bound: int, progress=None) -> tuple[Found | None, int]:
        """Bound ``bound`` searched in full from ``cells`` over the workers:
        (an answer of at most ``bound`` moves or None, the next bound).
        ``progress(done, total)`` is called as shares finish."""
        from distributed import as_completed

        shares = self.shares()
        futures = self.client.map(share_task, [self.db] * shares, [puzzle.n] * shares, [puzzle.c] * shares,
                                  [cells] * shares, [bound] * shares, range(shares), [shares] * shares, pure=False)
        for done, _ in enumerate(as_completed(futures), 1):
            if progress is not None:
                progress(done, shares)
        results = self.client.gather(futures)   # in share order
        answers = [Found(list(a[0]), a[1], int(a[2])) for a, _ in results if a is not None]
        if answers:   # the shortest; of equals, the lowest share's: the same answer on any cluster
            return min(answers, key=lambda x: x.length), bound
        return None, min(nxt for _, nxt in results)
