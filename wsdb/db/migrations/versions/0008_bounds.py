"""Proven bounds on God's numbers as data: ``bounds``, one row per bound.

* grid (``n``, ``c``), ``kind`` ('lower' or 'upper'), ``value``;
* ``witness``: what the bound rests on: a state (a lower bound exhibited by
  a state whose distance is proven), or the phases whose worst cases add up
  (an upper bound), as JSON;
* ``method`` (how it was proven: 'tree', 'optimal', 'counting', 'phases'),
  ``seconds`` (how long the proof took), ``proven_at`` and ``version``
  (the wsdb that proved it), and ``command``: the one command that proves it
  again.

Existing tables and rows are untouched.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bounds",
        sa.Column("bound_id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("c", sa.Integer, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("value", sa.Integer, nullable=False),
        sa.Column("witness", sa.Text, nullable=False),
        sa.Column("method", sa.Text, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("proven_at", sa.Text, nullable=False),
        sa.Column("version", sa.Text, nullable=False),
        sa.Column("command", sa.Text, nullable=False),
        sa.CheckConstraint("kind in ('lower', 'upper')", name="bounds_kind"),
    )


def downgrade() -> None:
    op.drop_table("bounds")
