"""The schema as Alembic revisions (``versions/``); :data:`HEAD` names the
newest, which a test checks against the scripts."""

HEAD = "0004"
