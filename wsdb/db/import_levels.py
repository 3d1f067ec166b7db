"""``wsdb import``: a tree kept as Parquet levels (``wsdb build --engine
dask``, :mod:`.levels`) loaded into a database as class rows, so that SQL,
and every command, read it from the database like a tree built there.

Every file is checked against the manifest before anything is written (a
missing or replaced file is damage, and nothing is imported), then the
levels are read one depth at a time; each depth is sorted by key and stored as
:func:`~wsdb.db.build.build` stores a level, in one transaction with its
``levels`` row and the build row's totals (COPY on PostgreSQL). The build
row keeps the Parquet build's own time and date and names no levels any
more: the rows are the tree now. Where the target already holds the tree
as rows, ``force`` replaces them; a build row pointing at these very levels
(the database the dask build wrote) is replaced without asking.
"""
from __future__ import annotations

import time
from typing import Callable

from ..engine import puzzle_engine
from ..engine.bfs import Counts, Level, Progress, Tree
from ..errors import WsdbError
from ..puzzle.catalog import stored_puzzle
from .build import LevelWriter, _add_level, _finish, _new_row, _open, class_columns, level_row
from .levels import LevelFolder, ParquetTree
from .status import describe


def import_levels(url: str, db=None, force: bool = False, progress: Progress | None = None,
                  starting: Callable[[str], None] | None = None) -> tuple[Tree, dict]:
    """Load the Parquet tree at ``url`` into ``db`` as class rows; returns
    (tree, build row). ``starting(what)`` is called once the levels and the
    database are checked, before any row is written; ``progress(level,
    seconds)`` after each depth is committed."""
    folder = LevelFolder(url)
    wrong = _not_a_folder(folder)
    man = None if wrong else folder.manifest()
    if man is None:
        raise WsdbError(f"{url}: {wrong or 'no manifest.json in it'}: expected the levels folder of "
                        "`wsdb build --engine dask --levels DIR`")
    tree_src = ParquetTree(url)
    tree_src.folder.check_rows(man)   # a missing or replaced file is said before anything is written
    puzzle = stored_puzzle(man.puzzle, man.n, man.c, man.root)
    key = (man.n, man.c, man.root, man.puzzle)
    what, _ = describe(*key)
    store, row = _open(db, puzzle, man.root)
    # an unfinished tree (an interrupted import or build; _open refuses a running one) is started over
    if row is not None and row["status"] == "done" and row.get("levels") != tree_src.folder.url and not force:
        kept = f"the Parquet levels at {row['levels']}" if row.get("levels") else "class rows"
        raise WsdbError(f"{store.label} holds the {what} tree already, as {kept}: add --force to replace it")
    if starting:
        starting(what)
    eng = puzzle_engine(puzzle)
    seconds = round(sum(lv.seconds for lv in man.levels), 3)
    t0 = time.perf_counter()
    tree = Tree(man.n, man.c, man.root, man.max_depth, man.complete, 0.0, [], man.puzzle)
    new = None
    with LevelWriter(store, key, eng, progress, t0) as writer:
        for entry in man.levels:
            level = Level(entry.depth, *tree_src.level(entry.depth))   # each file's rows checked on the way
            if level.states != entry.states:
                raise WsdbError(f"{url}: depth {entry.depth} holds {level.states:,} states where the manifest "
                                f"says {entry.states:,}; nothing more is imported")
            if new is None:
                new = _new_row(puzzle, man.root, man.max_depth, level)
                store.begin_tree(new, level_row(key, level), class_columns(level, eng))
                if progress:
                    progress(level, time.perf_counter() - t0)
            else:
                writer.put(level, _add_level(new, level, time.perf_counter() - t0))
            tree.levels.append(Counts(entry.depth, entry.classes, entry.states))
    _finish(store, key, new, tree, 0.0, t0)   # tree.seconds: the import's time
    new["seconds"] = seconds   # the build's own time, not the import's
    store.update_build(key, {"seconds": seconds})
    return tree, new


def _not_a_folder(folder: LevelFolder) -> str | None:
    """Why ``folder`` cannot be a levels folder (missing, or a file), or None."""
    try:
        if not folder.fs.exists(folder.root):
            return "no such folder"
        if not folder.fs.isdir(folder.root):
            return "a file, not a folder"
    except OSError:   # an unreachable store: reading the manifest says why
        pass
    return None
