"""wsdb's datasette plugin (wsdb/datasette_plugin.py) in a real datasette
process on loopback: a wsdb database under any file name gets the table
descriptions, and every canned query answers with the rows the cookbook's
own query gives on the same file (each of those checked against an
independent count by tests/test_sql_cookbook.py)."""

import json
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration
pytest.importorskip("datasette")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str):
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


@pytest.fixture(scope="module")
def served(db4, tmp_path_factory):
    """db4 copied to a file not named wsdb.sqlite, served by datasette."""
    path = tmp_path_factory.mktemp("datasette") / "my-trees.sqlite"
    shutil.copy(db4, path)
    port = _free_port()
    exe = Path(sys.executable).with_name("datasette")
    proc = subprocess.Popen(
        [str(exe), "serve", str(path), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            _get(base + "/-/versions.json")
            break
        except OSError:
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "datasette did not start"
            time.sleep(0.2)
    yield base, path
    proc.terminate()
    proc.wait(10)


def test_the_plugin_describes_a_database_of_any_name(served):
    base, _ = served
    assert any(p["name"] == "wsdb" for p in _get(base + "/-/plugins.json"))
    meta = _get(base + "/-/metadata.json")
    tables = meta["databases"]["my-trees"]["tables"]
    assert "God's number" in tables["builds"]["columns"]["god_number"]
    assert set(tables) >= {"builds", "levels", "classes"}


def test_every_canned_query_answers_as_the_cookbook(served):
    base, path = served
    from importlib import resources

    queries = json.loads(resources.files("wsdb.db").joinpath("datasette.json").read_text())  # as installed
    queries = queries["databases"]["wsdb"]["queries"]
    assert len(queries) == 12
    conn = sqlite3.connect(path)
    try:
        for name, q in queries.items():
            got = _get(f"{base}/my-trees/{name}.json?_shape=arrays&_size=max")
            want = [list(r) for r in conn.execute(q["sql"]).fetchall()]
            assert got["rows"] == want, name
    finally:
        conn.close()


def test_god_numbers_through_datasette_are_the_published_ones(served, thesis):
    """The 4x4 God numbers the thesis publishes (tests/data/thesis.json)."""
    base, _ = served
    rows = _get(f"{base}/my-trees/god_numbers.json?_shape=objects")["rows"]
    assert {f"{r['n']}x{r['n']}_c{r['c']}": r["god_number"] for r in rows} == {
        k: v for k, v in thesis["god_numbers"].items() if k.startswith("4x4")
    }
