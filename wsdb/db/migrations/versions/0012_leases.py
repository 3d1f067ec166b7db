"""Builds held by leases: ``leases``, one row per tree being built.

A build renews its lease while it works; a lease not renewed within its
timeout is stale, and the next build of the tree takes it over
(:mod:`wsdb.db.lease`). Before this revision a build was held by
``builds.builder`` alone, and a build started on another host counted as
running for ever.

* ``puzzle``, ``n``, ``c``, ``root``: the tree (as in ``builds``);
* ``holder``: host:pid of the process holding it; ``token``: a random word
  of that process's claim, so that a reused process id is not the holder;
* ``taken_at`` (ISO 8601, UTC), ``renewed_at`` (seconds since the epoch,
  UTC), ``timeout`` (the seconds its holder promised to renew within).

Existing tables and rows are untouched: a build still marked 'building'
by an older wsdb is judged by its ``builder`` and ``built_at``.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("puzzle", sa.Text, primary_key=True, server_default="wrapslide"),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("c", sa.Integer, primary_key=True),
        sa.Column("root", sa.Text, primary_key=True, server_default="all"),
        sa.Column("holder", sa.Text, nullable=False),
        sa.Column("token", sa.Text, nullable=False),
        sa.Column("taken_at", sa.Text, nullable=False),
        sa.Column("renewed_at", sa.Float, nullable=False),
        sa.Column("timeout", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("leases")
