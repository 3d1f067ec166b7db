"""The stored breadth-first tree (thesis §3.3): the search of
:mod:`wsdb.engine.bfs`, level by level into the database.

:func:`build` commits every finished level as it goes (its class rows, its
level row and the build row's totals in one transaction), so a build killed
at any moment keeps every finished level, and the next ``build`` with the
same arguments resumes from the deepest one. Because a level is computed
from the sorted level above, a resumed build stores exactly the rows an
uninterrupted one would. The same mechanism takes a finished partial tree
deeper when a larger ``max_depth`` is asked for.
"""
from __future__ import annotations

import hashlib
import threading
import time
from datetime import datetime, timezone
from importlib.metadata import version
from typing import Callable, Iterator

import numpy as np

from ..engine import Engine, puzzle_engine
from ..engine.bfs import MAX_CLASSES, Counts, Level, Progress, Tree, first_level, next_level
from ..engine.keys import KeyLayout, sortable
from ..errors import WsdbError
from ..puzzle import Puzzle, check_grid, wrapslide
from ..puzzle.sliding import SlidingPuzzle
from .status import builder_alive, this_builder, unfinished
from .store import Store

#: Depth at which ``build`` stops by default, for grids that cannot be
#: finished: each fits in under 4 GB and about three minutes on 2 cores
#: (docs/solver.md, "The databases it uses"). Smaller grids are built to the end.
DEFAULT_DEPTH = {(6, 3): 8, (6, 4): 8, (8, 2): 7, (8, 3): 6, (8, 4): 7}
COMPLETE = {(2, 2), (2, 3), (2, 4), (4, 2), (4, 3), (4, 4), (6, 2)}
#: The sliding puzzle is stored up to this many states: its ranked table
#: holds every state at once, so its count decides in advance.
MAX_STATES = 100_000_000


def default_depth(n: int, c: int) -> int | None:
    """The depth ``wsdb build`` stops at when no --max-depth is given
    (None: to the end); an error for grids with no known safe depth."""
    if (n, c) in COMPLETE:
        return None
    if (n, c) in DEFAULT_DEPTH:
        return DEFAULT_DEPTH[(n, c)]
    raise WsdbError(f"{n}x{n} {c}-colour cannot be built to the end: give --max-depth D "
                    "(each level is roughly 10-25 times the one before)")


def build(n: int, c: int, db=None, max_depth: int | None = None, root: str = "all",
          force: bool = False, progress: Progress | None = None,
          starting: Callable[[], None] | None = None) -> tuple[Tree | None, dict]:
    """Build the (n, c) Wrapslide database and store it, level by level;
    returns (tree, build row).

    A finished build (complete, or at least as deep as asked) is kept unless
    ``force``; then the tree is None and the stored row is returned. An
    interrupted build is resumed from its deepest stored level, and a
    finished partial one taken deeper; ``force`` starts over.
    ``starting()`` is called once the arguments are checked and the database
    is open, before the kernels load; ``progress(level, seconds)`` after
    every level is committed."""
    check_grid(n, c)
    if max_depth is None:
        max_depth = default_depth(n, c)
    puzzle = wrapslide(n, c)
    if root not in puzzle.roots:
        raise WsdbError(f"unknown root {root!r}: expected one of {', '.join(puzzle.roots)}")
    return _build(puzzle, root, db, max_depth, force, progress, starting)


def build_board(puzzle: Puzzle | SlidingPuzzle, db=None, max_depth: int | None = None, root: str = "all",
                force: bool = False, progress: Progress | None = None,
                starting: Callable[[], None] | None = None) -> tuple[Tree | None, dict]:
    """Build any puzzle's tree, as its definition says: through the ranked
    table when its moves depend on the state (:func:`build_sliding`, whole),
    from the chosen kind of root when it has kinds (Wrapslide, :func:`build`),
    else from its goal (:func:`build_puzzle`)."""
    if puzzle.ranked_only:
        if max_depth is not None:
            raise WsdbError(f"{puzzle.label} is built whole (its ranked table holds every state): "
                            "give no --max-depth")
        return build_sliding(puzzle, db=db, force=force, progress=progress, starting=starting)
    if puzzle.roots:
        return build(puzzle.n, puzzle.c, db=db, max_depth=max_depth, root=root, force=force, progress=progress,
                     starting=starting)
    if root != "all":
        raise WsdbError(f"--root is Wrapslide's: {puzzle.name} grows from its --goal")
    return build_puzzle(puzzle, db=db, max_depth=max_depth, force=force, progress=progress, starting=starting)


def build_puzzle(puzzle: Puzzle, db=None, max_depth: int | None = None, force: bool = False,
                 progress: Progress | None = None,
                 starting: Callable[[], None] | None = None) -> tuple[Tree | None, dict]:
    """Build another puzzle's tree (docs/puzzles.md) from its goal and
    store it as :func:`build` stores Wrapslide's: the same levels, resumable
    the same way, under (puzzle name, n, number of labels, goal text).
    To the end unless ``max_depth``. Without one, a level that actually
    grows past :data:`wsdb.engine.bfs.MAX_CLASSES` classes stops the build (its finished
    levels kept) with a line asking for one: a puzzle's moves may reach far
    fewer states than its labels' arrangements (Rubik's Slide 4x4 easy: 64
    of 20,922,789,888,000), so the worst case is not refused in advance."""
    if puzzle.roots:
        raise WsdbError("build_puzzle is for the other puzzles: build Wrapslide with build(n, c)")
    return _build(puzzle, puzzle.goal, db, max_depth, force, progress, starting,
                  max_classes=MAX_CLASSES if max_depth is None else None)


def build_sliding(puzzle: SlidingPuzzle, db=None, force: bool = False, progress: Progress | None = None,
                  starting: Callable[[], None] | None = None) -> tuple[Tree | None, dict]:
    """Store the sliding-tile puzzle's tree (docs/puzzles.md): its moves
    depend on the state, so the class builder does not apply; the ranked
    table (:func:`wsdb.db.census.ranked_table`, one byte per arrangement)
    gives every state's distance, and each state's parent is a neighbour
    one closer. One row per state (no symmetry), the same columns as every
    tree, so lookup, solve, random and stats read it as any other."""
    from ..engine.census import ranked_table   # loads the ranking kernels: only this build needs them

    if puzzle.states > MAX_STATES:
        raise WsdbError(f"{puzzle.label} has {puzzle.states:,} states, more than the {MAX_STATES:,} stored "
                        "as rows: count them with `wsdb census --puzzle sliding`")
    root = puzzle.goal
    store, row = _open(db, puzzle, root)
    if row is not None and row["status"] == "done" and not force:
        return None, row
    if starting:
        starting()
    t0 = time.perf_counter()
    ranking, table, counts = ranked_table(puzzle)
    eng = puzzle_engine(puzzle)
    key = (puzzle.n, puzzle.c, root, puzzle.name)
    tree = Tree(puzzle.n, puzzle.c, root, None, True, 0.0, [], puzzle.name)
    with LevelWriter(store, key, eng, progress, t0) as writer:
        for depth in range(len(counts)):
            cells = ranking.unrank(np.flatnonzero(table == depth))
            parents = np.zeros((len(cells), eng.layout.words), np.uint64)
            if depth:   # a neighbour one closer: the first move whose result the table puts at depth - 1
                todo = np.ones(len(cells), bool)
                for k in range(eng.nmoves):
                    after, ok = puzzle.slide(cells, k)
                    closer = todo & ok
                    closer[closer] = table[ranking.rank(after[closer])] == depth - 1
                    parents[closer] = eng.encode(after[closer])
                    todo &= ~closer
                if todo.any():
                    raise RuntimeError(f"{puzzle.label}: a state at depth {depth} has no neighbour closer")
            reps = eng.encode(cells)
            order = np.argsort(reps[:, 0], kind="stable")   # keys of 12 cells fit one word
            level = Level(depth, reps[order], parents[order], np.ones(len(cells), np.int64))
            if depth == 0:
                row = _new_row(puzzle, root, None, level)
                store.begin_tree(row, level_row(key, level), class_columns(level, eng))
                if progress:
                    progress(level, time.perf_counter() - t0)
            else:
                writer.put(level, _add_level(row, level, time.perf_counter() - t0))
            tree.levels.append(Counts(depth, level.classes, level.states))
    _finish(store, key, row, tree, 0.0, t0)
    return tree, row


def _build(puzzle: Puzzle, root: str, db, max_depth: int | None, force: bool, progress: Progress | None,
           starting: Callable[[], None] | None, max_classes: int | None = None) -> tuple[Tree | None, dict]:
    """The builder behind :func:`build` and :func:`build_puzzle`."""
    if max_depth is not None and max_depth < 0:
        raise WsdbError(f"--max-depth {max_depth}: expected a depth of 0 or more")
    n, c, name = puzzle.n, puzzle.c, puzzle.name
    store, row = _open(db, puzzle, root)
    if row is not None and not force and row["status"] == "done" and (
            row["complete"] or (max_depth is not None and row["height"] >= max_depth)):
        return None, row
    if starting:
        starting()
    eng = puzzle_engine(puzzle)
    key = (n, c, root, name)
    t0 = time.perf_counter()
    if row is None or force:
        level = first_level(eng, root)
        row = _new_row(puzzle, root, max_depth, level)
        store.begin_tree(row, level_row(key, level), class_columns(level, eng))
        tree = Tree(n, c, root, max_depth, False, 0.0, [Counts(0, level.classes, level.states)], name)
        seen_prev = np.zeros(0, dtype=sortable(level.reps).dtype)
        if progress:
            progress(level, time.perf_counter() - t0)
    else:   # resume an interrupted build, or take a finished partial one deeper
        depth = row["height"]
        level = _stored_level(store, eng, key, depth)
        seen_prev = sortable(_stored_level(store, eng, key, depth - 1).reps) if depth else \
            np.zeros(0, dtype=sortable(level.reps).dtype)
        tree = Tree(n, c, root, max_depth, False, 0.0,
                    [Counts(**r) for r in store.level_rows(n, c, root, name)], name)
        row = dict(row, status="building", builder=this_builder(), max_depth=max_depth)
        store.grow_tree(key, dict(status="building", builder=row["builder"], max_depth=max_depth))
    earlier = row["seconds"]
    too_big = False
    with LevelWriter(store, key, eng, progress, t0) as writer:
        while max_depth is None or level.depth < max_depth:
            if max_classes is not None and level.classes > max_classes:
                too_big = True   # stored as a partial tree to this depth, then said
                break
            nxt = next_level(eng, level, seen_prev)   # while the writer stores the level above
            if nxt is None:
                tree.complete = True
                break
            writer.put(nxt, _add_level(row, nxt, earlier + time.perf_counter() - t0))
            seen_prev, level = sortable(level.reps), nxt
            tree.levels.append(Counts(nxt.depth, nxt.classes, nxt.states))
    if too_big:
        row["max_depth"] = level.depth
        store.update_build(key, {"max_depth": level.depth})
    _finish(store, key, row, tree, earlier, t0)
    if too_big:
        raise WsdbError(f"{puzzle.label}: depth {level.depth} holds {level.classes:,} classes, more than the "
                        f"{max_classes:,} a build grows without --max-depth; depths 0-{level.depth} are stored "
                        "as a partial tree: give --max-depth D to take it deeper (or count its states with "
                        "`wsdb census`)")
    return tree, row


def _open(db, puzzle: Puzzle | SlidingPuzzle, root: str) -> tuple[Store, dict | None]:
    """The database (made if missing) and the stored build row of the
    tree, if any; a one-line error while another process builds it."""
    store = Store.open(db, create=True)
    row = store.build_row(puzzle.n, puzzle.c, root, puzzle.name)
    if row is not None and row["status"] != "done" and builder_alive(row["builder"]) \
            and row["builder"] != this_builder():
        raise WsdbError(f"{store.label}: {unfinished(row)}")
    return store, row


def _new_row(puzzle: Puzzle | SlidingPuzzle, root: str, max_depth: int | None, level: Level) -> dict:
    """The build row of a tree started afresh with ``level`` (depth 0)."""
    return dict(puzzle=puzzle.name, n=puzzle.n, c=puzzle.c, root=root, complete=False, max_depth=max_depth,
                height=0, god_number=None, classes=level.classes, states=level.states, seconds=0.0,
                version=version("wsdb"), built_at=_now(), status="building", builder=this_builder(),
                symbols=puzzle.symbols or None)


def _add_level(row: dict, level: Level, seconds: float) -> dict:
    """Count ``level`` into the build row; the totals to store with it."""
    row.update(height=level.depth, classes=row["classes"] + level.classes, states=row["states"] + level.states,
               seconds=round(seconds, 3), built_at=_now())
    return {k: row[k] for k in ("height", "classes", "states", "seconds", "built_at")}


def _finish(store: Store, key: tuple, row: dict, tree: Tree, earlier: float, t0: float) -> None:
    """Mark the build done (complete or not), and leave the file alone
    holding it."""
    tree.seconds = time.perf_counter() - t0
    row.update(status="done", builder=None, complete=tree.complete,
               god_number=row["height"] if tree.complete else None,
               seconds=round(earlier + tree.seconds, 3), built_at=_now())
    store.finish_tree(key, {k: row[k] for k in ("status", "builder", "complete", "god_number", "seconds",
                                                  "built_at")})
    store.checkpoint()   # the database file alone now holds the build


class LevelWriter:
    """Stores levels in a thread of its own, one at a time, so the next
    level is computed while this one is written (the kernels release the
    GIL; SQLite's inserts mostly do too). ``put`` waits for the previous
    level to be committed and re-raises its error, if any; leaving the
    ``with`` block waits for the last one, also on Ctrl-C, so a level is
    stored whole or not at all."""

    def __init__(self, store: Store, key: tuple, eng: Engine, progress: Progress | None, t0: float):
        self.store, self.key, self.eng, self.progress, self.t0 = store, key, eng, progress, t0
        self.pending: threading.Thread | None = None
        self.error: BaseException | None = None

    def __enter__(self) -> "LevelWriter":
        return self

    def put(self, level: Level, totals: dict) -> None:
        self.wait()
        self.pending = threading.Thread(target=self._write, args=(level, totals), daemon=True)
        self.pending.start()

    def _write(self, level: Level, totals: dict) -> None:
        try:
            self.store.add_level(self.key, level_row(self.key, level), class_columns(level, self.eng), totals)
            if self.progress:
                self.progress(level, time.perf_counter() - self.t0)
        except BaseException as e:   # handed to the main thread by wait()
            self.error = e

    def wait(self) -> None:
        if self.pending is not None:
            self.pending.join()
            self.pending = None
        if self.error is not None:
            error, self.error = self.error, None
            raise error

    def __exit__(self, kind, value, tb) -> bool:
        try:
            self.wait()
        except BaseException:
            if kind is None:
                raise
        return False


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _stored_level(store: Store, eng: Engine, key: tuple, depth: int) -> Level:
    n, c, root, puzzle = key
    reps, _, parents, orbits = store.load(n, c, eng.layout, root, depth=depth, puzzle=puzzle)
    return Level(depth, reps, parents, orbits)


def level_row(key: tuple, level: Level) -> dict:
    """The ``levels`` row of one level; ``key`` is (n, c, root, puzzle)."""
    n, c, root, puzzle = key
    return dict(puzzle=puzzle, n=n, c=c, root=root, depth=level.depth, classes=level.classes,
                states=level.states)


def class_columns(level: Level, eng: Engine, chunk: int = 1 << 16) -> Iterator[tuple]:
    """The class rows of one level as columns, a chunk at a time: (rep,
    parent, orbit_size) arrays of SQL values, parent None at depth 0, so a
    level of millions never exists as Python objects at once."""
    layout = eng.layout
    for i in range(0, level.classes, chunk):
        parents = None if level.depth == 0 else layout.to_sql_array(level.parents[i:i + chunk])
        yield layout.to_sql_array(level.reps[i:i + chunk]), parents, level.orbits[i:i + chunk]


def dask_engine():
    """:mod:`.distributed`, or one line saying that Dask is not installed."""
    try:
        from . import distributed
    except ImportError:
        raise WsdbError("the dask engine needs Dask distributed, which is not installed: "
                        "pip install 'wsdb[dask]'") from None
    return distributed


def build_distributed(puzzle: Puzzle, levels: str, db=None, max_depth: int | None = None, root: str = "all",
                      force: bool = False, scheduler: str | None = None, workers: int | None = None,
                      memory: str | None = None, partitions: int | None = None,
                      progress: Progress | None = None,
                      starting: Callable[[], None] | None = None) -> tuple[Tree | None, dict]:
    """Build a tree on Dask distributed (:mod:`.distributed`), its classes
    as Parquet levels in ``levels`` (a folder or fsspec URL), its build row
    and ``levels`` rows in the database as for any build, with
    ``builds.levels`` naming the folder. Through the scheduler at
    ``scheduler``, else a LocalCluster of ``workers`` processes.

    Resumable as :func:`build` is: the levels folder's manifest records a
    level only once all its files are written, and a rerun continues from
    the last one it records (the database's rows follow the manifest)."""
    dask_client = dask_engine().dask_client
    from .levels import LevelFolder

    if puzzle.ranked_only:
        raise WsdbError(f"{puzzle.label} is built whole through its ranked table: the dask engine grows "
                        "symmetry classes (leave --engine out)")
    if max_depth is None and puzzle.roots:
        max_depth = default_depth(puzzle.n, puzzle.c)
    if max_depth is not None and max_depth < 0:
        raise WsdbError(f"--max-depth {max_depth}: expected a depth of 0 or more")
    root = root if puzzle.roots else puzzle.goal
    if puzzle.roots and root not in puzzle.roots:
        raise WsdbError(f"unknown root {root!r}: expected one of {', '.join(puzzle.roots)}")
    folder = LevelFolder(levels)
    # an unreachable scheduler is said before anything is written
    with dask_client(scheduler, workers, memory) as client:
        folder.check_writable()
        return _grow_distributed(puzzle, root, folder, client, db, max_depth, force, partitions, progress,
                                 starting)


def _grow_distributed(puzzle, root, folder, client, db, max_depth, force, partitions, progress, starting):
    """The store's side of :func:`build_distributed`, with a connected client."""
    from .distributed import TreeSpec, grow_levels

    store, row = _open(db, puzzle, root)
    key = (puzzle.n, puzzle.c, root, puzzle.name)
    if row is not None and not force and row["status"] == "done" and (
            row["complete"] or (max_depth is not None and row["height"] >= max_depth)):
        return None, row
    if row is not None and not force and row.get("levels") != folder.url:
        where = f"the Parquet levels at {row['levels']}" if row.get("levels") else "class rows"
        raise WsdbError(f"{store.label} holds this tree as {where}: give the same --levels to resume it, "
                        "or --force to start over")
    if force and folder.manifest() is not None:
        folder.fs.rm(folder.path("manifest.json"))
    if starting:
        starting()
    spec = TreeSpec(puzzle.name, puzzle.n, puzzle.c, None if puzzle.roots else puzzle.goal)
    words = KeyLayout.for_colours(puzzle.ncells, puzzle.c).words
    t0 = time.perf_counter()
    earlier = 0.0 if row is None or force else row["seconds"]
    stored = set() if row is None or force else {r["depth"] for r in store.level_rows(*key[:3], puzzle.name)}
    state = {"row": None if force else row}

    def record(entry, man=None):
        """Store one level the manifest records (once: a resumed run's
        earlier levels are in the database already)."""
        if entry.depth in stored:
            return
        stored.add(entry.depth)
        level = Counts(entry.depth, entry.classes, entry.states)
        lrow = dict(puzzle=puzzle.name, n=puzzle.n, c=puzzle.c, root=root, depth=entry.depth,
                    classes=entry.classes, states=entry.states)
        if state["row"] is None:
            state["row"] = dict(_new_row(puzzle, root, max_depth, level), levels=folder.url)
            store.begin_tree(state["row"], lrow, [])
        else:
            state["row"].update(status="building", builder=this_builder(), max_depth=max_depth)
            totals = _add_level(state["row"], level, earlier + time.perf_counter() - t0)
            store.add_level(key, lrow, [], dict(totals, status="building", builder=this_builder(),
                                               max_depth=max_depth))
        if progress:
            progress(level, time.perf_counter() - t0)

    before = folder.manifest()
    for entry in before.levels if before is not None else []:   # what a killed run recorded last
        record(entry)
    man = grow_levels(client, folder.url, spec, root, words, len(puzzle.moves), max_depth, partitions,
                      on_level=record)
    tree = Tree(puzzle.n, puzzle.c, root, max_depth, man.complete, 0.0,
                [Counts(e.depth, e.classes, e.states) for e in man.levels], puzzle.name)
    row = state["row"]
    row["max_depth"] = max_depth
    store.update_build(key, {"max_depth": max_depth})
    _finish(store, key, row, tree, earlier, t0)
    return tree, row


def default_levels(db, puzzle: Puzzle, root: str) -> str:
    """Where ``--engine dask`` keeps a tree's levels when no --levels is
    given: a folder beside the database file, one subfolder per tree."""
    from .location import resolve

    where = resolve(db)
    if where.path is None:
        raise WsdbError(f"{where.label} is not a file: give the levels a home with --levels URL")
    tree = f"{puzzle.n}x{puzzle.n}-c{puzzle.c}-{root}" if puzzle.roots else \
        f"{puzzle.name}-{puzzle.n}x{puzzle.n}-{hashlib.sha1(puzzle.goal.encode()).hexdigest()[:10]}"
    return str(where.path.with_name(where.path.name + ".levels") / tree)
