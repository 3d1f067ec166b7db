"""The figures of stored builds as pandas DataFrames.

Everything here is computed from the public tables (``builds``, ``levels``,
``classes``; docs/sql.md), through the queries of
:mod:`wsdb.db.store`, so it is what a researcher could write in SQL (the
same figures as SQL are in docs/sql.md). ``wsdb stats`` prints these.

Every function takes ``db`` as a path, URL or open :class:`Store`, and an
optional (n, c) to restrict to one build; ``root`` picks the tree kind
(``all``, the default, or the thesis' ``single`` root). ``puzzle`` (and
``goal``) pick another puzzle's builds (docs/puzzles.md): every build of it,
or with ``n`` the one grown from ``goal`` (default: distinct pieces).
Without ``puzzle``, every puzzle's builds are shown; ``root`` filters
Wrapslide's, whose tree kinds it names.
"""

from __future__ import annotations

import pandas as pd

from ..db.cache import derived_files
from ..db.proven import proven_god_number
from ..db.store import Store
from ..errors import WsdbError, InputError, NotBuiltError
from ..notices import step
from ..puzzle import Puzzle, check_grid
from ..puzzle.catalog import get_puzzle, kind, stored_puzzle
from ..puzzle.sliding import SlidingPuzzle
from ..puzzle.tree_key import TreeKey

BUILD_COLUMNS = [
    "puzzle",
    "n",
    "c",
    "root",
    "status",
    "complete",
    "max_depth",
    "height",
    "god_number",
    "classes",
    "states",
    "seconds",
    "version",
    "built_at",
]
#: what :func:`builds` adds to a build's columns: where it is kept and how big that is
SIZE_COLUMNS = ["db_bytes", "cache_bytes", "parquet_levels", "parquet_bytes"]


def _builds(
    store: Store, n: int | None, c: int | None, root: str | None, puzzle: str | None = None, goal: str | None = None
) -> list[dict]:
    if kind(puzzle).rows_only:  # boards of n rows, any width (no --m here)
        if c is not None or goal is not None:
            raise InputError("the sliding puzzle's builds are picked by --n, their number of rows")
        return [b for b in store.build_rows() if b["puzzle"] == puzzle and n in (None, b["n"])]
    if not kind(puzzle).grid:
        if c is not None:
            raise InputError(f"--c is Wrapslide's colour count: pick one {puzzle} build by --n and --goal")
        if n is None:
            if goal is not None:
                raise InputError("--goal goes with --n: the board the goal is written on")
            return [b for b in store.build_rows() if b["puzzle"] == puzzle]

        assert puzzle is not None  # kind(None) is Wrapslide's, a grid
        p = get_puzzle(puzzle, int(n), goal=goal)
        return [store.require_build(TreeKey.of(p))]
    if n is not None and c is not None:
        check_grid(n, c)
        return [store.require_build(TreeKey.wrapslide(n, c, root or "all"))]  # refuses an unfinished build
    if n is not None or c is not None:
        raise InputError("give both --n and --c, or neither (every build)")
    return [
        b
        for b in store.build_rows()
        if (puzzle is None or b["puzzle"] == puzzle)
        and (root is None or b["root"] == root or not kind(b["puzzle"]).grid)
    ]


def puzzle_of(build: dict) -> Puzzle | SlidingPuzzle:
    """The puzzle a build row was grown for: a Wrapslide grid, the sliding
    puzzle on n rows of c / n cells, or another puzzle from its goal (``root``)."""
    return stored_puzzle(TreeKey.from_row(build))


def _key(b) -> tuple:
    """(puzzle, n, c, root) of a build row or a levels frame's row."""
    return (b["puzzle"], b["n"], b["c"], b["root"])


def builds(
    db=None,
    n: int | None = None,
    c: int | None = None,
    root: str | None = None,
    puzzle: str | None = None,
    goal: str | None = None,
) -> pd.DataFrame:
    """Stored builds with their size on disk: ``db_bytes`` is the build's
    share of the database file by class count (an estimate: class rows are
    nearly all of it), on PostgreSQL its own table's size (exact), None on
    other database servers; ``cache_bytes`` the derived arrays cached
    beside the file. A build kept as Parquet levels (``wsdb build --engine
    dask``) has no class rows, so no share of the file (0):
    ``parquet_levels`` names its folder or URL and ``parquet_bytes`` is the
    files' size there (None where they cannot be listed); both are None
    for a build of rows."""
    store = Store.of(db)
    rows = _builds(store, n, c, root, puzzle, goal)
    size = None
    if store.path is not None:
        size = sum(p.stat().st_size for p in (store.path, store.path.with_name(store.path.name + "-wal")) if p.exists())
    total = sum(b["classes"] for b in store.build_rows() if not b.get("levels")) or 1
    out = []
    for b in rows:
        url = b.get("levels") or None
        # rounded down: shares never add up past the file
        share = 0 if url else None if size is None else size * b["classes"] // total
        if share is None:  # a database server
            share = store.tree_bytes(TreeKey.from_row(b))
        files = derived_files(store.path, b) if kind(b["puzzle"]).grid else []  # the solver derives Wrapslide's
        cached = sum(f.stat().st_size for f in files)
        parquet = _parquet_size(url) if url else None
        out.append(
            {
                **{k: b[k] for k in BUILD_COLUMNS},
                "db_bytes": share,
                "cache_bytes": cached,
                "parquet_levels": url,
                "parquet_bytes": parquet,
            }
        )
    return _nullable(pd.DataFrame(out, columns=BUILD_COLUMNS + SIZE_COLUMNS))


def _parquet_size(url: str) -> int | None:
    """The bytes of a build's Parquet levels, None where they cannot be listed."""
    from ..db.levels import LevelFolder

    try:
        return LevelFolder(url).size()
    except WsdbError:  # a protocol whose package is not installed here
        return None


def levels(
    db=None,
    n: int | None = None,
    c: int | None = None,
    root: str | None = "all",
    puzzle: str | None = None,
    goal: str | None = None,
) -> pd.DataFrame:
    """Classes and states per depth, with the cumulative share of the
    build's stored states reached by each depth."""
    store = Store.of(db)
    keep = {_key(b) for b in _builds(store, n, c, root, puzzle, goal)}
    df = pd.DataFrame(
        store.all_level_rows(), columns=["puzzle", "n", "c", "root", "depth", "classes", "states"]
    ).astype({"n": "int64", "c": "int64", "depth": "int64", "classes": "int64", "states": "int64"})
    mine = pd.Series([(r.puzzle, r.n, r.c, r.root) in keep for r in df.itertuples()], index=df.index, dtype=bool)
    df = df[mine].reset_index(drop=True)
    grouped = df.groupby(["puzzle", "n", "c", "root"], sort=False)["states"]
    df["cumulative_share"] = grouped.cumsum() / grouped.transform("sum")
    return df


def summary(
    db=None,
    n: int | None = None,
    c: int | None = None,
    root: str | None = "all",
    puzzle: str | None = None,
    goal: str | None = None,
) -> pd.DataFrame:
    """One row per build: God number (or what a partial tree says of it),
    mean distance over states and over classes, antipodes, coverage of all
    states (another puzzle: of all arrangements of its goal's labels, of
    which its moves may reach only some), and the build facts. Means and
    antipodes are given for complete builds only: in a partial tree the
    deepest states are unknown.

    A partial tree stopped at its depth limit D without growing D + 1, so
    that level may be empty. Where every arrangement is reachable (a
    Wrapslide grid), the God number is D when the levels hold every state
    (``god_number``, the tree complete in fact) and more than D otherwise
    (``more_than``: some state lies past them). Elsewhere it is at least D
    (``at_least``), the only fact the levels prove."""
    store = Store.of(db)
    lv = levels(store, n, c, root, puzzle, goal)
    out = []
    for b in _builds(store, n, c, root, puzzle, goal):
        mine = _mine(lv, b)
        top = mine[mine.depth == mine.depth.max()]
        complete = bool(b["complete"])
        p = puzzle_of(b)
        total = p.arrangements
        height = int(b["height"])
        god = proven_god_number(b, p)
        out.append(
            {
                **{k: b[k] for k in BUILD_COLUMNS},
                "god_number": god,
                "more_than": height if god is None and p.every_arrangement else None,
                "at_least": height if god is None else None,
                "all_states": total,
                "coverage": int(mine.states.sum()) / total,
                "mean_distance_states": float((mine.depth * mine.states).sum() / mine.states.sum())
                if complete
                else None,
                "mean_distance_classes": float((mine.depth * mine.classes).sum() / mine.classes.sum())
                if complete
                else None,
                "antipode_classes": int(top.classes.sum()) if complete else None,
                "antipode_states": int(top.states.sum()) if complete else None,
            }
        )
    return _nullable(pd.DataFrame(out))


def _mine(lv: pd.DataFrame, b: dict) -> pd.DataFrame:
    """The rows of one build in a levels frame."""
    return lv[(lv.puzzle == b["puzzle"]) & (lv.n == b["n"]) & (lv.c == b["c"]) & (lv.root == b["root"])]


def _one(store: Store, n, c, root, puzzle, goal) -> dict:
    """The one build (n, c, root) of Wrapslide, or (n, goal) of ``puzzle``;
    a build row is taken as it is."""
    if isinstance(n, dict):
        return n
    return _builds(store, n, c if kind(puzzle).grid else None, root, puzzle, goal)[0]


def antipodes(
    db=None,
    n: int | dict = 4,
    c: int = 4,
    root: str = "all",
    limit: int | None = None,
    puzzle: str | None = None,
    goal: str | None = None,
) -> pd.DataFrame:
    """The classes farthest from solved (depth = God number) of a complete
    build, in key order: their grids and orbit sizes. ``n`` may be a build
    row instead of (n, c, root)."""
    store = Store.of(db)
    b = _one(store, n, c, root, puzzle, goal)
    if not b["complete"]:
        raise NotBuiltError(
            f"the {puzzle_of(b).label} build stops at depth {b['height']}: its antipodes are "
            "unknown (they lie beyond the stored tree)"
        )
    return pd.DataFrame(store.classes_at_depth(TreeKey.from_row(b), b["height"], limit), columns=["grid", "orbit_size"])


def orbit_profile(
    db=None, n: int | dict = 4, c: int = 4, root: str = "all", puzzle: str | None = None, goal: str | None = None
) -> pd.DataFrame:
    """The symmetry profile: how many classes (and states) have each orbit
    size. Orbit size = group order / number of symmetries fixing the class.
    ``n`` may be a build row instead of (n, c, root)."""
    store = Store.of(db)
    b = _one(store, n, c, root, puzzle, goal)
    p = puzzle_of(b)
    # a count over every stored class: seconds on a tree of millions
    with step(f"counting the {p.label} classes by orbit size", f"{b['classes']:,} classes"):
        df = pd.DataFrame(store.orbit_profile(TreeKey.from_row(b)), columns=["orbit_size", "classes", "states"])
    df.insert(1, "symmetries", p.group_order // df.orbit_size)
    return df


def report(
    db=None,
    n: int | None = None,
    c: int | None = None,
    root: str | None = "all",
    first: int = 3,
    puzzle: str | None = None,
    goal: str | None = None,
) -> list[dict]:
    """Everything ``wsdb stats`` shows, one dict per build: the summary
    row, its levels, the symmetry profile, the first ``first`` antipodes
    (for complete builds) and the best proven bounds on the grid's God
    number (``wsdb bounds``)."""
    store = Store.of(db)
    lv = levels(store, n, c, root, puzzle, goal)
    proven = store.bound_rows()
    out = []
    for row in summary(store, n, c, root, puzzle, goal).to_dict("records"):
        b = plain(row)
        grid = kind(b["puzzle"]).grid  # the bounds are Wrapslide's
        mine = [r for r in proven if grid and (r["n"], r["c"]) == (b["n"], b["c"])]
        out.append(
            {
                "bounds": {
                    "lower": max((r["value"] for r in mine if r["kind"] == "lower"), default=None),
                    "upper": min((r["value"] for r in mine if r["kind"] == "upper"), default=None),
                },
                **b,
                "levels": [
                    plain(r)
                    for r in _mine(lv, b)[["depth", "classes", "states", "cumulative_share"]].to_dict("records")
                ],
                "orbit_profile": [plain(r) for r in orbit_profile(store, b).to_dict("records")],
                "first_antipodes": (antipodes(store, b, limit=first).grid.tolist() if row["complete"] else []),
            }
        )
    return out


_MAYBE_MISSING = [
    "max_depth",
    "god_number",
    "more_than",
    "at_least",
    "antipode_classes",
    "antipode_states",
    "db_bytes",
    "parquet_bytes",
]


def _nullable(df: pd.DataFrame) -> pd.DataFrame:
    """Integer columns that may be missing (a partial build has no God
    number) as pandas' nullable Int64, so they do not turn into floats."""
    for col in _MAYBE_MISSING:
        if col in df:
            df[col] = df[col].astype("Int64")
    return df


def build_records(db=None) -> list[dict]:
    """:func:`builds` of every root as plain dicts: what ``wsdb info
    --json`` prints and ``GET /api/info`` answers."""
    return [plain(r) for r in builds(db, root=None).to_dict("records")]


def plain(row: dict) -> dict:
    """numpy and pandas scalars as plain Python values (for JSON)."""
    out = {}
    for k, v in row.items():
        if v is pd.NA or (isinstance(v, float) and v != v):
            v = None
        elif hasattr(v, "item"):
            v = v.item()
        out[k] = v
    return out
