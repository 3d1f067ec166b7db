"""A build may keep its classes as Parquet levels instead of class rows
(``wsdb build --engine dask``): ``builds.levels`` names the folder or URL
that holds them (its manifest, one file per partition per depth). NULL for
a build whose classes are rows, as every existing build's are: their rows
keep their values.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


# plain ALTER TABLE (SQLite 3.35+ drops columns in place): a batch copy of
# ``builds`` would break the ``classes`` view, which reads it


def upgrade() -> None:
    op.add_column("builds", sa.Column("levels", sa.Text))


def downgrade() -> None:
    op.drop_column("builds", "levels")
