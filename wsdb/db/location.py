"""Where the database is: ``--db``, else ``$WSDB_DB``, else
``db/wsdb.sqlite`` under the current directory. The one place that decides.

A value with ``://`` is a URL (``sqlite:///...``, or ``postgresql://...``
for a shared server); anything else is a file path.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError, StorageError

DEFAULT_DB = "db/wsdb.sqlite"


@dataclass(frozen=True)
class Location:
    """A resolved database: its URL, its file (None for servers and
    in-memory databases) and whether the user named it."""

    url: str
    path: Path | None
    explicit: bool

    @property
    def label(self) -> str:
        """How messages name the database (never with its password)."""
        if self.path:
            return str(self.path)
        if "@" in self.url and "://" in self.url:  # SQLAlchemy's own rendering, the password as ***
            from sqlalchemy.engine import make_url

            return make_url(self.url).render_as_string(hide_password=True)
        return self.url

    @property
    def option(self) -> str:
        """How a hint names the database again: ' --db LABEL' where the
        user named one, '' for the default (a command to copy must keep it)."""
        return f" --db {shlex.quote(self.label)}" if self.explicit else ""

    @property
    def missing(self) -> bool:
        """A file database whose file does not exist."""
        return self.path is not None and not self.path.exists()


def resolve(db: str | os.PathLike | None) -> Location:
    """The database that ``--db`` / ``$WSDB_DB`` / the default names."""
    if db is not None and not str(db).strip():
        raise InputError("--db is empty: expected a database file or URL (leave --db out for the default)")
    explicit = db is not None or bool(os.environ.get("WSDB_DB"))
    db = str(db or os.environ.get("WSDB_DB") or DEFAULT_DB)
    if "://" not in db:
        path = _usable(db)
        return Location(f"sqlite:///{path}", path, explicit)
    import sqlalchemy as sa  # only for URLs: a file path needs none of it

    try:
        url = sa.engine.make_url(db)
    except sa.exc.ArgumentError:
        raise InputError(
            f"database URL {db!r} cannot be read: expected a file path or a URL "
            "such as sqlite:///db/wsdb.sqlite or postgresql://user@host:5432/wsdb"
        ) from None
    backend = url.get_backend_name()
    if backend in ("postgresql", "postgres"):
        # users write postgresql://...; wsdb talks to it through psycopg 3
        url = url.set(drivername="postgresql+psycopg")
        if importlib.util.find_spec("psycopg") is None:
            raise InputError(
                "a postgresql:// database needs its driver, psycopg 3, which is not installed: "
                "pip install 'wsdb[postgresql]'"
            )
        return Location(url.render_as_string(hide_password=False), None, explicit)
    if backend != "sqlite":
        raise InputError(f"database URL {db!r}: expected a file path, a sqlite:/// URL or a postgresql:// URL")
    file = _usable(url.database) if url.database and url.database != ":memory:" else None
    return Location(db, file, explicit)


def _usable(name: str) -> Path:
    """The absolute path of a database file named by the user, or one line
    saying why it cannot be one (a symlink loop, a name too long, a
    folder that cannot be searched)."""
    shown = name if len(name) <= 80 else name[:77] + "..."
    try:
        path = Path(name).expanduser().resolve()
        path.exists()  # stat it now: ENAMETOOLONG, ELOOP, EACCES come out here, not later
    except RuntimeError:  # Python's own word for a symlink loop in resolve()
        raise StorageError(f"database path {shown!r} is a symlink loop: expected a file") from None
    except OSError as e:
        raise StorageError(f"database path {shown!r}: {e.strerror or e}") from None
    return path
