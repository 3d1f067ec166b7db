"""Replays (wsdb/puzzle/replay.py): every state along a move sequence."""

import pytest

from wsdb.errors import WsdbError
from wsdb.puzzle import format_state, random_states, wrapslide
from wsdb.puzzle.replay import replay


@pytest.mark.parametrize("n,c", [(4, 2), (6, 3), (8, 4)])
def test_each_state_is_one_move_from_the_last(n, c):
    p = wrapslide(n, c)
    start = random_states(p, 1, seed=n + c)[0]
    names = [p.move_names[i] for i in (0, 5, len(p.move_names) - 1, 3)]
    r = replay(format_state(start), [" ".join(names[:2]), *names[2:]])  # one string may hold several
    assert r.moves == names and len(r.states) == len(names) + 1
    cells = start
    for name, text in zip(names, r.states[1:]):
        cells = p.apply(cells, [name])
        assert text == format_state(cells)
    assert r.result == r.states[-1] and r.solved == p.is_solved(cells)
    inverse = [p.move_names[p.move_inverse[p.move_index(m)]] for m in reversed(names)]
    assert replay(r.result, inverse).result == r.state


def test_solved_flag_and_bad_moves():
    assert replay("1122/1122/3344/3344", []).solved
    assert not replay("1122/1122/3344/3344", ["t1"]).solved
    with pytest.raises(WsdbError, match="unknown move"):
        replay("1122/1122/3344/3344", ["T4"])
