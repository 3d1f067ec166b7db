"""IDA* (wsdb/solver/ida.py): its lengths are the true distances."""
import pytest

import wsdb
from wsdb.puzzle import format_state, random_states, wrapslide


@pytest.mark.parametrize("c", [2, 3, 4])
def test_ida_star_finds_the_brute_force_distance(db4, exact_distance, c):
    distance = exact_distance(c)
    p = wrapslide(4, c)
    for cells in random_states(p, 12, seed=c):
        sol = wsdb.solve(format_state(cells), db=db4, method="optimal")
        assert sol.method == "optimal" and sol.optimal
        assert sol.length == sol.lower_bound == distance(cells)
        assert p.is_solved(p.apply(cells, sol.moves))


def test_optimal_needs_a_gather_table(tmp_path):
    wsdb.build(4, 3, db=tmp_path / "x.sqlite")
    with pytest.raises(wsdb.WsdbError, match="gather table"):
        wsdb.solve("1212/1212/3333/3333", db=tmp_path / "x.sqlite", method="optimal")


@pytest.mark.slow
def test_ida_star_on_6x6_two_colours_equals_the_database(tmp_path):
    db = tmp_path / "six.sqlite"
    wsdb.build(6, 2, db=db)
    p = wrapslide(6, 2)
    for cells in random_states(p, 10, seed=4):
        text = format_state(cells)
        sol = wsdb.solve(text, db=db, method="optimal")
        assert sol.length == wsdb.lookup(text, db=db).distance and sol.optimal
