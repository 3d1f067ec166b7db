"""The liftings a moves-off check solves one by one, as data:
``check_solutions``, one row per state solved.

Where every path a check of the bound by merging colours tries leaves a
few liftings (`wsdb bounds compute --merge --off --solve-left`), each is a
state of the grid solved by the solver, and a sequence that solves it
within the budget serves it as a path would. Thousands of them take the
better part of an hour; kept as each is found, a check stopped while
solving them resumes where it stopped, and each kept sequence is
replayed before it is used.

* ``n``, ``c``, ``state`` (the lifting, as `wsdb solve` reads it);
* ``moves`` (the sequence, as `wsdb solve` prints it) and ``length``;
* ``seconds``, ``solved_at``, ``version``.

Existing tables and rows are untouched.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "check_solutions",
        sa.Column("state", sa.Text, primary_key=True),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("c", sa.Integer, nullable=False),
        sa.Column("moves", sa.Text, nullable=False),
        sa.Column("length", sa.Integer, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("solved_at", sa.Text, nullable=False),
        sa.Column("version", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("check_solutions")
