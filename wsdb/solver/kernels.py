"""Numba kernels for solving: colour ranks, database-derived bounds, beam
expansion, depth-first search under a bound (IDA*).

Pure functions over numpy arrays like :mod:`wsdb.engine.kernels`, but on
cells (uint8 colours, one row per state) rather than keys: a solver holds few
states and needs their colours, not their classes. The search kernels take a
:class:`SearchTables`, built once per grid by :mod:`wsdb.solver.guide`.

A *gather table* (see :mod:`wsdb.solver.tables`) holds, for every set of
q = (n/2)^2 cells, the fewest moves that bring a colour occupying exactly
those cells into one quadrant. A set is indexed by its colex rank
``sum_j C(p_j, j+1)`` over its positions p_0 < p_1 < ...; ``binom[a, b]`` is
C(a, b). ``gcols`` lists the colours with q cells: each of them must end up
filling a quadrant, so every gather distance is a lower bound on the distance
to solved, and when all of them are zero the grid is solved.

Moves are pruned by the puzzle's table (:data:`wsdb.puzzle.moves.BLOCKED`):
``blocked[f, g]`` forbids a move of family g after one of family f, and its
last row is the start.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from ..engine.compiling import announce_compiles
from ..engine.intrinsics import prefetch
from .pair_kernels import PairStack, pair_child, pair_kids, pair_stack, pair_start
from .visit_kernels import visit

announce_compiles()  # a compile of over 2 s says so (wsdb.notices)

#: Beam states a thread scores in a row: each state's table reads wait one
#: state after their lines were asked for (16 to 256 measured the same).
SCORE_BLOCK = 64


class SearchTables(NamedTuple):
    """What the search kernels read about one grid."""

    moves: np.ndarray  # (M, N) cell permutations
    family: np.ndarray  # (M,) family of each move
    blocked: np.ndarray  # (F+1, F) bool pruning table, last row the start
    n: int
    c: int
    gcols: np.ndarray  # colours whose gather distance is a bound
    table: np.ndarray  # gather table (uint8 per colex rank), or empty
    binom: np.ndarray  # binom[a, b] = C(a, b)
    zobrist: np.ndarray  # (N, 4) random words: a state's hash is their xor
    goals: np.ndarray  # (G, 4) the colour of each quadrant in each solved state
    pair: np.ndarray  # the pair census's two-bit codes (:mod:`.pairs`), or empty
    psides: np.ndarray  # (K, 4) uint8: the colours on the counted side of each partition (K = 0: none)
    prank: np.ndarray  # the census's rank tables
    pmove: np.ndarray  # its move tables (a move's action on a word, a byte at a time)
    plast: np.uint64  # its halved numbering's last cell bit (0: not halved)
    pfull: np.uint64  # every cell's bit
    proots: np.ndarray  # the census's goal indices


@njit(cache=True, inline="always")
def colour_rank(cells, colour, binom):
    """Colex rank of the set of cells holding ``colour``."""
    r = np.int64(0)
    j = 0
    for p in range(cells.shape[0]):
        if cells[p] == colour:
            j += 1
            r += binom[p, j]
    return r


@njit(cache=True, parallel=True)
def fill_gather(cells, depths, maps, binom, table):
    """Write each state's depth at the rank of colour 0 in all its images
    under ``maps`` (a class's members share its depth)."""
    n = cells.shape[1]
    for s in prange(cells.shape[0]):
        img = np.empty(n, np.uint8)
        for g in range(maps.shape[0]):
            for i in range(n):
                img[i] = cells[s, maps[g, i]]
            table[colour_rank(img, 0, binom)] = depths[s]


@njit(cache=True, inline="always")
def gather_bounds(cells, gcols, table, binom):
    """(largest, sum) of the gather distances of the colours in ``gcols``.
    All colours are ranked in one pass over the cells."""
    count = np.zeros(4, np.int64)
    rank = np.zeros(4, np.int64)
    for p in range(cells.shape[0]):
        v = cells[p]
        count[v] += 1
        rank[v] += binom[p, count[v]]  # binom is as wide as any colour's count
    hmax, hsum = 0, 0
    for col in gcols:
        d = np.int64(table[rank[col]])
        hsum += d
        if d > hmax:
            hmax = d
    return hmax, hsum


@njit(cache=True)
def misfit(cells, n, goals):
    """Cells that differ from the nearest solved pattern, where a pattern
    gives each quadrant its colour (``goals``); zero exactly on solved
    states (a guide, not a bound). Matching against whole patterns, not each
    quadrant's majority, sees two quadrants that want the same colour: with
    three or four colours the majority count stalls the beam far from
    solved (8x8: 130-190 moves after cell exchanges)."""
    quad = quadrant_of(n)
    counts = np.zeros((4, 4), np.int64)
    for i in range(n * n):
        counts[quad[i], cells[i]] += 1
    return _misfit_of(counts, goals, n * n)


@njit(cache=True, inline="always")
def _misfit_of(counts, goals, ncells):
    """The misfit count from each quadrant's colour counts ``counts[q, v]``."""
    best = 0
    for g in range(goals.shape[0]):
        fit = 0
        for q in range(4):
            fit += counts[q, goals[g, q]]
        if fit > best:
            best = fit
    return ncells - best


@njit(cache=True)
def quadrant_of(n):
    """(n*n,) the quadrant of each cell: 0, 1 on top (left, right), 2, 3 below."""
    h = n // 2
    quad = np.empty(n * n, np.int64)
    for i in range(n * n):
        quad[i] = 2 * ((i // n) >= h) + ((i % n) >= h)
    return quad


@njit(cache=True, inline="always")
def child_key(total, largest, cut):
    """A child's place in the beam's order: by the guide ``total``, then by
    the bound ``largest``; -1 (left out) where the bound is ``cut`` or more."""
    return total * 64 + largest if largest < cut else -1


@njit(cache=True, parallel=True)
def score_children(beam, last, st, cut):
    """Score every child (row s*M + m) of every beam state; ``last[s]`` is
    the family of the move that made beam state s (the start row at first).

    Returns (hmax, key): with a gather table hmax is a proven lower bound
    and the key orders children by the guide, the sum of the gather
    distances, then by hmax (``sum * 64 + hmax``); without one (empty table)
    both come from the misfit count. Pruned moves get hmax = -1 and key -1,
    and so do children whose hmax is ``cut`` or more (they cannot lead to a
    shorter answer than one already found).

    A beam state's children are ranked first and looked up after: the
    table (94 MB on 6x6) lives in the last-level cache at best, and a batch
    of independent reads overlaps their latencies (2.5 times faster than a
    lookup after each child's ranks). The reads of a state come after the
    next state's ranks, whose lines are asked for as they are computed
    (:func:`wsdb.engine.intrinsics.prefetch`): 80 against 96 ms for the
    2 M children of 100,000 6x6 four-colour states."""
    w, ncells = beam.shape
    nm = st.moves.shape[0]
    ng = st.gcols.shape[0]
    hmax = np.empty(w * nm, np.int64)
    key = np.empty(w * nm, np.int64)
    use_table = st.table.shape[0] > 0
    quad = quadrant_of(st.n)
    for blk in prange((w + SCORE_BLOCK - 1) // SCORE_BLOCK):
        count = np.zeros(4, np.int64)
        rank = np.zeros(4, np.int64)
        ranks = np.empty((2, nm, ng), np.int64)  # this state's and the last one's
        quads = np.zeros((4, 4), np.int64)  # colour counts per quadrant (the misfit count)
        lo, hi = blk * SCORE_BLOCK, min(w, (blk + 1) * SCORE_BLOCK)
        for s in range(lo, hi + 1):
            if s < hi:
                _rank_children(beam, last, st, cut, s, count, rank, ranks[s & 1], hmax, key, use_table, quads, quad)
            if s > lo and use_table:
                _read_children(st, cut, s - 1, ranks[(s - 1) & 1], hmax, key)
    return hmax, key


@njit(cache=True)
def allowed_children(last, st):
    """(hmax, key) as :func:`score_children` leaves them for a guide that
    scores the children itself (the two-colour tree's gather distances on
    8x8 four colours): 0 and -1 for every child the pruning allows, -1 and
    -1 for the others, with no misfit count made only to be replaced."""
    nm = st.moves.shape[0]
    hmax = np.empty(last.shape[0] * nm, np.int64)
    for s in range(last.shape[0]):
        for m in range(nm):
            hmax[s * nm + m] = -1 if st.blocked[last[s], st.family[m]] else 0
    return hmax, np.full(hmax.shape[0], -1, np.int64)


@njit(cache=True, inline="always")
def _rank_children(beam, last, st, cut, s, count, rank, ranks, hmax, key, use_table, quads, quad):
    """Beam state s's children: pruned ones marked, the others scored by
    the misfit count (no table) or ranked, their table lines asked for."""
    nm, ncells, ng = st.moves.shape[0], beam.shape[1], st.gcols.shape[0]
    for m in range(nm):
        row = s * nm + m
        hmax[row] = -1
        key[row] = -1
        if st.blocked[last[s], st.family[m]]:
            continue
        if not use_table:  # the misfit count, read through the move (no child made)
            quads[:] = 0
            for i in range(ncells):
                quads[quad[i], beam[s, st.moves[m, i]]] += 1
            h = _misfit_of(quads, st.goals, ncells)
            hmax[row] = h
            key[row] = child_key(h, h, cut)
            continue
        hmax[row] = 0  # scored by _read_children
        count[:] = 0
        rank[:] = 0
        for p in range(ncells):
            v = beam[s, st.moves[m, p]]
            count[v] += 1
            rank[v] += st.binom[p, count[v]]  # binom is as wide as any colour's count
        for i in range(ng):
            ranks[m, i] = rank[st.gcols[i]]
            prefetch(st.table, ranks[m, i])


@njit(cache=True, inline="always")
def _read_children(st, cut, s, ranks, hmax, key):
    """Beam state s's ranked children scored from the gather table."""
    nm, ng = st.moves.shape[0], st.gcols.shape[0]
    for m in range(nm):
        row = s * nm + m
        if hmax[row] < 0:
            continue
        a, b = 0, 0
        for i in range(ng):
            d = np.int64(st.table[ranks[m, i]])
            b += d
            if d > a:
                a = d
        hmax[row] = a
        key[row] = child_key(b, a, cut)


@njit(cache=True, parallel=True)
def _hashes(beam, rows, st):
    """The Zobrist hash of each child named by ``rows`` (s*M + m)."""
    nm = st.moves.shape[0]
    out = np.empty(rows.shape[0], np.uint64)
    for i in prange(rows.shape[0]):
        s, m = rows[i] // nm, rows[i] % nm
        x = np.uint64(0)
        for p in range(beam.shape[1]):
            x ^= st.zobrist[p, beam[s, st.moves[m, p]]]
        out[i] = x
    return out


@njit(cache=True, inline="always")
def _slot(slots, used, x):
    """Where hash ``x`` is, or the free slot it goes to (open addressing)."""
    mask = np.uint64(slots.shape[0] - 1)
    j = x & mask
    while used[j] and slots[j] != x:
        j = (j + np.uint64(1)) & mask
    return j


@njit(cache=True)
def _by_hash(rows, xs):
    """``rows`` and their hashes ``xs`` ordered by the hashes' top byte
    (then as they were): a fixed order that does not favour any parent."""
    spot = np.zeros(257, np.int64)
    for x in xs:
        spot[np.int64(x >> np.uint64(56)) + 1] += 1
    for b in range(256):
        spot[b + 1] += spot[b]
    out_rows = np.empty_like(rows)
    out_xs = np.empty_like(xs)
    for i in range(rows.shape[0]):
        b = np.int64(xs[i] >> np.uint64(56))
        out_rows[spot[b]] = rows[i]
        out_xs[spot[b]] = xs[i]
        spot[b] += 1
    return out_rows, out_xs


@njit(cache=True)
def pick_children(key, beam, st, seen, width):
    """The beam's next level: rows (s*M + m) of the ``width`` children with
    the smallest ``key``, one per state and none whose Zobrist hash is in
    ``seen``; ``key`` < 0 leaves a child out. Returns (rows, their hashes),
    best first. Ties go by row, except in the last key read, which goes by
    hash (:func:`_by_hash`).

    Keys are small (guide * 64 + bound), so a counting sort orders them, a
    band of keys at a time: each band holds at least twice ``width``
    children, and only the children of the bands read are placed and
    hashed (a level of 100,000 states has 1.6 M children; the first band
    usually fills the beam)."""
    top = 0
    for r in range(key.shape[0]):
        if key[r] > top:
            top = key[r]
    count = np.zeros(top + 1, np.int64)
    for r in range(key.shape[0]):
        if key[r] >= 0:
            count[key[r]] += 1
    size = 1
    while size < 2 * (seen.shape[0] + width) + 2:
        size *= 2
    slots = np.zeros(size, np.uint64)
    used = np.zeros(size, np.bool_)
    for x in seen:
        j = _slot(slots, used, x)
        used[j] = True
        slots[j] = x
    rows = np.empty(width, np.int64)
    hashes = np.empty(width, np.uint64)
    took = 0
    lo = 0
    while lo <= top and took < width:
        hi, held = lo, count[lo]  # the band of keys lo..hi
        while hi < top and held < 2 * width:
            hi += 1
            held += count[hi]
        start = np.zeros(hi - lo + 2, np.int64)
        for k in range(lo, hi + 1):
            start[k - lo + 1] = start[k - lo] + count[k]
        band = np.empty(held, np.int64)
        fill = start[:-1].copy()
        for r in range(key.shape[0]):
            k = key[r]
            if lo <= k <= hi:
                band[fill[k - lo]] = r
                fill[k - lo] += 1
        band_xs = _hashes(beam, band, st)  # one parallel call a band (beams of 1,000 read many keys)
        for k in range(lo, hi + 1):
            if took == width:
                break
            tied = band[start[k - lo] : start[k - lo + 1]]
            xs = band_xs[start[k - lo] : start[k - lo + 1]]
            if took + tied.shape[0] > width:
                # the last key read does not all fit: its children go by the top bits of their
                # hash, not by their parent, or on coarse scores (the misfit count) the beam
                # crowds around its best few states (8x8 three colours, 20 states: 0.4 moves longer)
                tied, xs = _by_hash(tied, xs)
            for i in range(tied.shape[0]):
                if took == width:
                    break
                j = _slot(slots, used, xs[i])
                if used[j]:
                    continue
                used[j] = True
                slots[j] = xs[i]
                rows[took] = tied[i]
                hashes[took] = xs[i]
                took += 1
        lo = hi + 1
    return rows[:took], hashes[:took]


@njit(cache=True, parallel=True)
def gather_keys(beam, rows, moves, gcols, shift):
    """(G, R, 1) the two-colour grid's one-word keys of the children named
    by ``rows`` (s*M + m), one per colour of ``gcols``: that colour 0, every
    other 1, cell i's bit at ``shift[i]`` (the two-colour layout). Made in
    one pass over each child's cells, without the child's cells, G
    comparisons and G encodings (8x8 four colours: a fifth of a solve's
    time went there)."""
    nm, ng = moves.shape[0], gcols.shape[0]
    out = np.empty((ng, rows.shape[0], 1), np.uint64)
    full = np.uint64(0)
    for i in range(beam.shape[1]):
        full |= np.uint64(1) << np.uint64(shift[i])
    for r in prange(rows.shape[0]):
        s, m = rows[r] // nm, rows[r] % nm
        bits = np.zeros(4, np.uint64)  # the cells of each colour
        for i in range(beam.shape[1]):
            bits[beam[s, moves[m, i]]] |= np.uint64(1) << np.uint64(shift[i])
        for g in range(ng):
            out[g, r, 0] = full ^ bits[gcols[g]]
    return out


@njit(cache=True, parallel=True)
def make_children(beam, moves, rows):
    """The children named by ``rows`` (s*M + m) as cell arrays."""
    nm = moves.shape[0]
    out = np.empty((rows.shape[0], beam.shape[1]), np.uint8)
    for i in prange(rows.shape[0]):
        s, m = rows[i] // nm, rows[i] % nm
        for j in range(beam.shape[1]):
            out[i, j] = beam[s, moves[m, j]]
    return out


@njit(cache=True)
def bounded_dfs(start, st, bound, budget, path, vkeys, vmeta):
    """One IDA* iteration: depth-first search for a solution of ``bound``
    moves, pruning with the largest gather distance (admissible), where no
    shorter one exists (IDA* raises the bound one proven value at a time).
    It is the horizon search of :func:`horizon_dfs` with the horizon at the
    bound: a state reached there within the bound has gather distance 0,
    which is solved.

    Returns (length or -1, nodes visited, next bound); length -2 means the
    node budget ran out. The moves found are written to ``path``."""
    ncells = start.shape[0]
    h0, _ = gather_bounds(start, st.gcols, st.table, st.binom)
    if h0 == 0:
        return 0, 1, 1 << 30
    ps = pair_stack(bound + 1, st.moves.shape[0], st.psides.shape[0])
    pair_start(start, st, ps)
    stack = np.empty((bound + 1, ncells), np.uint8)
    stack[0] = start
    nextm = np.zeros(bound + 1, np.int64)
    skips = np.zeros(bound + 1, np.int64)
    solved = np.empty((1, ncells), np.uint8)
    moves = np.empty((1, bound), np.int64)
    count, depth, nodes, nxt = _horizon_stream(
        st,
        bound,
        bound,
        stack,
        nextm,
        skips,
        path,
        0,
        solved,
        moves,
        budget,
        0,
        1,
        0,
        np.zeros(1, np.int64),
        ps,
        vkeys,
        vmeta,
    )
    if count:
        path[:bound] = moves[0]
        return bound, nodes, nxt
    return (-2 if depth >= 0 else -1), nodes, nxt


@njit(cache=True, inline="always")
def _horizon_stream(
    st,
    bound,
    horizon,
    stack,
    nextm,
    skips,
    path,
    depth,
    leaves,
    leaf_paths,
    budget,
    split,
    stride,
    offset,
    seen,
    ps,
    vkeys,
    vmeta,
):
    """The loop of :func:`horizon_dfs`, for one of ``stride`` streams: of
    the nodes at depth ``split`` (numbered in search order, the count kept
    in ``seen[0]`` between calls) it enters only those numbered ``offset``
    modulo ``stride``, so streams share the work without talking. ``ps``
    holds the pair distances of the states on the stack
    (:class:`.pair_kernels.PairStack`; no columns without a pair census):
    the bound is the largest of them and of the gather distances. The
    pair distances are read first: they cut most children, before their
    cells are made or their gather distances read. ``vkeys``/``vmeta`` are
    the stream's visit table (:mod:`.visit_kernels`; no slots: none): a
    state below the split that was searched before with as many moves
    left searches only the move families it did not (``skips[depth]``).
    Not in the two levels next to the horizon: their states are the most
    and their subtrees the smallest, so a repeat there costs more to find
    than it saves (6x6 four colours, two states at 18: as many nodes cut
    in 0.86-0.89 of the time without visits, against 0.86-0.97 visiting
    every level)."""
    ncells, nm = stack.shape[1], st.moves.shape[0]
    first = st.blocked.shape[0] - 1
    pairs = st.psides.shape[0] > 0
    visits = vkeys.shape[0] > 0
    after = np.zeros(st.blocked.shape[1], np.int64)  # per family, the families that may follow it
    for f in range(st.blocked.shape[1]):
        for g in range(st.blocked.shape[1]):
            if not st.blocked[f, g]:
                after[f] |= 1 << g
    count, nodes = 0, 0
    nxt = 1 << 30
    while depth >= 0 and nodes < budget:
        m = nextm[depth]
        if m >= nm:
            depth -= 1
            continue
        fam = first if depth == 0 else st.family[path[depth - 1]]
        if m == 0 and pairs:
            pair_kids(st, ps, depth, fam)
        nextm[depth] = m + 1
        if st.blocked[fam, st.family[m]] or (skips[depth] >> st.family[m]) & 1:
            continue
        nodes += 1
        h = pair_child(st, ps, depth, m, bound - depth - 1)
        cur = stack[depth + 1]
        if depth + 1 + h <= bound:
            for i in range(ncells):
                cur[i] = stack[depth, st.moves[m, i]]
            h = max(h, gather_bounds(cur, st.gcols, st.table, st.binom)[0])
        f = depth + 1 + h
        if f > bound:
            if f < nxt:
                nxt = f
            continue
        if depth + 1 == split:
            seen[0] += 1
            if (seen[0] - 1) % stride != offset:
                continue
        path[depth] = m
        skip = 0
        if visits and split < depth + 1 < horizon - 1:  # above the split every stream must see the same nodes
            skip = visit(vkeys, vmeta, cur, depth + 1, after[st.family[m]])
            if skip < 0:
                continue
        if depth + 1 == horizon:
            leaves[count] = cur
            leaf_paths[count, :horizon] = path[:horizon]
            count += 1
            if count == leaves.shape[0]:
                return count, depth, nodes, nxt
        else:
            depth += 1
            nextm[depth] = 0
            skips[depth] = skip
    return count, depth, nodes, nxt


@njit(cache=True, parallel=True)
def horizon_dfs(
    st,
    bound,
    horizon,
    stacks,
    nextms,
    skips,
    paths,
    depths,
    leaves,
    leaf_paths,
    counts,
    budget,
    seen,
    pss,
    vkeys,
    vmeta,
    split,
    share,
    shares,
):
    """IDA* up to a horizon, resumable, in ``T = len(depths)`` parallel
    streams: depth-first search from ``stacks[t, 0]`` (the same start in
    every stream) under ``moves made + largest gather distance <= bound``,
    writing the states reached at depth ``horizon`` (and their moves) into
    ``leaves[t]`` and ``leaf_paths[t]`` for the caller to look up in a
    stored tree of height ``bound - horizon``; ``counts[t]`` says how many.
    Each stream stops when done (``depths[t]`` = -1), when its leaves are
    full, or after ``budget`` nodes; the arrays carry the search between
    calls (``pss``: a :class:`.pair_kernels.PairStack` with a row per
    stream, its first depth set from the start). The streams divide the
    nodes at depth ``split`` among them; with ``shares`` > 1 this call is
    share ``share`` of that many, each searching its own ``1 / shares`` of
    the iteration (:mod:`.spread`: one iteration over many machines).
    Returns (nodes, smallest f cut)."""
    streams = depths.shape[0]
    split = min(split, horizon)
    nodes = np.zeros(streams, np.int64)
    cut = np.full(streams, 1 << 30, np.int64)
    for t in prange(streams):
        counts[t] = 0
        if depths[t] < 0:
            continue
        c, d, k, x = _horizon_stream(
            st,
            bound,
            horizon,
            stacks[t],
            nextms[t],
            skips[t],
            paths[t],
            depths[t],
            leaves[t],
            leaf_paths[t],
            budget,
            split,
            streams * shares,
            share * streams + t,
            seen[t],
            PairStack(pss.dist[t], pss.words[t], pss.kid_words[t], pss.kid_index[t]),
            vkeys[t],
            vmeta[t],
        )
        counts[t], depths[t], nodes[t], cut[t] = c, d, k, x
    return nodes.sum(), cut.min()
