"""Initial schema: builds, levels, classes.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_TREE = ("n", "c", "root")
# PostgreSQL needs wider types than SQLite's 64-bit INTEGER: keys up to
# 128 bits as NUMERIC(39), counts as BIGINT (SQLite is unchanged by this)
_KEY = sa.Integer().with_variant(sa.Numeric(39, 0), "postgresql")
_COUNT = sa.Integer().with_variant(sa.BigInteger(), "postgresql")


def _tree_columns():
    return [
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("c", sa.Integer, nullable=False),
        sa.Column("root", sa.Text, nullable=False, server_default="all"),
    ]


def upgrade() -> None:
    op.create_table(
        "builds",
        *_tree_columns(),
        sa.Column("complete", sa.Boolean, nullable=False),
        sa.Column("max_depth", sa.Integer),
        sa.Column("height", sa.Integer, nullable=False),
        sa.Column("god_number", sa.Integer),
        sa.Column("classes", _COUNT, nullable=False),
        sa.Column("states", _COUNT, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("version", sa.Text, nullable=False),
        sa.Column("built_at", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint(*_TREE),
    )
    op.create_table(
        "levels",
        *_tree_columns(),
        sa.Column("depth", sa.Integer, nullable=False),
        sa.Column("classes", _COUNT, nullable=False),
        sa.Column("states", _COUNT, nullable=False),
        sa.PrimaryKeyConstraint(*_TREE, "depth"),
    )
    op.create_table(
        "classes",
        *_tree_columns(),
        sa.Column("rep", _KEY, nullable=False),
        sa.Column("grid", sa.Text, nullable=False),
        sa.Column("depth", sa.Integer, nullable=False),
        sa.Column("parent", _KEY),
        sa.Column("orbit_size", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint(*_TREE, "rep"),
        sqlite_with_rowid=False,
    )
    op.create_index("ix_classes_depth", "classes", [*_TREE, "depth"])


def downgrade() -> None:
    op.drop_index("ix_classes_depth", table_name="classes")
    op.drop_table("classes")
    op.drop_table("levels")
    op.drop_table("builds")
