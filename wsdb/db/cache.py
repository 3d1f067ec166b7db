"""Arrays derived from a stored build, cached beside the database file.

The solver derives tables from stored trees (a gather table, a tree's sorted
keys); deriving takes seconds to minutes, reading a ``.npy`` file takes
milliseconds. A cache file is named after the build's time and class count,
so a rebuild invalidates it.

Processes share the folder (two first solves, workers on a shared file
system), so each writes its table to a temporary name of its own and
renames it into place: a reader sees a whole file or none, and two
processes deriving one table at once both succeed, leaving the same bytes.
Beside each file a sidecar (``NAME.npy.sum``) holds its size and its
XXH3-128 hash (0.1 s per GiB here); a file that does not match it (cut
short, overwritten, another grid's table copied over it, or written by an
older wsdb without one) is said, derived again and replaced, never used.
In-memory databases get no cache.
"""

from __future__ import annotations

import contextlib
import json
import mmap
import os
import secrets
from pathlib import Path
from typing import Callable

import numpy as np
import xxhash

from ..engine.compiling import read_only
from ..notices import say

#: The sidecar's suffix, after the cache file's name
SUM = ".sum"


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


def file_sum(path: Path) -> dict:
    """The size and XXH3-128 hash of a file, as its sidecar records them."""
    size = path.stat().st_size
    digest = xxhash.xxh3_128()
    if size:
        with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as view:
            digest.update(view)
    return {"size": size, "xxh3_128": digest.hexdigest()}


def why_unusable(path: Path) -> str | None:
    """Why the cache file at ``path`` may not be used (None: it matches its sidecar)."""
    try:
        recorded = json.loads(path.with_name(path.name + SUM).read_text())
    except FileNotFoundError:
        return "it has no checksum beside it (an older wsdb wrote it, or its writer stopped)"
    except (OSError, ValueError) as e:
        return f"its checksum cannot be read ({e})"
    try:
        size = path.stat().st_size
        if size != recorded.get("size"):  # said before any byte is hashed
            return f"it holds {size:,} bytes where its checksum says {recorded.get('size')}"
        if file_sum(path)["xxh3_128"] != recorded.get("xxh3_128"):
            return "its bytes do not match its checksum"
    except (OSError, ValueError) as e:
        return f"it cannot be read ({e})"
    return None


def _unique(path: Path, suffix: str) -> Path:
    """A temporary name beside ``path`` that no other process uses."""
    return path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}{suffix}")


def save(path: Path, array: np.ndarray) -> None:
    """Write ``array`` to ``path`` and its sidecar, each through a temporary
    name of this process's own and a rename (the sidecar first: a reader
    that finds the sidecar alone derives the table itself). OSError where
    the folder cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp, tmp_sum = _unique(path, ".tmp"), _unique(path, ".sum.tmp")
    try:
        with open(tmp, "wb") as f:
            np.save(f, array)
        tmp_sum.write_text(json.dumps(file_sum(tmp)))
        tmp_sum.replace(path.with_name(path.name + SUM))
        tmp.replace(path)
    finally:
        for t in (tmp, tmp_sum):
            with contextlib.suppress(OSError):
                t.unlink(missing_ok=True)


def cached_array(
    db_path: Path | None, name: str, build: dict, make: Callable[[], np.ndarray], mmap: bool = False
) -> np.ndarray:
    """``make()``, saved at :func:`cache_file` the first time and read from
    there afterwards (memory-mapped and read-only with ``mmap``), once its
    bytes match their sidecar; a file that does not is said and made again.
    With ``mmap`` a freshly made array is returned read-only too
    (:func:`~wsdb.engine.compiling.read_only`), so the process that derives
    a table and every later one that maps it share one compiled kernel."""
    path = cache_file(db_path, name, build)
    if path is not None and path.exists():
        why = why_unusable(path)
        if why is None:
            try:
                return np.load(path, mmap_mode="r" if mmap else None)
            except (OSError, ValueError, EOFError) as e:  # replaced under us, or unreadable after all
                why = f"it cannot be read ({e})"
        say(f"the cached table {path} is not used: {why}; it is derived again and replaced")
    array = make()
    if path is not None:
        with contextlib.suppress(OSError):  # read-only media or a full disk: the cache is only a speed-up
            save(path, array)
    return read_only(array) if mmap else array
