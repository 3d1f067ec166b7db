"""Export a stored build's classes to CSV, JSON lines or Parquet, in bounded memory.

Rows stream from the database a chunk at a time (``Store.iter_classes``)
and are appended to the file, so 6x6 two colours (2.95 M classes) or a
partial 6x6 three-colour tree (9.7 M) never sit in memory at once. The file
is written beside its final name and renamed at the end: an interrupted or
failed export leaves no half-written file and does not touch an old one.

Columns: ``rep`` and ``parent`` (the keys; decimal text for keys wider than
63 bits, which neither CSV readers nor Parquet's int64 hold), ``grid``,
``depth``, ``orbit_size``. Parquet needs pyarrow (``pip install 'wsdb[parquet]'``);
its file names the tree and the wsdb that wrote it in its key-value
metadata, and ``parent`` (null for the roots) reads back in pandas as a
nullable integer (:mod:`wsdb.db.parquet_meta`). ``-`` for the path writes
to standard output (CSV unless a format is given).
"""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import os
import sys
from pathlib import Path

from ..engine.keys import KeyLayout
from ..db.parquet_meta import tree_metadata, with_metadata
from ..db.store import Store
from ..errors import InputError, MissingDatabaseError, StorageError
from ..notices import step
from ..puzzle import check_grid, wrapslide
from ..puzzle.text import state_texts
from ..puzzle.tree_key import TreeKey

FORMATS = ("csv", "jsonl", "parquet")
STDOUT = "-"
COLUMNS = ["rep", "grid", "depth", "parent", "orbit_size"]


def export(
    n: int,
    c: int,
    path: str | Path,
    fmt: str | None = None,
    db=None,
    root: str = "all",
    chunk: int = 100_000,
    puzzle=None,
) -> int:
    """Write the (n, c) classes to ``path`` (``"-"``: standard output);
    returns the number of rows. ``fmt`` defaults to the file's suffix
    (.csv, .jsonl or .parquet; csv for standard output). With ``puzzle``
    (another puzzle's definition, docs/puzzles.md) its tree instead, grids
    in its own notation (n and c then are not read)."""
    if puzzle is None:
        check_grid(n, c)
        puzzle = wrapslide(n, c)
    to_stdout = str(path) == STDOUT
    path = Path(path)
    fmt = fmt or ("csv" if to_stdout else path.suffix.lstrip(".").lower())
    if fmt not in FORMATS:
        raise InputError(
            f"export format {fmt!r}: expected csv, jsonl or parquet (or a file ending in .csv, .jsonl or .parquet)"
        )
    if fmt == "parquet" and importlib.util.find_spec("pyarrow") is None:
        raise InputError("Parquet export needs pyarrow: pip install 'wsdb[parquet]' (or use --format csv)")
    if to_stdout:
        if fmt == "parquet" and sys.stdout.isatty():
            raise InputError("Parquet is binary: give a file name, or send standard output into a pipe or a file")
        return _export_to(None, fmt, puzzle, db, root, chunk)
    if not path.parent.is_dir():
        raise MissingDatabaseError(f"cannot write {path}: the folder {path.parent} does not exist")
    if path.exists() and not path.is_file():  # the file is renamed into place: never over a device or pipe
        raise StorageError(
            f"cannot write {path}: it exists and is not a regular file (a folder, a device or a "
            "pipe); expected a file name"
        )
    tmp = path.with_name(f".{path.name}.part")
    try:
        count = _export_to(tmp, fmt, puzzle, db, root, chunk, path.name)
        tmp.replace(path)
    except OSError as e:
        raise StorageError(f"cannot write {path}: {e.strerror or e}") from None
    finally:
        if tmp.exists():
            tmp.unlink()
    return count


def _export_to(tmp: Path | None, fmt: str, puzzle, db, root: str, chunk: int, name: str = "standard output") -> int:
    """Stream the tree's rows into ``tmp`` (None: standard output)."""
    store = Store.of(db)
    tree = TreeKey.of(puzzle, root if puzzle.roots else None)
    total = store.require_build(tree)["classes"]
    layout = KeyLayout.for_colours(puzzle.ncells, puzzle.c)
    wide = not layout.sql_integer
    with step(f"exporting {puzzle.label} to {name}") as st:
        rows = st.counting(
            (_with_grids(part, layout, puzzle, wide) for part in store.iter_classes(tree, chunk)), total, "classes"
        )
        if fmt == "parquet":
            return _write_parquet(tmp, rows, wide, tree_metadata(tree, puzzle))
        return (_write_csv if fmt == "csv" else _write_jsonl)(tmp, rows)


def _with_grids(part: list[tuple], layout: KeyLayout, puzzle, wide: bool) -> list[tuple]:
    """Rows (rep, grid, depth, parent, orbit_size): grids formatted here from
    the keys (faster than the database's computed column for wide keys),
    wide keys (big-endian bytes in SQLite) as decimal text."""
    reps, depths, parents, orbits = zip(*part)
    grids = state_texts(puzzle, layout.decode(layout.from_sql(reps)))
    if wide:

        def num(v):
            return None if v is None else str(int.from_bytes(v, "big"))

        return list(zip([num(v) for v in reps], grids, depths, [num(v) for v in parents], orbits))
    return list(zip(reps, grids, depths, parents, orbits))


class _Opened:
    """A file to write, or standard output (left open, flushed)."""

    def __init__(self, path: Path | None, binary: bool = False):
        self.path, self.binary = path, binary

    def __enter__(self):
        if self.path is None:
            return sys.stdout.buffer if self.binary else sys.stdout
        self.f = open(self.path, "wb") if self.binary else open(self.path, "w", newline="")
        return self.f

    def __exit__(self, *exc):
        if self.path is None:
            (sys.stdout.buffer if self.binary else sys.stdout).flush()
            return
        with self.f:
            if exc[0] is None:  # on disk before the rename that shows it
                self.f.flush()
                os.fsync(self.f.fileno())


def _write_csv(path: Path | None, chunks) -> int:
    count = 0
    with _Opened(path) as f:
        out = csv.writer(f)
        out.writerow(COLUMNS)
        for part in chunks:
            out.writerows(part)
            count += len(part)
    return count


def _write_jsonl(path: Path | None, chunks) -> int:
    """One JSON object per line, keys as in CSV (wide keys as decimal text)."""
    count = 0
    with _Opened(path) as f:
        for part in chunks:
            buf = io.StringIO()
            for row in part:
                buf.write(json.dumps(dict(zip(COLUMNS, row)), separators=(",", ":")))
                buf.write("\n")
            f.write(buf.getvalue())
            count += len(part)
    return count


def _write_parquet(path: Path | None, chunks, wide: bool, facts: dict[str, str]) -> int:
    import pyarrow as pa
    import pyarrow.parquet as pq

    key = pa.string() if wide else pa.int64()
    schema = pa.schema(
        [("rep", key), ("grid", pa.string()), ("depth", pa.int16()), ("parent", key), ("orbit_size", pa.int64())]
    )
    schema = with_metadata(schema, facts, {} if wide else {"parent": "Int64"})
    count = 0
    with _Opened(path, binary=True) as f, pq.ParquetWriter(f, schema) as writer:
        for part in chunks:
            columns = list(zip(*part))
            writer.write_table(pa.table([pa.array(col, type=t.type) for col, t in zip(columns, schema)], schema=schema))
            count += len(part)
    return count
