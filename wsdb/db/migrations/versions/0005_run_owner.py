"""Solver runs name the process running them: ``solve_runs.runner``
(host:pid, as ``builds.builder`` names a build's), so that a run whose
process was killed (kill -9) is marked 'interrupted' the next time the
database is opened for writing, instead of staying 'running' for ever.

Existing rows keep their values; their ``runner`` is NULL.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("solve_runs") as batch:
        batch.add_column(sa.Column("runner", sa.Text))


def downgrade() -> None:
    with op.batch_alter_table("solve_runs") as batch:
        batch.drop_column("runner")
