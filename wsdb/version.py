"""The version of the code that runs, with its git revision, as every
stored row (``builds``, ``bounds``, ``solve_runs``), export and docs
provenance line records it: ``0.1.devN+gREV``, with ``.dDATE`` where the
checkout has changes not yet committed.

An installed wheel knows its version from its metadata (setuptools-scm
wrote it at build time). A checkout installed for development (``pip
install -e``) would keep the version of the day it was installed, so there
setuptools-scm is asked again, once per process, about the revision now
checked out.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version as installed
from pathlib import Path

UNKNOWN = "0.0"  # as pyproject.toml's fallback_version: no tag yet


@lru_cache(maxsize=1)
def current() -> str:
    """This code's version, ``0.1.devN+gREV`` (a string PEP 440 accepts)."""
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / ".git").exists() and (checkout / "pyproject.toml").is_file():
        try:
            from setuptools_scm import get_version
        except ImportError:  # a checkout without the dev tools: the installed metadata
            pass
        else:
            try:
                return get_version(root=str(checkout), fallback_version=UNKNOWN)
            except Exception:  # git missing or the checkout unreadable: not worth failing a build over  # noqa: BLE001
                pass
    try:
        return installed("wsdb")
    except PackageNotFoundError:  # run from a source tree never installed
        return UNKNOWN
