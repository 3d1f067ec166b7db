"""The thesis' heuristic (wsdb/solver/thesis.py)."""

import numpy as np

import wsdb
from wsdb.puzzle import format_state, parse_state, random_states, wrapslide
from wsdb.solver.thesis import objective


def test_objective_worked_example():
    # §4.1: each of quadrants one to three is [[1, 2], [3, 4]]: 2+1+2+1 = 6 each
    _, cells = parse_state("1212/3434/1212/3434")
    assert objective(cells[None], 4)[0] == 18


def test_objective_is_zero_exactly_on_solved_states():
    p = wrapslide(4, 3)
    cells = np.concatenate([random_states(p, 2000, seed=1), p.solved])
    solved = np.array([p.is_solved(x) for x in cells])
    assert ((objective(cells, 4) == 0) == solved).all()


def test_thesis_method_solves_and_is_never_below_optimal(db4, exact_distance):
    distance = exact_distance(4)
    p = wrapslide(4, 4)
    for cells in random_states(p, 4, seed=8):  # 0.6 s a state
        sol = wsdb.solve(format_state(cells), db=db4, method="thesis")
        assert sol.method.startswith("thesis")
        assert p.is_solved(p.apply(cells, sol.moves))
        assert sol.length >= distance(cells) == sol.lower_bound
