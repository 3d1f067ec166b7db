"""Alembic environment for wsdb.

wsdb applies migrations itself (``wsdb.db.store``), handing over its own
connection in ``config.attributes["connection"]``; SQLite needs batch mode
for ALTER TABLE, hence ``render_as_batch=True``.
"""

from alembic import context
from sqlalchemy import create_engine

from wsdb.db.schema import metadata

config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:  # plain `alembic` command line with sqlalchemy.url set
        url = config.get_main_option("sqlalchemy.url")
        if url is None:
            raise SystemExit("wsdb's migrations run through wsdb (`wsdb db upgrade`), or with sqlalchemy.url set")
        with create_engine(url).begin() as conn:
            _migrate(conn)
    else:
        _migrate(connection)


def _migrate(connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    context.configure(
        url=config.get_main_option("sqlalchemy.url"), target_metadata=metadata, literal_binds=True, render_as_batch=True
    )
    with context.begin_transaction():
        context.run_migrations()
else:
    run()
