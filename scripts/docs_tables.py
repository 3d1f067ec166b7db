"""Print a measured table into the docs, in place, with where it was
measured: the benchmark scripts call :func:`write` with a Markdown table,
and it replaces whatever stands between the markers

    <!-- begin NAME -->
    ...
    <!-- end NAME -->

in the page, so re-running a script regenerates its table. The table is
preceded by a line saying the date, the wsdb measured (its version and
source revision) and the machine, so a reader can tell how old a figure
is and where it came from."""

from __future__ import annotations

import os
import platform
import re
from datetime import date
from pathlib import Path

from wsdb.version import current as current_version

ROOT = Path(__file__).resolve().parents[1]


def machine() -> str:
    """Cores and memory of this machine, e.g. '2 cores, 24 GiB'."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{cores} cores, {memory:.0f} GiB, {platform.machine()}"


def build() -> str:
    """The wsdb measured: its version with its source revision, as every
    stored row records it ('0.1.dev462+g46c86ca', '.dDATE' where the
    checkout has changes; wsdb/version.py)."""
    return current_version()


def provenance(how: str) -> str:
    """The line above a table: date, the wsdb measured, machine, and how it was made."""
    return f"*Measured {date.today().isoformat()} with wsdb {build()} on {machine()}; {how}.*"


def block(page: str | Path, name: str) -> str:
    """What the block ``name`` of ``page`` holds now (its provenance lines
    and table), for a script that updates some of its rows."""
    found = _pattern(name).search((ROOT / page).read_text())
    if not found:
        raise SystemExit(f"{page} has no block {name!r}: add <!-- begin {name} --> and <!-- end {name} -->")
    return found.group(0).split("\n", 1)[1].rsplit("<!--", 1)[0]


def _pattern(name: str) -> re.Pattern:
    return re.compile(rf"(<!-- begin {re.escape(name)} -->\n).*?(<!-- end {re.escape(name)} -->)", re.S)


def write(page: str | Path, name: str, table: str, how: str, earlier: list[str] = ()) -> None:
    """Replace the block ``name`` of ``page`` (relative to the repository)
    with the provenance line, the ``earlier`` provenance lines of rows kept
    from before, and ``table``. The markers must be there."""
    write_measured(page, name, [provenance(how), *earlier], table)


def write_measured(page: str | Path, name: str, lines: list[str], table: str) -> None:
    """Replace the block ``name`` of ``page`` with the provenance ``lines``
    as given and ``table``: :func:`write`'s, or those of the measurement a
    table is drawn from when it says again what another block measured."""
    path = ROOT / page
    text = path.read_text()
    pattern = _pattern(name)
    if not pattern.search(text):
        raise SystemExit(f"{page} has no block {name!r}: add <!-- begin {name} --> and <!-- end {name} -->")
    body = "\n".join(lines) + f"\n\n{table.rstrip()}\n"
    path.write_text(pattern.sub(lambda m: m.group(1) + body + m.group(2), text, count=1))
    print(f"wrote {name} into {page}")
