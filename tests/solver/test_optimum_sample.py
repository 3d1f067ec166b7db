"""scripts/optimum_sample.py: the proofs it prints are exact distances or
bounds below them, and its counting estimate errs low on complete trees."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import wsdb
from wsdb.puzzle import random_states, wrapslide
from wsdb.stats import summary

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "optimum_sample.py"


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("optimum_sample", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_exact_growth_gives_the_exact_mean(script):
    # levels 1, 3, 9, then 27 fill all 40 states: the mean is (3 + 18 + 81) / 40
    assert script.extrapolated_mean([1, 3, 9], 40) == pytest.approx(2.55)
    assert script.extrapolated_mean([1, 3, 9], 30) == pytest.approx((3 + 18 + 17 * 3) / 30)  # the last level is cut


def test_the_estimate_errs_low_on_complete_trees(script, db4):
    rows = {(r["n"], r["c"]): r for r in script.counting(db4)}
    means = summary(db4).set_index(["n", "c"]).mean_distance_states
    for c in (3, 4):
        r = rows[4, c]
        assert r["complete"] and r["true_mean"] == pytest.approx(means[4, c])
        assert r["estimate"] < r["true_mean"]


def test_proofs_are_exact_distances_or_bounds_below_them(script, tmp_path, exact_distance):
    db = tmp_path / "shallow.sqlite"
    wsdb.build(4, 2, db=db)
    wsdb.build(4, 4, db=db, max_depth=4)
    distance = exact_distance(4)
    # tree held to 5 and 6: meet in the middle proves every 4x4 distance (at most 12) exactly
    rows = script.prove(db, 4, 4, 6, 5, 5, 6, 1e6)
    states = random_states(wrapslide(4, 4), 6, np.random.default_rng(5))
    assert [r["state"] for r in rows] == [wsdb.format_state(x) for x in states]
    assert [r["exact"] for r in rows] == [distance(x) for x in states]
    # forward levels capped: bounds, never above the distance
    capped = script.prove(db, 4, 4, 6, 5, 5, 6, 10)
    assert all(r["lower_bound"] <= distance(x) for r, x in zip(capped, states))
    assert any(r["exact"] is None for r in capped)
