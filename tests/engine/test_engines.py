"""Engines (wsdb/engine/engines.py): the numpy twin answers as the numba
engine does, and the right one is chosen by batch size."""
import pytest

from wsdb.engine import Engine, SmallEngine, engine_for, get_engine
from wsdb.engine.engines import SMALL
from wsdb.puzzle import random_states, wrapslide


@pytest.mark.parametrize("n, c", [(4, 3), (4, 4), (6, 2), (6, 4), (8, 3)])
def test_numpy_and_numba_engines_agree(n, c):
    p, big = wrapslide(n, c), get_engine(n, c)
    small = SmallEngine(p)
    raw = big.encode(random_states(p, 30, seed=5))
    assert (small.canonical(raw) == big.canonical(raw)).all()
    targets = big.canonical(big.move(raw, 3))
    for eng in (small, big):
        found, nxt = eng.step(raw, targets)
        assert (found >= 0).all() and (big.canonical(nxt) == targets).all()


def test_engine_choice_by_batch_size():
    assert isinstance(engine_for(4, 4, 1), SmallEngine)
    assert isinstance(engine_for(4, 4, SMALL + 1), Engine)
    assert get_engine(4, 4) is get_engine(4, 4)   # tables are built once
