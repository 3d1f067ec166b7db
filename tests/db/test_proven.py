"""What a stored build proves of its God number (wsdb/db/proven.py),
against the thesis' published value for 4x4 two colours."""

import wsdb
from wsdb.db.proven import proven_god_number
from wsdb.db.store import Store
from wsdb.puzzle import wrapslide
from wsdb.puzzle.tree_key import TreeKey


def test_a_complete_tree_or_one_holding_every_state_proves_it_and_a_shorter_one_does_not(tmp_path, thesis):
    god = thesis["god_numbers"]["4x4_c2"]
    puzzle, key = wrapslide(4, 2), TreeKey.wrapslide(4, 2)
    rows = {}
    for depth in (None, god, god - 1):
        db = tmp_path / f"{depth}.sqlite"
        wsdb.build(4, 2, db=db, max_depth=depth)
        rows[depth] = Store.open(db).build_row(key)
    assert proven_god_number(rows[None], puzzle) == god  # complete
    assert not rows[god]["complete"] and proven_god_number(rows[god], puzzle) == god  # every state held
    assert proven_god_number(rows[god - 1], puzzle) is None  # some states lie past it
