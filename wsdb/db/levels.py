"""A tree stored as Parquet levels: one folder per depth, one file per
partition (:mod:`wsdb.engine.partition`), and a manifest that records a
level only once every one of its files is written.

    LEVELS/_manifest.json
    LEVELS/depth_07/part-00013.parquet     rep, parent, orbit_size, depth

Each file holds one partition's classes sorted by key; a key of W 64-bit
words is W unsigned columns ``rep_0`` .. (most significant first; one
column, ``rep``, when it fits a word), and likewise ``parent`` (null at
depth 0, where the roots have none). Each file's key-value metadata names
its tree and the wsdb that wrote it (:mod:`wsdb.db.parquet_meta`). LEVELS is
a folder or any fsspec URL (``file://``, ``memory://``, ``s3://`` ... where
its package is installed), so an object store needs no code here.

The layout is what readers expect of a Parquet dataset: the manifest's name
starts with ``_``, which pyarrow, pandas and Dask pass over, and the depth
folders are not hive partitions (``depth=07``), which would clash with the
``depth`` column; so ``pandas.read_parquet(LEVELS)``, Dask's, pyarrow's
dataset with ``partitioning="hive"`` and DuckDB's ``read_parquet`` each read
the whole tree in one call. Folders of the first layout (``manifest.json``,
``depth=07``, format 1) are still read, and resumed in their own layout.

The manifest is the truth: files of a depth it does not list are an
unfinished level, written again by the next run. A reader checks each file
it opens against the manifest's row count, so a lost or replaced file is
damage, never a wrong answer.
"""

from __future__ import annotations

import json
import posixpath
from dataclasses import asdict, dataclass, field
from functools import lru_cache

import numpy as np

from ..engine.keys import sortable
from ..engine.partition import owner
from ..errors import InputError, StorageError, DamagedError
from ..puzzle.tree_key import TreeKey

MANIFEST = {2: "_manifest.json", 1: "manifest.json"}  # by format, newest first
FORMAT = 2
DEPTH_FOLDER = {2: "depth_{:02d}", 1: "depth={:02d}"}


@dataclass
class LevelEntry:
    """One finished level in the manifest."""

    depth: int
    partitions: int
    classes: int
    states: int
    rows: list[int]  # classes per partition file, in partition order
    seconds: float = 0.0
    shuffle_bytes: int = 0  # bytes of pieces moved to the merging tasks


@dataclass
class Manifest:
    """What a levels folder holds: the tree's identity and its finished levels."""

    puzzle: str
    n: int
    c: int
    root: str
    words: int
    levels: list[LevelEntry] = field(default_factory=list)
    complete: bool = False
    max_depth: int | None = None
    format: int = FORMAT

    @property
    def height(self) -> int:
        return len(self.levels) - 1

    @property
    def tree(self) -> TreeKey:
        """The tree the folder holds."""
        return TreeKey(self.puzzle, self.n, self.c, self.root)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1)

    @classmethod
    def from_json(cls, text: str, label: str) -> "Manifest":
        try:
            raw = json.loads(text)
            if raw.get("format") not in MANIFEST:
                raise ValueError(f"format {raw.get('format')!r}, expected one of {', '.join(map(str, MANIFEST))}")
            raw["levels"] = [LevelEntry(**lv) for lv in raw["levels"]]
            man = cls(**raw)
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            raise DamagedError(f"{label}: the manifest cannot be read ({e})") from None
        for d, lv in enumerate(man.levels):
            if lv.depth != d or len(lv.rows) != lv.partitions or sum(lv.rows) != lv.classes:
                raise DamagedError(
                    f"{label}: the manifest's depth {d} disagrees with itself "
                    f"(depth {lv.depth}, {lv.partitions} partitions, {len(lv.rows)} row counts, "
                    f"{sum(lv.rows):,} rows for {lv.classes:,} classes)"
                )
        return man


def key_columns(name: str, words: int) -> list[str]:
    return [name] if words == 1 else [f"{name}_{w}" for w in range(words)]


class LevelFolder:
    """A levels folder or URL, through fsspec."""

    def __init__(self, url: str):
        import fsspec

        self.url = str(url)
        try:
            self.fs, self.root = fsspec.core.url_to_fs(self.url)
        except (ImportError, ValueError) as e:  # an unknown protocol, or its package missing
            raise InputError(f"levels URL {self.url!r} cannot be used: {e}") from None

    @property
    def label(self) -> str:
        return self.url

    def size(self) -> int | None:
        """Bytes of every file in the folder, or None where it cannot be
        listed (gone, or its store unreachable)."""
        try:
            return int(self.fs.du(self.root)) if self.fs.isdir(self.root) else None
        except (OSError, ValueError):
            return None

    def path(self, *parts: str) -> str:
        return posixpath.join(self.root, *parts)

    @staticmethod
    def part_name(man: Manifest, depth: int, j: int) -> str:
        return f"{DEPTH_FOLDER[man.format].format(depth)}/part-{j:05d}.parquet"

    # ---- the manifest ------------------------------------------------------

    def manifest(self) -> Manifest | None:
        """The manifest (of either layout), or None where the folder holds none yet."""
        for name in MANIFEST.values():
            try:
                text = self.fs.cat_file(self.path(name)).decode()
            except FileNotFoundError:
                continue
            except OSError as e:
                raise StorageError(f"{self.label}: the manifest cannot be read ({e})") from None
            return Manifest.from_json(text, self.label)
        return None

    def write_manifest(self, man: Manifest) -> None:
        """Replace the manifest in one step: a new file renamed over the old
        on a file system, one PUT on an object store."""
        tmp = self.path("_" + MANIFEST[man.format] + ".new")
        try:
            self.fs.pipe_file(tmp, man.to_json().encode())
            self.fs.mv(tmp, self.path(MANIFEST[man.format]))
        except OSError as e:
            raise StorageError(f"{self.label}: cannot write the manifest ({e.strerror or e})") from None

    def check_writable(self) -> None:
        """Make the folder and prove it takes a file, before any work."""
        probe = self.path(".wsdb-probe")
        try:
            self.fs.makedirs(self.root, exist_ok=True)
            self.fs.pipe_file(probe, b"")
            self.fs.rm_file(probe)
        except (OSError, ValueError) as e:
            raise StorageError(
                f"levels folder {self.label} is not writable: {getattr(e, 'strerror', None) or e}"
            ) from None

    # ---- partition files ---------------------------------------------------

    def write_part(
        self, man: Manifest, depth: int, j: int, reps: np.ndarray, parents: np.ndarray, orbits: np.ndarray
    ) -> int:
        """Write one partition's sorted classes, in ``man``'s layout and
        naming its tree; returns the bytes written."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        from ..puzzle.catalog import stored_puzzle
        from .parquet_meta import tree_metadata, with_metadata

        words = reps.shape[1]
        cols = {}
        for name, keys in (("rep", reps), ("parent", parents)):
            for w, col in enumerate(key_columns(name, words)):
                cols[col] = pa.array(
                    np.ascontiguousarray(keys[:, w]),
                    pa.uint64(),
                    mask=np.ones(len(keys), bool) if name == "parent" and depth == 0 else None,
                )
        cols["orbit_size"] = pa.array(orbits.astype(np.int64))
        cols["depth"] = pa.array(np.full(len(reps), depth, np.int16))
        table = pa.table(cols)
        facts = dict(tree_metadata(man.tree, stored_puzzle(man.tree)), **{"wsdb.depth": str(depth)})
        table = table.cast(with_metadata(table.schema, facts, dict.fromkeys(key_columns("parent", words), "UInt64")))
        path = self.path(self.part_name(man, depth, j))
        self.fs.makedirs(posixpath.dirname(path), exist_ok=True)
        with self.fs.open(path, "wb") as f:
            pq.write_table(table, f, compression="zstd")
        return self.fs.size(path)

    def read_part(self, man: Manifest, depth: int, j: int, parents: bool = True):
        """(reps, parents or None, orbits) of one finished partition, checked
        against the manifest."""
        import pyarrow.parquet as pq

        want = key_columns("rep", man.words) + (key_columns("parent", man.words) if parents else []) + ["orbit_size"]
        table = self._checked(
            man, depth, j, man.levels[depth].rows[j], lambda f: pq.read_table(f, columns=want, use_threads=False)
        )

        def keys(prefix):  # the roots' null parents (format 2) read as 0, as format 1 stored them
            return np.stack(
                [table.column(col).fill_null(0).to_numpy() for col in key_columns(prefix, man.words)], axis=1
            ).astype(np.uint64)

        return keys("rep"), keys("parent") if parents else None, table.column("orbit_size").to_numpy()

    def check_rows(self, man: Manifest) -> None:
        """Check every finished level's files against the manifest from
        their Parquet footers alone (no data read): each must be there with
        the rows the manifest lists. Damage otherwise, naming the file."""

        for entry in man.levels:
            self.check_level(man, entry)

    def check_level(self, man: Manifest, entry: LevelEntry) -> None:
        """:meth:`check_rows` of one finished level."""
        import pyarrow.parquet as pq

        for j, rows in enumerate(entry.rows):
            self._checked(man, entry.depth, j, rows, pq.read_metadata)

    def _checked(self, man: Manifest, depth: int, j: int, rows: int, read):
        """``read(file)`` of one partition file (a table or its footer),
        which must be there and hold the ``rows`` the manifest lists; damage
        otherwise, naming the file."""
        name = self.part_name(man, depth, j)
        try:
            with self.fs.open(self.path(name), "rb") as f:
                got = read(f)
        except FileNotFoundError:
            raise DamagedError(f"{self.label}: {name} is missing (the manifest lists {rows:,} rows in it)") from None
        except (OSError, ValueError) as e:  # pyarrow's ArrowInvalid is a ValueError
            raise DamagedError(f"{self.label}: {name} cannot be read ({e})") from None
        if got.num_rows != rows:
            raise DamagedError(f"{self.label}: {name} holds {got.num_rows:,} rows where the manifest says {rows:,}")
        return got

    def remove_depth(self, depth: int) -> None:
        """Remove a depth's files (an unfinished level, before it is written
        again), in either layout."""
        for folder in DEPTH_FOLDER.values():
            path = self.path(folder.format(depth))
            if self.fs.exists(path):
                self.fs.rm(path, recursive=True)


class ParquetTree:
    """A Parquet tree read as a lookup reads a store: ``fetch`` finds each
    key's depth and parent by reading, at each depth, the one partition
    file the key hashes to, and a binary search in its sorted keys.
    Partition files stay cached in memory while the reader lives."""

    def __init__(self, url: str, label: str | None = None):
        self.folder = LevelFolder(url)
        man = self.folder.manifest()
        if man is None:
            raise DamagedError(f"{url}: no manifest: the levels of this build are gone")
        self.man = man
        self.label = label or url
        self._read = lru_cache(maxsize=256)(self._load)

    def _load(self, depth: int, j: int):
        reps, parents, orbits = self.folder.read_part(self.man, depth, j)
        return sortable(reps), parents, orbits

    def fetch(self, tree: TreeKey, layout, keys: np.ndarray):
        """(found, depth, parents) of each (S, W) key, as ``Store.fetch``."""
        keys = np.ascontiguousarray(keys, dtype=np.uint64).reshape(len(keys), -1)
        found = np.zeros(len(keys), bool)
        depth = np.full(len(keys), -1, np.int64)
        parents = np.zeros_like(keys)
        view = sortable(keys)
        for lv in self.man.levels:
            todo = np.flatnonzero(~found)
            if not todo.size:
                break
            who = owner(keys[todo], lv.partitions)
            for j in np.unique(who).tolist():
                rows = todo[who == j]
                sorted_keys, par, _ = self._read(lv.depth, j)
                if not len(sorted_keys):
                    continue
                at = np.minimum(np.searchsorted(sorted_keys, view[rows]), len(sorted_keys) - 1)
                hit = sorted_keys[at] == view[rows]
                found[rows[hit]] = True
                depth[rows[hit]] = lv.depth
                parents[rows[hit]] = par[at[hit]]
        return found, depth, parents

    def load_all(self, tree: TreeKey):
        """Every class of the tree as ``Store.load`` gives them: (reps,
        depth, parents, orbits) sorted by key. Each file is checked on the
        way: its rows against the manifest, its keys sorted and distinct, each
        in the partition the file stands for, its depth column right."""
        import pyarrow.parquet as pq

        man = self._of(tree)
        reps, depth, parents, orbits = [], [], [], []
        for lv in man.levels:
            for j in range(lv.partitions):
                r, p, o = self.folder.read_part(man, lv.depth, j)
                name = self.folder.part_name(man, lv.depth, j)
                key = sortable(r)
                # != works on the structured view of two-word keys, where > does not
                if len(key) > 1 and not ((np.sort(key) == key).all() and (key[1:] != key[:-1]).all()):
                    raise DamagedError(f"{self.label}: {name} is not sorted by key")
                if len(r) and (owner(r, lv.partitions) != j).any():
                    raise DamagedError(f"{self.label}: {name} holds a key of another partition")
                with self.folder.fs.open(self.folder.path(name), "rb") as f:
                    stored_depth = pq.read_table(f, columns=["depth"], use_threads=False).column("depth").to_numpy()
                if (stored_depth != lv.depth).any():
                    raise DamagedError(f"{self.label}: {name} has a row whose depth is not {lv.depth}")
                reps.append(r)
                parents.append(p)
                orbits.append(o)
                depth.append(np.full(len(r), lv.depth, np.int64))
        words = man.words
        keys = np.concatenate(reps) if reps else np.zeros((0, words), np.uint64)
        order = np.argsort(sortable(keys), kind="stable")
        return (
            keys[order],
            np.concatenate(depth)[order],
            np.concatenate(parents)[order],
            np.concatenate(orbits)[order],
        )

    def _of(self, tree: TreeKey) -> Manifest:
        """The manifest, if it is of this tree; damage otherwise."""
        man = self.man
        if man.tree != tree:
            raise DamagedError(
                f"{self.label}: the manifest is of {man.puzzle} {man.n}x{man.n} c={man.c} root "
                f"{man.root!r}, not of this build"
            )
        return man

    def keys_and_depths(self, tree: TreeKey) -> tuple[np.ndarray, np.ndarray]:
        """As ``Store.keys_and_depths``: every class's key, sorted, and its
        depth (int8), reading only the key columns of each file (each
        checked against the manifest's row count): the solver's endgame
        of a deep tree (90 M classes of 6x6 three colours at depth 9) in
        about a third of the memory of :meth:`load_all`."""
        reps, depth = [], []
        for lv in self._of(tree).levels:
            for j in range(lv.partitions):
                r = self.folder.read_part(self.man, lv.depth, j, parents=False)[0]
                reps.append(r)
                depth.append(np.full(len(r), lv.depth, np.int8))
        if not reps:
            return np.zeros((0, self.man.words), np.uint64), np.zeros(0, np.int8)
        keys = np.concatenate(reps)
        del reps
        order = np.argsort(sortable(keys), kind="stable")
        return keys[order], np.concatenate(depth)[order]

    def load(self, tree: TreeKey, depth: int | None = None):
        """As ``Store.load``: every class, or one depth's, sorted by key."""
        if depth is None:
            return self.load_all(tree)
        reps, parents, orbits = self.level(depth)
        return reps, np.full(len(reps), depth, np.int64), parents, orbits

    def level(self, depth: int):
        """(reps, parents, orbits) of a whole level, partitions concatenated
        and sorted by key."""
        lv = self.man.levels[depth]
        parts = [self.folder.read_part(self.man, depth, j) for j in range(lv.partitions)]
        reps = np.concatenate([p[0] for p in parts])
        parents = np.concatenate([p[1] for p in parts])
        orbits = np.concatenate([p[2] for p in parts])
        order = np.argsort(sortable(reps), kind="stable")
        return reps[order], parents[order], orbits[order]

    def orbit_profile(self) -> list[dict]:
        """As ``Store.orbit_profile``: classes and states per orbit size."""
        sizes = np.concatenate(
            [self.folder.read_part(self.man, lv.depth, j)[2] for lv in self.man.levels for j in range(lv.partitions)]
        )
        values, counts = np.unique(sizes, return_counts=True)
        return [dict(orbit_size=int(v), classes=int(k), states=int(v) * int(k)) for v, k in zip(values, counts)]

    def classes_at_depth(self, depth: int, limit: int | None = None) -> list[dict]:
        """As ``Store.classes_at_depth``: (grid, orbit_size) in key order."""
        from ..engine.keys import KeyLayout
        from ..puzzle.catalog import stored_puzzle
        from ..puzzle.text import state_texts

        man = self.man
        if depth >= len(man.levels):
            return []
        reps, _, orbits = self.level(depth)
        reps, orbits = reps[:limit], orbits[:limit]
        puzzle = stored_puzzle(man.tree)
        cells = KeyLayout.for_colours(puzzle.ncells, puzzle.c).decode(reps)
        return [dict(grid=g, orbit_size=int(o)) for g, o in zip(state_texts(puzzle, cells), orbits.tolist())]

    def iter_classes(self, tree: TreeKey, chunk: int):
        """As ``Store.iter_classes``: (rep, depth, parent, orbit_size) in key
        order with keys as SQL values, a chunk at a time."""
        from ..engine.keys import KeyLayout
        from ..puzzle.catalog import stored_puzzle

        p = stored_puzzle(tree)
        layout = KeyLayout.for_colours(p.ncells, p.c)
        reps, depth, parents, orbits = self.load_all(tree)
        for i in range(0, len(reps), chunk):
            d = depth[i : i + chunk]
            par = layout.to_sql_array(parents[i : i + chunk]).astype(object)
            par[d == 0] = None
            yield list(
                zip(
                    layout.to_sql_array(reps[i : i + chunk]).tolist(),
                    d.tolist(),
                    par.tolist(),
                    orbits[i : i + chunk].tolist(),
                )
            )
