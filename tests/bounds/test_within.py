"""Solutions within a budget (wsdb/bounds/within.py): the narrow beam where
its sequence fits, the full solve where it does not; every sequence real."""

import pytest

import wsdb
from wsdb.errors import WsdbError
from wsdb.puzzle import random_states, wrapslide
from wsdb.puzzle.replay import replay
from wsdb.bounds.within import solve_within


def _texts(c, count, seed):
    return [wsdb.format_state(x) for x in random_states(wrapslide(4, c), count, seed=seed)]


def test_the_narrow_beam_answers_within_a_loose_budget(partial4, exact_distance):
    store = partial4[1]
    texts = _texts(4, 8, 11)
    distance = exact_distance(4)
    answers = list(solve_within(texts, 40, store))
    assert [a.method for a in answers] == ["beam"] * len(texts)
    for text, a in zip(texts, answers):
        assert replay(text, a.moves).solved
        assert distance(wsdb.parse_state(text)[1]) <= a.length <= 40
    assert [a.moves for a in solve_within(texts, 40, store)] == [a.moves for a in answers]  # the same again


def test_a_beam_sequence_past_the_budget_goes_to_the_full_solve(partial4):
    store = partial4[1]
    texts = _texts(4, 4, 12)
    loose = list(solve_within(texts, 40, store))
    tight = list(solve_within(texts, min(a.length for a in loose) - 1, store, width=1))
    assert all(a.method != "beam" for a in tight)  # every beam sequence was too long
    assert all(replay(t, a.moves).solved for t, a in zip(texts, tight))


def test_bad_states_are_refused_at_the_call(partial4):
    with pytest.raises(WsdbError):
        solve_within(["1234/5678"], 10, partial4[1])
