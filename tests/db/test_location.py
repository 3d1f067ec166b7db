"""Which database --db / WSDB_DB / the default names (wsdb/db/location.py)."""

import pytest

import wsdb
from wsdb.db.location import DEFAULT_DB, resolve
from wsdb.db.store import Store
from wsdb.errors import WsdbError


def test_default_path_and_environment(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WSDB_DB", raising=False)
    where = resolve(None)
    assert where.path == (tmp_path / DEFAULT_DB).resolve() and not where.explicit and where.missing
    monkeypatch.setenv("WSDB_DB", str(tmp_path / "env.sqlite"))
    where = resolve(None)
    assert where.path == tmp_path / "env.sqlite" and where.explicit


def test_wsdb_db_environment_variable_and_urls(tmp_path, monkeypatch):
    db = tmp_path / "env.sqlite"
    monkeypatch.setenv("WSDB_DB", str(db))
    wsdb.build(4, 2)
    assert wsdb.lookup("1122/1122/2222/2222").distance == 0
    assert wsdb.lookup("1122/1122/2222/2222", db=f"sqlite:///{db}").distance == 0


def test_other_servers_are_refused_and_postgresql_gets_its_driver():
    with pytest.raises(WsdbError, match="postgresql://"):
        resolve("mysql://localhost/wsdb")
    where = resolve("postgresql://ann:secret@db.example:5433/wsdb")
    assert where.url == "postgresql+psycopg://ann:secret@db.example:5433/wsdb" and where.path is None
    assert "secret" not in where.label and where.label.endswith("ann:***@db.example:5433/wsdb")  # SQLAlchemy's masking
    assert resolve("postgres://h/w").url == "postgresql+psycopg://h/w"


def test_open_if_present_only_excuses_the_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WSDB_DB", raising=False)
    assert Store.open_if_present(None) is None
    with pytest.raises(WsdbError, match="no database"):
        Store.open_if_present(tmp_path / "named.sqlite")


def test_postgresql_without_its_driver_is_one_line(run, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "psycopg" else real(name, *a))
    with pytest.raises(WsdbError, match=r"pip install 'wsdb\[postgresql\]'"):
        resolve("postgresql://h/w")
    res = run("lookup", "1122/1122/3344/3344", "--db", "postgresql://127.0.0.1:1/wsdb")
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1 and "psycopg" in res.stderr
