"""The JSON API (wsdb/web/app.py and routes.py): each answer is the CLI's --json for the
same request, bad input gets the CLI's one line with 400/422, a solve on a busy
server gets 503 (reads never do)."""

import json

import pytest
from fastapi.testclient import TestClient

import wsdb
from wsdb.puzzle import format_state, random_states, wrapslide
from wsdb.web.app import create_app

STATES = [format_state(s) for c in (2, 3, 4) for s in random_states(wrapslide(4, c), 4, seed=40 + c)]


def six_by_six(client, field):
    """c -> one field of what /api/puzzle says of the 6x6 grid of c colours."""
    return lambda c: client.get("/api/puzzle", params={"n": 6, "c": c}).json()[field]


def cli_json(run, *args):
    res = run(*args, "--json")
    assert res.exit_code == 0, res.stderr
    return [json.loads(line) for line in res.stdout.splitlines()]


def test_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and 'id="grid"' in page.text
    for name in ("app.js", "style.css", "icon.svg"):
        assert client.get(f"/static/{name}").status_code == 200
    assert "/api/solve" in client.get("/openapi.json").json()["paths"]
    assert client.get("/docs").status_code == 200


@pytest.mark.parametrize("state", STATES)
def test_lookup_is_the_cli_answer(client, run, db4, state):
    got = client.post("/api/lookup", json={"state": state})
    assert got.status_code == 200
    assert got.json() == cli_json(run, "lookup", state, "--db", db4)[0]


def test_solve_is_verified_optimal_where_the_tree_is_complete(client, db4):
    for state in STATES:
        sol = client.post("/api/solve", json={"state": state}).json()
        exact = wsdb.lookup(state, db=db4).distance
        played = client.post("/api/apply", json={"state": state, "moves": sol["moves"]}).json()
        assert played["solved"] and sol["length"] == exact == sol["lower_bound"] and sol["optimal"]
        short = client.post("/api/solve", json={"state": state, "length_only": True}).json()
        assert short["moves"] is None and short["length"] == exact


def test_solve_out_of_time_returns_its_best_verified_sequence_marked(client):
    p = wrapslide(8, 4)
    cells = random_states(p, 1, seed=9)[0]
    sol = client.post("/api/solve", json={"state": format_state(cells), "time_limit": 0.001}).json()
    assert sol["timed_out"] and sol["capped"] and not sol["optimal"] and sol["lower_bound"] <= sol["length"]
    assert p.is_solved(p.apply(cells, sol["moves"]))


def test_solve_takes_an_effort_and_answers_alike_for_it(client):
    state = format_state(random_states(wrapslide(6, 4), 1, seed=9)[0])  # no 6x6 tree: the beam runs
    body = {"state": state, "method": "beam", "effort": 0.01, "time_limit": 20}
    first, again = (client.post("/api/solve", json=body).json() for _ in range(2))
    assert first["moves"] == again["moves"] and first["effort"] == again["effort"] > 0
    assert not first["capped"] and sum(first["work"].values()) > 0
    for bad in ("1", True, 0, -1, 1001):  # a string or a boolean is not a number
        res = client.post("/api/solve", json={**body, "effort": bad})
        assert res.status_code == 422 and "effort" in res.json()["detail"]


def test_apply_random_info_are_the_cli_answers(client, run, db4):
    state = STATES[0]
    got = client.post("/api/apply", json={"state": state, "moves": ["T1", "r3", "B2"]}).json()
    assert got == cli_json(run, "apply", state, "T1", "r3", "B2")[0]
    assert len(got["states"]) == 4 and got["states"][0] == state and got["states"][-1] == got["result"]
    # the moves as the CLI's words in one string are the same moves
    assert client.post("/api/apply", json={"state": state, "moves": "T1 r3, B2"}).json() == got
    rnd = client.get("/api/random", params={"n": 6, "c": 3, "seed": 17}).json()
    assert rnd == cli_json(run, "random", "--n", 6, "--c", 3, "--seed", 17)[0]
    deep = client.get("/api/random", params={"n": 4, "c": 4, "seed": 17, "depth": 11}).json()
    assert deep == cli_json(run, "random", "--n", 4, "--c", 4, "--seed", 17, "--depth", 11, "--db", db4)[0]
    assert client.post("/api/lookup", json={"state": deep["state"]}).json()["distance"] == 11
    past = client.get("/api/random", params={"n": 4, "c": 4, "depth": 13})
    assert past.status_code == 400 and "expected 0 to 12, its God number" in past.json()["detail"]
    assert client.get("/api/info").json() == cli_json(run, "info", "--db", db4)


def test_puzzle_facts_come_from_the_definition(client):
    for n, c in ((4, 2), (4, 3), (4, 4), (6, 3), (8, 4)):
        p = client.get("/api/puzzle", params={"n": n, "c": c}).json()
        assert sum(p["counts"]) == n * n and len(p["counts"]) == c
        assert len(p["moves"]) == 4 * (n - 1)
        assert client.post("/api/apply", json={"state": p["solved"], "moves": []}).json()["solved"]
        assert (p["hint"] is None) == (n == 4)  # the shared database holds the 4x4 trees only
        assert p["hint"] in (None, f"wsdb build --n {n} --c {c}")


def test_the_build_hint_names_only_a_build_that_adds_something(tmp_path, monkeypatch):
    """A partial tree as deep as `wsdb build` grows it by default gets no
    hint (running the command again adds nothing); a shallower one, or a
    partial tree of a grid the command finishes, does."""
    from wsdb.db import build

    monkeypatch.setitem(build.DEFAULT_DEPTH, (6, 4), 3)  # the default depth 8 takes 20 s to build
    db = tmp_path / "h.sqlite"
    wsdb.build(6, 2, db=db, max_depth=3)
    wsdb.build(6, 4, db=db, max_depth=2)
    with TestClient(create_app(db=db)) as fresh:
        hint = six_by_six(fresh, "hint")
        assert hint(2) == "wsdb build --n 6 --c 2" and hint(4) == "wsdb build --n 6 --c 4"
        assert hint(3) == "wsdb build --n 6 --c 3"  # none stored
        wsdb.build(6, 4, db=db)  # to the default depth
        assert hint(4) is None


def test_the_page_is_told_what_a_first_solve_derives(tmp_path, monkeypatch):
    """A grid whose first solve derives the solver's deeper trees says about
    how long, as the CLI's notice does (and `wsdb serve` on start); once a
    solve has derived them, nothing is left to say."""
    from wsdb.solver import settings
    from wsdb.solver.solve import derivation_minutes

    monkeypatch.setitem(settings.DERIVED, (6, 3), (3, 4))  # the default tree is 8 deep: 90 s to build
    db = tmp_path / "d.sqlite"
    wsdb.build(6, 3, db=db, max_depth=2)
    wsdb.build(6, 2, db=db, max_depth=2)
    with TestClient(create_app(db=db)) as fresh:
        minutes = six_by_six(fresh, "first_solve_minutes")
        assert minutes(3) == derivation_minutes(db, 6, 3) == settings.DERIVE_MINUTES[6, 3]
        assert minutes(4) is None and minutes(2) is None  # nothing derived for them
        state = format_state(random_states(wrapslide(6, 3), 1, seed=2)[0])
        assert fresh.post("/api/solve", json={"state": state, "method": "meet"}).status_code == 200
        assert minutes(3) is None


@pytest.mark.parametrize(
    "state", ["", "1212/3434/1243/342", "1111/1111/1111/1111", "12345/1234/1234/1234", "1122/1122/3344/334x4", "é" * 16]
)
def test_bad_state_gets_the_cli_line_and_400(client, run, db4, state):
    res = client.post("/api/lookup", json={"state": state})
    cli = run("lookup", state, "--db", db4)
    assert res.status_code == 400 and cli.exit_code == 2
    assert cli.stderr.strip() == f"wsdb: {res.json()['detail']}"
    assert client.post("/api/solve", json={"state": state}).json() == res.json()


def test_bad_moves_and_shapes(client):
    res = client.post("/api/apply", json={"state": STATES[0], "moves": ["T9"]})
    assert res.status_code == 400 and "unknown move 'T9'" in res.json()["detail"]
    for bad in (
        {},
        {"state": 5},
        {"state": "1" * 401},
        {"state": STATES[0], "method": "magic"},
        {"state": STATES[0], "time_limit": -1},
    ):
        res = client.post("/api/solve", json=bad)
        assert res.status_code == 422 and isinstance(res.json()["detail"], str)
        assert "\n" not in res.json()["detail"]
    res = client.post("/api/solve", json={"state": STATES[0], "time_limit": 25})
    assert res.status_code == 400 and "cap of 20 s" in res.json()["detail"]
    assert client.get("/api/random", params={"n": 5, "c": 2}).status_code == 400
    assert client.get("/api/puzzle", params={"n": 4, "c": 7}).status_code == 400


def test_busy_server_refuses_solves_at_once_and_still_answers_reads(client, app):
    with app.state.gate.slot(), app.state.gate.slot():
        res = client.post("/api/solve", json={"state": STATES[0], "time_limit": 1})
        assert res.status_code == 503 and "busy" in res.json()["detail"]
        # reads never wait for a search slot
        assert client.post("/api/lookup", json={"state": STATES[0]}).status_code == 200
        assert client.get("/api/random", params={"n": 4, "c": 3, "depth": 5, "seed": 1}).status_code == 200
        assert client.post("/api/apply", json={"state": STATES[0], "moves": "T1"}).status_code == 200
        assert client.get("/api/info").status_code == 200
    assert client.post("/api/solve", json={"state": STATES[0], "time_limit": 1}).status_code == 200


def test_nothing_is_written(client, db4):
    before = db4.read_bytes()
    for state in STATES[:3]:
        client.post("/api/solve", json={"state": state})
        client.post("/api/lookup", json={"state": state + "x"})
    assert db4.read_bytes() == before


def test_fuzzer_finds_stay_fixed(client):
    """Cases schemathesis found: a 2x2 state named by letters, with no time."""
    res = client.post("/api/solve", json={"state": "auto", "time_limit": 9.6e-119})
    assert res.status_code == 200 and res.json()["length"] == 0


def test_api_docs_work_offline(client):
    # /docs and /redoc load every asset from the server itself, none from a CDN
    import re

    for page in ("/docs", "/redoc"):
        html = client.get(page)
        assert html.status_code == 200
        assets = re.findall(r'(?:src|href)="([^"]+)"', html.text)
        assert assets and not [a for a in assets if "://" in a]
        for asset in assets:
            assert client.get(asset).status_code == 200, asset


def test_a_damaged_database_answers_500_with_the_line(client, app, db4, tmp_path):
    # an answer that fails its own check is the server's fault: 500, the CLI's line
    import shutil
    import sqlite3

    state = "1344/1322/3241/3214"
    key = wsdb.lookup(state, db=db4).key
    db = tmp_path / "damaged.sqlite"
    shutil.copy(db4, db)
    with sqlite3.connect(db) as conn:
        conn.execute("update class_rows set depth = 0 where n = 4 and c = 4 and rep = ?", (key,))
    before, app.state.db = app.state.db, db
    try:
        res = client.post("/api/lookup", json={"state": state})
    finally:
        app.state.db = before
    assert res.status_code == 500 and "wsdb verify --n 4 --c 4" in res.json()["detail"]


def test_request_bodies_are_capped(client):
    # a 200 MB body was accepted; now anything over 64 KB is 413 before it is read
    from wsdb.web.settings import MAX_BODY

    big = {"state": "1" * (MAX_BODY + 10)}
    res = client.post("/api/lookup", json=big)
    assert res.status_code == 413 and "bytes" in res.json()["detail"]

    def chunks():  # no declared length: counted as it comes
        for _ in range(100):
            yield b"x" * 1024

    res = client.post("/api/lookup", content=chunks(), headers={"content-type": "application/json"})
    assert res.status_code == 413
    assert client.post("/api/lookup", json={"state": "1212/3434/1243/3421"}).status_code == 200


def test_the_reported_tracebacks_are_one_line_answers(client):
    # each was an HTTP 500 with a traceback: now a 400 with the CLI's line
    from wsdb.puzzle import format_state, random_states, wrapslide

    big = format_state(random_states(wrapslide(10, 2), 1, seed=1)[0])
    res = client.post("/api/solve", json={"state": big, "time_limit": 1})
    assert res.status_code == 400 and "up to 8x8" in res.json()["detail"]
    res = client.post("/api/apply", json={"state": "1212/3434/1243/3421", "moves": ["T" + "1" * 5000]})
    assert res.status_code == 400 and "unknown move" in res.json()["detail"] and len(res.json()["detail"]) < 300
