"""The schema's migrations, seen and run by hand (`wsdb db history`,
`wsdb db current`, `wsdb db upgrade`). Every open of a database by a
writable wsdb upgrades it already; these commands say where a file stands
before that, and upgrade one on purpose (a shared PostgreSQL database
before its users' wsdb is updated, say).

The migrations are Alembic's, in ``wsdb/db/migrations/versions``, one file
a revision, numbered 0001, 0002, ... in order.
"""

from __future__ import annotations

from importlib import resources

import sqlalchemy as sa

from ..errors import StorageError
from .connection import engine
from .location import resolve
from .migrations import HEAD


def _scripts():
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("wsdb.db.migrations")))
    return ScriptDirectory.from_config(cfg)


def history() -> list[dict]:
    """Every migration, oldest first: revision, the one before, what it does."""
    out = [
        dict(
            revision=s.revision,
            down_revision=s.down_revision,
            message=_first_sentence(s.doc or ""),
            head=s.revision == HEAD,
        )
        for s in _scripts().walk_revisions()
    ]
    return out[::-1]


def _first_sentence(doc: str) -> str:
    text = " ".join(doc.strip().split("\n\n")[0].split()).replace("``", "")
    return text.split(". ")[0].rstrip(".")


def current(db=None) -> dict:
    """Where the database stands, read without changing it: its revision
    (None for a file without wsdb tables), the head this wsdb knows, and
    the migrations an upgrade would apply."""
    from .store import Store, check_file

    where = resolve(db)
    if where.missing:  # the store's one-line refusal
        Store.open(db)
    check_file(where)
    try:
        with engine(where, False).connect() as conn:
            names = set(sa.inspect(conn).get_table_names())
            rev = (
                conn.execute(sa.text("select version_num from alembic_version")).scalar()
                if "alembic_version" in names
                else None
            )
    except sa.exc.DBAPIError as e:
        raise StorageError(f"{where.label} cannot be read ({e.orig}): expected a wsdb database") from None
    order = [m["revision"] for m in history()]
    pending = order[order.index(rev) + 1 :] if rev in order else (order if rev is None else [])
    return dict(
        database=where.label,
        revision=rev,
        head=HEAD,
        up_to_date=rev == HEAD,
        known=rev is None or rev in order,
        pending=pending,
    )


def upgrade(db=None) -> dict:
    """Apply every pending migration (one transaction); where it stood and stands."""
    from .store import Store

    before = current(db)
    Store.open(db, write=True).close()  # a writable open migrates to the head
    return dict(before=before["revision"], after=current(db)["revision"], applied=before["pending"])
