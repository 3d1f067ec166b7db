"""Shared fixtures: reference numbers, small built databases, a CLI runner."""
import itertools
import json
from functools import lru_cache
from math import factorial
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import wsdb
from wsdb.cli import main

REFERENCE = Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "thesis.json"


@pytest.fixture(scope="session")
def thesis():
    """Published numbers (../shared/reference/thesis.json)."""
    if not REFERENCE.exists():
        pytest.skip(f"reference numbers not found at {REFERENCE}")
    return json.loads(REFERENCE.read_text())


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


def random_states(puzzle, count, seed):
    """Uniform random states of a puzzle (cells as uint8 arrays)."""
    rng = np.random.default_rng(seed)
    base = np.repeat(np.arange(puzzle.c), puzzle.counts).astype(np.uint8)
    return [rng.permutation(base) for _ in range(count)]


@lru_cache(maxsize=None)
def brute_force(n, c):
    """BFS over every raw state from all solved states, with moves and the
    32 maps written from SPEC §1/§3 directly (no wsdb code): per depth, the
    number of states and the number of symmetry classes, and a function
    giving the distance of any state (cells array)."""
    h, q = n // 2, (n // 2) ** 2
    r, j = np.divmod(np.arange(n * n), n)
    moves = []
    for k in range(1, n):
        moves += [np.where(r < h, r * n + (j + k) % n, r * n + j),
                  np.where(r >= h, r * n + (j + k) % n, r * n + j),
                  np.where(j < h, ((r + k) % n) * n + j, r * n + j),
                  np.where(j >= h, ((r + k) % n) * n + j, r * n + j)]
    gens = [(n - 1 - j) * n + r, r * n + (n - 1 - j), ((r + h) % n) * n + j, r * n + (j + h) % n]
    maps = {tuple(range(n * n))}
    while True:
        more = {tuple(np.asarray(m)[g]) for m in maps for g in gens} | maps
        if more == maps:
            break
        maps = more
    maps = [np.array(m) for m in maps]
    k = {2: 1, 3: 2, 4: 4}[c]
    sigmas = [np.array(list(s) + list(range(k, c)), dtype=np.int64) for s in itertools.permutations(range(k))]
    weights = c ** np.arange(n * n - 1, -1, -1, dtype=np.int64)

    def code(cells):
        return cells.astype(np.int64) @ weights

    quads = (r >= h) * 2 + (j >= h)
    want = [1] * (c - 1) + [5 - c]
    solved = np.array([np.array(qs)[quads] for qs in itertools.product(range(c), repeat=4)
                       if [qs.count(x) for x in range(c)] == want], dtype=np.uint8)
    seen = np.unique(code(solved))
    frontier, states, classes, by_depth = solved, [], [], []
    while len(frontier):
        states.append(len(frontier))
        by_depth.append(np.sort(code(frontier)))
        canon = np.min([code(s[frontier[:, g]]) for g in maps for s in sigmas], axis=0)
        classes.append(len(np.unique(canon)))
        kids = np.concatenate([frontier[:, m] for m in moves])
        kc, first = np.unique(code(kids), return_index=True)
        fresh = ~np.isin(kc, seen)
        frontier = kids[first[fresh]]
        seen = np.union1d(seen, kc[fresh])
    assert sum(states) == factorial(n * n) // (factorial(q) ** (c - 1) * factorial((5 - c) * q))

    def distance(cells):
        x = code(np.asarray(cells)[None])[0]
        return next(d for d, codes in enumerate(by_depth) if x in codes[np.searchsorted(codes, x):][:1])
    return states, classes, distance


def exact_distance(c, db):
    """Distance function for 4x4 states: brute force for two and three
    colours; for four colours (63 M states, too slow to brute-force here)
    the lookup in the complete database, itself checked against Table 3.4."""
    if c < 4:
        return brute_force(4, c)[2]
    from wsdb.puzzle import format_state
    return lambda cells: wsdb.lookup(format_state(cells), db=db).distance
