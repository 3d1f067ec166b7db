"""The database: SQLAlchemy tables and every query wsdb makes.

Nothing else in wsdb talks SQL. The schema is owned by the Alembic
migrations in ``migrations/`` (installed as ``wsdb.migrations``) and applied
automatically the first time a database is used; the tables below mirror it
for queries. The tables are a public interface (README, "SQL interface"):

* ``builds``  one row per finished build (n, c, root, complete, ...)
* ``levels``  classes and states per depth
* ``classes`` one row per class: rep, grid, depth, parent, orbit_size

``rep`` and ``parent`` hold the key of :mod:`wsdb.encoding`: an INTEGER
where it fits 63 bits, else its big-endian bytes.
"""
from __future__ import annotations

import os
import sqlite3
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path

import numpy as np
import sqlalchemy as sa
from sqlalchemy import event, exc

from . import __version__
from .errors import WsdbError
from .puzzle import format_states

DEFAULT_DB = "db/wsdb.sqlite"
HEAD = "0001"  # latest migration; tests check it matches migrations/versions

metadata = sa.MetaData()
_tree = lambda: [sa.Column("n", sa.Integer), sa.Column("c", sa.Integer), sa.Column("root", sa.Text)]  # noqa: E731
builds = sa.Table(
    "builds", metadata, *_tree(),
    sa.Column("complete", sa.Boolean), sa.Column("max_depth", sa.Integer),
    sa.Column("height", sa.Integer), sa.Column("god_number", sa.Integer),
    sa.Column("classes", sa.Integer), sa.Column("states", sa.Integer),
    sa.Column("seconds", sa.Float), sa.Column("version", sa.Text), sa.Column("built_at", sa.Text),
)
levels = sa.Table(
    "levels", metadata, *_tree(),
    sa.Column("depth", sa.Integer), sa.Column("classes", sa.Integer), sa.Column("states", sa.Integer),
)
classes = sa.Table(
    "classes", metadata, *_tree(),
    sa.Column("rep", sa.Integer), sa.Column("grid", sa.Text), sa.Column("depth", sa.Integer),
    sa.Column("parent", sa.Integer), sa.Column("orbit_size", sa.Integer),
)

_CHUNK = 5000  # keys per IN (...) query; far below SQLite's parameter limit


def resolve(db: str | os.PathLike | None) -> tuple[str, Path | None]:
    """The SQLAlchemy URL and file path of --db / WSDB_DB / the default."""
    db = str(db or os.environ.get("WSDB_DB") or DEFAULT_DB)
    if "://" not in db:
        path = Path(db).expanduser().resolve()
        return f"sqlite:///{path}", path
    url = sa.engine.make_url(db)
    if url.get_backend_name() != "sqlite":
        raise WsdbError(f"database URL {db!r}: expected a file path or a sqlite:/// URL")
    return db, (Path(url.database).resolve() if url.database else None)


class Store:
    """An open wsdb database."""

    def __init__(self, engine: sa.Engine, label: str, path: Path | None = None):
        self.engine = engine
        self.label = label
        self.path = path

    @classmethod
    def open(cls, db=None, create: bool = False) -> "Store":
        """Open (or, with ``create``, make) a wsdb database and bring its
        schema up to date. Refuses missing files and foreign databases
        without writing anything."""
        url, path = resolve(db)
        label = str(path) if path else url
        if path is not None and not path.exists():
            if not create:
                raise WsdbError(f"no database at {label}: build one with `wsdb build --n N --c C`, "
                                "or point --db / WSDB_DB at an existing one")
            path.parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url)
        event.listen(engine, "connect", _pragmas)
        store = cls(engine, label, path)
        store._check_schema(create)
        return store

    def _check_schema(self, create: bool) -> None:
        try:
            with self.engine.connect() as conn:
                names = set(sa.inspect(conn).get_table_names())
                rev = conn.execute(sa.text("select version_num from alembic_version")).scalar() \
                    if "alembic_version" in names else None
        except exc.OperationalError as e:
            if "locked" in str(e.orig):
                raise WsdbError(f"{self.label} is locked by another process (a build writing it?): "
                                "try again when it has finished") from None
            raise WsdbError(f"{self.label} cannot be read ({e.orig}): expected a wsdb database") from None
        except exc.DatabaseError as e:
            raise WsdbError(f"{self.label} is not a SQLite database ({e.orig}): expected a wsdb database") from None
        if rev == HEAD:
            return
        if rev is None and names:
            raise WsdbError(f"{self.label} is not a wsdb database (it has tables {', '.join(sorted(names))} "
                            "but no wsdb schema): expected a database made by `wsdb build`")
        if rev is None and not create:
            raise WsdbError(f"{self.label} holds no wsdb tables: build one with `wsdb build --n N --c C`")
        self.migrate()

    def migrate(self) -> None:
        """Apply the Alembic migrations up to head."""
        from alembic import command
        from alembic.config import Config
        from alembic.util import CommandError

        cfg = Config()
        cfg.set_main_option("script_location", str(resources.files("wsdb.migrations")))
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            try:
                command.upgrade(cfg, "head")
            except CommandError as e:
                raise WsdbError(f"{self.label}: cannot migrate its schema ({e}); expected a database "
                                "made by this or an older wsdb") from None

    # ---- builds ------------------------------------------------------------

    def build_rows(self) -> list[dict]:
        """Every stored build."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(builds).order_by(builds.c.n, builds.c.c, builds.c.root))
            return [dict(r._mapping) for r in rows]

    def build_row(self, n: int, c: int, root: str = "all") -> dict | None:
        """The stored build of (n, c, root), or None."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(builds).where(*_tree_is(builds, n, c, root))).first()
            return dict(row._mapping) if row else None

    def require_build(self, n: int, c: int, root: str = "all") -> dict:
        """The stored build, or a clear error saying how to make it."""
        row = self.build_row(n, c, root)
        if row is None:
            flag = "" if root == "all" else f" --root {root}"
            raise WsdbError(f"{self.label} has no {n}x{n} {c}-colour database: run "
                            f"`wsdb build --n {n} --c {c}{flag}` first (add --max-depth D for big grids)")
        return row

    def level_rows(self, n: int, c: int, root: str = "all") -> list[dict]:
        """Per-depth class and state counts as stored."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(levels.c.depth, levels.c.classes, levels.c.states)
                                .where(*_tree_is(levels, n, c, root)).order_by(levels.c.depth))
            return [dict(r._mapping) for r in rows]

    def write_tree(self, tree, eng) -> dict:
        """Replace the stored (n, c, root) tree by ``tree`` in one transaction."""
        layout = eng.layout
        key = (tree.n, tree.c, tree.root)
        row = dict(n=tree.n, c=tree.c, root=tree.root, complete=tree.complete,
                   max_depth=tree.max_depth, height=tree.height,
                   god_number=tree.height if tree.complete else None,
                   classes=tree.classes, states=tree.states, seconds=round(tree.seconds, 3),
                   version=__version__, built_at=datetime.now(timezone.utc).isoformat(timespec="seconds"))
        insert = (f"INSERT INTO classes (n, c, root, rep, grid, depth, parent, orbit_size) "
                  f"VALUES ({tree.n}, {tree.c}, '{tree.root}', ?, ?, ?, ?, ?)")
        with self.engine.begin() as conn:
            for table in (classes, levels, builds):
                conn.execute(table.delete().where(*_tree_is(table, *key)))
            for lv in tree.levels:
                grids = format_states(eng.decode(lv.reps), tree.n).tolist()
                parents = [None] * lv.classes if lv.depth == 0 else layout.to_sql(lv.parents)
                rows = zip(layout.to_sql(lv.reps), grids, [lv.depth] * lv.classes,
                           parents, lv.orbits.tolist())
                conn.exec_driver_sql(insert, list(rows))
            conn.execute(levels.insert(), [dict(n=tree.n, c=tree.c, root=tree.root, depth=lv.depth,
                                                classes=lv.classes, states=lv.states) for lv in tree.levels])
            conn.execute(builds.insert(), [row])
        return row

    def cache_file(self, name: str, build: dict) -> Path | None:
        """Where a table derived from ``build`` is cached: beside the database
        file, named after the build's time so a rebuild invalidates it.
        None for in-memory databases."""
        if self.path is None:
            return None
        stamp = "".join(ch for ch in str(build["built_at"]) if ch.isdigit())
        return self.path.with_name(f"{self.path.name}.cache") / f"{name}-{stamp}-{build['classes']}.npy"

    def cached_array(self, name: str, build: dict, make, mmap: bool = False) -> np.ndarray:
        """An array derived from ``build`` by ``make()``, saved at
        :meth:`cache_file` the first time and read from there afterwards
        (memory-mapped with ``mmap``). The write is atomic: a killed run
        leaves no half-written file."""
        path = self.cache_file(name, build)
        if path is not None and path.exists():
            return np.load(path, mmap_mode="r" if mmap else None)
        array = make()
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp.npy")
            np.save(tmp, array)
            tmp.replace(path)
        return array

    # ---- classes -----------------------------------------------------------

    def fetch(self, n: int, c: int, layout, keys: np.ndarray, root: str = "all"):
        """Depth and parent of each key: (found, depth, parents (S, W)).

        Keys that are not stored get found=False, depth -1."""
        keys = np.asarray(keys, dtype=np.uint64).reshape(-1, layout.words)
        sql_keys = layout.to_sql(keys)
        got: dict = {}
        with self.engine.connect() as conn:
            uniq = list(dict.fromkeys(sql_keys))
            for i in range(0, len(uniq), _CHUNK):
                stmt = sa.select(classes.c.rep, classes.c.depth, classes.c.parent).where(
                    *_tree_is(classes, n, c, root), classes.c.rep.in_(uniq[i:i + _CHUNK]))
                for rep, depth, parent in conn.execute(stmt):
                    got[rep] = (depth, parent)
        found = np.array([k in got for k in sql_keys], dtype=bool)
        depth = np.array([got[k][0] if k in got else -1 for k in sql_keys], dtype=np.int64)
        parent_vals = [got[k][1] for k in sql_keys if k in got and got[k][1] is not None]
        parents = np.zeros_like(keys)
        has_parent = found & (depth > 0)
        if parent_vals:
            parents[has_parent] = layout.from_sql(parent_vals)
        return found, depth, parents

    def load(self, n: int, c: int, layout, root: str = "all", depth: int | None = None):
        """All stored classes (optionally of one depth), sorted by key:
        (reps (S, W), depths, parents (S, W), orbit sizes)."""
        stmt = sa.select(classes.c.rep, classes.c.depth, classes.c.parent, classes.c.orbit_size) \
            .where(*_tree_is(classes, n, c, root))
        if depth is not None:
            stmt = stmt.where(classes.c.depth == depth)
        with self.engine.connect() as conn:
            rows = conn.execute(stmt).all()
        if not rows:
            empty = np.zeros((0, layout.words), np.uint64)
            return empty, np.zeros(0, np.int64), empty.copy(), np.zeros(0, np.int64)
        rep, dep, par, orb = zip(*rows)
        reps = layout.from_sql(rep)
        parents = np.zeros_like(reps)
        dep = np.asarray(dep, np.int64)
        if (dep > 0).any():
            parents[dep > 0] = layout.from_sql([p for p, d in zip(par, dep) if d > 0])
        order = np.lexsort(reps.T[::-1])
        return reps[order], dep[order], parents[order], np.asarray(orb, np.int64)[order]

    def keys_and_depths(self, n: int, c: int, layout, root: str = "all",
                        chunk: int = 500_000) -> tuple[np.ndarray, np.ndarray]:
        """Every stored class as (reps (S, W) sorted by key, depths int8),
        read in chunks so memory stays near the size of the result (the
        solver's endgame tables; 9.7 M classes of 6x6 three colours)."""
        stmt = sa.select(classes.c.rep, classes.c.depth).where(*_tree_is(classes, n, c, root))
        reps, depths = [], []
        with self.engine.connect() as conn:
            result = conn.execution_options(yield_per=chunk).execute(stmt)
            for part in result.partitions():
                rep, dep = zip(*part)
                reps.append(layout.from_sql(rep))
                depths.append(np.asarray(dep, np.int8))
        if not reps:
            return np.zeros((0, layout.words), np.uint64), np.zeros(0, np.int8)
        keys, depth = np.concatenate(reps), np.concatenate(depths)
        del reps, depths
        order = np.lexsort(keys.T[::-1])
        return keys[order], depth[order]


def _tree_is(table, n, c, root):
    return table.c.n == n, table.c.c == c, table.c.root == root


def _pragmas(dbapi_conn, _record) -> None:
    # Bulk writes of millions of rows: a bigger page cache and no fsync per
    # page; the one-transaction write still rolls back cleanly on a crash.
    if isinstance(dbapi_conn, sqlite3.Connection):
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA cache_size = -262144")
        cur.execute("PRAGMA synchronous = NORMAL")
        cur.close()
