"""What every search shares: the tables of one grid (:class:`Guide`) and
the shape of an answer (:class:`Found`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..db.lookup import lookup_grid
from ..db.store import Store
from ..engine.compiling import read_only
from ..puzzle import Puzzle
from .kernels import SearchTables, bounded_dfs, gather_bounds, gather_keys, horizon_dfs, score_children
from .visit_kernels import visit_tables
from .pair_kernels import PairStack, pair_distance, pair_stack, pair_start
from .pairs import pair_fields, pair_words
from .tables import Endgame, binomials_for, endgame, gather_colours, gather_table
from .value_net import ValueNet
from .settings import GATHER_TREES, IDA_SPLIT, ZOBRIST_SEED


@dataclass
class Guide:
    """What a search over one (n, c) grid consults: the kernels' tables
    (moves, pruning, gather table) and the stored tree as an endgame.
    Where no gather table can be had (8x8: C(64, 16) sets), ``gathers``
    is the partial two-colour tree, which knows a colour's gather distance
    up to its height (:meth:`gather_distances`)."""

    puzzle: Puzzle
    tables: SearchTables
    endgame: Endgame | None
    gathers: Endgame | None = None
    #: a learned estimate of the whole distance (:mod:`.learned`); where set, it scores the beam's children
    value: ValueNet | None = None

    @property
    def n(self) -> int:
        return self.puzzle.n

    @property
    def c(self) -> int:
        return self.puzzle.c

    @property
    def tree(self) -> Endgame:
        """The endgame table, for the searches that need one (ask
        :attr:`endgame` where a grid may have none)."""
        if self.endgame is None:
            raise RuntimeError(f"the {self.puzzle.label} search needs its stored tree, and there is none")
        return self.endgame

    @property
    def gather_tree(self) -> Endgame:
        """The two-colour tree the gather distances come from."""
        if self.gathers is None:
            raise RuntimeError(f"no gather tree for {self.puzzle.label}")
        return self.gathers

    @property
    def has_table(self) -> bool:
        return self.tables.table.shape[0] > 0

    @property
    def has_pairs(self) -> bool:
        """Whether the pair bound is read (:mod:`.pairs`)."""
        return self.tables.psides.shape[0] > 0

    def bound(self, cells: np.ndarray) -> int:
        """A proven lower bound on the distance of one state: the largest of
        its gather distances and, where the pair census is held, its pair
        distances (0 without a gather table or a two-colour tree)."""
        if self.gathers is not None:
            return int(self.gather_distances(cells[None])[0][0])
        if not self.has_table:
            return 0
        t = self.tables
        gather = int(gather_bounds(cells, t.gcols, t.table, t.binom)[0])
        return max(gather, int(self.pair_distances(cells).max(initial=0)))

    def pair_distances(self, cells: np.ndarray) -> np.ndarray:
        """The exact distance of each pairing's image of one state (none
        without the pair census)."""
        cells = np.ascontiguousarray(cells, dtype=np.uint8)
        return np.array(
            [pair_distance(cells, k, self.tables) for k in range(self.tables.psides.shape[0])], dtype=np.int64
        )

    def pair_stacks(self, streams: int, depths: int, start: np.ndarray) -> PairStack:
        """A pair stack per search stream (:class:`.pair_kernels.PairStack`,
        each array with a leading stream axis), each one's first row set
        from ``start``."""
        t = self.tables
        one = pair_stack(depths, t.moves.shape[0], t.psides.shape[0])
        pair_start(np.ascontiguousarray(start, dtype=np.uint8), t, one)
        return PairStack(*(np.repeat(a[None], streams, axis=0) for a in one))

    def gather_distances(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(largest, sum) over the colours with q cells of each one's gather
        distance, as the two-colour tree ``gathers`` knows it: exact up to
        its height, the height + 1 beyond (a colour the tree does not hold
        needs more moves than that, so the largest stays a proven bound).
        The two-colour grid's colour 0 is the colour being gathered."""
        return self._capped_sums([self.gather_tree.depth((cells != col).view(np.uint8)) for col in self.tables.gcols])

    def child_gather_distances(self, beam: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`gather_distances` of the children ``rows`` (s*M + m) of
        ``beam``, their two-colour keys made straight from the parents'
        cells (:func:`.kernels.gather_keys`)."""
        _, shift = self.gather_tree.eng.layout.fields()
        keys = gather_keys(beam, rows, self.tables.moves, self.tables.gcols, shift.astype(np.int64))
        return self._capped_sums([self.gather_tree.depth_of_keys(k) for k in keys])

    def _capped_sums(self, depths: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """(largest, sum) of each state's gather distances, one array a
        colour, a colour the tree does not hold counted as its height + 1."""
        cap = self.gather_tree.height + 1
        capped = np.stack([np.where(d < 0, cap, d) for d in depths])
        return capped.max(axis=0), capped.sum(axis=0)


def quadrant_goals(puzzle: Puzzle) -> np.ndarray:
    """(G, 4): the colour of each quadrant (top-left, top-right, bottom-left,
    bottom-right) in each solved state."""
    n, h = puzzle.n, puzzle.n // 2
    corners = [0, h, h * n, h * n + h]
    return np.ascontiguousarray(puzzle.solved[:, corners])


def guide_for(puzzle: Puzzle, store: Store | None, pairs: bool = False) -> Guide:
    """Gather table, stored tree and move tables of one grid (tables are
    derived from ``store`` where it has them; searches work without). With
    ``pairs`` (the optimal method) the pair census too (:mod:`.pairs`),
    derived where it is not cached; IDA* reads it."""
    n, q = puzzle.n, (puzzle.n // 2) ** 2
    table = gather_table(n, store) if store is not None else None
    words = pair_words(puzzle, store) if pairs and table is not None else None
    rng = np.random.default_rng(ZOBRIST_SEED)
    tables = SearchTables(
        moves=np.ascontiguousarray(puzzle.moves),
        family=puzzle.move_family,
        blocked=puzzle.blocked,
        n=n,
        c=puzzle.c,
        gcols=gather_colours(puzzle.counts, q),
        table=read_only(table if table is not None else np.zeros(0, np.uint8)),
        binom=binomials_for(n),
        zobrist=rng.integers(0, 2**63, size=(puzzle.ncells, 4), dtype=np.uint64),
        goals=quadrant_goals(puzzle),
        **pair_fields(puzzle, words),
    )
    # compile (or load) the search kernels now, before any time limit starts
    solved = np.ascontiguousarray(puzzle.solved[:1])
    score_children(solved, np.full(1, len(puzzle.blocked) - 1, np.int64), tables, 1)
    if tables.table.shape[0]:  # IDA* reads the gather table; without one it is never run
        keys, meta = visit_tables(1, 1)
        bounded_dfs(solved[0], tables, 0, 1, np.zeros(1, np.int64), keys[0], meta[0])
        one = np.zeros(1, np.int64)  # one stream, horizon 1, bound 0: every move is cut at once
        horizon_dfs(
            tables,
            0,
            1,
            np.repeat(solved[None], 2, axis=1),
            np.zeros((1, 2), np.int64),
            np.zeros((1, 2), np.int64),
            np.zeros((1, 1), np.int64),
            one.copy(),
            solved[None].copy(),
            np.zeros((1, 1, 1), np.int64),
            one.copy(),
            1,
            one[None].copy(),
            PairStack(*(a[None] for a in pair_stack(2, len(puzzle.moves), tables.psides.shape[0]))),
            keys,
            meta,
            IDA_SPLIT,
            0,
            1,
        )
    eg = endgame(n, puzzle.c, store) if store is not None else None
    if eg is not None:  # its lookup kernels too
        eg.depth(solved)
    gathers = None
    if table is None and (n, puzzle.c) in GATHER_TREES and store is not None:
        gathers = endgame(n, 2, store)
    guide = Guide(puzzle, tables, eg, gathers)
    if gathers is not None:
        guide.gather_distances(solved)
        guide.child_gather_distances(solved, np.zeros(1, np.int64))
    return guide


@dataclass
class Found:
    """A way to solved: ``path`` moves to ``meet``, then ``rest`` more moves
    stored in the tree (0 when ``meet`` is itself solved)."""

    path: list[int]
    meet: np.ndarray | None
    rest: int

    @property
    def length(self) -> int:
        return len(self.path) + self.rest

    def moves(self, store: Store | None, puzzle: Puzzle, endgame: Endgame | None = None) -> list[int]:
        """Every move as an index: the path, then the tail from the tree
        (``endgame``: where ``meet`` may lie in a level derived in memory)."""
        if not self.rest:
            return list(self.path)
        return self.path + [puzzle.move_index(name) for name in tail(store, puzzle, endgame, self.meet)]


def tail(store: Store | None, puzzle: Puzzle, endgame: Endgame | None, cells: np.ndarray | None) -> list[str]:
    """The optimal moves from a state the tree holds to solved: down the
    levels derived in memory (:meth:`~.tables.Endgame.descend`), then the
    stored parent pointers (one lookup)."""
    assert store is not None and cells is not None, "a tail starts from a state of the stored tree"
    first: list[int] = []
    if endgame is not None and endgame.height > endgame.stored:
        first, cells = endgame.descend(cells)
    rest = lookup_grid(store, puzzle, cells[None])[0].moves
    assert rest is not None, "the state is in the stored tree: its moves are known"
    return [puzzle.move_names[m] for m in first] + rest
