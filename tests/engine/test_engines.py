"""Engines (wsdb/engine/engines.py): the numpy twin answers as the numba
engine does, and the right one is chosen by batch size."""

import numpy as np
import pytest

from wsdb.engine import Engine, SmallEngine, engine_for, get_engine
from wsdb.engine.engines import SMALL
from wsdb.puzzle import random_states, wrapslide


@pytest.mark.parametrize("n, c", [(4, 3), (4, 4), (6, 2), (6, 4), (8, 2), (8, 3)])
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
    assert get_engine(4, 4) is get_engine(4, 4)  # tables are built once


def test_8x8_two_colour_keys_are_bitboards_and_canonicalise_as_in_numpy():
    """The 8x8 two-colour grid (the solver's gather distances) maps its keys
    by bit operations (kernels.canonical1); no other grid does. Its classes
    are those of numpy's minimum over all 32 maps, also for states that
    some maps fix (solved states and their neighbours)."""
    assert get_engine(8, 2).tables.board8
    assert not any(get_engine(n, c).tables.board8 for n, c in [(8, 3), (8, 4), (6, 2), (4, 2)])
    p, big = wrapslide(8, 2), get_engine(8, 2)
    near = [p.apply(s, [m]) for s in p.solved for m in range(0, len(p.moves), 3)]
    raw = big.encode(np.concatenate([random_states(p, 400, seed=8), p.solved, near]))
    assert (SmallEngine(p).canonical(raw) == big.canonical(raw)).all()
