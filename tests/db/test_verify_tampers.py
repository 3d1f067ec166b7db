"""verify refuses every tamper (wsdb/db/verify.py): a catalogue of changes
a user could make to a stored 4x4 three-colour build in SQL, each of which
`wsdb verify` must catch with exit status 1 and one FAILED line, and none
with a traceback. An untampered copy passes, so the catalogue is not
vacuous."""

import shutil
import sqlite3

import pytest

TREE = "n = 4 and c = 3 and root = 'all'"
ROW = f"(select rep from class_rows where {TREE} and depth = {{d}} order by rep limit 1 offset 3)"

TAMPERS = {
    "a class deleted": f"delete from class_rows where {TREE} and rep = {ROW.format(d=5)}",
    "a root deleted": f"delete from class_rows where {TREE} and depth = 0 and rep = (select min(rep) from "
    f"class_rows where {TREE} and depth = 0)",
    "a depth one more": f"update class_rows set depth = depth + 1 where {TREE} and rep = {ROW.format(d=5)}",
    "a depth one less": f"update class_rows set depth = depth - 1 where {TREE} and rep = {ROW.format(d=5)}",
    "a depth 0": f"update class_rows set depth = 0 where {TREE} and rep = {ROW.format(d=5)}",
    "a depth -1": f"update class_rows set depth = -1 where {TREE} and rep = {ROW.format(d=5)}",
    "a depth of text": f"update class_rows set depth = 'x' where {TREE} and rep = {ROW.format(d=5)}",
    "a depth not whole": f"update class_rows set depth = 2.5 where {TREE} and rep = {ROW.format(d=5)}",
    "a parent NULL": f"update class_rows set parent = NULL where {TREE} and rep = {ROW.format(d=5)}",
    "a parent of text": f"update class_rows set parent = 'x' where {TREE} and rep = {ROW.format(d=5)}",
    "a parent blob": f"update class_rows set parent = x'00ff' where {TREE} and rep = {ROW.format(d=5)}",
    "a parent itself": f"update class_rows set parent = rep where {TREE} and rep = {ROW.format(d=5)}",
    "a parent at the same depth": f"update class_rows set parent = {ROW.format(d=5)} where {TREE} and rep = "
    f"(select rep from class_rows where {TREE} and depth = 5 order by rep limit 1)",
    "a parent two moves away": f"update class_rows set parent = {ROW.format(d=4)} where {TREE} and rep = "
    f"(select rep from class_rows where {TREE} and depth = 5 order by rep desc limit 1)",
    "an orbit size one more": f"update class_rows set orbit_size = orbit_size + 1 where {TREE} and rep = {ROW.format(d=5)}",
    "an orbit size of text": f"update class_rows set orbit_size = 'x' where {TREE} and rep = {ROW.format(d=5)}",
    "a representative changed": f"update class_rows set rep = rep + 1 where {TREE} and rep = {ROW.format(d=7)}",
    "a row added": f"insert into class_rows select n, c, root, puzzle_id, rep + 1, depth, parent, orbit_size from "
    f"class_rows where {TREE} and rep = {ROW.format(d=7)}",
    "God number 11": f"update builds set god_number = 11 where {TREE}",
    "God number NULL": f"update builds set god_number = NULL where {TREE}",
    "complete = 0": f"update builds set complete = 0 where {TREE}",
    "complete = 'yes'": f"update builds set complete = 'yes' where {TREE}",
    "a wrong max_depth": f"update builds set max_depth = 3 where {TREE}",
    "a wrong height": f"update builds set height = 9 where {TREE}",
    "a height of text": f"update builds set height = 'x' where {TREE}",
    "a class count one more": f"update builds set classes = classes + 1 where {TREE}",
    "a state count one more": f"update builds set states = states + 1 where {TREE}",
    "an extra levels row": "insert into levels (puzzle, n, c, root, depth, classes, states) values "
    "('wrapslide', 4, 3, 'all', 11, 1, 1)",
    "a levels row deleted": f"delete from levels where {TREE} and depth = 4",
    "a levels count one more": f"update levels set classes = classes + 1 where {TREE} and depth = 4",
    "a levels state count one more": f"update levels set states = states + 1 where {TREE} and depth = 4",
    "a levels depth of text": f"update levels set depth = 'x' where {TREE} and depth = 4",
    "the classes view dropped": "drop view classes",
    "the puzzles table dropped": "drop table puzzles",
    "the levels table dropped": "drop table levels",
    "the class_rows table dropped": "drop view classes; drop table class_rows",
    "the builds table dropped": "drop table builds",
}


@pytest.fixture
def copy(db4, tmp_path):
    db = tmp_path / "tampered.sqlite"
    shutil.copy(db4, db)
    return db


def test_the_untampered_copy_passes(run, copy):
    res = run("verify", "--n", 4, "--c", 3, "--db", copy)
    assert res.exit_code == 0, res.stdout


def test_the_catalogue_is_large():
    assert len(TAMPERS) >= 30


@pytest.mark.parametrize("tamper", list(TAMPERS))
def test_every_tamper_is_caught(run, copy, tamper):
    with sqlite3.connect(copy) as conn:
        changed = conn.total_changes
        conn.executescript(TAMPERS[tamper])
        assert conn.total_changes > changed or "dropped" in tamper  # the tamper did something
    res = run("verify", "--n", 4, "--c", 3, "--db", copy)
    assert res.exit_code == 1, (tamper, res.exit_code, res.stdout, res.stderr)
    failed = [line for line in res.stdout.splitlines() if line.startswith("FAILED")]
    assert len(failed) == 1 and "Traceback" not in res.stdout + res.stderr
