"""Fixtures the solver's tests share."""
import pytest

import wsdb
from wsdb.db.store import Store
from wsdb.puzzle import wrapslide
from wsdb.solver.guide import guide_for

PARTIAL_DEPTH = 4   # 4x4 four colours reach 12 moves and more: pairs lie beyond this tree


@pytest.fixture(scope="session")
def partial4(tmp_path_factory):
    """(db, store, guide): 4x4 four colours stored to depth 4, beside the
    complete two-colour tree that gives the gather table."""
    db = tmp_path_factory.mktemp("partial4") / "partial.sqlite"
    wsdb.build(4, 2, db=db)
    wsdb.build(4, 4, db=db, max_depth=PARTIAL_DEPTH)
    store = Store.open(db)
    yield db, store, guide_for(wrapslide(4, 4), store)
    store.close()
