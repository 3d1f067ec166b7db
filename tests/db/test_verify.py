"""wsdb verify (wsdb/db/verify.py) passes good builds and names corruption."""

import shutil
import sqlite3

import pytest

import wsdb
from wsdb.engine import get_engine


@pytest.fixture
def copy4(db4, tmp_path):
    path = tmp_path / "copy.sqlite"
    shutil.copy(db4, path)
    return path


@pytest.mark.parametrize("c", [2, 3, 4])
def test_good_builds_verify(db4, c):
    report = wsdb.verify(4, c, db=db4)
    assert report.ok and report.states == wsdb.wrapslide(4, c).states


def test_single_root_tree_verifies(tmp_path):
    db = tmp_path / "s.sqlite"
    wsdb.build(4, 3, db=db, root="single")
    assert wsdb.verify(4, 3, db=db, root="single").ok


@pytest.mark.parametrize(
    "tamper, fragment",
    [
        (
            "update class_rows set depth = 7 where n=4 and c=3 and rep = (select rep from classes where n=4 and c=3 and depth=9 limit 1)",
            "parent at depth",
        ),
        (
            "update class_rows set parent = (select rep from classes where n=4 and c=3 and depth=7 limit 1) "
            "where n=4 and c=3 and rep = (select rep from classes where n=4 and c=3 and depth=8 order by rep limit 1)",
            "not one move from its parent",
        ),
        (
            "delete from class_rows where n=4 and c=3 and rep = (select rep from classes where n=4 and c=3 and depth=10 limit 1)",
            "not stored",
        ),
        ("update class_rows set orbit_size = orbit_size + 1 where n=4 and c=3 and depth = 5", "levels row"),
        ("update levels set classes = classes + 1 where n=4 and c=3 and depth = 4", "levels row for depth 4"),
    ],
)
def test_corruption_is_named(copy4, run, tamper, fragment):
    with sqlite3.connect(copy4) as conn:
        conn.execute(tamper)
    report = wsdb.verify(4, 3, db=copy4)
    assert not report.ok and fragment in report.problem
    result = run("verify", "--n", 4, "--c", 3, "--db", copy4)
    assert result.exit_code == 1 and "FAILED" in result.stdout


def test_non_canonical_representative_is_named(copy4):
    # replace a representative by a larger member of its own class
    eng = get_engine(4, 3)
    with sqlite3.connect(copy4) as conn:
        rep = conn.execute("select rep from classes where n=4 and c=3 and depth=10 limit 1").fetchone()[0]
        cells = eng.decode(eng.layout.from_sql([rep]))[0]
        other = max(eng.layout.to_int(eng.encode(cells[g])[0]) for g in eng.puzzle.maps)
        assert other != rep
        conn.execute("update class_rows set rep = ? where n=4 and c=3 and rep = ?", (other, rep))
    report = wsdb.verify(4, 3, db=copy4)
    assert not report.ok and "not the smallest member" in report.problem


def _member(conn, eng, depth):
    """A class of the given depth: (its row, a larger key of the same class)."""
    row = conn.execute(
        "select rep, depth, parent, orbit_size from class_rows where n=4 and c=3 and depth=? order by rep limit 1",
        (depth,),
    ).fetchone()
    cells = eng.decode(eng.layout.from_sql([row[0]]))[0]
    other = max(eng.layout.to_int(eng.encode(cells[g])[0]) for g in eng.puzzle.maps)
    return row, other


@pytest.mark.parametrize(
    "damage, fragment",
    [
        ("missing level row", "levels"),
        ("extra row, a second member of a stored class", "not the smallest member"),
        ("extra row, not a state of the grid", ""),
        ("wrong orbit size, levels row kept consistent", "orbit"),
    ],
)
def test_more_damage_is_named(copy4, run, damage, fragment):
    eng = get_engine(4, 3)
    with sqlite3.connect(copy4) as conn:
        if damage == "missing level row":
            conn.execute("delete from levels where n=4 and c=3 and depth=6")
        elif damage.startswith("extra row, a second"):
            (rep, depth, parent, orbit), other = _member(conn, eng, 8)
            conn.execute("insert into class_rows values (4, 3, 'all', 0, ?, ?, ?, ?)", (other, depth, parent, orbit))
            conn.execute(
                "update levels set classes = classes + 1, states = states + ? where n=4 and c=3 and depth=8", (orbit,)
            )
        elif damage.startswith("extra row, not a state"):
            (rep, depth, parent, orbit), _ = _member(conn, eng, 8)
            conn.execute("insert into class_rows values (4, 3, 'all', 0, 1, ?, ?, ?)", (depth, parent, orbit))
        else:
            (rep, depth, parent, orbit), _ = _member(conn, eng, 7)
            conn.execute("update class_rows set orbit_size = orbit_size * 2 where n=4 and c=3 and rep=?", (rep,))
            conn.execute("update levels set states = states + ? where n=4 and c=3 and depth=7", (orbit,))
            conn.execute("update builds set states = states + ? where n=4 and c=3", (orbit,))
    report = wsdb.verify(4, 3, db=copy4)
    assert not report.ok and fragment in report.problem, report.problem
    result = run("verify", "--n", 4, "--c", 3, "--db", copy4)
    assert result.exit_code == 1 and "FAILED" in result.stdout


def test_a_duplicated_representative_cannot_be_stored(copy4):
    # (n, c, root, rep) is the primary key: the database itself refuses it
    with sqlite3.connect(copy4) as conn:
        rep, depth, parent, orbit = conn.execute(
            "select rep, depth, parent, orbit_size from class_rows where n=4 and c=3 and depth=5 limit 1"
        ).fetchone()
        with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
            conn.execute("insert into class_rows values (4, 3, 'all', 0, ?, ?, ?, ?)", (rep, depth + 1, parent, orbit))
    assert wsdb.verify(4, 3, db=copy4).ok
