"""Censuses of the other puzzles (wsdb/db/census.py) against the figures
their documents publish (tests/data/puzzles.json) and against a plain
breadth-first search over tuples whose moves are written here from the
rules, sharing no code with wsdb."""
import math
from collections import deque

import pytest

from wsdb.db.census import census, diameter
from wsdb.errors import WsdbError
from wsdb.puzzle.catalog import get_puzzle


def subgame_goal(colours, n=4):
    """A goal text from lists of 1-based cells, one list per colour."""
    g = ["0"] * (n * n)
    for colour, cells in enumerate(colours, start=1):
        for cell in cells:
            g[cell - 1] = str(colour)
    return "/".join("".join(g[r * n:(r + 1) * n]) for r in range(n))


def plain_bfs(goal, moves):
    """States per distance from ``goal`` (a tuple), each move a function
    tuple -> tuple."""
    dist = {goal: 0}
    todo = deque([goal])
    while todo:
        s = todo.popleft()
        for move in moves:
            t = move(s)
            if t not in dist:
                dist[t] = dist[s] + 1
                todo.append(t)
    counts = [0] * (max(dist.values()) + 1)
    for d in dist.values():
        counts[d] += 1
    return counts


def grid_moves_rubeish(n):
    def row(i, k):
        return lambda s: tuple(s[r * n + (j - k) % n] if r == i else s[r * n + j] for r in range(n) for j in range(n))

    def col(i, k):
        return lambda s: tuple(s[((r - k) % n) * n + j] if j == i else s[r * n + j] for r in range(n) for j in range(n))
    return [f(i, k) for f in (row, col) for i in range(n) for k in range(1, n)]


def grid_moves_rotate(n):
    def turn(x, y, clockwise):
        a, b, c, d = y * n + x, y * n + x + 1, (y + 1) * n + x + 1, (y + 1) * n + x

        def move(s):
            t = list(s)
            if clockwise:
                t[b], t[c], t[d], t[a] = s[a], s[b], s[c], s[d]
            else:
                t[a], t[b], t[c], t[d] = s[b], s[c], s[d], s[a]
            return tuple(t)
        return move
    return [turn(x, y, cw) for y in range(n - 1) for x in range(n - 1) for cw in (True, False)]


def slide_hard_3x3():
    ring = [0, 1, 2, 5, 8, 7, 6, 3]   # the 8 outer cells, clockwise

    def right(s):
        return tuple(s[r * 3 + (j - 1) % 3] for r in range(3) for j in range(3))

    def up(s):
        return tuple(s[((r + 1) % 3) * 3 + j] for r in range(3) for j in range(3))

    def turn(s):
        t = list(s)
        for a, b in zip(ring, ring[1:] + ring[:1]):
            t[b] = s[a]
        return tuple(t)

    def inv(f, k):
        def g(s):
            for _ in range(k):
                s = f(s)
            return s
        return g
    return [right, inv(right, 2), up, inv(up, 2), turn, inv(turn, 7)]


@pytest.mark.parametrize("name, n, goal, moves", [
    ("rubeish", 3, None, lambda: grid_moves_rubeish(3)),
    ("rubeish", 3, "112/233/123", lambda: grid_moves_rubeish(3)),
    ("rotate2x2", 3, "112/233/123", lambda: grid_moves_rotate(3)),
    ("rotate2x2", 4, "1100/1100/0011/0011", lambda: grid_moves_rotate(4)),
    ("rubiks-slide-hard", 3, None, slide_hard_3x3),
])
def test_census_equals_a_plain_search(name, n, goal, moves):
    p = get_puzzle(name, n, goal=goal)
    result = census(p)
    start = tuple(p.solved[0].tolist())
    assert result.states == plain_bfs(start, moves())
    # classes under the kept maps partition the states
    assert all(k <= s for k, s in zip(result.classes, result.states))


def test_rubeish_matches_the_article(published):
    ref = published["rubeish"]
    result = census(get_puzzle("rubeish", ref["n"]))
    assert result.total == ref["states"] == math.factorial(9) // 2
    assert result.height == ref["god"]


@pytest.mark.parametrize("group", range(5))
def test_rubiks_slide_groups_match_the_thesis(group, published):
    ref = published["rubiks_slide"]["groups"][group]
    result = census(get_puzzle(f"rubiks-slide-{ref['mode']}", ref["n"]))
    assert (result.total, result.height) == (ref["order"], ref["god"])


@pytest.mark.parametrize("block", ["easy_subgames_4x4", "hard_subgames_4x4"])
def test_rubiks_slide_subgames_match_the_thesis(block, published):
    mode = block.split("_")[0]
    for colours, order, god in published["rubiks_slide"][block]["games"]:
        if order > 4000:
            continue   # the large ones: test_the_largest_subgame_bounds_the_hard_mode
        p = get_puzzle(f"rubiks-slide-{mode}", 4, goal=subgame_goal(colours))
        result = census(p, all_pairs=True)
        assert result.total == order, colours
        if god is not None:
            assert result.diameter == god, colours
        assert result.height <= result.diameter


def test_the_largest_subgame_bounds_the_hard_mode(published):
    # blue 1, 2 and red 3, 4, 5: 18,816 configurations, diameter 10. A
    # subgame's distances are at most the full game's, so the hard mode's
    # God's number is at least 10 (the thesis proves 8)
    colours, order, _ = published["rubiks_slide"]["hard_subgames_4x4"]["games"][-1]
    p = get_puzzle("rubiks-slide-hard", 4, goal=subgame_goal(colours))
    assert census(p).total == order
    assert diameter(p) == 10 > published["rubiks_slide"]["groups"][5]["god_lower_bound"]


def test_rotate2x2_reaches_every_configuration(published):
    ref = published["rotate2x2"]
    three = census(get_puzzle("rotate2x2", 3, goal="111/222/333"))
    assert three.total == ref["three_colours_3x3"]["configurations"]
    two = get_puzzle("rotate2x2", 4, goal="0101/1010/0101/1010")
    assert census(two).total == two.states == math.comb(16, 8)


def test_rotate2x2_distinct_pieces(published):
    # the document's open case: every permutation of nine dots is reached (a
    # block turn is a 4-cycle, odd); the distribution, and so God's number
    # (docs/puzzles.md), is the plain search's too
    p = get_puzzle("rotate2x2", 3)
    result = census(p)
    assert result.total == published["rotate2x2"]["distinct_3x3"]["configurations"] == math.factorial(9)
    assert result.states == plain_bfs(tuple(p.solved[0].tolist()), grid_moves_rotate(3))


def test_symmetry_classes_count_the_same_states():
    p = get_puzzle("rubeish", 3, goal="111/222/333")
    assert len(p.maps) > 1
    result = census(p)
    assert result.total == 1680 and sum(result.classes) < 1680


def test_too_large_a_census_is_refused_before_memory_runs_out(monkeypatch):
    import wsdb.db.census as mod
    monkeypatch.setattr(mod, "MAX_CLASSES", 1000)
    with pytest.raises(WsdbError, match="counted in memory"):
        census(get_puzzle("rubiks-slide-hard", 3))
    monkeypatch.setattr(mod, "DIAMETER_STATES", 100)
    with pytest.raises(WsdbError, match="counted in memory"):
        diameter(get_puzzle("rubeish", 3, goal="112/233/123"))
