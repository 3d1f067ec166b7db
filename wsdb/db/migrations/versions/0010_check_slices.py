"""A long moves-off check's progress as data: ``check_slices``, one row per
slice of the states a check of the bound by merging colours made in full
(`wsdb bounds compute --merge --off`).

A check reads every state of one level of the merged grid (one per orbit
below the deepest) and counts the ways to split its merged cells that no
path tried serves; the states are cut into slices, and each slice checked
is a fact that does not change. Kept as they finish, they let a check of
hours stop (a kill, a full day) and resume where it stopped.

* the check: ``n``, ``c``, ``merge`` (the colours merged), ``level``,
  ``at_most`` (the distance from solved a path must finish within) and
  ``scheme`` (the paths tried, and a digest of the states checked; a
  slice is reused only under the same scheme);
* ``slices`` (how many the states are cut into), ``slice``;
* ``states``, ``unavoidable`` (the liftings no path serves) and ``still``
  (the states that leave them, as 8-byte little-endian words);
* ``seconds``, ``checked_at``, ``version``.

Existing tables and rows are untouched.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "check_slices",
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("c", sa.Integer, primary_key=True),
        sa.Column("merge", sa.Text, primary_key=True),
        sa.Column("level", sa.Integer, primary_key=True),
        sa.Column("at_most", sa.Integer, primary_key=True),
        sa.Column("scheme", sa.Text, primary_key=True),
        sa.Column("slices", sa.Integer, primary_key=True),
        sa.Column("slice", sa.Integer, primary_key=True),
        sa.Column("states", sa.Integer, nullable=False),
        sa.Column("unavoidable", sa.BigInteger, nullable=False),
        sa.Column("still", sa.LargeBinary, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("checked_at", sa.Text, nullable=False),
        sa.Column("version", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("check_slices")
