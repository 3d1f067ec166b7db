"""`wsdb serve` as a real process: it says where it listens, serves the
page and the API, refuses a taken port or a missing database in one line."""

import json
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

#: the real server process
pytestmark = pytest.mark.integration


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_prints_its_url_and_answers(db4):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "wsdb", "serve", "--port", str(port), "--db", str(db4)],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stderr.readline()
        assert f"http://127.0.0.1:{port}/" in line, line
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):  # the line comes as uvicorn starts listening
            try:
                page = urllib.request.urlopen(base + "/", timeout=5).read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert 'id="grid"' in page
        req = urllib.request.Request(
            base + "/api/lookup",
            data=json.dumps({"state": "1122/1122/3434/3434"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        assert json.loads(urllib.request.urlopen(req, timeout=30).read())["distance"] is not None
    finally:
        proc.terminate()
        proc.wait(10)


def test_taken_port_and_missing_database_are_one_line(run, db4, tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        res = run("serve", "--port", s.getsockname()[1], "--db", db4)
    assert res.exit_code == 2 and "cannot listen" in res.stderr and len(res.stderr.splitlines()) == 1
    res = run("serve", "--db", tmp_path / "none.sqlite")
    assert res.exit_code == 2 and "no database" in res.stderr and not (tmp_path / "none.sqlite").exists()
    assert run("serve", "--port", "70000").exit_code == 2
