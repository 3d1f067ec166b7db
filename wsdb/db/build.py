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
from typing import Callable

import numpy as np

from ..engine import Engine, puzzle_engine
from ..engine.bfs import MAX_CLASSES, Counts, Level, Progress, Tree, first_level, next_level
from ..engine.keys import KeyLayout, sortable
from ..errors import InputError, StorageError
from ..notices import step
from ..puzzle import Puzzle, check_grid, wrapslide
from ..puzzle.sliding import SlidingPuzzle
from ..puzzle.tree_key import TreeKey
from .store import Store
from .status import LEASE_TIMEOUT
from .tree_writer import TreeWriter, class_columns

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
    raise InputError(
        f"{n}x{n} {c}-colour cannot be built to the end: give --max-depth D "
        "(each level is roughly 10-25 times the one before)"
    )


def build(
    n: int,
    c: int,
    db=None,
    max_depth: int | None = None,
    root: str = "all",
    force: bool = False,
    progress: Progress | None = None,
    starting: Callable[[], None] | None = None,
    lease_timeout: float = LEASE_TIMEOUT,
) -> tuple[Tree | None, dict]:
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
    if progress is not None:  # the caller says each level (the CLI's lines)
        return build_board(wrapslide(n, c), db, max_depth, root, force, progress, starting, lease_timeout)
    # a library call: one step for the whole build, so that a build of many short levels
    # (6x6 two colours: 14 s, none of them 2 s) is announced too, with the depth it has reached
    with step(f"building {n}x{n} {c}-colour", "a level at a time") as st:

        def reached(level, seconds: float) -> None:
            st.status = f"depth {level.depth}: {level.classes:,} classes"

        return build_board(wrapslide(n, c), db, max_depth, root, force, reached, starting, lease_timeout)


def build_board(
    puzzle: Puzzle | SlidingPuzzle,
    db=None,
    max_depth: int | None = None,
    root: str = "all",
    force: bool = False,
    progress: Progress | None = None,
    starting: Callable[[], None] | None = None,
    lease_timeout: float = LEASE_TIMEOUT,
) -> tuple[Tree | None, dict]:
    """Build any puzzle's tree, as its definition says: through the ranked
    table when its moves depend on the state (:func:`build_sliding`, whole),
    from the chosen kind of root when it has kinds (Wrapslide: to its
    default depth unless ``max_depth``), else from its goal
    (:func:`build_puzzle`)."""
    if puzzle.ranked_only:
        if max_depth is not None:
            raise InputError(f"{puzzle.label} is built whole (its ranked table holds every state): give no --max-depth")
        assert isinstance(puzzle, SlidingPuzzle)  # the one kind of puzzle built through its ranked table
        return build_sliding(
            puzzle, db=db, force=force, progress=progress, starting=starting, lease_timeout=lease_timeout
        )
    assert isinstance(puzzle, Puzzle)
    if not puzzle.roots:
        if root != "all":
            raise InputError(f"--root is Wrapslide's: {puzzle.name} grows from its --goal")
        return build_puzzle(
            puzzle,
            db=db,
            max_depth=max_depth,
            force=force,
            progress=progress,
            starting=starting,
            lease_timeout=lease_timeout,
        )
    if max_depth is None:
        max_depth = default_depth(puzzle.n, puzzle.c)
    return _build(
        puzzle, TreeKey.of(puzzle, root), db, max_depth, force, progress, starting, lease_timeout=lease_timeout
    )


def build_puzzle(
    puzzle: Puzzle,
    db=None,
    max_depth: int | None = None,
    force: bool = False,
    progress: Progress | None = None,
    starting: Callable[[], None] | None = None,
    lease_timeout: float = LEASE_TIMEOUT,
) -> tuple[Tree | None, dict]:
    """Build another puzzle's tree (docs/puzzles.md) from its goal and
    store it as :func:`build` stores Wrapslide's: the same levels, resumable
    the same way, under (puzzle name, n, number of labels, goal text).
    To the end unless ``max_depth``. Without one, a level that actually
    grows past :data:`wsdb.engine.bfs.MAX_CLASSES` classes stops the build (its finished
    levels kept) with a line asking for one: a puzzle's moves may reach far
    fewer states than its labels' arrangements (Rubik's Slide 4x4 easy: 64
    of 20,922,789,888,000), so the worst case is not refused in advance."""
    if puzzle.roots:
        raise InputError("build_puzzle is for the other puzzles: build Wrapslide with build(n, c)")
    return _build(
        puzzle,
        TreeKey.of(puzzle),
        db,
        max_depth,
        force,
        progress,
        starting,
        max_classes=MAX_CLASSES if max_depth is None else None,
        lease_timeout=lease_timeout,
    )


def build_sliding(
    puzzle: SlidingPuzzle,
    db=None,
    force: bool = False,
    progress: Progress | None = None,
    starting: Callable[[], None] | None = None,
    lease_timeout: float = LEASE_TIMEOUT,
) -> tuple[Tree | None, dict]:
    """Store the sliding-tile puzzle's tree (docs/puzzles.md): its moves
    depend on the state, so the class builder does not apply; the ranked
    table (:func:`wsdb.engine.census.ranked_table`, one byte per arrangement)
    gives every state's distance, and each state's parent is a neighbour
    one closer. One row per state (no symmetry), the same columns as every
    tree, so lookup, solve, random and stats read it as any other."""
    from ..engine.census import ranked_table  # loads the ranking kernels: only this build needs them

    if puzzle.states > MAX_STATES:
        raise InputError(
            f"{puzzle.label} has {puzzle.states:,} states, more than the {MAX_STATES:,} stored "
            "as rows: count them with `wsdb census --puzzle sliding`"
        )
    key = TreeKey.of(puzzle)
    with TreeWriter.claim(db, key, puzzle.symbols, progress, lease_timeout) as writer:
        if writer.finished(None, force):  # a sliding tree is stored whole
            return None, writer.stored_row()
        if starting:
            starting()
        writer.start_clock()
        ranking, table, counts = ranked_table(puzzle)
        eng = puzzle_engine(puzzle)
        tree = Tree(key.n, key.c, key.root, None, True, 0.0, [], key.puzzle)
        for depth in range(len(counts)):
            cells = ranking.unrank(np.flatnonzero(table == depth))
            parents = np.zeros((len(cells), eng.layout.words), np.uint64)
            if depth:  # a neighbour one closer: the first move whose result the table puts at depth - 1
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
            order = np.argsort(reps[:, 0], kind="stable")  # keys of 12 cells fit one word
            level = Level(depth, reps[order], parents[order], np.ones(len(cells), np.int64))
            if depth == 0:
                writer.begin(level, None, class_columns(level, eng))
            else:
                writer.put(level, eng)
            tree.levels.append(Counts(depth, level.classes, level.states))
        return tree, writer.finish(tree)


def _build(
    puzzle: Puzzle,
    key: TreeKey,
    db,
    max_depth: int | None,
    force: bool,
    progress: Progress | None,
    starting: Callable[[], None] | None,
    max_classes: int | None = None,
    lease_timeout: float = LEASE_TIMEOUT,
) -> tuple[Tree | None, dict]:
    """The class builder behind :func:`build_board` and :func:`build_puzzle`."""
    if max_depth is not None and max_depth < 0:
        raise InputError(f"--max-depth {max_depth}: expected a depth of 0 or more")
    with TreeWriter.claim(db, key, puzzle.symbols, progress, lease_timeout) as writer:
        if writer.finished(max_depth, force):
            return None, writer.stored_row()
        if starting:
            starting()
        eng = puzzle_engine(puzzle)
        assert isinstance(eng, Engine)  # a puzzle grown by classes has the numba engine
        writer.start_clock()
        if writer.stored is None or force:
            level = first_level(eng, key.root)
            writer.begin(level, max_depth, class_columns(level, eng))
            tree = Tree(
                key.n, key.c, key.root, max_depth, False, 0.0, [Counts(0, level.classes, level.states)], key.puzzle
            )
            seen_prev = np.zeros(0, dtype=sortable(level.reps).dtype)
        else:  # resume an interrupted build, or take a finished partial one deeper
            depth = writer.stored_row()["height"]
            level = _stored_level(writer.store, eng, key, depth)
            seen_prev = (
                sortable(_stored_level(writer.store, eng, key, depth - 1).reps)
                if depth
                else np.zeros(0, dtype=sortable(level.reps).dtype)
            )
            tree = Tree(
                key.n,
                key.c,
                key.root,
                max_depth,
                False,
                0.0,
                [Counts(**r) for r in writer.store.level_rows(key)],
                key.puzzle,
            )
            writer.resume(max_depth)
        too_big = False
        while max_depth is None or level.depth < max_depth:
            if max_classes is not None and level.classes > max_classes:
                too_big = True  # stored as a partial tree to this depth, then said
                break
            nxt = next_level(eng, level, seen_prev)  # while the writer stores the level above
            if nxt is None:
                tree.complete = True
                break
            writer.put(nxt, eng)
            seen_prev, level = sortable(level.reps), nxt
            tree.levels.append(Counts(nxt.depth, nxt.classes, nxt.states))
        if too_big:
            writer.update({"max_depth": level.depth})
        row = writer.finish(tree)
    if too_big:
        raise InputError(
            f"{puzzle.label}: depth {level.depth} holds {level.classes:,} classes, more than the "
            f"{max_classes:,} a build grows without --max-depth; depths 0-{level.depth} are stored "
            "as a partial tree: give --max-depth D to take it deeper (or count its states with "
            "`wsdb census`)"
        )
    return tree, row


def _stored_level(store: Store, eng: Engine, key: TreeKey, depth: int) -> Level:
    reps, _, parents, orbits = store.load(key, eng.layout, depth=depth)
    return Level(depth, reps, parents, orbits)


def dask_engine():
    """:mod:`.distributed`, or one line saying that Dask is not installed."""
    try:
        from . import distributed
    except ImportError:
        raise InputError(
            "the dask engine needs Dask distributed, which is not installed: pip install 'wsdb[dask]'"
        ) from None
    return distributed


def build_distributed(
    puzzle: Puzzle,
    levels: str,
    db=None,
    max_depth: int | None = None,
    root: str = "all",
    force: bool = False,
    scheduler: str | None = None,
    workers: int | None = None,
    memory: str | None = None,
    partitions: int | None = None,
    progress: Progress | None = None,
    starting: Callable[[], None] | None = None,
    lease_timeout: float = LEASE_TIMEOUT,
) -> tuple[Tree | None, dict]:
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
        raise InputError(
            f"{puzzle.label} is built whole through its ranked table: the dask engine grows "
            "symmetry classes (leave --engine out)"
        )
    if max_depth is None and puzzle.roots:
        max_depth = default_depth(puzzle.n, puzzle.c)
    if max_depth is not None and max_depth < 0:
        raise InputError(f"--max-depth {max_depth}: expected a depth of 0 or more")
    key = TreeKey.of(puzzle, root if puzzle.roots else None)
    folder = LevelFolder(levels)
    # an unreachable scheduler is said before anything is written
    with dask_client(scheduler, workers, memory) as client:
        folder.check_writable()
        return _grow_distributed(
            puzzle, key, folder, client, db, max_depth, force, partitions, progress, starting, lease_timeout
        )


def _grow_distributed(
    puzzle, key: TreeKey, folder, client, db, max_depth, force, partitions, progress, starting, lease_timeout
):
    """The store's side of :func:`build_distributed`, with a connected client."""
    from .distributed import grow_levels

    with TreeWriter.claim(db, key, puzzle.symbols, progress, lease_timeout) as writer:
        row = writer.stored
        if writer.finished(max_depth, force):
            return None, row
        if row is not None and not force and row.get("levels") != folder.url:
            where = f"the Parquet levels at {row['levels']}" if row.get("levels") else "class rows"
            raise InputError(
                f"{writer.store.label} holds this tree as {where}: give the same --levels to resume it, "
                "or --force to start over"
            )
        if force and folder.manifest() is not None:
            folder.fs.rm(folder.path("manifest.json"))
        if starting:
            starting()
        words = KeyLayout.for_colours(puzzle.ncells, puzzle.c).words
        writer.start_clock()
        if row is not None and not force:
            writer.carry_on()
        stored = set() if row is None or force else {r["depth"] for r in writer.store.level_rows(key)}

        def record(entry, man=None):
            """Store one level the manifest records (once: a resumed run's
            earlier levels are in the database already)."""
            if entry.depth in stored:
                return
            stored.add(entry.depth)
            level = Counts(entry.depth, entry.classes, entry.states)
            if writer.row is None:
                writer.begin(level, max_depth, levels=folder.url)
            else:
                writer.record(level, max_depth)

        before = folder.manifest()
        for entry in before.levels if before is not None else []:  # what a killed run recorded last
            record(entry)
        man = grow_levels(client, folder.url, key, words, len(puzzle.moves), max_depth, partitions, on_level=record)
        tree = Tree(
            key.n,
            key.c,
            key.root,
            max_depth,
            man.complete,
            0.0,
            [Counts(e.depth, e.classes, e.states) for e in man.levels],
            key.puzzle,
        )
        writer.update({"max_depth": max_depth})
        return tree, writer.finish(tree)


def default_levels(db, puzzle: Puzzle, root: str) -> str:
    """Where ``--engine dask`` keeps a tree's levels when no --levels is
    given: a folder beside the database file, one subfolder per tree."""
    from .location import resolve

    where = resolve(db)
    if where.path is None:
        raise StorageError(f"{where.label} is not a file: give the levels a home with --levels URL")
    tree = (
        f"{puzzle.n}x{puzzle.n}-c{puzzle.c}-{root}"
        if puzzle.roots
        else f"{puzzle.name}-{puzzle.n}x{puzzle.n}-{hashlib.sha1(puzzle.goal.encode()).hexdigest()[:10]}"
    )
    return str(where.path.with_name(where.path.name + ".levels") / tree)
