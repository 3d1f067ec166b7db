"""Shared fixtures: reference numbers, small built databases, a CLI runner,
the brute-force checker. Tests get these as fixtures; none imports this file."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import wsdb
from wsdb.cli import main

from .bruteforce import brute_force

REFERENCE = Path(__file__).resolve().parent / "data" / "thesis.json"
PUZZLES = Path(__file__).resolve().parent / "data" / "puzzles.json"


def pytest_collection_modifyitems(items):
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
