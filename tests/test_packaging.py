"""The package others depend on: its wheel carries the licence the README
names and the marker that tells type checkers its annotations are its
types (PEP 561)."""
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.integration   # builds a wheel in a subprocess: about 10 s
def test_the_wheel_carries_the_licence_and_the_typing_marker(tmp_path):
    src = tmp_path / "src"   # a copy: pip builds in the source folder, and the checkout is left alone
    shutil.copytree(ROOT / "wsdb", src / "wsdb", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(src)],
                   check=True, capture_output=True, timeout=300)
    (wheel,) = tmp_path.glob("wsdb-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        licence = next(n for n in names if n.endswith("/licenses/LICENSE"))
        assert z.read(licence).decode() == (ROOT / "LICENSE").read_text()
        assert "wsdb/py.typed" in names
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in meta.splitlines()
    assert "MIT" in (ROOT / "README.md").read_text()
