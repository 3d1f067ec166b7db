"""Solver runs as data (issue 13): ``solve_runs`` and ``solves``.

* ``solve_runs``: one row per `wsdb eval` run: the grid, the method and its
  parameters (JSON), the seed and number of states asked for, the wsdb
  version, the machine (host, processor, cores, memory) and the dates;
  ``status`` is 'running' while it goes, 'done' or 'interrupted' after.
* ``solves``: one row per solved state of a run, committed as it is
  solved, so an interrupted run keeps its finished rows.

Existing tables and rows are untouched.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_BIG = sa.Integer().with_variant(sa.BigInteger(), "postgresql")  # seeds and byte counts outgrow 32 bits


def upgrade() -> None:
    op.create_table(
        "solve_runs",
        sa.Column("run_id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("c", sa.Integer, nullable=False),
        sa.Column("method", sa.Text, nullable=False),
        sa.Column("params", sa.Text, nullable=False),
        sa.Column("seed", _BIG, nullable=False),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("version", sa.Text, nullable=False),
        sa.Column("host", sa.Text, nullable=False),
        sa.Column("processor", sa.Text, nullable=False),
        sa.Column("cores", sa.Integer, nullable=False),
        sa.Column("memory_bytes", _BIG, nullable=False),
        sa.Column("started_at", sa.Text, nullable=False),
        sa.Column("finished_at", sa.Text),
        sa.Column("status", sa.Text, nullable=False),
    )
    op.create_table(
        "solves",
        sa.Column("run_id", sa.Integer, sa.ForeignKey("solve_runs.run_id", ondelete="CASCADE"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("length", sa.Integer, nullable=False),
        sa.Column("lower_bound", sa.Integer, nullable=False),
        sa.Column("optimal", sa.Boolean, nullable=False),
        sa.Column("exact", sa.Integer),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("timed_out", sa.Boolean, nullable=False),
        sa.Column("solved_by", sa.Text, nullable=False),
        sa.Column("moves", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("solves")
    op.drop_table("solve_runs")
