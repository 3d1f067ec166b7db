"""The learned guide: its kernel, its training states and targets, a tiny
network trained in seconds and checked against the exact 4x4 tree,
resumption, its files, and ``--method learned`` answers."""

from __future__ import annotations

import json
import shutil

import numba
import numpy as np
import pandas as pd
import pytest

import wsdb
from wsdb.db.store import Store
from wsdb.db.weights import load_guide, save_guide
from wsdb.errors import DamagedError, NotBuiltError
from wsdb.puzzle.model import random_states
from wsdb.solver.evaluate import evaluate
from wsdb.solver.learned import guide_path
from wsdb.solver.learning import learn
from wsdb.solver.tables import endgame
from wsdb.solver.training import Recipe, Run, targets, train, walk_targets
from wsdb.solver.value_net import ValueNet, forward, gradients, one_hot
from wsdb.solver.walks import UNBOUNDED, training_states, walk_states

TINY = Recipe(hidden=(32, 16), rounds=4, steps=10, batch=300, longest=14, seed=3)


def _rank_correlation(a, b) -> float:
    return float(pd.Series(a).rank().corr(pd.Series(b).rank()))


@pytest.fixture(scope="module")
def tree44(db4):
    store = Store.open(db4)
    yield store, endgame(4, 4, store)
    store.close()


def test_kernel_matches_numpy_and_threads():
    """The numba kernel computes the network numpy's products compute, and
    bit for bit the same on one thread as on all."""
    p = wsdb.wrapslide(6, 3)
    net = ValueNet.initial(p.ncells, p.c, (40, 24), np.random.default_rng(1))
    states = random_states(p, 500, 2)
    v = net.values(states)
    np.testing.assert_allclose(v, forward(net, one_hot(states, p.c))[0], rtol=1e-4, atol=1e-4)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        assert np.array_equal(net.values(states), v)
    finally:
        numba.set_num_threads(threads)


def test_gradient_matches_finite_differences():
    p = wsdb.wrapslide(4, 2)
    rng = np.random.default_rng(4)
    net = ValueNet.initial(p.ncells, p.c, (8, 6), rng)
    net = ValueNet.of(p.ncells, p.c, [a.astype(np.float64) for a in net.arrays])
    x = one_hot(random_states(p, 20, 5), p.c)
    y = rng.random(20).astype(np.float32) * 5
    _, grads = gradients(net, x, y)
    arrays = [a.astype(np.float64) for a in net.arrays]
    for which, index in [(0, (3, 2)), (2, (1, 4)), (4, (5,)), (5, (0,))]:
        eps = 1e-2
        plus = [a.copy() for a in arrays]
        plus[which][index] += eps
        minus = [a.copy() for a in arrays]
        minus[which][index] -= eps

        def loss(arr):
            v = forward(ValueNet.of(p.ncells, p.c, arr), x)[0]
            return float(np.mean((v - y) ** 2))

        numeric = (loss(plus) - loss(minus)) / (2 * eps)
        assert grads[which][index] == pytest.approx(numeric, rel=0.05, abs=1e-3)


def test_walks_bound_the_distance(tree44):
    """A walk of k moves ends at most k moves from solved (exact 4x4 tree),
    and its state holds the grid's colours."""
    _, eg = tree44
    p = wsdb.wrapslide(4, 4)
    states, lengths = walk_states(p, 3000, 12, np.random.default_rng(0))
    d = eg.depth(states)
    assert (d >= 0).all() and (d <= lengths).all()
    assert (d[lengths == 0] == 0).all()
    assert (np.sort(states, axis=1) == np.repeat(np.arange(4), 4)).all()
    assert np.mean(d[lengths == 12]) > 6  # the pruned walks go far: they do not undo themselves


def test_drawn_states_are_unbounded():
    p = wsdb.wrapslide(4, 3)
    states, bounds = training_states(p, 100, 10, 0.25, np.random.default_rng(0))
    assert (bounds == UNBOUNDED).sum() == 25 and (bounds[:75] <= 10).all()


def test_targets_agree_with_the_tree(tree44, partial4):
    """With the complete tree every target is the exact distance; with a
    partial tree of height h, states it does not hold get at least h + 1,
    which holds for their exact distances too."""
    _, eg = tree44
    p = wsdb.wrapslide(4, 4)
    states, bounds = walk_states(p, 500, 12, np.random.default_rng(1))
    zero = ValueNet.of(
        p.ncells, p.c, [np.zeros_like(a) for a in ValueNet.initial(16, 4, (4, 4), np.random.default_rng(0)).arrays]
    )
    assert np.array_equal(targets(p, states, bounds, zero, eg), eg.depth(states))
    assert np.array_equal(walk_targets(p, states, bounds, eg), eg.depth(states))
    _, store, guide = partial4
    part = guide.endgame
    y = targets(p, states, bounds, zero, part)
    exact = eg.depth(states)
    held = part.depth(states) >= 0
    assert np.array_equal(y[held], exact[held])
    assert (y[~held] >= part.height + 1).all() and (exact[~held] >= part.height + 1).all()
    # without a tree, value iteration from zero gives every unsolved state one move
    y = targets(p, states, bounds, zero, None)
    assert set(np.unique(y)) <= {0.0, 1.0} and (y[exact == 0] == 0).all()


def test_tiny_guide_ranks_states(tree44):
    """A tiny network trained for seconds ranks 4x4 states by their exact
    distance (the stored tree), far from chance."""
    _, eg = tree44
    p = wsdb.wrapslide(4, 4)
    run = train(p, Run.start(p, Recipe(hidden=(128, 64), rounds=20, steps=10, batch=500, longest=14)), eg)
    states, _ = walk_states(p, 2000, 14, np.random.default_rng(9))
    assert _rank_correlation(run.net.values(states), eg.depth(states)) > 0.7


@pytest.mark.parametrize("how", ["walks", "iteration"])
def test_guide_beyond_a_partial_tree(tree44, partial4, how):
    """Trained beside a tree of depth 4 only, by either kind of target, the
    estimate still ranks the states beyond it (exact distances from the
    complete tree) far from chance."""
    _, eg = tree44
    _, _, guide = partial4
    p = wsdb.wrapslide(4, 4)
    recipe = Recipe(hidden=(128, 64), rounds=20, steps=10, batch=500, longest=14, targets=how)
    run = train(p, Run.start(p, recipe), guide.endgame)
    states, _ = walk_states(p, 2000, 14, np.random.default_rng(9))
    d = eg.depth(states)
    far = d > 4
    assert _rank_correlation(run.net.values(states[far]), d[far]) > 0.3


def test_same_seed_same_weights_and_resume(db4, tmp_path):
    """One seed gives one set of weights; a run stopped after two rounds and
    given the same command again ends on the weights of an unbroken run."""
    db = tmp_path / "w.sqlite"
    shutil.copy(db4, db)
    store = Store.open(db)
    p = wsdb.wrapslide(4, 4)
    whole = learn(p, store, TINY, name="whole")
    again = learn(p, store, TINY, name="again", fresh=True)
    assert whole.about["weights_xxh3_128"] == again.about["weights_xxh3_128"]
    first = learn(p, store, Recipe(**{**TINY.__dict__, "rounds": 2}), name="parts")
    assert first.about["rounds_done"] == 2 and first.about["weights_xxh3_128"] != whole.about["weights_xxh3_128"]
    rest = learn(p, store, TINY, name="parts")
    assert rest.resumed_from == 2 and rest.about["rounds_done"] == 4
    assert rest.about["weights_xxh3_128"] == whole.about["weights_xxh3_128"]
    assert rest.about["exact_tree"]["height"] == 12 and len(rest.about["losses"]) == 4
    other = Recipe(**{**TINY.__dict__, "seed": 4})
    with pytest.raises(wsdb.InputError, match="another recipe"):
        learn(p, store, other, name="parts")
    store.close()


def test_damaged_guide_is_refused(tmp_path):
    path = tmp_path / "g.npz"
    net = ValueNet.initial(16, 2, (4, 4), np.random.default_rng(0))
    save_guide(path, net.arrays, {"rounds_done": 1})
    weights, about, _ = load_guide(path)
    assert all(np.array_equal(a, b) for a, b in zip(weights, net.arrays))
    data = bytearray(path.read_bytes())
    path.write_bytes(bytes(data[: len(data) // 2]))
    with pytest.raises(DamagedError, match="damaged"):
        load_guide(path)


def test_learned_solves_and_names_its_guide(db4, tmp_path):
    """``--method learned`` answers 4x4 states with checked moves no shorter
    than their exact distance, names its weights, and says how to train a
    guide where there is none."""
    db = tmp_path / "w.sqlite"
    shutil.copy(db4, db)
    p = wsdb.wrapslide(4, 4)
    with pytest.raises(NotBuiltError, match="wsdb learn --n 4 --c 4"):
        wsdb.solve("1234/2341/3412/4123", db=db, method="learned")
    store = Store.open(db)
    learn(p, store, Recipe(hidden=(128, 64), rounds=20, steps=10, batch=500, longest=14), name="default")
    store.close()
    states = [wsdb.format_state(s) for s in random_states(p, 6, 11)]
    for sol in wsdb.solve_many(states, db=db, method="learned"):
        exact = wsdb.lookup(sol.state, db=db).distance
        assert sol.length >= exact and sol.method.startswith("learned")
        assert "guided by 4x4-4-colour-default" in sol.note
        assert p.is_solved(p.apply(wsdb.parse_state(sol.state)[1], sol.moves))
    # a stored run names the weights its answers depend on
    run = evaluate(4, 4, 3, 5, method="learned", db=db)
    params = json.loads(next(r for r in Store.open(db).run_rows() if r["run_id"] == run.run_id)["params"])
    about = json.loads(guide_path(db, p).with_suffix(".json").read_text())
    assert params["guide"]["weights_xxh3_128"] == about["weights_xxh3_128"]


def test_learn_cli(db4, tmp_path, run):
    db = tmp_path / "w.sqlite"
    shutil.copy(db4, db)
    r = run("learn", "--db", db, "--n", 4, "--c", 2, "--rounds", 2, "--hidden", "16,8", "--json", "-q")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["rounds_done"] == 2 and out["recipe"]["hidden"] == [16, 8]
    assert guide_path(db, wsdb.wrapslide(4, 2)).exists()
    r = run("learn", "--db", db, "--n", 4, "--c", 2, "--hidden", "16")
    assert r.exit_code == 2 and "--hidden '16'" in r.output and "Traceback" not in r.output


def test_auto_takes_the_learned_beam_where_a_guide_is_kept(partial4, db4, tmp_path, monkeypatch):
    """On a grid of LEARNED_AUTO, auto goes from meet in the middle to the
    learned beam once a guide is kept (and to the phases or beam before):
    its answers are checked, at least the exact distance, and name the guide."""
    db = tmp_path / "partial.sqlite"
    shutil.copy(partial4[0], db)
    monkeypatch.setattr("wsdb.solver.solve.LEARNED_AUTO", {(4, 4)})
    monkeypatch.setattr("wsdb.solver.methods.MEET_CHILDREN", {0: 100})  # so that the forward search misses
    p = wsdb.wrapslide(4, 4)
    states = [wsdb.format_state(s) for s in random_states(p, 4, 12)]
    before = wsdb.solve_many(states, db=db)
    assert not any("learned" in s.method for s in before)
    store = Store.open(db)
    learn(p, store, Recipe(hidden=(64, 32), rounds=6, steps=10, batch=500, longest=14))
    store.close()
    after = wsdb.solve_many(states, db=db)
    assert all(s.method.startswith("learned (after meet in the middle)") for s in after)
    assert all(s.length >= wsdb.lookup(s.state, db=db4).distance for s in after)
    assert all("guided by 4x4-4-colour-default" in s.note for s in after)
    assert all(a.lower_bound == b.lower_bound for a, b in zip(after, before))
