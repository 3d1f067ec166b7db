import shutil

import pytest


@pytest.fixture
def db(db4, tmp_path):
    """A copy of the 4x4 database (bounds are written into it)."""
    path = tmp_path / "w.sqlite"
    shutil.copy(db4, path)
    return path
