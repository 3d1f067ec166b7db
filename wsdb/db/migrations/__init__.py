"""The schema as Alembic revisions (``versions/``); :data:`HEAD` names the
newest, which a test checks against the scripts."""

HEAD = "0012"


def frozen_sql(name: str) -> str:
    """The SQL text a revision executes, as it was when the revision was
    written (``sql/NAME.sql``). A revision never calls live code to make
    its SQL: editing :mod:`wsdb.db.grid_sql` cannot rewrite history, and
    a new form of the view needs a new revision with a new file."""
    from importlib import resources

    return resources.files(__name__).joinpath("sql", f"{name}.sql").read_text().strip()
