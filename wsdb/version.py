"""The version of the code that runs, with its git revision, as every
stored row (``builds``, ``bounds``, ``solve_runs``), export and docs
provenance line records it: ``0.1.devN+gREV``, with ``.dDATE`` where the
checkout has changes not yet committed.

An installed wheel knows its version from its metadata (setuptools-scm
wrote it at build time). A checkout installed for development (``pip
install -e``) would keep the version of the day it was installed, so there
setuptools-scm is asked again about the revision now checked out; its
answer is kept in the checkout's git folder under the revision, whether
the tree has changes and the day (what the answer depends on), so that a
process pays two git calls (15 ms) for it, not setuptools-scm's 300 ms.
"""

from __future__ import annotations

import subprocess
from datetime import date
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version as installed
from pathlib import Path

UNKNOWN = "0.0"  # as pyproject.toml's fallback_version: no tag yet


@lru_cache(maxsize=1)
def current() -> str:
    """This code's version, ``0.1.devN+gREV`` (a string PEP 440 accepts)."""
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / ".git").exists() and (checkout / "pyproject.toml").is_file():
        found = _from_checkout(checkout)
        if found:
            return found
    try:
        return installed("wsdb")
    except PackageNotFoundError:  # run from a source tree never installed
        return UNKNOWN


def _from_checkout(checkout: Path) -> str | None:
    """setuptools-scm's version of the checkout (kept per revision, changes
    and day), or None where git or setuptools-scm is not at hand."""
    try:
        head = _git(checkout, "rev-parse", "HEAD")
        changed = bool(_git(checkout, "status", "--porcelain", "--untracked-files=no"))
    except (OSError, subprocess.SubprocessError):
        return None
    key = f"{head} {int(changed)} {date.today():%Y%m%d}"
    kept = checkout / ".git" / "wsdb-version"
    try:
        was, version = kept.read_text().split("\n")[:2]
        if was == key and version:
            return version
    except (OSError, ValueError):  # none kept yet, or .git is a worktree's pointer file
        pass
    try:
        from setuptools_scm import get_version
    except ImportError:  # a checkout without the dev tools: the installed metadata
        return None
    try:
        version = get_version(root=str(checkout), fallback_version=UNKNOWN)
    except Exception:  # noqa: BLE001  (an unreadable checkout is not worth failing a build over)
        return None
    try:
        kept.write_text(f"{key}\n{version}\n")
    except OSError:  # a read-only checkout: asked again next time
        pass
    return version


def _git(checkout: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=checkout, capture_output=True, text=True, check=True, timeout=30
    ).stdout.strip()
