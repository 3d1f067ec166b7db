"""A long proof's progress as data: ``proof_shares``, one row per share of
an IDA* bound that a `wsdb bounds prove --at-least` searched in full.

A bound of such a proof is cut into shares (the nodes a few moves deep,
dealt out by number); each share searched is a fact that does not change:
an answer of at most ``bound`` moves, or none and the next bound. Kept as
they finish, they let a proof of hours or days stop (a kill, a lost
client, a spent ``--effort``) and resume where it stopped.

* the state (``n``, ``c``, ``state``) and ``scheme``: how its bounds are
  cut (the split depth, the streams and the tables that prune the search;
  a share is reused only under the same scheme);
* ``bound``, ``shares`` (how many the bound is cut into), ``share``;
* ``answer`` (JSON: the moves to the stored tree, the state met there and
  its distance; NULL where the share has none) and ``next_bound``;
* ``nodes``, ``seconds``, ``searched_at``, ``version``.

Existing tables and rows are untouched.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "proof_shares",
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("c", sa.Integer, nullable=False),
        sa.Column("state", sa.Text, primary_key=True),
        sa.Column("scheme", sa.Text, primary_key=True),
        sa.Column("bound", sa.Integer, primary_key=True),
        sa.Column("shares", sa.Integer, primary_key=True),
        sa.Column("share", sa.Integer, primary_key=True),
        sa.Column("answer", sa.Text),
        sa.Column("next_bound", sa.Integer, nullable=False),
        sa.Column("nodes", sa.Float, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("searched_at", sa.Text, nullable=False),
        sa.Column("version", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("proof_shares")
