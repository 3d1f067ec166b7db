"""One tree's build row through its life (thesis §3.3, stored level by
level): claimed, begun with level 0 or resumed, a level put at a time,
finished. The one writer behind every way a tree is stored: the class
builder (:func:`wsdb.db.build.build`), the sliding puzzle's ranked build,
the Dask driver (:func:`wsdb.db.build.build_distributed`, counts only: its
classes are Parquet levels) and ``wsdb import``.

Each level goes in one transaction with its ``levels`` row and the build
row's totals, so a build stopped anywhere keeps every level it finished.
A writer holds the tree's lease (:mod:`.lease`) from :meth:`TreeWriter.claim`
to the end, renewed in every level's transaction. On failure (an error,
Ctrl-C) the row stays 'building' and the lease is given up; the level
being written is waited for, so it is in whole or not at all, and the
next build of the tree resumes from the deepest level stored. A killed
process cannot give its lease up: the next build takes it over once it is
stale (:mod:`.status` judges a lease)."""

from __future__ import annotations

import threading
import time
from datetime import datetime, timezone
from typing import Iterable, Iterator, Literal

from ..engine import Engine
from ..engine.engines import SlidingEngine
from ..engine.bfs import Counts, Level, Progress, Tree
from ..notices import say, step
from ..puzzle.tree_key import TreeKey
from .lease import Lease, LeaseLostError
from .status import LEASE_TIMEOUT, this_builder
from .store import Store
from ..version import current as current_version


class TreeWriter:
    """The build row of ``tree`` in ``store`` and the levels put under it.
    Used as a context manager: leaving it waits for the level still being
    written (also on Ctrl-C) and re-raises its error, if any."""

    def __init__(
        self,
        store: Store,
        tree: TreeKey,
        row: dict | None,
        symbols: str | None = None,
        progress: Progress | None = None,
    ):
        self.store, self.tree, self.stored, self.symbols, self.progress = store, tree, row, symbols, progress
        self.row: dict | None = None  # the row as this writer keeps it, once begun or resumed
        self.earlier = 0.0  # seconds of the build before this process took it up
        self.t0 = time.perf_counter()
        self.pending: threading.Thread | None = None
        self.error: BaseException | None = None
        self.lease: Lease | None = None  # held from claim() until finish() or leaving the writer

    # ---- claim --------------------------------------------------------------

    @classmethod
    def claim(
        cls,
        db,
        tree: TreeKey,
        symbols: str | None = None,
        progress: Progress | None = None,
        lease_timeout: float = LEASE_TIMEOUT,
    ) -> "TreeWriter":
        """The database (made if missing), the tree's lease (:mod:`.lease`:
        taken at once where none is held or the one held is stale, said so;
        a one-line error while another build holds it) and then its stored
        build row, if any (:attr:`stored`). Use the writer as a context
        manager: leaving it gives the lease up."""
        store = Store.open(db, create=True)
        lease = Lease.take(store, tree, lease_timeout)
        try:
            row = store.build_row(tree)
        except BaseException:
            lease.release()
            raise
        if lease.taken_from is not None:
            say(f"{store.label}: {lease.said()}")
        writer = cls(store, tree, row, symbols, progress)
        writer.lease = lease
        return writer

    def finished(self, max_depth: int | None, force: bool = False) -> bool:
        """Whether the stored build already is what is asked: done, and
        complete or at least ``max_depth`` deep (never with ``force``).
        Called inside the writer's ``with``, which then gives the lease up."""
        row = self.stored
        return (
            row is not None
            and not force
            and row["status"] == "done"
            and (row["complete"] or (max_depth is not None and row["height"] >= max_depth))
        )

    def start_clock(self) -> None:
        """The build's own time counts from here (after the caller's
        ``starting`` notice, before the kernels load)."""
        self.t0 = time.perf_counter()

    def seconds(self) -> float:
        """The build's seconds so far, earlier processes' included."""
        return self.earlier + time.perf_counter() - self.t0

    # ---- begin or resume ----------------------------------------------------

    def begin(self, level: Level | Counts, max_depth: int | None, columns: Iterable[tuple] = (), **extra) -> dict:
        """Start the tree afresh with level 0 (whatever was stored goes):
        its class rows (``columns``, as :func:`class_columns` gives them),
        its ``levels`` row and a new build row ('building', by this process),
        in one transaction; ``extra`` adds build columns (``levels``)."""
        self.row = dict(
            puzzle=self.tree.puzzle,
            n=self.tree.n,
            c=self.tree.c,
            root=self.tree.root,
            complete=False,
            max_depth=max_depth,
            height=0,
            god_number=None,
            classes=level.classes,
            states=level.states,
            seconds=0.0,
            version=current_version(),
            built_at=_now(),
            status="building",
            builder=this_builder(),
            symbols=self.symbols or None,
            **extra,
        )
        self.store.begin_tree(self.row, self.level_row(level), columns, self.lease)
        self._said(level)
        return self.row

    def resume(self, max_depth: int | None) -> dict:
        """Take up the stored tree again (interrupted, or finished partial
        and asked deeper): the row is 'building' by this process, and on
        PostgreSQL its tree table's key goes until :meth:`finish`."""
        row = self.row = dict(self.stored_row(), status="building", builder=this_builder(), max_depth=max_depth)
        self.earlier = row["seconds"]
        self.store.grow_tree(
            self.tree, dict(status="building", builder=row["builder"], max_depth=max_depth), self.lease
        )
        return row

    def carry_on(self) -> None:
        """Go on with the stored row as it stands, unmarked (the Dask
        driver's resume: its levels follow the manifest, and each one it
        records marks the row as building again)."""
        row = self.row = dict(self.stored_row())
        self.earlier = row["seconds"]

    # ---- levels -------------------------------------------------------------

    def put(self, level: Level, eng: Engine | SlidingEngine) -> None:
        """Store one level of classes in a thread of its own, so the next
        level is computed while this one is written (the kernels release
        the GIL; SQLite's inserts mostly do too); waits first for the level
        before, and re-raises its error."""
        totals = self._count(level)
        self.wait()
        if self.lease is not None and self.lease.lost is not None:  # found by the heartbeat
            raise LeaseLostError(self.lease.lost)
        self.pending = threading.Thread(target=self._write, args=(level, eng, totals), daemon=True)
        self.pending.start()

    def _write(self, level: Level, eng: Engine | SlidingEngine, totals: dict) -> None:
        try:
            # a deep level's rows take a while (8.7 M classes of 6x6 three colours: 25 s): said, counted
            with step(f"writing depth {level.depth}", f"{level.classes:,} classes into {self.store.label}") as st:
                self.store.add_level(
                    self.tree,
                    self.level_row(level),
                    st.counting(class_columns(level, eng), level.classes, "classes", lambda columns: len(columns[0])),
                    totals,
                    self.lease,
                )
            self._said(level)
        except BaseException as e:  # handed to the main thread by wait()
            self.error = e

    def record(self, level: Counts, max_depth: int | None) -> None:
        """Store one level's counts without class rows (they are Parquet
        levels), at once: begun with level 0, else counted in as building."""
        row = self._row()
        row.update(status="building", builder=this_builder(), max_depth=max_depth)
        totals = self._count(level)
        self.store.add_level(
            self.tree,
            self.level_row(level),
            [],
            dict(totals, status="building", builder=row["builder"], max_depth=max_depth),
            self.lease,
        )
        self._said(level)

    def _count(self, level: Level | Counts) -> dict:
        """Count ``level`` into the build row; the totals to store with it."""
        row = self._row()
        row.update(
            height=level.depth,
            classes=row["classes"] + level.classes,
            states=row["states"] + level.states,
            seconds=round(self.seconds(), 3),
            built_at=_now(),
        )
        return {k: row[k] for k in ("height", "classes", "states", "seconds", "built_at")}

    def _said(self, level) -> None:
        if self.progress:
            self.progress(level, time.perf_counter() - self.t0)

    def level_row(self, level: Level | Counts) -> dict:
        """The ``levels`` row of one level."""
        return dict(self.tree.row, depth=level.depth, classes=level.classes, states=level.states)

    def update(self, values: dict) -> None:
        """Change the build row (and this writer's copy of it)."""
        self._row().update(values)
        self.store.update_build(self.tree, values, self.lease)

    # ---- finish -------------------------------------------------------------

    def finish(self, tree: Tree) -> dict:
        """Mark the build done (complete or not), in one transaction with
        its tree table's key on PostgreSQL, and leave the file alone holding
        it; ``tree.seconds`` becomes this process's time."""
        self.wait()
        tree.seconds = time.perf_counter() - self.t0
        row = self._row()
        row.update(
            status="done",
            builder=None,
            complete=tree.complete,
            god_number=row["height"] if tree.complete else None,
            seconds=round(self.earlier + tree.seconds, 3),
            built_at=_now(),
        )
        self.store.finish_tree(
            self.tree,
            {k: row[k] for k in ("status", "builder", "complete", "god_number", "seconds", "built_at")},
            self.lease,
        )
        self._let_go(released=True)
        self.store.checkpoint()  # the database file alone now holds the build
        return row

    def _row(self) -> dict:
        """The row this writer keeps; an error before it has one."""
        if self.row is None:
            raise RuntimeError("the build row is not begun: begin(), resume() or carry_on() first")
        return self.row

    def stored_row(self) -> dict:
        """The stored row taken up again, its columns only (the lease the
        store read with it is this writer's now); an error where there is none."""
        if self.stored is None:
            raise RuntimeError("no stored build to take up: begin() a new one")
        return {k: v for k, v in self.stored.items() if k != "lease"}

    def wait(self) -> None:
        """Wait for the level being written; re-raise its error, if any."""
        if self.pending is not None:
            self.pending.join()
            self.pending = None
        if self.error is not None:
            error, self.error = self.error, None
            raise error

    def __enter__(self) -> "TreeWriter":
        return self

    def _let_go(self, released: bool = False) -> None:
        """Give the lease up (``released``: finish() dropped it already)."""
        lease, self.lease = self.lease, None
        if lease is None:
            return
        if released:
            lease.stop()
        else:
            lease.release()

    def __exit__(self, kind, value, tb) -> Literal[False]:
        try:
            self.wait()
        except BaseException:
            if kind is None:
                raise
        finally:
            self._let_go()
        return False


def class_columns(level: Level, eng: Engine | SlidingEngine, chunk: int = 1 << 16) -> Iterator[tuple]:
    """The class rows of one level as columns, a chunk at a time: (rep,
    parent, orbit_size) arrays of SQL values, parent None at depth 0, so a
    level of millions never exists as Python objects at once."""
    layout = eng.layout
    for i in range(0, level.classes, chunk):
        parents = None if level.depth == 0 else layout.to_sql_array(level.parents[i : i + chunk])
        yield layout.to_sql_array(level.reps[i : i + chunk]), parents, level.orbits[i : i + chunk]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
