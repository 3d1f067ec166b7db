"""Arrays derived from a stored build, cached beside the database file.

The solver derives tables from stored trees (a gather table, a tree's sorted
keys); deriving takes seconds to minutes, reading a ``.npy`` file takes
milliseconds. A cache file is named after the build's time and class count,
so a rebuild invalidates it, and it is written atomically, so a killed run
leaves no half-written file. In-memory databases get no cache.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Callable

import numpy as np

from ..engine.compiling import read_only


def cache_file(db_path: Path | None, name: str, build: dict) -> Path | None:
    """Where the array ``name`` derived from ``build`` is cached, or None."""
    if db_path is None:
        return None
    stamp = "".join(ch for ch in str(build["built_at"]) if ch.isdigit())
    return db_path.with_name(f"{db_path.name}.cache") / f"{name}-{stamp}-{build['classes']}.npy"


def derived_files(db_path: Path | None, build: dict) -> list[Path]:
    """Every array cached from ``build`` (whatever derived it)."""
    probe = cache_file(db_path, "x", build)
    return [] if probe is None else sorted(probe.parent.glob("*" + probe.name[1:]))


def cached_array(
    db_path: Path | None, name: str, build: dict, make: Callable[[], np.ndarray], mmap: bool = False
) -> np.ndarray:
    """``make()``, saved at :func:`cache_file` the first time and read from
    there afterwards (memory-mapped and read-only with ``mmap``). With
    ``mmap`` a freshly made array is returned read-only too
    (:func:`~wsdb.engine.compiling.read_only`), so the process that derives
    a table and every later one that maps it share one compiled kernel."""
    path = cache_file(db_path, name, build)
    if path is not None and path.exists():
        return np.load(path, mmap_mode="r" if mmap else None)
    array = make()
    if path is not None:
        tmp = path.with_suffix(".tmp.npy")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            np.save(tmp, array)
            tmp.replace(path)
        except OSError:  # read-only media or a full disk: the cache is only a speed-up
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
    return read_only(array) if mmap else array
