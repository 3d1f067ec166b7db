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

from typing import Callable

from ..engine import puzzle_engine
from ..engine.bfs import Counts, Level, Progress, Tree
from ..errors import InputError, MissingDatabaseError
from ..puzzle.catalog import describe, stored_puzzle
from .levels import LevelFolder, ParquetTree
from .tree_writer import TreeWriter, class_columns


def import_levels(
    url: str,
    db=None,
    force: bool = False,
    progress: Progress | None = None,
    starting: Callable[[str], None] | None = None,
) -> tuple[Tree, dict]:
    """Load the Parquet tree at ``url`` into ``db`` as class rows; returns
    (tree, build row). ``starting(what)`` is called once the levels and the
    database are checked, before any row is written; ``progress(level,
    seconds)`` after each depth is committed."""
    folder = LevelFolder(url)
    wrong = _not_a_folder(folder)
    man = None if wrong else folder.manifest()
    if man is None:
        raise MissingDatabaseError(
            f"{url}: {wrong or 'no manifest in it'}: expected the levels folder of "
            "`wsdb build --engine dask --levels DIR`"
        )
    tree_src = ParquetTree(url)
    tree_src.folder.check_rows(man)  # a missing or replaced file is said before anything is written
    key = man.tree
    puzzle = stored_puzzle(key)
    what, _ = describe(key)
    with TreeWriter.claim(db, key, puzzle.symbols, progress) as writer:
        row = writer.stored
        # an unfinished tree (an interrupted import or build; claim refuses a running one) is started over
        if row is not None and row["status"] == "done" and row.get("levels") != tree_src.folder.url and not force:
            kept = f"the Parquet levels at {row['levels']}" if row.get("levels") else "class rows"
            raise InputError(
                f"{writer.store.label} holds the {what} tree already, as {kept}: add --force to replace it"
            )
        if starting:
            starting(what)
        eng = puzzle_engine(puzzle)
        seconds = round(sum(lv.seconds for lv in man.levels), 3)
        writer.start_clock()
        tree = Tree(key.n, key.c, key.root, man.max_depth, man.complete, 0.0, [], key.puzzle)
        for entry in man.levels:
            level = Level(entry.depth, *tree_src.level(entry.depth))  # each file's rows checked on the way
            if level.states != entry.states:
                raise InputError(
                    f"{url}: depth {entry.depth} holds {level.states:,} states where the manifest "
                    f"says {entry.states:,}; nothing more is imported"
                )
            if writer.row is None:
                writer.begin(level, man.max_depth, class_columns(level, eng))
            else:
                writer.put(level, eng)
            tree.levels.append(Counts(entry.depth, entry.classes, entry.states))
        row = writer.finish(tree)  # tree.seconds: the import's time
        writer.update({"seconds": seconds})  # the build's own time, not the import's (the same row, updated)
        return tree, row


def _not_a_folder(folder: LevelFolder) -> str | None:
    """Why ``folder`` cannot be a levels folder (missing, or a file), or None."""
    try:
        if not folder.fs.exists(folder.root):
            return "no such folder"
        if not folder.fs.isdir(folder.root):
            return "a file, not a folder"
    except OSError:  # an unreachable store: reading the manifest says why
        pass
    return None
