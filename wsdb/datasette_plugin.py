"""wsdb's datasette plugin: table and column descriptions, and docs/sql.md's
tested queries as canned queries, for every wsdb database datasette opens,
whatever its file is called.

Installed with the package (the ``datasette`` entry point in pyproject.toml),
so ``datasette db/wsdb.sqlite`` needs no ``-m``; a database is taken for
wsdb's when it holds a ``builds`` table and an Alembic version row (what
``wsdb build`` makes). The descriptions and queries are in
``wsdb/db/datasette.json`` (its queries copied from docs/sql.md by
``scripts/datasette_queries.py``). Metadata given with ``-m`` still wins.
"""

from __future__ import annotations

import json
import sqlite3
from functools import lru_cache
from importlib import resources

from datasette import hookimpl


@lru_cache(maxsize=1)
def _metadata() -> dict:
    return json.loads(resources.files("wsdb.db").joinpath("datasette.json").read_text())


@lru_cache(maxsize=64)
def _is_wsdb(path: str | None) -> bool:
    """Whether the file at ``path`` is a wsdb database (read-only look)."""
    if not path:
        return False
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            names = {r[0] for r in conn.execute("select name from sqlite_master where type in ('table', 'view')")}
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return {"builds", "alembic_version"} <= names


def _wsdb_databases(datasette) -> list[str]:
    return [name for name, db in datasette.databases.items() if _is_wsdb(getattr(db, "path", None))]


@hookimpl
def get_metadata(datasette, key, database, table):
    names = _wsdb_databases(datasette)
    if not names:
        return {}
    meta = _metadata()
    tables = {"tables": meta["databases"]["wsdb"]["tables"]}
    return {
        "title": meta["title"],
        "description": meta["description"],
        "source": meta["source"],
        "databases": {name: tables for name in names},
    }


@hookimpl
def canned_queries(datasette, database, actor):
    if database not in _wsdb_databases(datasette):
        return {}
    return {name: dict(q) for name, q in _metadata()["databases"]["wsdb"]["queries"].items()}
