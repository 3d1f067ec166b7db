"""The guard in tests/conftest.py: a test that names no database from the
directory pytest started in fails instead of opening the user's own
./db/wsdb.sqlite."""

import pytest

import wsdb


def test_naming_no_database_fails_the_test():
    with pytest.raises(pytest.fail.Exception, match="default database"):
        wsdb.lookup("1122/1122/3344/3344")


def test_a_test_in_its_own_folder_may_use_the_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(wsdb.WsdbError, match="no database"):
        wsdb.lookup("1122/1122/3344/3344")
