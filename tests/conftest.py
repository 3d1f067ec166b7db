"""Shared fixtures: reference numbers, small built databases, a CLI runner,
the brute-force checker. Tests get these as fixtures; none imports this file."""

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import wsdb
import wsdb.db.location
from wsdb.cli import main
from wsdb.db.store import Store

from .bruteforce import brute_force

REPO = Path(__file__).resolve().parent.parent
REFERENCE = REPO / "tests" / "data" / "thesis.json"
PUZZLES = REPO / "tests" / "data" / "puzzles.json"


#: where pytest started: the user's own default database is ./db/wsdb.sqlite here
START = Path.cwd()


class _GuardedDefault(str):
    """``wsdb.db.location.DEFAULT_DB`` during the tests: naming no database
    from the directory pytest started in would open the user's own
    ./db/wsdb.sqlite, so it fails the test instead. A test of the default
    itself moves to its tmp_path first (``monkeypatch.chdir``)."""

    def __str__(self):
        if Path.cwd() == START:
            pytest.fail(
                "this test opens the default database ./db/wsdb.sqlite, the user's own: give it a "
                "database (db=..., --db) or monkeypatch.chdir(tmp_path) first",
                pytrace=False,
            )
        return str.__str__(self)


def _db_folder() -> dict:
    folder = START / "db"
    return {p.name: p.stat().st_mtime_ns for p in folder.iterdir()} if folder.is_dir() else {}


@pytest.fixture(scope="session", autouse=True)
def users_database_untouched():
    """No test reads or writes the user's database: the default path is
    guarded in this process, $WSDB_DB is cleared for the tests (subprocesses
    included), and the ./db folder must be as it was when the run ends."""
    saved_env, saved_default = os.environ.pop("WSDB_DB", None), wsdb.db.location.DEFAULT_DB
    wsdb.db.location.DEFAULT_DB = _GuardedDefault(saved_default)
    before = _db_folder()
    yield
    wsdb.db.location.DEFAULT_DB = saved_default
    if saved_env is not None:
        os.environ["WSDB_DB"] = saved_env
    assert _db_folder() == before, f"the tests changed {START / 'db'}"


#: Tests that compile the kernels the run needs after its first tests (the
#: solver's searches and key index, the rankings, censuses and subsets,
#: the wide keys' kernels, the merging bound's): on a checkout with none
#: compiled, a second pytest runs them in the background at the start, so
#: that numba's compiles (one core, about three minutes in all) overlap
#: the first tests instead of adding to them. The run itself starts with
#: the tests that need only the builder's 4x4 kernels (:data:`LATER`
#: waits), which it compiles while the background compiles the others in
#: the order the run reaches them: a kernel both processes compile at once
#: is compiled twice. Its results are not used.
WARM = [
    "tests/bounds/test_proof.py",
    "tests/solver/test_beam.py",
    "tests/engine/test_keyindex.py",
    "tests/engine/test_ranking.py::test_move_tables_agree_with_moving_the_cells",
    "tests/db/test_census_cache.py::test_the_census_is_made_once_and_read_back_equal",
    "tests/engine/test_subsets.py::test_a_path_read_from_the_table_is_a_shortest_one",
    "tests/engine/test_census.py::test_ranked_census_equals_the_class_census",
    "tests/db/test_puzzle_trees.py::test_the_sliding_tree_holds_every_solvable_state_at_its_distance",
    "tests/engine/test_packed_kernels.py::test_two_bit_levels_are_the_byte_table_levels",
    "tests/db/test_build.py::test_partial_trees_of_big_grids[6-4-3]",
    "tests/engine/test_engines.py",
    "tests/bounds/test_merging.py::test_the_merging_bound_from_the_command_is_stored_once",
]

#: modules before tests/solver that need the solver's, the subsets', the
#: censuses' or the wide keys' kernels: they run after the others, just
#: before tests/solver, by when the background has compiled those kernels
LATER = (
    "tests/db/test_postgres.py",
    "tests/db/test_puzzle_trees.py",
    "tests/engine/test_census.py",
    "tests/engine/test_engines.py",
    "tests/db/test_census_cache.py",
    "tests/engine/test_subsets.py",
)


def _kernels_compiled() -> bool:
    return os.environ.get("NUMBA_CACHE_DIR") is not None or any(Path(wsdb.__file__).parent.rglob("*.nbi"))


def pytest_configure(config):
    # the whole default run (no paths named), from a checkout without compiled kernels
    warm = config.args_source == pytest.Config.ArgsSource.TESTPATHS
    if warm and not os.environ.get("WSDB_WARM_KERNELS") and not _kernels_compiled():
        import subprocess
        import sys
        import tempfile

        tmp = tempfile.mkdtemp(prefix="wsdb-warm-")
        config._wsdb_warm = (
            subprocess.Popen(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--basetemp={tmp}", *WARM],
                cwd=REPO,
                env=dict(os.environ, WSDB_WARM_KERNELS="1"),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            ),
            tmp,
        )


def pytest_unconfigure(config):
    warm = getattr(config, "_wsdb_warm", None)
    if warm is not None:
        import shutil

        proc, tmp = warm
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def _run_order(item) -> str:
    """The key the run's modules are sorted by: a module's path, and for
    those in :data:`LATER` one that sorts just before tests/solver's
    modules, in LATER's order, and for tests/bounds one just after them."""
    path = Path(str(item.fspath)).relative_to(REPO).as_posix()
    if path.startswith("tests/bounds/"):  # the layer above the solver: after its tests, by when its kernels are
        return f"tests/solver~{path}"  # compiled ('~' sorts after tests/solver/'s modules, before tests/stats)
    return f"tests/solver/ {LATER.index(path)}" if path in LATER else path


def pytest_collection_modifyitems(config, items):
    items.sort(key=_run_order)  # stable: each module keeps its own order
    # slow tests run only when -m names them (pytest -m slow), so that
    # `pytest -m "not integration"` alone is the quick inner loop
    if "slow" not in (config.option.markexpr or ""):
        slow = [item for item in items if item.get_closest_marker("slow")]
        if slow:
            config.hook.pytest_deselected(items=slow)
            items[:] = [item for item in items if not item.get_closest_marker("slow")]
    # tests that read published numbers also run from a lone copy of the
    # repository (tests/test_standalone.py), by this marker
    for item in items:
        if {"thesis", "published"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.reads_files)


@pytest.fixture(scope="session")
def thesis():
    """Published numbers, each block with its source (tests/data/thesis.json)."""
    return json.loads(REFERENCE.read_text())


@pytest.fixture(scope="session")
def published():
    """The other puzzles' published numbers, each with its source
    (tests/data/puzzles.json)."""
    return json.loads(PUZZLES.read_text())


@pytest.fixture(scope="session")
def db4(tmp_path_factory):
    """One database holding the complete 4x4 two-, three- and four-colour trees."""
    path = tmp_path_factory.mktemp("db") / "wsdb.sqlite"
    for c in (2, 3, 4):
        wsdb.build(4, c, db=path)
    return path


@pytest.fixture
def run():
    """Invoke the CLI; returns click's Result (exit_code, output, stderr)."""
    runner = CliRunner()

    def invoke(*args, input=None, env=None):
        return runner.invoke(main, [str(a) for a in args], input=input, env=env, catch_exceptions=False)

    return invoke


@pytest.fixture(scope="session")
def brute():
    """brute_force(n, c) -> (states per depth, classes per depth, distance
    function), from tests/bruteforce.py."""
    return brute_force


@pytest.fixture(scope="session")
def exact_distance(db4):
    """exact_distance(c) -> distance function for 4x4 states: brute force
    for two and three colours; for four colours (63 M states, too slow to
    brute-force here) the lookup in the complete database, itself checked
    against Table 3.4."""

    def for_colours(c):
        if c < 4:
            return brute_force(4, c).distance
        return lambda cells: wsdb.lookup(wsdb.format_state(cells), db=db4).distance

    return for_colours


PARTIAL_DEPTH = 4  # 4x4 four colours reach 12 moves and more: pairs lie beyond this tree


@pytest.fixture(scope="session")
def partial4(tmp_path_factory):
    """(db, store, guide): 4x4 four colours stored to depth 4, beside the
    complete two-colour tree that gives the gather table (the solver's and
    the bounds' tests; copy the file before writing to it)."""
    from wsdb.solver.guide import guide_for

    db = tmp_path_factory.mktemp("partial4") / "partial.sqlite"
    wsdb.build(4, 2, db=db)
    wsdb.build(4, 4, db=db, max_depth=PARTIAL_DEPTH)
    store = Store.open(db)
    yield db, store, guide_for(wsdb.wrapslide(4, 4), store)
    store.close()
