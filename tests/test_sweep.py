"""The traceback sweep (docs/guarantees.md): every command and every API
endpoint against each input that once ended in a traceback: grids past
8x8 (n = 10..16), numbers of thousands of digits, moves with a
5,000-digit distance, database names that are too long, loop, are empty,
are not SQLite files or name a missing folder, and a bad host or port.

A command answers with exit 0, or one line on stderr starting "wsdb: " and
exit status 2 (bad input) or 1 (the environment or a damaged database);
an endpoint answers 200, or 4xx with a one-line ``detail``. No traceback,
no 500, and the database is unchanged. Stdout on a full disk and Ctrl-C
are swept in tests/test_cli.py (they need a real process).
"""

import hashlib
import os
import shutil

import pytest
from click.testing import CliRunner

from wsdb.cli import main
from wsdb.puzzle import format_state, random_states, wrapslide

from .parquet_levels import write_levels

GOOD = "1212/3434/1243/3421"
HUGE = "9" * 5000  # past Python's 4,300-digit int() limit
BIG_NS = ["10", "12", "14", "16"]
BAD_NS = BIG_NS + ["0", "-2", "3", "17", HUGE, "x" * 100_000]
BIG_STATES = [
    format_state(random_states(wrapslide(int(n), c), 1, seed=int(n))[0], int(n)) for n in BIG_NS for c in (2, 4)
]
BAD_MOVES = ["T" + "1" * 5000, "T" + HUGE, "T\u0663", "T\uff11", "R-1", "X1", "T1" * 50_000]


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def db(db4, tmp_path_factory):
    """A copy of the 4x4 database, and the folder of odd --db names."""
    folder = tmp_path_factory.mktemp("sweep")
    path = folder / "wsdb.sqlite"
    shutil.copy(db4, path)
    (folder / "loop").symlink_to(folder / "loop")
    (folder / "text.sqlite").write_text("not a database\n")
    (folder / "a-folder").mkdir()
    write_levels(db4, 4, 2, str(folder / "levels"))  # for import
    return path


def bad_dbs(folder) -> list[str]:
    return [
        "",
        str(folder / ("x" * 300)),
        str(folder / "loop"),
        "/proc/self/status",
        str(folder / "text.sqlite"),
        str(folder / "a-folder"),
        "sqlite:////nonexistent/dir/x.sqlite",
        str(folder / "missing" / "x.sqlite"),
        "mysql://nobody@127.0.0.1/x",
        "sqlite:///" + "y" * 5000,
    ]


#: a valid call of every command that opens a database (the sweep swaps one part)
WITH_DB = {
    "build": ["build", "--n", "4", "--c", "2"],
    "lookup": ["lookup", GOOD],
    "solve": ["solve", GOOD, "--time-limit", "1", "-q"],
    "eval": ["eval", "--n", "4", "--c", "2", "--count", "1", "--seed", "1", "-q"],
    "verify": ["verify", "--n", "4", "--c", "2", "-q"],
    "info": ["info"],
    "stats": ["stats", "--n", "4", "--c", "2"],
    "random": ["random", "--n", "4", "--c", "2", "--seed", "1"],
    "export": ["export", "{out}", "--n", "4", "--c", "2", "-q"],
    "import": ["import", "{levels}", "--force", "-q"],
    "bounds": ["bounds", "compute", "--n", "4", "--c", "2", "-q"],
    "db": ["db", "current"],
    "learn": ["learn", "--n", "4", "--c", "2", "--rounds", "1", "--hidden", "8,4", "-q"],
}
TAKES_N = ["build", "eval", "verify", "stats", "random", "export", "bounds"]
TAKES_STATE = ["lookup", "solve", "apply"]


def test_the_sweep_names_every_command():
    assert set(WITH_DB) | {"apply", "census", "serve"} == set(main.commands)


def invoke(args, db_path=None):
    out = str(db_path.parent / "out.csv") if db_path else "out.csv"
    levels = str(db_path.parent / "levels") if db_path else "levels"
    args = [a.replace("{out}", out).replace("{levels}", levels) for a in args]
    return CliRunner().invoke(main, args, catch_exceptions=False)


def assert_one_line(res, codes=(0, 1, 2)):
    assert res.exit_code in codes, (res.exit_code, res.stderr[-500:])
    assert "Traceback" not in res.output + res.stderr
    if res.exit_code:
        lines = res.stderr.strip().splitlines()
        assert lines and lines[-1].startswith("wsdb: ") and len(lines[-1]) < 400, res.stderr[-500:]
        # progress lines may come before; the error is the last and the only "wsdb: " line naming it
        assert not res.stdout.strip() or res.exit_code == 1, res.stdout[-300:]


@pytest.mark.parametrize("command", sorted(WITH_DB) + ["serve"])
def test_every_database_command_refuses_every_bad_name_in_one_line(db, command):
    before = _sha(db)
    base = WITH_DB.get(command, ["serve", "--port", "0"])
    for name in bad_dbs(db.parent):
        res = invoke(base + ["--db", name], db)
        # a Wrapslide random state needs no database: random may answer without opening it
        assert_one_line(res, codes=(0, 1, 2) if command == "random" else (1, 2))
    assert _sha(db) == before
    assert not os.path.exists("/nonexistent/dir")
    assert not (db.parent / "missing").exists()


@pytest.mark.parametrize("command", TAKES_N)
@pytest.mark.parametrize("n", BAD_NS, ids=lambda n: n[:6])
def test_every_size_past_the_game_is_an_answer_or_one_line(db, command, n):
    before = _sha(db)
    args = [n if a == "4" and i == WITH_DB[command].index("--n") + 1 else a for i, a in enumerate(WITH_DB[command])]
    res = invoke(args + ["--db", str(db)], db)
    assert_one_line(res, codes=(0, 2) if command == "random" else (2,))
    assert _sha(db) == before


@pytest.mark.parametrize("n", BAD_NS, ids=lambda n: n[:6])
@pytest.mark.parametrize("extra", [[], ["--puzzle", "rubeish"], ["--puzzle", "sliding", "--m", "3"]], ids=str)
def test_census_of_every_size_is_an_answer_or_one_line(n, extra):
    # 3x3 is a size of the other puzzles (Rube-ish: 181,440 states), not of Wrapslide
    assert_one_line(
        invoke(["census", "--n", n, "--c", "2", *extra] if not extra else ["census", "--n", n, *extra]),
        codes=(0,) if extra and n == "3" else (2,),
    )


@pytest.mark.parametrize("command", TAKES_STATE)
@pytest.mark.parametrize("state", BIG_STATES + ["1" * 100_000, "1/" * 5000], ids=lambda s: s[:12])
def test_every_state_past_8x8_is_an_answer_or_one_line(db, command, state):
    args = [command, state] + (["T1"] if command == "apply" else ["--db", str(db)])
    res = invoke(args, db)
    # past 8x8: apply answers, lookup finds no build (2), solve refuses (2)
    assert_one_line(res, codes=(0,) if command == "apply" and "/" in state[:20] and state in BIG_STATES else (2,))


@pytest.mark.parametrize("state", BIG_STATES[::2] + ["1" * 100_000, "1/" * 5000], ids=lambda s: s[:12])
def test_a_bound_from_a_state_past_8x8_is_one_line(db, state):
    before = _sha(db)
    assert_one_line(invoke(["bounds", "prove", state, "--db", str(db)], db), codes=(2,))
    assert _sha(db) == before


@pytest.mark.parametrize("move", BAD_MOVES, ids=lambda m: repr(m[:8]))
def test_every_bad_move_is_one_line(move):
    assert_one_line(invoke(["apply", GOOD, move]), codes=(2,))
    assert_one_line(invoke(["apply", BIG_STATES[-1], move]), codes=(2,))


@pytest.mark.parametrize("command", ["solve", "eval"])
@pytest.mark.parametrize("effort", ["0", "-1", "nan", "inf", HUGE, "abc"], ids=lambda e: e[:6])
def test_every_bad_effort_is_one_line(db, command, effort):
    before = _sha(db)
    res = invoke(WITH_DB[command] + ["--effort", effort, "--db", str(db)], db)
    assert_one_line(res, codes=(2,))
    assert "effort" in res.stderr.splitlines()[-1]
    assert _sha(db) == before


@pytest.mark.parametrize(
    "args",
    [
        ["--host", "999.1.1.1"],
        ["--host", "x" * 100_000],
        ["--port", "70000"],
        ["--port", "-1"],
        ["--port", HUGE],
        ["--max-busy", "0"],
        ["--max-time-limit", "-1"],
        ["--max-time-limit", "nan"],
    ],
    ids=lambda a: a[0] + a[1][:6],
)
def test_serve_refuses_a_bad_address_or_limit_in_one_line(db, args):
    assert_one_line(invoke(["serve", *args, "--db", str(db)], db), codes=(2,))


# ---- the API ---------------------------------------------------------------


@pytest.fixture(scope="module")
def api(db):
    from fastapi.testclient import TestClient

    from wsdb.web.app import create_app

    with TestClient(create_app(db, max_time_limit=2, max_busy=2)) as client:
        yield client


def requests():
    """(method, path, params or JSON body) for every endpoint and input."""
    for n in BAD_NS:
        if len(n) > 8000:  # no HTTP client sends a query that long (uvicorn refuses it before the app)
            continue
        yield "get", "/api/puzzle", {"n": n, "c": 2}
        yield "get", "/api/random", {"n": n, "c": 2, "seed": 1}
        yield "get", "/api/random", {"n": n, "puzzle": "rubeish", "seed": 1}
        yield "get", "/api/board", {"n": n, "puzzle": "rubeish"}
        yield "get", "/api/board", {"n": 2, "m": n, "puzzle": "sliding"}
    for seed in (HUGE, "-1", str(2**63)):
        yield "get", "/api/random", {"n": 4, "c": 2, "seed": seed}
    for state in BIG_STATES + ["1" * 100_000, "1/" * 5000, GOOD]:
        yield "post", "/api/lookup", {"state": state}
        yield "post", "/api/solve", {"state": state, "time_limit": 1}
        yield "post", "/api/apply", {"state": state, "moves": ["T1"]}
        for move in BAD_MOVES[:5]:
            yield "post", "/api/apply", {"state": state, "moves": [move]}
    for body in (
        {"state": GOOD, "time_limit": HUGE},
        {"state": GOOD, "time_limit": 1e308},
        {"state": GOOD, "puzzle": "x" * 1000},
        {"state": GOOD, "goal": "1" * 100_000},
        {"state": GOOD, "moves": ["T1"] * 100_000},
        {"state": [GOOD]},
        {"state": None},
    ):
        for path in ("/api/lookup", "/api/solve", "/api/apply"):
            yield "post", path, body
    yield "get", "/api/info", {}


def test_every_endpoint_answers_every_input_without_a_500(api, db):
    before, seen = _sha(db), 0
    for method, path, data in requests():
        res = api.get(path, params=data) if method == "get" else api.post(path, json=data)
        seen += 1
        assert res.status_code in (200, 400, 404, 413, 422), (path, str(data)[:80], res.status_code, res.text[:300])
        assert "Traceback" not in res.text
        if res.status_code != 200:
            detail = res.json()["detail"]
            assert isinstance(detail, str) and "\n" not in detail and len(detail) < 400, (path, detail[:300])
    assert seen > 150 and _sha(db) == before
