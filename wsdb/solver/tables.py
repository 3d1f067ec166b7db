"""Tables a solver derives from the database and holds in memory.

**Gather tables.** For every placement of one colour of q = (n/2)^2 cells,
the fewest moves that bring it into one quadrant. That is exactly the n x n
two-colour puzzle (colour 1 has q cells), so the table is the complete
two-colour database laid out by raw state instead of by class: one byte per
q-subset of the n^2 cells, indexed by colex rank
(:func:`wsdb.solver.kernels.colour_rank`). For 6x6 that is C(36, 9) =
94,143,280 bytes, filled from the 2,951,793 stored classes by writing each
class's depth at all 32 images of its representative. In a grid with more
colours every colour with q cells must end up filling a quadrant, so its
gather distance is a lower bound on the distance to solved (the idea behind
the thesis' deduction of Θ(6,2), §3.5), and the sum over the colours is a
strong guide.

**Endgame tables.** The stored (partial) tree of the grid being solved, as a
hashed key set (:mod:`wsdb.engine.keyindex`): "is this state's class stored,
and how deep?" for millions of states per search level (thesis §4.2, second
component). Where a grid's stored default is shallow, the levels after it
are derived from the stored ones: the next held exactly where it fits in
memory, the one after as a filter (:data:`DERIVED`). The move sequence of
the one state finally
used still comes from :mod:`wsdb.db.lookup`, which walks the parents in SQL,
after :meth:`Endgame.descend` has stepped down the derived levels.

Both are derived once per database and cached beside it as ``.npy``
(:mod:`wsdb.db.cache`); a search loop never queries SQL.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..db.cache import cache_file, cached_array
from ..db.store import Store
from ..engine import Engine, get_engine
from ..engine.bfs import expand
from ..engine.keyindex import KeyFilter, KeyIndex
from ..engine.keys import distinct, member, sortable, unsortable
from ..notices import Step, say, step
from ..puzzle.tree_key import TreeKey
from . import effort
from .settings import DERIVE_GROWTH, DERIVE_MINUTES, DERIVED, FILTER_CHUNK

UNSET = 255


# ---- gather tables --------------------------------------------------------------


def binomials(ncells: int, q: int) -> np.ndarray:
    """binom[a, b] = C(a, b) for a <= ncells, b <= q (int64)."""
    out = np.zeros((ncells + 1, q + 1), np.int64)
    for a in range(ncells + 1):
        for b in range(min(a, q) + 1):
            out[a, b] = math.comb(a, b)
    return out


@lru_cache(maxsize=None)
def binomials_for(n: int) -> np.ndarray:
    """The binomial table the n x n gather table is indexed with, as wide
    as a colour's count can be (C(64, 32) fits 64 bits), so the kernels
    rank every colour without a bound check (only the colours of q cells
    index the table)."""
    return binomials(n * n, n * n)


def gather_colours(counts: tuple[int, ...], q: int) -> np.ndarray:
    """The colours with exactly q cells: each must fill one quadrant."""
    return np.array([col for col, k in enumerate(counts) if k == q], np.int64)


def gather_table(n: int, store: Store) -> np.ndarray | None:
    """The n x n gather table, or None when ``store`` has no complete n x n
    two-colour database to derive it from."""
    build = store.finished_build(TreeKey.wrapslide(n, 2))
    if build is None or not build["complete"]:
        return None
    key = (store.label, n, build["built_at"], build["classes"])
    if key not in _gather:
        _gather[key] = cached_array(store.path, f"gather{n}", build, lambda: derive_gather(n, store), mmap=True)
    return _gather[key]


_gather: dict = {}


def derive_gather(n: int, store: Store) -> np.ndarray:
    """Fill the gather table from the stored complete two-colour tree."""
    from .kernels import fill_gather

    eng = get_engine(n, 2)
    q = (n // 2) ** 2
    binom = binomials(n * n, q)
    chunk = 1 << 20
    with step(f"deriving the {n}x{n} gather table from the two-colour tree", "once per database") as st:
        st.status = "reading the tree"  # most of the wait on 6x6 (8 s of 12): said within 2 s too
        reps, depths = store.keys_and_depths(TreeKey.wrapslide(n, 2), eng.layout)
        table = np.full(binom[n * n, q], UNSET, np.uint8)
        for i in range(0, len(reps), chunk):
            cells = eng.decode(reps[i : i + chunk])
            fill_gather(cells, depths[i : i + chunk].view(np.uint8), eng.puzzle.maps, binom, table)
            st.count(min(i + chunk, len(reps)), len(reps), "classes")
    if (table == UNSET).any():
        raise ValueError(f"the {n}x{n} two-colour database does not cover every state")
    return table


# ---- endgame tables -------------------------------------------------------------


@dataclass
class Endgame:
    """The first ``height`` levels of the (n, c) tree (all of it if complete):
    the ``stored`` levels of the database, then any derived in memory; the
    levels up to ``held`` exactly, and where ``beyond`` is set, one more level
    as a filter whose every 'maybe' is checked by looking for a neighbour at
    depth ``held``."""

    eng: Engine
    index: KeyIndex  # the representatives held exactly, hashed
    depths: np.ndarray  # int8, in the index's order
    held: int
    complete: bool
    stored: int = -1  # levels the database holds (-1: all ``held``)
    beyond: KeyFilter | None = None

    def __post_init__(self):
        if self.stored < 0:
            self.stored = self.held

    @property
    def height(self) -> int:
        """Every class within this many moves of solved is known here."""
        return self.held + (self.beyond is not None)

    @classmethod
    def of(cls, eng: Engine, keys: np.ndarray, depths: np.ndarray, held: int, complete: bool) -> "Endgame":
        """An endgame of (S, W) representatives in any order and their depths."""
        index, order = KeyIndex.of(keys)
        return cls(eng, index, depths[order], held, complete)

    def lookup(self, reps: np.ndarray) -> np.ndarray:
        """Depth of each class representative, or -1 where it is not within
        ``height``."""
        effort.charge("probe", len(reps))
        rows = self.index.rows(reps)
        depth = np.where(rows >= 0, self.depths[rows], -1).astype(np.int64)
        if self.beyond is not None:
            maybe = np.flatnonzero(depth < 0)
            maybe = maybe[self.beyond.has(reps[maybe])]
            if maybe.size:  # a class one level beyond has a neighbour at depth `held`
                effort.charge("expand", maybe.size * self.eng.nmoves, effort.key_share(self.eng.layout.words))
                kids = self.index.rows(self.eng.expand(reps[maybe])).reshape(maybe.size, -1)
                near = (np.where(kids >= 0, self.depths[kids], -1) == self.held).any(axis=1)
                depth[maybe[near]] = self.held + 1
        return depth

    def depth(self, cells: np.ndarray) -> np.ndarray:
        """Optimal distance of each state, or -1 where its class is not
        known (then the distance is more than ``height``)."""
        if len(cells) == 0:
            return np.zeros(0, np.int64)
        return self.depth_of_keys(self.eng.encode(cells))

    def depth_of_keys(self, raw: np.ndarray) -> np.ndarray:
        """:meth:`depth` of states given as (S, W) raw keys."""
        effort.charge("canonical", len(raw), effort.key_share(self.eng.layout.words))
        return self.lookup(self.eng.canonical(raw))

    def descend(self, cells: np.ndarray) -> tuple[list[int], np.ndarray]:
        """From one state at a derived depth, moves down to a state the
        database stores (each to a neighbour one level closer), and that
        state: the stored tree's parent pointers take it from there."""
        eng, moves = self.eng, []
        raw = eng.encode(cells[None])
        d = int(self.depth(cells[None])[0])
        while d > self.stored:
            kids = eng.expand(eng.canonical(raw))
            closer = int(np.flatnonzero(self.lookup(kids) == d - 1)[0])
            m, raw = eng.step(raw, kids[closer : closer + 1])
            moves.append(int(m[0]))
            d -= 1
        return moves, eng.decode(raw)[0]


def endgame(n: int, c: int, store: Store, derived: tuple[int, int] | None = None) -> Endgame | None:
    """The stored (n, c) tree in memory, deepened as :data:`DERIVED` says
    (or as ``derived``, (held exactly, known with a filter), says: research
    scripts hold trees deeper than a solve can afford to wait for), or None
    when there is none. The hashed keys, their depths, the bucket starts and
    any filter are cached beside the database (memory-mapped)."""
    tree = TreeKey.wrapslide(n, c)
    build = store.finished_build(tree)
    if build is None:
        return None
    stored, held, filtered = _heights(n, c, build, derived)
    key = (store.label, n, c, build["built_at"], build["classes"], held, filtered)
    if key not in _endgames:
        eng = get_engine(n, c)
        made: dict[str, np.ndarray] = {}

        def part(name: str):
            def make() -> np.ndarray:  # keys, depths and starts at once, whichever file is missing
                if not made:
                    if held > stored:
                        say(
                            f"deriving the solver's deeper {n}x{n} {c}-colour tree (depth {held}"
                            + (f", then {filtered} as a filter" if filtered > held else "")
                            + f") from the stored depth {stored}, once per database"
                            + (f", about {DERIVE_MINUTES[n, c]:g} min" if (n, c) in DERIVE_MINUTES else "")
                        )
                    with step(f"reading the {n}x{n} {c}-colour tree", "once per database") as st:
                        reps, depths = store.keys_and_depths(tree, eng.layout)
                        reps, depths = deepen(eng, reps, depths, stored, held, st)
                        st.status = f"hashing {len(reps):,} keys"
                        index, order = KeyIndex.of(reps)
                    made.update(keys=index.keys, depths=depths[order], starts=index.starts)
                return made[name]

            return cached_array(store.path, _cache_name(n, c, held, name), build, make, mmap=True)

        keys, depths, starts = part("keys"), part("depths"), part("starts")
        eg = Endgame(eng, KeyIndex(keys, starts), depths, held, bool(build["complete"]), stored)
        if filtered > held:
            eg.beyond = KeyFilter(
                cached_array(store.path, _cache_name(n, c, held, "beyond"), build, lambda: beyond(eg).words, mmap=True)
            )
        _endgames[key] = eg
    return _endgames[key]


def underived(store: Store, n: int, grids: list[int]) -> float:
    """Minutes the first solve will spend deriving the deepened trees of
    the n x n grids with these colour counts (0 when all are cached)."""
    minutes = 0.0
    for c in grids:
        build = store.finished_build(TreeKey.wrapslide(n, c))
        if (n, c) in DERIVED and build is not None and not build["complete"]:
            _, held, filtered = _heights(n, c, build)
            path = cache_file(store.path, _cache_name(n, c, held, "beyond" if filtered > held else "starts"), build)
            if path is not None and not path.exists():
                minutes += DERIVE_MINUTES[n, c]
    return minutes


def _heights(n: int, c: int, build: dict, derived: tuple[int, int] | None = None) -> tuple[int, int, int]:
    """(levels stored, held exactly, known with the filter) of a grid's
    endgame: ``derived`` or :data:`DERIVED` for a partial tree stored less deep."""
    stored = int(build["height"])
    if build["complete"]:
        return stored, stored, stored
    held, filtered = derived or DERIVED.get((n, c), (stored, stored))
    return stored, max(held, stored), max(filtered, held, stored)


def _cache_name(n: int, c: int, held: int, part: str) -> str:
    """The cache file of one part of an endgame (keys, depths, starts, beyond)."""
    return f"endgame{n}c{c}h{held}{part}"


def beyond(eg: Endgame) -> KeyFilter:
    """The level after ``eg.held`` as a filter: every neighbour of the
    deepest level held is added (those within the held levels too: a lookup
    asks the filter only about classes the index does not hold)."""
    last = np.ascontiguousarray(eg.index.keys[np.asarray(eg.depths) == eg.held])
    out = KeyFilter.sized(DERIVE_GROWTH * len(last))
    with step(f"the {eg.eng.puzzle.label} tree's depth {eg.held + 1} as a filter", "once per database") as st:
        for lo in range(0, len(last), FILTER_CHUNK):
            out.add(eg.eng.expand(last[lo : lo + FILTER_CHUNK]))
            st.count(min(lo + FILTER_CHUNK, len(last)), len(last), "classes expanded")
    return out


def deepen(
    eng: Engine, reps: np.ndarray, depths: np.ndarray, stored: int, height: int, st: Step | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The levels ``stored + 1 .. height`` of a partial tree, added to its
    sorted representatives and depths: each level is the distinct
    neighbours of the last that are in neither of the two levels before
    it, as the builder grows one (:func:`wsdb.engine.bfs.next_level`)."""
    view = sortable(reps)
    before, last = view[depths == stored - 1], view[depths == stored]
    keys, levels = [reps], [depths]
    for d in range(stored + 1, height + 1):
        if st is not None:
            st.status = f"depth {d} from {last.size:,} classes"
        kids = distinct(sortable(expand(eng, unsortable(last, eng.layout.words), st)))
        fresh = kids[~member(before, kids)[0] & ~member(last, kids)[0]]
        if fresh.size == 0:
            break
        keys.append(unsortable(fresh, eng.layout.words))
        levels.append(np.full(fresh.size, d, np.int8))
        before, last = last, fresh
    return np.concatenate(keys), np.concatenate(levels)


_endgames: dict = {}
