"""The package others depend on, built as `python -m build` builds it from a
clone of the repository: the wheel carries the licence the README names
and the marker that tells type checkers its annotations are its types
(PEP 561); the sdist carries the whole test tree (every file git tracks
under tests/, conftest.py and tests/data included) or it would be a broken
partial one; both are named by the version setuptools-scm reads from git,
the version every stored row records."""

import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _git(*args, cwd=ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A clone of the committed tree (the checkout is left alone), built;
    or, where .ci/run built this checkout already, what it built
    (``$WSDB_DIST``)."""
    if os.environ.get("WSDB_DIST"):
        return ROOT, Path(os.environ["WSDB_DIST"])
    if (
        shutil.which("git") is None
        or subprocess.run(["git", "-C", str(ROOT), "rev-parse"], capture_output=True).returncode
    ):
        pytest.skip("not a git checkout: the version and the sdist's file list come from git")
    base = tmp_path_factory.mktemp("build")
    src = base / "src"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(src)], check=True)
    subprocess.run(
        [sys.executable, "-m", "build", "-q", "--outdir", str(base / "dist"), str(src)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return src, base / "dist"


@pytest.mark.integration  # builds an sdist and a wheel in subprocesses: about 15 s
def test_the_wheel_carries_the_licence_and_the_typing_marker(built):
    _, dist = built
    (wheel,) = dist.glob("wsdb-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        licence = next(n for n in names if n.endswith("/licenses/LICENSE"))
        assert z.read(licence).decode() == (ROOT / "LICENSE").read_text()
        assert "wsdb/py.typed" in names and "wsdb/db/datasette.json" in names
        assert not any(n.startswith("tests/") for n in names)
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        points = z.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert "License-Expression: MIT" in meta.splitlines()
    assert "MIT" in (ROOT / "README.md").read_text()
    assert "[datasette]" in points and "wsdb = wsdb.datasette_plugin" in points


@pytest.mark.integration
def test_the_sdist_holds_the_whole_test_tree(built):
    src, dist = built
    (sdist,) = dist.glob("wsdb-*.tar.gz")
    with tarfile.open(sdist) as t:
        top = t.getnames()[0].split("/")[0]
        held = {n[len(top) + 1 :] for n in t.getnames()}
    tracked = set(_git("ls-files", "tests", cwd=src).split())
    assert tracked and tracked <= held
    assert {"tests/conftest.py", "tests/data/thesis.json", "LICENSE"} <= held


@pytest.mark.integration
def test_the_version_names_the_revision(built):
    src, dist = built
    rev = _git("rev-parse", "--short=7", "HEAD", cwd=src).strip()
    (wheel,) = dist.glob("wsdb-*.whl")
    version = wheel.name.split("-")[1]
    assert re.fullmatch(r"0\.1\.dev\d+\+g[0-9a-f]+", version), version
    assert version.split("+g")[1].startswith(rev)
