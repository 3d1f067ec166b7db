"""The web app over the shared 4x4 database (two, three and four colours)."""

import pytest
from fastapi.testclient import TestClient

from wsdb.web import create_app


@pytest.fixture(scope="session")
def app(db4):
    return create_app(db4, max_time_limit=20, max_busy=2)


@pytest.fixture(scope="session")
def client(app):
    with TestClient(app) as c:
        yield c
