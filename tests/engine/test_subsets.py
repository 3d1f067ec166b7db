"""The two-colour numbering and census (wsdb/engine/subsets.py,
subset_kernels.py) against the rules: a brute-force BFS over raw states
(tests/bruteforce.py) and the combinatorial number system written out."""

import itertools
import math

import numpy as np
import pytest

from tests.bruteforce import levels_from
from wsdb.engine.census import ranked_census
from wsdb.engine.subsets import SubsetRanking
from wsdb.errors import WsdbError
from wsdb.puzzle.model import merged, wrapslide

GRIDS = [(wrapslide(4, 2), False), (merged(wrapslide(4, 3), "12"), True), (merged(wrapslide(4, 4), "123"), False)]


@pytest.mark.parametrize("puzzle, halved", GRIDS, ids=lambda x: getattr(x, "label", str(x)))
def test_the_census_counts_what_a_brute_force_search_reaches(puzzle, halved):
    ranking = SubsetRanking.of(puzzle)
    assert ranking.halved == halved
    census = ranked_census(puzzle)
    assert census.states == levels_from(puzzle.n, puzzle.solved)
    assert census.total == puzzle.states == math.comb(16, puzzle.counts[0])
    # the farthest states the census names are at its height
    far = np.array([[int(ch) - 1 for ch in s.replace("/", "")] for s in census.farthest], dtype=np.uint8)
    deepest = levels_from(puzzle.n, far)
    assert len(deepest) - 1 >= census.height  # no state is farther from them than the goal is


def test_an_index_is_the_colexicographic_rank_of_its_cells():
    puzzle = merged(wrapslide(4, 3), "12")
    ranking = SubsetRanking.of(puzzle)
    index = np.arange(ranking.size)
    states = ranking.unrank(index)
    assert (ranking.rank(states) == index).all()
    for state, i in zip(states[::97], index[::97]):
        cells = np.flatnonzero(state == 0)
        assert i == sum(math.comb(int(p), t + 1) for t, p in enumerate(cells))
        assert 15 not in cells  # halved: the words without the last cell
    # a state and its colour swap share one index
    swapped = 1 - states[::97]
    assert (ranking.rank(swapped) == index[::97]).all()


def test_every_subset_of_the_cells_has_one_index():
    puzzle = wrapslide(4, 2)
    ranking = SubsetRanking.of(puzzle)
    got = set()
    for cells in itertools.combinations(range(16), 4):
        state = np.ones(16, np.uint8)
        state[list(cells)] = 0
        got.add(int(ranking.rank(state)))
    assert got == set(range(ranking.size))


def test_more_than_two_colours_is_refused():
    with pytest.raises(WsdbError, match="two colours"):
        SubsetRanking.of(wrapslide(4, 3))


@pytest.mark.slow
def test_6x6_two_colours_matches_its_complete_tree(thesis):
    census = ranked_census(wrapslide(6, 2))
    assert census.height == thesis["god_numbers"]["6x6_c2"]
    assert census.total == math.comb(36, 9)


def test_a_path_read_from_the_table_is_a_shortest_one():
    from tests.bruteforce import level_states
    from wsdb.engine import subset_kernels as sk
    from wsdb.engine.census import subset_table

    puzzle = merged(wrapslide(4, 3), "12")
    table = subset_table(puzzle)
    levels = level_states(4, puzzle.solved)
    depth = {s.tobytes(): d for d, level in enumerate(levels) for s in level}
    assert table.states == [len(level) for level in levels]
    assert len(table.last) * 2 == len(levels[-1])  # the deepest level, listed (an index per swap pair)
    for d, level in enumerate(levels):  # every state's distance mod 3
        assert (table.ranking.codes(table.words, table.ranking.rank(level)) == d % 3).all()
    binom, P, R, last, full = table.ranking.tables
    for cell in table.ranking.cell_words(table.last)[::50]:
        for attempt in range(3):
            path = np.empty(table.height, dtype=np.int64)
            end = sk.descend(table.words, cell, table.height, attempt, P, R, last, full, path)
            state = np.where((int(cell) >> np.arange(16)) & 1, 0, 1).astype(np.uint8)
            assert depth[state.tobytes()] == table.height
            for d, m in enumerate(path):
                state = puzzle.apply(state, [int(m)])
                assert depth[state.tobytes()] == table.height - d - 1
            assert puzzle.is_solved(state) and int(end) == int(((state == 0) << np.arange(16)).sum())


def test_a_level_read_from_the_table_is_one_state_per_orbit():
    """SubsetRanking.level: for each depth, the least word of each orbit
    under the grid's symmetries among the states brute force finds at that
    depth, no more and no fewer (the codes hold depths only mod 3)."""
    from tests.bruteforce import level_states
    from wsdb.engine.census import subset_table

    puzzle = merged(wrapslide(4, 3), "12")
    table = subset_table(puzzle)
    bits = np.arange(16)
    for d, level in enumerate(level_states(4, puzzle.solved)):
        want = {min(int(((x[m] == 0) << bits).sum()) for m in puzzle.maps) for x in level}
        got = table.ranking.level(table.words, d, puzzle.maps)
        assert len(got) == len(want) and set(got.tolist()) == want
        # and the same from a level listed whole (the deepest, as the census lists it)
        whole = ((level == 0).astype(np.uint64) << bits.astype(np.uint64)).sum(axis=1, dtype=np.uint64)
        least = table.ranking.orbits(whole, puzzle.maps)
        assert len(least) == len(want) and set(least.tolist()) == want


def test_a_census_made_here_and_one_mapped_from_the_cache_share_one_compile():
    """A writable table and a read-only one are two argument types to numba;
    the kernels that read a finished census see only read-only tables
    (wsdb.engine.compiling.read_only), so neither kind compiles them again."""
    from wsdb.engine import subset_kernels as sk
    from wsdb.engine.census import subset_table

    puzzle = merged(wrapslide(4, 3), "12")
    table = subset_table(puzzle)
    mapped = table.words.copy()
    mapped.flags.writeable = False
    kernels = (sk.least_coded, sk.distances_of)
    first = table.ranking.level(table.words, 4, puzzle.maps)
    compiled = [list(k.signatures) for k in kernels]
    got = table.ranking.level(mapped, 4, puzzle.maps)
    assert np.array_equal(got, first) and [list(k.signatures) for k in kernels] == compiled
    assert table.words.flags.writeable  # the caller's array is left as it was
