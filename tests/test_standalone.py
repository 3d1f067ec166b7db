"""The repository stands alone: nothing in it names a folder beside it,
and the tests that read files (published numbers, docs) pass, skipping
nothing, from a copy of the repository placed alone in an empty folder."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

#: a copy of the repository, tested in a subprocess
pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ["wsdb", "tests", "scripts", "docs", "README.md", "pyproject.toml", ".ci"]


def repo_files() -> list[Path]:
    """Tracked files and untracked ones git does not ignore (or, outside a
    git checkout, every file but the usual build and cache folders)."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
        names = [n for n in out.decode().split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", "db", "__pycache__", ".pytest_cache", "build"}
        names = [
            str(p.relative_to(ROOT))
            for p in ROOT.rglob("*")
            if p.is_file() and not skip & set(p.relative_to(ROOT).parts)
        ]
    return [ROOT / n for n in names if (ROOT / n).is_file()]


def test_nothing_names_a_folder_beside_the_repository():
    pattern = re.compile(r"\.\./shared|/work/shared|shared/(reference|seeds|SPEC)")
    offenders = []
    for path in repo_files():
        rel = path.relative_to(ROOT)
        if rel.parts[0] not in CHECKED or path.suffix in (".png", ".parquet"):
            continue
        if rel == Path(__file__).relative_to(ROOT):
            continue
        if pattern.search(path.read_text(errors="replace")):
            offenders.append(str(rel))
    assert offenders == []


@pytest.mark.slow  # a second pytest over every file-reading test: 90 s
def test_file_reading_tests_pass_from_a_lone_copy(tmp_path):
    lone = tmp_path / "empty" / "wsdb"
    for path in repo_files():
        dest = lone / path.relative_to(ROOT)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, dest)
    for cache in ROOT.glob("wsdb/**/__pycache__/*.nb[ic]"):  # numba's compiled kernels: no recompiling
        dest = lone / cache.relative_to(ROOT)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(cache, dest)
    assert not (lone.parent.parent / "shared").exists() and sorted(os.listdir(lone.parent)) == ["wsdb"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "WSDB"))}
    env["PYTHONPATH"] = str(lone)
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-m", "reads_files and not slow", "-rs", "-p", "no:cacheprovider"],
        cwd=lone,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    summary = res.stdout.strip().splitlines()[-1] if res.stdout.strip() else res.stderr[-2000:]
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]
    assert "passed" in summary and "skipped" not in summary, summary
    imported = subprocess.run(
        [sys.executable, "-c", "import wsdb; print(wsdb.__file__)"], cwd=lone, env=env, capture_output=True, text=True
    ).stdout
    assert imported.startswith(str(lone))  # the copy's package was tested, not this checkout's
